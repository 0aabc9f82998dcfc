"""GNU Backgammon at a seat of a tavli game, through gnubg's external-player socket.

gnubg's ``external HOST:PORT`` command makes it listen on a socket: a client sends one FIBS
``board:`` line at a time and gnubg answers with its decision for the side the board is drawn
for: a play (``13/8 24/22``), ``double`` or ``roll``, ``take``, ``drop`` or ``beaver``, and, when the
line ends with gnubg's ``resignation N`` extension, ``accept`` or ``reject``. This module draws
those lines from a tavli game's state and turns gnubg's answers into API calls through the
Python client, so that gnubg plays a whole game or match as an outside bot and the server checks
every play it makes::

    with running_gnubg() as gnubg, GnubgExternal.connect(gnubg.port) as external:
        GnubgSeat(seat, external).play_to_end(timeout=300)

gnubg never offers to resign through this protocol, so a bridged seat never resigns. Only the
variants gnubg plays (``Variant.gnubg_variant``: backgammon) can be bridged, not long nardi.

The board line (see :class:`FibsBoard`) follows FIBS's ``rawboard`` fields as the FIBS client
protocol documents them, read the way gnubg's own ``ProcessFIBSBoardInfo`` reads them.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, Self

import grpc

from tavli.clients.client import RESULT_LEVELS, VARIANT_NAMES, ResignLevel, Seat, TavliServerError
from tavli.engine import BAR, OFF, VARIANTS, GameResult, Position
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2

GNUBG = Path("/usr/games/gnubg")
"""Where Debian's ``gnubg`` package installs the program (the one built with socket support)."""

CubeOwner = Literal["player", "opponent", "centre"]
Question = Literal["play", "double", "take", "resignation"]

# FIBS writes money play ("unlimited matches") as match length 9999; gnubg reads it back as 0.
_UNLIMITED = 9999
# Colour O, moving from point 24 to point 1, home 0, bar 25: FIBS's point p is then our point p.
_COLOUR_AND_DIRECTION = (1, -1, 0, 25)
# gnubg reads a command into a 256-byte buffer and drops what does not fit.
_MOST_LINE_BYTES = 255
_ANSWERS: dict[Question, set[str] | None] = {
    "play": None,  # a play in gnubg's notation, checked by the server
    "double": {"double", "roll"},
    "take": {"take", "drop", "beaver"},
    "resignation": {"accept", "reject"},
}


class GnubgError(RuntimeError):
    """gnubg could not be started, refused a board line, or answered something unexpected."""


# --- the board line ------------------------------------------------------------------------


