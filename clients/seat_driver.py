"""Seating a bot at a server game: one seat driven by a :class:`~tavli.clients.bots.base.Bot`.

    driver = SeatDriver(seat, bot)
    game = driver.act(game)     # the game after this seat's action, or None when it waits

A :class:`SeatDriver` is given the latest state of the game known (from its own last action, the
other seat's, or a WatchGame stream), does what its seat has to do in it, and returns the state
after. The server stays the authority: the plays offered to the bot are the server's legal plays,
the cube is offered to the bot only when the server lists the double, and every action carries the
etag of the state it was decided on, so a decision on a stale state is refused and made again on
the fresh one. In a game with clocks the game may move on under a slow bot: its time ran out and
the server recorded the time loss (the match is over, or the next money game has started). The
action the bot then sends is refused (``OUT_OF_TIME``, a stale etag, ...): the driver reads the
game again and counts no play; a game that ended under the bot is left to the caller, which takes
the game up as it is now.

A driver acts for a :class:`~tavli.clients.client.Seat` (unary calls) or a
:class:`~tavli.clients.client.SeatStream` alike. :func:`play_seat` plays a stream's seat as the server's
views come, the way a bot is best seated; :func:`play_match` seats two bots at a new game and
plays it out, over two streams or over unary calls; the arena, the terminal game and the gnubg
bridge build on these.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from tavli.clients.bots.base import Bot, CubeAnswer, Situation
from tavli.clients.client import (
    RESULT_LEVELS,
    Seat,
    SeatStream,
    TavliClient,
    TavliServerError,
)
from tavli.engine import BACKGAMMON, Play, Position, Step, Variant
from tavli.engine.clock import ClockRules
from tavli.engine.position import CHECKERS_PER_SIDE
from tavli.engine.rules import DEFAULT_CUBE_LIMIT, MatchVariant, RuleSet
from tavli.server import convert
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2

_RETRIES = 3  # fresh reads after a stale etag before giving up

_MOVED_ON = frozenset({"STALE_ETAG", "OUT_OF_TIME", "WRONG_PHASE", "NOT_YOUR_TURN", "MATCH_OVER"})
"""The refusals an action gets when the game moved on under the bot (another action, a time loss)."""


class _StaleState(Exception):
    """The server's state moved on from the one being decided on."""


class BotError(RuntimeError):
    """A bot answered with something that is not one of its choices (a play not offered)."""


class SeatDriver:
    """Plays one seat of a server game with a bot.

    ``throws_opening``: whether this seat makes the throw for who starts (either seat may; in a
    game between two drivers, let one of them). ``engine_plays``: list the legal plays with the
    engine (the one the server runs) instead of asking the server, sparing a round trip a turn;
    the server still refuses a play it finds illegal. (A :class:`SeatStream` has the server's
    legal actions and plays with every state it is sent: asking it costs no round trip.)
    """

    def __init__(
        self, seat: Seat | SeatStream, bot: Bot, *, throws_opening: bool = True, engine_plays: bool = False
    ) -> None:
        self.seat = seat
        self.bot = bot
        self.throws_opening = throws_opening
        self.engine_plays = engine_plays

    def act(self, game: games_pb2.Game) -> games_pb2.Game | None:
        """Make this seat's move in ``game`` (the latest state known); return the game after it,
        or ``None`` when this seat has nothing to do (the other seat's turn, or the match is over).

        An action refused because a game ended under the bot (its time ran out) makes no play:
        ``None`` then, and the caller takes up the game as it is now.

        :raises TavliServerError: for an error other than the game having moved on.
        :raises BotError: if the bot chose a play it was not offered.
        """
        for _ in range(_RETRIES):
            try:
                return self._act(game)
            except _StaleState:
                game = self.seat.game()
            except TavliServerError as error:
                now = self._moved_on(game, error)
                if game_ended_since(game, now):
                    return None
                game = now
        return self._act(game)

    def _moved_on(self, decided: games_pb2.Game, refusal: TavliServerError) -> games_pb2.Game:
        """The game now, when ``refusal`` refused an action decided on ``decided`` because the
        game moved on (a stale etag, a time loss); else ``refusal`` is raised again."""
        if refusal.reason not in _MOVED_ON:
            raise refusal
        now = self.seat.game()
        if refusal.reason in ("STALE_ETAG", "OUT_OF_TIME") or now.etag != decided.etag:
            return now
        raise refusal

    def situation(self, game: games_pb2.Game, *, beavers_allowed: bool = False) -> Situation:
        """What the bot knows of ``game`` besides the board, from its own side."""
        me = self.seat.seat
        position = position_of(game)
        if game.turn != me:
            position = position.swapped()
        score = list(game.score) or [0, 0]
        owner: Literal["bot", "opponent", "centre"] = (
            "centre"
            if game.cube_owner == games_pb2.SEAT_UNSPECIFIED
            else "bot"
            if game.cube_owner == me
            else "opponent"
        )
        return Situation(
            variant=variant_of(game),
            position=position,
            cube_value=game.cube_value or 1,
            cube_owner=owner,
            score=(score[self.seat.index], score[1 - self.seat.index]),
            match_length=game.rule_set.match_length,
            crawford=game.crawford,
            beavers_allowed=beavers_allowed,
        )

    # --- one decision ------------------------------------------------------------------------

    def _act(self, game: games_pb2.Game) -> games_pb2.Game | None:
        me = self.seat.seat
        phase = game.phase
        if phase == games_pb2.PHASE_OPENING:
            return self._on(game, self.seat.roll) if self.throws_opening else None
        if phase == games_pb2.PHASE_DOUBLED:
            return None if game.turn == me else self._answer_double(game)
        if phase == games_pb2.PHASE_RESIGNING:
            if game.resignation.seat == me:
                return None
            offered = RESULT_LEVELS[game.resignation.result]
            accept = self.bot.accept_resignation(self.situation(game), offered)
            return self._on(game, self.seat.accept if accept else self.seat.reject)
        if game.turn != me:
            return None
        if phase == games_pb2.PHASE_ROLLING:
            return self._before_rolling(game)
        if phase == games_pb2.PHASE_PLAYING:
            return self._play(game)
        return None  # PHASE_MATCH_OVER

    def _before_rolling(self, game: games_pb2.Game) -> games_pb2.Game:
        situation = self.situation(game)
        level = self.bot.resign(situation)
        actions: list[int] | None = None
        if level is not None:
            actions = self._actions(game)
            if games_pb2.ACTION_RESIGN in actions:
                return self.seat.resign(level)
        if _cube_may_be_turned(game, self.seat.seat):
            actions = actions if actions is not None else self._actions(game)
            if games_pb2.ACTION_DOUBLE in actions and self.bot.offer_double(situation):
                return self.seat.double()
        return self._on(game, self.seat.roll)

    def _answer_double(self, game: games_pb2.Game) -> games_pb2.Game:
        actions = self._actions(game)
        beaver = games_pb2.ACTION_BEAVER in actions
        answer: CubeAnswer = self.bot.answer_double(self.situation(game, beavers_allowed=beaver))
        if answer == "beaver" and not beaver:
            answer = "take"
        respond: dict[str, Callable[[], games_pb2.Game]] = {
            "take": self.seat.take,
            "drop": self.seat.drop,
            "beaver": self.seat.beaver,
        }
        return respond[answer]()

    def _play(self, game: games_pb2.Game) -> games_pb2.Game:
        variant = variant_of(game)
        position = position_of(game)
        dice = (int(game.dice[0]), int(game.dice[1]))
        if self.engine_plays:
            plays: list[Play] = list(variant.legal_plays(position, dice))
            chosen = self.bot.choose_play(variant, position, dice, plays)
            if chosen not in plays:
                raise BotError(
                    f"{self.bot.name} chose {chosen.notation()!r}, which is not one of the legal plays"
                )
            return self._on(game, lambda: self.seat.play(chosen.steps))
        legal = self.seat.legal_actions()
        if legal.etag != game.etag or games_pb2.ACTION_PLAY not in legal.actions:
            raise _StaleState
        plays = [play_of(message, checkers=variant.checkers) for message in legal.plays]
        chosen = self.bot.choose_play(variant, position, dice, plays)
        for play, message in zip(plays, legal.plays):
            if play is chosen or play.position == chosen.position:
                return self.seat.play(play.steps)
        raise BotError(f"{self.bot.name} chose {chosen.notation()!r}, which is not one of the legal plays")

    def _actions(self, game: games_pb2.Game) -> list[int]:
        legal = self.seat.legal_actions()
        if legal.etag != game.etag:
            raise _StaleState
        return list(legal.actions)

    def _on(self, game: games_pb2.Game, action: Callable[[], games_pb2.Game]) -> games_pb2.Game:
        """Make ``action`` on the state ``game`` (its etag), which this seat may not have seen itself."""
        # The other seat's action (or a watch stream) may have brought a newer state than the
        # seat last read: this decision was made on that one.
        self.seat.observe(game)
        return action()