@dataclass(frozen=True)
class FibsBoard:
    """One decision put to gnubg, drawn as a FIBS ``board:`` line for the side that decides.

    ``position`` is seen from the deciding side (its ``player``), as tavli's engine sees it. The
    line always calls that side "You", colour O (+1), moving from point 24 down to point 1, so
    that FIBS's point ``p`` is the decider's point ``p``: positive counts are its checkers, negative
    ones the opponent's (whose own point ``25 - p`` it is); index 0 is the opponent's bar, index 25
    the decider's.

    What gnubg is asked follows from the fields: with ``dice``, its play; with ``doubled``, its
    answer to the opponent's double (``cube_value`` and ``cube_owner`` as they were before it);
    with ``resignation``, whether it accepts the opponent's offer; otherwise whether it doubles.
    The turn field is the decider's, except for an answer to the opponent's double or offer to
    resign: FIBS then shows the turn of the side that made it, and gnubg evaluates the board as
    that side's (given the decider's turn, it drops doubles it should take and accepts gammons
    it has won).
    """

    position: Position
    dice: tuple[int, int] | None = None
    match_length: int = 0  # 0 for money play
    score: tuple[int, int] = (0, 0)  # (decider, opponent)
    cube_value: int = 1
    cube_owner: CubeOwner = "centre"
    doubled: bool = False
    crawford: bool = False  # this game is the Crawford game
    crawford_rule: bool = True
    jacoby: bool = False
    beavers: bool = False
    resignation: ResignLevel | None = None

    @property
    def question(self) -> Question:
        """What gnubg is asked: its play, whether to double, take, or accept a resignation."""
        if self.doubled:
            return "take"
        if self.resignation:
            return "resignation"
        return "play" if self.dice else "double"

    def line(self) -> str:
        """The board line, gnubg's session options after it (no newline)."""
        player, opponent = self.position
        points = [player[point] if player[point] else -opponent[25 - point] for point in range(1, 25)]
        may_double = [int(self.cube_owner != "opponent"), int(self.cube_owner != "player")]
        fields: list[object] = [
            "board",
            "You",
            "Opponent",
            self.match_length or _UNLIMITED,
            *(self.score if self.match_length else (0, 0)),  # money play's running totals mean nothing here
            -opponent[BAR],
            *points,
            player[BAR],
            -1 if self.doubled or self.resignation else 1,  # turn: see the class docstring
            *(self.dice or (0, 0)),  # the decider's dice, 0:0 before it rolls
            *(0, 0),  # the opponent's dice
            self.cube_value,
            *may_double,  # the decider's, the opponent's
            int(self.doubled),
            *_COLOUR_AND_DIRECTION,
            *(player[OFF], opponent[OFF]),
            *(player[BAR], opponent[BAR]),
            *(0, 0),  # "can move", "forced move": gnubg works these out itself
            0,  # "did crawford": gnubg reads it as "the Crawford rule is not in use"
            int(self._post_crawford()),  # "redoubles": gnubg reads it as "post-Crawford"
        ]
        options = [
            f"jacobyrule {_on(self.jacoby)}",
            f"crawfordrule {_on(self.crawford_rule)}",
            f"beavers {_on(self.beavers)}",
        ]
        if self.resignation is not None:
            # gnubg's resignation extension counts what is resigned: 1 single, 2 gammon, 3 backgammon.
            options.append(f"resignation {GameResult(self.resignation).multiplier}")
        return ":".join(map(str, fields)) + " " + " ".join(options)

    def _post_crawford(self) -> bool:
        # gnubg takes a game in which a side is one point away for the Crawford game unless told
        # otherwise: say so whenever it is not (also when the match has no Crawford rule).
        if not self.match_length or self.crawford:
            return False
        return any(self.match_length - points == 1 for points in self.score)


def _on(flag: bool) -> str:
    return "on" if flag else "off"


# --- the socket ------------------------------------------------------------------------------


class GnubgExternal:
    """A connection to gnubg's external-player socket: one line out, one line back.

    gnubg reads each command with a single ``read`` and keeps only its first line, so lines are
    sent strictly one at a time, each after the answer to the one before.
    """

    def __init__(self, connection: socket.socket, *, timeout: float = 60.0) -> None:
        connection.settimeout(timeout)
        self._socket = connection
        self._replies = connection.makefile("r", encoding="ascii", newline="\n")

    @classmethod
    def connect(
        cls, port: int, *, host: str = "127.0.0.1", timeout: float = 60.0, connect_timeout: float = 10.0
    ) -> GnubgExternal:
        """Connect to gnubg listening on ``host:port``, retrying until ``connect_timeout`` (gnubg
        may still be binding its socket).

        :raises GnubgError: if nothing accepts the connection in time.
        """
        deadline = time.monotonic() + connect_timeout
        while True:
            try:
                return cls(socket.create_connection((host, port), timeout=connect_timeout), timeout=timeout)
            except OSError as error:
                if time.monotonic() >= deadline:
                    raise GnubgError(f"gnubg is not listening on {host}:{port}: {error}") from None
                time.sleep(0.05)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._socket.sendall(b"exit\n")
        self._replies.close()
        self._socket.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def ask(self, line: str) -> str:
        """Send one line and return gnubg's one-line answer.

        :raises GnubgError: if gnubg answers with an error, closes the connection, or takes longer
            than the connection's timeout.
        """
        if "\n" in line or len(line.encode("ascii")) > _MOST_LINE_BYTES:
            raise ValueError(f"not one line gnubg can read (at most {_MOST_LINE_BYTES} bytes): {line!r}")
        try:
            self._socket.sendall(line.encode("ascii") + b"\n")
            answer = self._replies.readline()
        except (OSError, TimeoutError) as error:
            raise GnubgError(f"no answer from gnubg to {line!r}: {error}") from None
        if not answer:
            raise GnubgError(f"gnubg closed the connection after {line!r}")
        answer = answer.strip()
        if answer.startswith("Error"):
            raise GnubgError(f"gnubg refused {line!r}: {answer}")
        return answer

    def decide(self, board: FibsBoard) -> str:
        """gnubg's decision on ``board``: a play, ``double``/``roll``, ``take``/``drop``/``beaver``
        or ``accept``/``reject``.

        :raises GnubgError: as :meth:`ask`, or if the answer is not one the question allows.
        """
        line = board.line()
        answer = self.ask(line)
        allowed = _ANSWERS[board.question]
        if allowed is not None and answer not in allowed:
            raise GnubgError(f"gnubg answered {answer!r} when asked {board.question!r} on {line!r}")
        return answer


# --- the process ------------------------------------------------------------------------------


@dataclass
class GnubgProcess:
    """A gnubg started by :func:`running_gnubg`, listening on ``127.0.0.1:port``."""

    process: subprocess.Popen[str]
    port: int
    output: list[str] = field(default_factory=list)  # what gnubg printed, line by line

    def stop(self, *, grace: float = 5.0) -> None:
        """End gnubg: SIGTERM, then SIGKILL if it has not exited after ``grace`` seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(grace)


@contextlib.contextmanager
def running_gnubg(
    *,
    executable: Path = GNUBG,
    settings: Sequence[str] = (),
    startup_timeout: float = 30.0,
) -> Iterator[GnubgProcess]:
    """gnubg on a free loopback port, listening for one external player at a time; stopped after.

    ``settings`` are gnubg commands run before it listens (``set evaluation chequerplay
    evaluation plies 2``, say). gnubg runs on a tty without its window system (``-t``), silent
    (``-q``), ignoring the user's rc files (``-r``), with its preferences in a directory of its own.

    :raises GnubgError: if ``executable`` is missing or gnubg does not listen within
        ``startup_timeout`` seconds.
    """
    if not executable.is_file():
        raise GnubgError(
            f"GNU Backgammon is not installed at {executable}: install Debian's gnubg package "
            "(apt-get install gnubg); the PyPI gnubg package has no external-player socket"
        )
    port = _free_loopback_port()
    commands = [*settings, f"external 127.0.0.1:{port}"]
    with tempfile.TemporaryDirectory(prefix="tavli-gnubg-") as preferences:
        process = subprocess.Popen(
            [str(executable), "-t", "-q", "-r", "-s", preferences],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        gnubg = GnubgProcess(process, port)
        try:
            listening = threading.Event()
            reader = threading.Thread(target=_read_output, args=(gnubg, listening), daemon=True)
            reader.start()
            assert process.stdin is not None
            # gnubg reads the commands in order; ``external`` then serves until gnubg is stopped.
            process.stdin.write("".join(f"{command}\n" for command in commands))
            process.stdin.close()
            if not listening.wait(startup_timeout):
                status = "exited" if process.poll() is not None else "still running"
                raise GnubgError(
                    f"gnubg did not listen on 127.0.0.1:{port} within {startup_timeout:g}s ({status}); "
                    f"it printed: {' | '.join(gnubg.output[-10:])}"
                )
            yield gnubg
        finally:
            gnubg.stop()
            reader.join(5.0)


def _free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _read_output(gnubg: GnubgProcess, listening: threading.Event) -> None:
    assert gnubg.process.stdout is not None
    for line in gnubg.process.stdout:
        gnubg.output.append(line.rstrip())
        if "Waiting for a connection" in line:
            listening.set()


# --- the seat ---------------------------------------------------------------------------------


@dataclass
class GnubgSeat:
    """gnubg playing one seat of a tavli game through the Python client.

    Every decision is gnubg's: whether to double before rolling (when the cube may be turned),
    every play, taking or dropping a double, accepting or rejecting an offer to resign. The
    throw for who starts, and a roll that cannot be played, need no decision.
    """

    seat: Seat
    gnubg: GnubgExternal
    decisions: list[tuple[str, str]] = field(default_factory=list)  # (what was asked, gnubg's answer)

    def play_to_end(self, *, timeout: float = 600.0) -> games_pb2.Game:
        """Play until the match is over; returns the final state.

        Waits for the other seat by watching the game's events, so the whole call is bounded.

        :raises TimeoutError: if the match is not over within ``timeout`` seconds.
        :raises GnubgError: if gnubg fails or answers nonsense.
        :raises TavliServerError: if the server refuses an action (an illegal play, say).
        :raises ValueError: if the game is of a variant gnubg does not play.
        """
        game = self.seat.game()
        if game.rule_set.variant not in VARIANT_NAMES:
            raise ValueError("gnubg does not play the tavli match: its Plakoto and Fevga games")
        variant = VARIANTS[VARIANT_NAMES[game.rule_set.variant]]
        if variant.gnubg_variant is None:
            raise ValueError(f"gnubg does not play {variant.title}")
        deadline = time.monotonic() + timeout
        watch = self.seat.client.games.WatchGame(
            games_pb2.WatchGameRequest(name=self.seat.name, from_sequence=game.event_count), timeout=timeout
        )
        try:
            game = self.act_while_on_move()
            while game.phase != games_pb2.PHASE_MATCH_OVER:
                next(watch)  # something happened: perhaps it is this seat's move now
                game = self.act_while_on_move()
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{self.seat.name} is not over after {timeout:g}s")
            return game
        except grpc.RpcError as error:
            if error.code() is grpc.StatusCode.DEADLINE_EXCEEDED:
                raise TimeoutError(f"{self.seat.name} is not over after {timeout:g}s") from None
            raise TavliServerError.from_rpc_error(error) from None
        except StopIteration:
            raise TavliServerError(
                grpc.StatusCode.UNAVAILABLE, "", "the server ended the game's event stream"
            ) from None
        finally:
            watch.cancel()

    def act_while_on_move(self) -> games_pb2.Game:
        """Make every decision that is this seat's now; returns the state it leaves the game in."""
        while True:
            game = self.seat.game()
            offered = self.seat.legal_actions()
            if offered.etag != game.etag:
                continue  # the game moved between the two reads
            actions = set(offered.actions) - {games_pb2.ACTION_RESIGN}  # gnubg never resigns
            if not actions:
                return game
            try:
                self._act(game, actions, offered.plays)
            except TavliServerError:
                # Refused because the other seat acted first (both may throw for who starts)?
                # Then look again; refused on the state it was decided on: a real error.
                if self.seat.client.game(self.seat.name).etag == game.etag:
                    raise

    def _act(
        self, game: games_pb2.Game, actions: set[games_pb2.Action], plays: Sequence[board_pb2.Play]
    ) -> None:
        seat = self.seat
        if games_pb2.ACTION_ACCEPT in actions:
            offered = RESULT_LEVELS[game.resignation.result]
            answer = self._decide(replace(self.board(game), resignation=offered))
            if answer == "accept":
                seat.accept()
            else:
                seat.reject()
        elif games_pb2.ACTION_TAKE in actions:
            answer = self._decide(replace(self.board(game), doubled=True))
            if answer == "beaver" and games_pb2.ACTION_BEAVER in actions:
                seat.beaver()
            elif answer == "drop":
                seat.drop()
            else:
                seat.take()  # a beaver where beavers are not allowed is at least a take
        elif games_pb2.ACTION_PLAY in actions:
            if len(plays) == 1 and not plays[0].notation:
                seat.play("")  # nothing can be played: nothing to ask
            else:
                dice = (game.dice[0], game.dice[1])
                seat.play(self._decide(replace(self.board(game), dice=dice)))
        elif games_pb2.ACTION_ROLL in actions:
            if games_pb2.ACTION_DOUBLE in actions and self._decide(self.board(game)) == "double":
                seat.double()
            else:
                seat.roll()
        else:
            raise GnubgError(f"{seat.name}: nothing gnubg knows how to do among actions {sorted(actions)}")

    def board(self, game: games_pb2.Game) -> FibsBoard:
        """``game`` from this seat's side, as a FIBS board asking whether to double (``replace``
        a field to ask something else)."""
        mine = self.seat.seat
        position = Position.from_id(game.position_id)
        if game.turn != mine:
            position = position.swapped()  # the state is seen from the seat on turn
        me, other = (0, 1) if self.seat.index == 0 else (1, 0)
        owner: CubeOwner = (
            "centre"
            if game.cube_owner == games_pb2.SEAT_UNSPECIFIED
            else "player"
            if game.cube_owner == mine
            else "opponent"
        )
        rules = game.rule_set
        return FibsBoard(
            position=position,
            match_length=rules.match_length,
            score=(game.score[me], game.score[other]),
            cube_value=game.cube_value or 1,
            cube_owner=owner,
            crawford=game.crawford,
            crawford_rule=rules.crawford if rules.HasField("crawford") else True,
            jacoby=rules.jacoby,
            beavers=rules.beavers,
        )

    def _decide(self, board: FibsBoard) -> str:
        answer = self.gnubg.decide(board)
        self.decisions.append((board.line(), answer))
        return answer