def _cube_may_be_turned(game: games_pb2.Game, me: int) -> bool:
    """Whether the double can be among this seat's actions, from what the game shows: only then is
    the server asked (sparing a round trip a turn when the cube cannot move)."""
    rules = game.rule_set
    if rules.cube != games_pb2.CUBE_MODE_CUBE or game.crawford or rules.match_length == 1:
        return False
    if game.cube_owner not in (games_pb2.SEAT_UNSPECIFIED, me):
        return False
    limit = rules.cube_limit if rules.HasField("cube_limit") else DEFAULT_CUBE_LIMIT
    return limit == 0 or game.cube_value * 2 <= limit


def game_ended_since(decided: games_pb2.Game, now: games_pb2.Game) -> bool:
    """Whether a game ended between the state ``decided`` and ``now`` (a time loss, say): a
    decision made on ``decided`` belongs to a game that is over."""
    over = games_pb2.PHASE_MATCH_OVER
    ended = len(now.finished_games) > len(decided.finished_games)
    return ended or (now.phase == over and decided.phase != over)


def variant_of(game: games_pb2.Game) -> Variant:
    """The engine's rules the game in play is played by: its variant (in a tavli match, Portes's,
    Plakoto's or Fevga's by the game's number) with the rule set's options."""
    return rule_set_of(game.rule_set).for_game(game.game_number).rules


def rule_set_of(message: games_pb2.RuleSet) -> RuleSet:
    """The engine's rule set of a game's ``rule_set`` (as the server filled it in)."""
    return _rule_set_of(message.SerializeToString(deterministic=True))


@lru_cache(maxsize=64)
def _rule_set_of(message: bytes) -> RuleSet:
    return convert.rules_of(games_pb2.RuleSet.FromString(message))


def position_of(game: games_pb2.Game) -> Position:
    """The game's position, seen from the seat on turn (read with the game's checkers a side)."""
    return Position.from_id(game.position_id, checkers=variant_of(game).checkers)


def play_of(message: board_pb2.Play, *, checkers: int = CHECKERS_PER_SIDE) -> Play:
    """The engine's play for a legal play the server listed, in a game of ``checkers`` a side."""
    steps = tuple(Step(step.from_point, step.to_point, step.die, step.hit) for step in message.steps)
    # The engine's compiled core reads a Position ID faster than Python moves the checkers.
    return Play.trusted(steps, Position.from_id(message.position_id, checkers=checkers))


# --- two bots, one game --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedMatch:
    """A game or match two bots played to its end: its resource name and final state."""

    name: str
    game: games_pb2.Game

    @property
    def finished_games(self) -> list[games_pb2.FinishedGame]:
        return list(self.game.finished_games)


def play_match(
    client: TavliClient,
    bots: tuple[Bot, Bot],
    *,
    variant: MatchVariant = BACKGAMMON.name,
    match_length: int = 0,
    games: int = 1,
    dice_seed: str = "",
    max_actions: int = 100_000,
    engine_plays: bool = False,
    stream: bool = False,
    **options: Any,
) -> PlayedMatch:
    """Create a game with ``bots[0]`` at seat 0 and ``bots[1]`` at seat 1, each seat named after
    its bot, and play it out: to the end of the match, or in money play (``match_length`` 0)
    until ``games`` games are won (a drawn Plakoto game does not count).
    ``options`` are rule-set options, as :meth:`TavliClient.create_game` takes them;
    ``engine_plays`` as :class:`SeatDriver` takes it. ``stream``: seat each bot on a PlaySeat
    stream of its own, played on a thread of its own as the server's views come (see
    :func:`play_seat`), instead of both taking turns over unary calls on this thread.

    :raises TavliServerError: if the server refuses an action.
    :raises RuntimeError: if neither seat can act, or after ``max_actions`` actions.
    """
    seats = client.create_game(
        variant=variant,
        match_length=match_length,
        dice_seed=dice_seed,
        players=(bots[0].name, bots[1].name),  # each seat named after its bot
        **options,
    )
    if stream:
        wait = client.timeout + longest_turn(options.get("clock"), match_length)
        return _play_over_streams(
            client, seats, bots, games=games, max_actions=max_actions, engine_plays=engine_plays, wait=wait
        )
    drivers = (
        SeatDriver(seats[0], bots[0], engine_plays=engine_plays),
        SeatDriver(seats[1], bots[1], throws_opening=False, engine_plays=engine_plays),
    )
    game = seats[0].last_seen
    for _ in range(max_actions):
        if game.phase == games_pb2.PHASE_MATCH_OVER or (match_length == 0 and games_won(game) >= games):
            return PlayedMatch(game.name, game)
        for driver in drivers:
            after = driver.act(game)
            if after is not None:
                game = after
                break
        else:
            game = _moved_on_without_either_seat(seats[0], game)
    raise RuntimeError(f"{game.name}: not over after {max_actions} actions")


def _moved_on_without_either_seat(seat: Seat, game: games_pb2.Game) -> games_pb2.Game:
    """The game now, when neither seat acted on ``game`` because it moved on (the server recorded
    a time loss).

    :raises RuntimeError: if it did not: neither seat can act.
    """
    now = seat.game()
    if now.etag == game.etag:
        raise RuntimeError(f"{game.name}: neither seat can act in phase {games_pb2.Phase.Name(game.phase)}")
    return now


def play_seat(
    stream: SeatStream,
    bot: Bot,
    *,
    throws_opening: bool = True,
    engine_plays: bool = False,
    games: int = 1,
    max_actions: int = 100_000,
    wait: float | None = None,
) -> games_pb2.Game:
    """Play ``stream``'s seat with ``bot``, acting on each view the server sends: to the end of
    the match, or in money play until ``games`` games are finished (or until the stream is
    closed). Returns the last state seen. ``wait``: how long to wait at most for the other seat
    (None: as long as it takes).

    :raises TavliServerError: if the server refuses an action.
    :raises TimeoutError: if the other seat kept the game waiting longer than ``wait``.
    :raises RuntimeError: after ``max_actions`` actions.
    """
    driver = SeatDriver(stream, bot, throws_opening=throws_opening, engine_plays=engine_plays)
    actions = 0
    for view in stream.views(timeout=wait):
        game = view.game
        if finished(game, games):
            return game
        if driver.act(game) is not None:
            actions += 1
            if actions >= max_actions:
                raise RuntimeError(f"{game.name}: not over after {max_actions} actions of this seat")
    return stream.last_seen


def longest_turn(clock: ClockRules | None, match_length: int) -> float:
    """The longest a seat may keep the other waiting under ``clock``: its move limit, else its
    delay and whole reserve (0 with no clock: then only the client's timeout bounds a wait)."""
    if clock is None:
        return 0.0
    return clock.move_limit or clock.delay + clock.reserve_for(match_length)


def finished(game: games_pb2.Game, games: int = 1) -> bool:
    """Whether a match is over, or money play has finished ``games`` games."""
    if game.phase == games_pb2.PHASE_MATCH_OVER:
        return True
    return game.rule_set.match_length == 0 and games_won(game) >= games


def games_won(game: games_pb2.Game) -> int:
    """How many of the finished games someone won (all but drawn Plakoto games)."""
    return sum(finished.winner != games_pb2.SEAT_UNSPECIFIED for finished in game.finished_games)


def _play_over_streams(
    client: TavliClient,
    seats: tuple[Seat, Seat],
    bots: tuple[Bot, Bot],
    *,
    games: int,
    max_actions: int,
    engine_plays: bool,
    wait: float,
) -> PlayedMatch:
    """:func:`play_match` over two streams: seat 1 played on a thread of its own, seat 0 on this one,
    each waiting at most ``wait`` seconds for the other."""
    streams = tuple(client.stream_seat(seat.name, seat.token) for seat in seats)

    def play(index: int) -> games_pb2.Game:
        try:
            return play_seat(
                streams[index],
                bots[index],
                throws_opening=index == 0,
                engine_plays=engine_plays,
                games=games,
                max_actions=max_actions,
                wait=wait,
            )
        except BaseException:
            for stream in streams:
                stream.close()  # the other seat would wait for this one for ever
            raise

    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavli-seat-1") as pool:
            second = pool.submit(play, 1)
            first = play(0)
            last = second.result()
    finally:
        for stream in streams:
            stream.close()
    game = max(first, last, key=lambda seen: seen.event_count)
    if not finished(game, games):
        phase = games_pb2.Phase.Name(game.phase)
        raise RuntimeError(f"{game.name}: the seats stopped before the end, in phase {phase}")
    return PlayedMatch(game.name, game)
