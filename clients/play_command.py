"""``tavli play``: a person plays a built-in bot in the terminal, through the server.

The person sits at seat 1 and is ``X`` at the bottom of the board (GNU Backgammon's player 1);
the bot sits at seat 0 as ``O`` and is driven by a :class:`~tavli.clients.seat_driver.SeatDriver`. Every
action goes to the server, which keeps the rules: an illegal play is refused with the server's
reason and the person tries again. What happened since the person last decided (the bot's rolls
and plays, forced plays, cube actions, resignations) is told from the game's event log.

With a clock (``--clock-reserve``, ``--clock-delay``, ``--clock-move-limit``), both seats' time is
shown before each of the person's decisions, from the game's clocks and the local time.

Without ``--server`` an in-memory server is started on 127.0.0.1 (a free port) for the session.
Input and output are streams, so a session can be scripted; the end of the input quits.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import re
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import IO, Any, Literal, cast

import grpc

from tavli.clients import bots
from tavli.clients.board_view import Clocks, Table, clock_time, draw, draw_clocks
from tavli.clients.client import MATCH_VARIANT_ENUMS, Seat, TavliClient, TavliServerError
from tavli.clients.rule_options import (
    MATCH_OPENINGS,
    add_backgammons_option,
    add_clock_options,
    add_home_hit_and_run_option,
    add_variant_option,
    backgammons_of,
    clock_of,
    clock_problem,
    game_options,
    match_length_of,
    rules_problem,
    variants_played,
)
from tavli.clients.seat_driver import SeatDriver, position_of, variant_of
from tavli.engine import BACKGAMMON, VARIANTS
from tavli.engine.backgammon import HomeHitAndRun, Start
from tavli.engine.clock import ClockRules
from tavli.engine.errors import InvalidMatchIdError
from tavli.engine.match_id import GameStatus, MatchInfo, Resignation
from tavli.engine.rules import TAVLI, Backgammons, MatchOpenings, MatchVariant, Opening, RuleSet
from tavli.engine.variant import GameResult, Variant
from tavli.server.analysis.questions import EVALUATED
from tavli.v1 import analysis_service_pb2 as analysis_pb2, board_pb2, games_service_pb2 as games_pb2

_RESULT_WORDS = {
    board_pb2.GAME_RESULT_SINGLE: "a single game",
    board_pb2.GAME_RESULT_GAMMON: "a gammon",
    board_pb2.GAME_RESULT_BACKGAMMON: "a backgammon",
    board_pb2.GAME_RESULT_MARS: "a mars",
    board_pb2.GAME_RESULT_MOTHER: "a pinned mother",
    board_pb2.GAME_RESULT_DRAW: "a draw",
}
_CUBE_TITLES = " and ".join(variant.title for variant in VARIANTS.values() if variant.cube)
_TAVLI_TITLE = "the Greek tavli match (Portes, Plakoto and Fevga in turn)"
_VARIANT_TITLES = {
    board_pb2.VARIANT_BACKGAMMON: "Portes",
    board_pb2.VARIANT_PLAKOTO: "Plakoto",
    board_pb2.VARIANT_FEVGA: "Fevga",
}
"""The games of a tavli match by name, as the session announces each."""
"""The variants played with the cube, in words: "backgammon"."""
HINT_PLIES = 2  # how far GNU Backgammon looks ahead for a hint: its strongest, a few hundredths of a second
_BOT_ACTIONS_IN_A_ROW = 1000  # a bot acting more often than this without the person is stuck
_ENDED_BY = {
    games_pb2.GAME_END_DROP: ", by a dropped double",
    games_pb2.GAME_END_RESIGNATION: ", by resignation",
    games_pb2.GAME_END_TIME: ", on time",
    games_pb2.GAME_END_MOTHER: ", by pinning the mother",
}


def _title(variant: MatchVariant) -> str:
    """The game in words: "backgammon", "plakoto", or the tavli match."""
    return _TAVLI_TITLE if variant == TAVLI else VARIANTS[variant].title


def _with_cube(variant: MatchVariant) -> bool:
    """Whether ``variant`` may be played with the cube (never a tavli match's games)."""
    return all(played.cube for played in variants_played(variant))


class _Quit(Exception):
    """The person typed quit, or the input ended."""


@dataclass(frozen=True)
class PlayOptions:
    """The game to set up: the variant, the match length (0: money play) and the rule options
    (``clock``: None, no clock)."""

    variant: MatchVariant = BACKGAMMON.name
    match_length: int = 0
    cube: bool = True
    beavers: bool = False
    backgammons: Backgammons | None = None  # None: the rule set's default
    auto_forced: bool = True
    dice_seed: str = ""
    clock: ClockRules | None = None
    start: Start = "STANDARD"
    home_hit_and_run: HomeHitAndRun = "ALLOWED"
    opening: Opening | None = None  # None: the variant's own
    match_openings: MatchOpenings | None = None  # None: the variant's own in a match

    def rule_set(self) -> RuleSet:
        """The rules the session's game is played by (its clock aside)."""
        return RuleSet(
            variant=self.variant,
            match_length=self.match_length,
            backgammons=self.backgammons,
            start=self.start,
            home_hit_and_run=self.home_hit_and_run,
            opening=self.opening,
            match_openings=self.match_openings,
            cube=self.cube and _with_cube(self.variant),
        )


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play backgammon or long nardi against a bot in the terminal",
        description=(
            "Play against a built-in bot in the terminal. You are X at the bottom of the board, the"
            " points numbered from your side; type plays like '13/7 8/7', 'bar/22' or '6/off'."
            " Without --server, a server is started for the session and stopped after it."
        ),
    )
    add_variant_option(parser, what="the game to play", variants=MATCH_VARIANT_ENUMS)
    parser.add_argument(
        "--match",
        type=int,
        default=None,
        metavar="N",
        help="play a match to N points (default: 5 in portes, tavla and tavli, else 0, money play)",
    )
    add_home_hit_and_run_option(parser)
    parser.add_argument(
        "--match-openings",
        choices=tuple(MATCH_OPENINGS),
        default=None,
        help="who opens the later games of a match: every-game, the opening throw; winner-opens; alternate,"
        " the sides take turns (default: winner-opens in portes, tavla, plakoto, fevga and tavli, else"
        " every-game)",
    )
    parser.add_argument(
        "--cube",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"play with the doubling cube ({_CUBE_TITLES} only; default: on in {_CUBE_TITLES})",
    )
    parser.add_argument("--beavers", action="store_true", help="money play: allow beavers (default: off)")
    add_backgammons_option(parser)
    parser.add_argument(
        "--auto-forced",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="let the server play your forced rolls (default: on)",
    )
    add_clock_options(parser, reserve_per_point=False)
    parser.add_argument(
        "--bot", choices=bots.NAMES, default="heuristic", help="the bot to play (default: %(default)s)"
    )
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="play on this server (default: a private server, started for the session)",
    )
    parser.add_argument(
        "--seed", type=int, help="seed the dice and the bot, to replay a session (default: none, fresh dice)"
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    table = game_options(arguments)
    variant: MatchVariant = table["variant"]
    with_cube = _with_cube(variant)
    match_length = match_length_of(arguments)
    if match_length < 0:
        return _fail("--match takes a number of points of at least 1 (0 for money play)")
    if not with_cube and arguments.cube:
        return _fail(f"{_title(variant)} is played without the cube")
    backgammons = backgammons_of(arguments, table.get("backgammons"))
    match_openings: MatchOpenings | None = (
        MATCH_OPENINGS[arguments.match_openings]
        if arguments.match_openings is not None
        else table.get("match_openings")
    )
    cube = table.get("cube", True) if arguments.cube is None else arguments.cube
    rules = {
        "start": table.get("start", "STANDARD"),
        "home_hit_and_run": table.get("home_hit_and_run", "ALLOWED"),
        "opening": table.get("opening"),
        "match_openings": match_openings,
    }
    problem = rules_problem(variant, backgammons, match_length=match_length, cube=with_cube and cube, **rules)
    if problem:
        return _fail(problem)
    clock = clock_of(arguments)
    problem = clock_problem(clock, match_length)
    if problem:
        return _fail(problem)
    for played in variants_played(variant):
        refusal = bots.refusal(arguments.bot, played)
        if refusal:
            return _fail(refusal)
    try:
        bot = bots.create(arguments.bot, seed=arguments.seed)
    except Exception as error:  # noqa: BLE001 - a bot that cannot start (gnubg missing) is the person's news
        return _fail(str(error))
    options = PlayOptions(
        variant=variant,
        match_length=match_length,
        cube=with_cube and cube,
        beavers=arguments.beavers,
        backgammons=backgammons,
        auto_forced=arguments.auto_forced,
        dice_seed="" if arguments.seed is None else f"tavli-play-{arguments.seed}",
        clock=clock,
        **rules,
    )
    try:
        if arguments.server:
            with TavliClient.connect(arguments.server) as client:
                return PlaySession(client, bot, options).run()
        from tavli.server.app import embedded_server

        with embedded_server() as address, TavliClient.connect(address) as client:
            return PlaySession(client, bot, options).run()
    except TavliServerError as error:  # a rule set the server refuses, or the server gone
        if error.status == grpc.StatusCode.UNAVAILABLE:
            return _fail(f"cannot reach the server: {error.message}")
        return _fail(f"the server refused: {error.message}")


class PlaySession:
    """One person against one bot, from the creation of the game to its end or the person's quit.

    ``input`` is read a line at a time (its end quits); everything shown goes to ``output``. When
    ``input`` is not a terminal, each answer is echoed after its prompt, so a scripted session
    reads like a typed one.
    """

    def __init__(
        self,
        client: TavliClient,
        bot: bots.Bot,
        options: PlayOptions = PlayOptions(),
        *,
        input: IO[str] | None = None,
        output: IO[str] | None = None,
    ) -> None:
        self.client = client
        self.bot = bot
        self.options = options
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.echo = not _is_terminal(self.input)
        self.bot_name = f"{bot.name} bot"
        self._seen = 0  # events told so far
        self._games_told = 0
        self._dice: tuple[int, int] | None = None  # the dice of the play the log tells next
        self._board_shown = ""  # the board last drawn: drawn again before a decision only if it changed
        self.human: Seat
        self.driver: SeatDriver
        self.game: games_pb2.Game
        self._events: Generator[games_pb2.WatchGameResponse, None, None]

    # --- the session -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match is over or the person quits; returns the exit status (0)."""
        options = self.options
        rules: dict[str, Any] = {
            "auto_play_forced": options.auto_forced,
            "backgammons": options.backgammons,
            "start": options.start,
            "home_hit_and_run": options.home_hit_and_run,
            "match_openings": options.match_openings,
        }
        if options.opening is not None:
            rules["opening"] = options.opening
        if _with_cube(options.variant):
            rules["cube"] = options.cube
            rules["beavers"] = options.beavers
        if options.clock is not None:
            rules["clock"] = options.clock
        bot_seat, self.human = self.client.create_game(
            variant=options.variant, match_length=options.match_length, dice_seed=options.dice_seed, **rules
        )
        self.driver = SeatDriver(bot_seat, self.bot, throws_opening=False, engine_plays=True)
        self.game = self.human.last_seen
        # One stream for the session: its events are read as the game's event count says they
        # exist, so reading never waits.
        self._events = cast(
            Generator[games_pb2.WatchGameResponse, None, None], self.client.watch(self.game.name)
        )
        self._say(self._introduction())
        try:
            self.game = self.human.roll()  # the throw for who starts game 1
            while True:
                self._let_bot_act()
                self._tell_events()
                self._tell_finished_games()
                if self.game.phase == games_pb2.PHASE_MATCH_OVER:
                    self._say(self._match_result())
                    return 0
                self._human_acts()
        except _Quit:
            self._say(f"\nYou leave the table. {self._score_line()}")
            return 0
        finally:
            self._events.close()

    def _let_bot_act(self) -> None:
        for _ in range(_BOT_ACTIONS_IN_A_ROW):
            try:
                after = self.driver.act(self.game)
            except TavliServerError:
                after = self._after_time_ran_out()
                if after is None:
                    raise
            if after is None:
                return
            self.game = after
        raise RuntimeError(f"{self.game.name}: the bot keeps acting without the person")

    # --- the person's decisions ----------------------------------------------------------------

    def _human_acts(self) -> None:
        game = self.game
        legal = self.human.legal_actions()
        actions = set(legal.actions)
        me = self.human.seat
        phase = game.phase
        answer: Callable[[str], games_pb2.Game | None]
        if phase == games_pb2.PHASE_OPENING:
            self._ask_to_start_next_game()
            return
        if phase == games_pb2.PHASE_ROLLING and game.turn == me:
            if games_pb2.ACTION_DOUBLE in actions:
                prompt = "Roll or double? (Enter rolls) > "
            else:
                prompt = "Your turn: press Enter to roll > "
            answer = self._roll_or_double
        elif phase == games_pb2.PHASE_PLAYING and game.turn == me:
            dice = _dice_words(game.dice)
            if [play.notation for play in legal.plays] == [""]:
                prompt = f"You cannot move with {dice}: press Enter to pass > "
            else:
                prompt = f"Your play with {dice} > "
            answer = functools.partial(self._play, plays=legal.plays)
        elif phase == games_pb2.PHASE_DOUBLED and games_pb2.ACTION_TAKE in actions:
            choices = "Take, drop or beaver" if games_pb2.ACTION_BEAVER in actions else "Take or drop"
            prompt = f"The {self.bot_name} doubles to {game.cube_value * 2}. {choices}? > "
            answer = self._answer_double
        elif phase == games_pb2.PHASE_RESIGNING and games_pb2.ACTION_ACCEPT in actions:
            offer = game.resignation
            prompt = (
                f"The {self.bot_name} offers to resign {_RESULT_WORDS[offer.result]}"
                f" ({_points(offer.points)}). Accept or reject? > "
            )
            answer = self._answer_resignation
        else:
            raise RuntimeError(f"{game.name}: neither side can act in {games_pb2.Phase.Name(phase)}")
        self._show_board()
        self._decide(prompt, answer)

    def _show_board(self) -> None:
        """Draw the board before a decision, unless the board last drawn shows this state already;
        then the clocks, which change as time passes."""
        board = self._board()
        if board != self._board_shown:
            self._say(board)
            self._board_shown = board
        self._show_clocks()

    def _show_clocks(self) -> None:
        """The clocks now, in a game with clocks."""
        clocks = clocks_at(self.game, time.time(), x_seat=self.human.seat, x_name="you", o_name=self.bot_name)
        if clocks is not None:
            self._say(draw_clocks(clocks))

    def _decide(self, prompt: str, answer: Callable[[str], games_pb2.Game | None]) -> None:
        """Ask until an answer acts: the commands any prompt takes are handled here, the rest by
        ``answer``, which returns the game after the action or ``None`` to ask again."""
        while True:
            text = self._read(prompt)
            word, _, rest = text.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                raise _Quit
            if word in ("help", "?"):
                self._say(self._help())
                continue
            if word == "board":
                self._board_shown = self._board()
                self._say(self._board_shown)
                self._show_clocks()
                continue
            if word == "score":
                self._say(self._score_line())
                continue
            try:
                if word == "resign":
                    after = self._resign(text, rest.strip().lower())
                else:
                    after = answer(text)
            except TavliServerError as error:
                after = self._after_time_ran_out()
                if after is None:
                    self._say(self._refusal(text, error))
                    continue
            if after is not None:
                self.game = after
                return

    def _after_time_ran_out(self) -> games_pb2.Game | None:
        """The game now if it moved on by itself since it was last read: a clock ran out (the
        server records that with nobody calling, and refuses what comes after it); else None."""
        if not self.game.rule_set.HasField("clock"):
            return None
        now = self.human.game()
        return now if now.event_count > self.game.event_count else None

    def _refusal(self, text: str, error: TavliServerError) -> str:
        """The server's refusal of what the person typed, in its own words."""
        words = error.message
        if error.reason == "INVALID_PLAY":  # the server could not read the text as a play
            if not words.lower().startswith("cannot read"):
                words = f"cannot read {text!r}" + (f": {words}" if words else "")
            return f"{words[0].upper()}{words[1:]}. Type a play like {self._example_plays()}."
        if error.reason == "AMBIGUOUS_PLAY":
            return f"Which play? {words}."
        return f"Not allowed: {words}"

    def _roll_or_double(self, text: str) -> games_pb2.Game | None:
        word = text.lower()
        if word in ("", "roll", "r"):
            return self.human.roll()
        if word in ("double", "d"):
            return self.human.double()
        double = ", or type double" if self._may_double() else ""
        self._say(f"Cannot read {text!r}: press Enter (or type roll) to roll{double}.")
        return None

    def _play(self, text: str, plays: Any) -> games_pb2.Game | None:
        if text.lower() == "hint":
            self._say(self._hint())
            return None
        if text == "" and any(play.notation for play in plays):
            self._say("Type your play, like 13/7 8/7 (or 'hint' for a suggestion, 'help' for the commands).")
            return None
        return self.human.play(text)

    def _answer_double(self, text: str) -> games_pb2.Game | None:
        word = text.lower()
        if word in ("take", "t"):
            return self.human.take()
        if word in ("drop", "d", "pass"):
            return self.human.drop()
        if word in ("beaver", "b"):
            return self.human.beaver()
        self._say(f"Cannot read {text!r}: answer take or drop (or beaver, when the prompt offers it).")
        return None

    def _answer_resignation(self, text: str) -> games_pb2.Game | None:
        word = text.lower()
        if word in ("accept", "a", "yes", "y"):
            return self.human.accept()
        if word in ("reject", "r", "no", "n"):
            return self.human.reject()
        self._say(f"Cannot read {text!r}: answer accept or reject.")
        return None

    def _resign(self, text: str, level: str) -> games_pb2.Game | None:
        """Offer to resign ``level`` (a single game if none); whether the offer may be made now is
        the server's to say."""
        levels = [level.value for level in self._resign_levels()]
        level = level or "single"
        if level not in levels:
            self._say(
                f"Cannot read {text!r}: type resign, or resign followed by one of: {', '.join(levels)}."
            )
            return None
        return self.human.resign(level)  # type: ignore[arg-type]

    def _ask_to_start_next_game(self) -> None:
        number = self.game.game_number
        if self.options.match_length:
            prompt = f"Press Enter to start game {number} > "
        else:
            prompt = "Play another game? [Y/n] > "

        def start(text: str) -> games_pb2.Game | None:
            if text.lower() in ("n", "no"):
                raise _Quit
            return self.human.roll()

        self._decide(prompt, start)

    # --- telling what happened -----------------------------------------------------------------

    def _tell_events(self) -> None:
        """Tell the events since the last told: the bot's rolls and plays, forced plays, the cube."""
        count = self.game.event_count - self._seen
        if count <= 0:
            return
        events = [response.event for response in itertools.islice(self._events, count)]
        self._seen += len(events)
        lines = [line for line in map(self._event_line, events) if line]
        if lines:
            self._say("\n".join(lines))

    def _event_line(self, event: games_pb2.GameEvent) -> str:
        who = self._who(event.seat)
        kind = event.kind
        if kind == games_pb2.EVENT_KIND_OPENING_THROW:
            return self._opening_line(event)
        if kind == games_pb2.EVENT_KIND_ROLL:
            self._dice = (event.dice[0], event.dice[1])
            return ""  # told with the play, or shown on the board
        if kind == games_pb2.EVENT_KIND_PLAY:
            dice = _dice_words(self._dice) if self._dice else ""
            self._dice = None
            mine = event.seat == self.human.seat
            if not event.notation:
                return f"{who} {'roll' if mine else 'rolls'} {dice} and cannot move."
            if mine and not event.forced:
                return f"You play {event.notation}."
            forced = " (forced)" if event.forced else ""
            seen_from_you = ""
            if not mine and variant_of(self.game).same_way_round:
                seen_from_you = f" (on your numbering: {self._on_my_numbering(event.notation)})"
            return f"{who} {'play' if mine else 'plays'} {dice}: {event.notation}{forced}{seen_from_you}."
        mine = event.seat == self.human.seat
        if kind == games_pb2.EVENT_KIND_DOUBLE and not mine:
            return ""  # the prompt to answer it says so
        simple = {
            games_pb2.EVENT_KIND_DOUBLE: "double",
            games_pb2.EVENT_KIND_TAKE: "take" if mine else "takes",
            games_pb2.EVENT_KIND_DROP: "drop" if mine else "drops",
            games_pb2.EVENT_KIND_BEAVER: "beaver" if mine else "beavers",
            games_pb2.EVENT_KIND_ACCEPT: "accept the resignation" if mine else "accepts the resignation",
            games_pb2.EVENT_KIND_REJECT: "reject the resignation: play on"
            if mine
            else "rejects the resignation: play on",
        }
        if kind in simple:
            return f"{who} {simple[kind]}."
        if kind == games_pb2.EVENT_KIND_TIME_RAN_OUT:
            return "Your time ran out." if mine else f"The {self.bot_name}'s time ran out."
        if kind == games_pb2.EVENT_KIND_RESIGN:
            return (
                f"{who} {'offer' if mine else 'offers'} to resign {_RESULT_WORDS[event.resignation_result]}."
            )
        return ""  # the dice commitment and reveal: nothing for the person to do

    def _on_my_numbering(self, notation: str) -> str:
        """The bot's play with its points renamed as the person numbers them (where both sides move
        the same way round, as in long nardi: the two numberings are a half-turn apart and the
        person's is the one on the board)."""
        variant = variant_of(self.game)
        return re.sub(
            r"(?<![(\d])\d+(?!\))", lambda number: str(variant.opponent_point(int(number.group()))), notation
        )

    def _opening_line(self, event: games_pb2.GameEvent) -> str:
        lines = []
        me_first = self.human.index == 0
        for number, throw in enumerate(event.opening_throws):
            mine, bots_die = (
                (throw.seat0_die, throw.seat1_die) if me_first else (throw.seat1_die, throw.seat0_die)
            )
            text = f"Throw for who starts: you {mine}, the {self.bot_name} {bots_die}"
            if mine == bots_die:
                lines.append(f"{text}: a tie, thrown again.")
                continue
            starter = "you start" if mine > bots_die else f"the {self.bot_name} starts"
            if self.game.rule_set.opening == games_pb2.OPENING_PLAY_OPENING_DICE:
                self._dice = (max(mine, bots_die), min(mine, bots_die))
                lines.append(f"{text}: {starter}, playing {self._dice[0]}-{self._dice[1]}.")
            else:
                lines.append(f"{text}: {starter} and {'roll' if mine > bots_die else 'rolls'} both dice.")
        return "\n".join(lines)

    def _tell_finished_games(self) -> None:
        finished = self.game.finished_games
        for game in finished[self._games_told :]:
            if game.winner == games_pb2.SEAT_UNSPECIFIED:
                self._say(
                    f"\n*** Game {game.game_number} is drawn: both mothers are pinned; nobody scores. ***\n"
                    f"{self._score_line()}"
                )
                continue
            winner = "You win" if game.winner == self.human.seat else f"The {self.bot_name} wins"
            self._say(
                f"\n*** {winner} game {game.game_number}: {_RESULT_WORDS[game.result]}"
                f"{_ENDED_BY.get(game.ended_by, '')}, {_points(game.points)}"
                f"{f' (cube {game.cube_value})' if game.cube_value > 1 else ''}. ***\n{self._score_line()}"
            )
        if finished[self._games_told :] and self._tavli and self.game.phase != games_pb2.PHASE_MATCH_OVER:
            self._say(f"Game {self.game.game_number}: {_VARIANT_TITLES[self.game.variant]}.")
        self._games_told = len(finished)

    @property
    def _tavli(self) -> bool:
        return self.options.variant == TAVLI

    def _score_line(self) -> str:
        mine, bots = self._score()
        if self.options.match_length:
            return f"Score: you {mine}, the {self.bot_name} {bots} (match to {self.options.match_length})."
        played = len(self.game.finished_games)
        net = mine - bots
        return (
            f"Running total after {played} game{'s' if played != 1 else ''}: you {mine}, the {self.bot_name}"
            f" {bots} (you are {'+' if net > 0 else ''}{net})."
        )

    def _match_result(self) -> str:
        mine, bots = self._score()
        if self.game.winner == self.human.seat:
            return f"You win the match {mine}-{bots}. Well played!"
        return f"The {self.bot_name} wins the match {bots}-{mine}."

    def _score(self) -> tuple[int, int]:
        score = list(self.game.score) or [0, 0]
        return score[self.human.index], score[1 - self.human.index]

    # --- the board ---------------------------------------------------------------------------------

    def _board(self) -> str:
        return "\n" + draw(self.table())

    def table(self) -> Table:
        """What the board shows now, from the person's side."""
        game = self.game
        me, bot = self.human.seat, self.driver.seat.seat
        position = position_of(game)
        if game.turn == bot:
            position = position.swapped()
        cube = game.rule_set.cube == games_pb2.CUBE_MODE_CUBE
        side: dict[int, Literal["X", "O"]] = {me: "X", bot: "O"}
        return Table(
            title=_VARIANT_TITLES[game.variant] if self._tavli else "",
            variant=variant_of(game),
            position=position,
            x_name="you",
            o_name=self.bot_name,
            on_roll=side.get(game.turn),
            dice=(game.dice[0], game.dice[1])
            if game.phase == games_pb2.PHASE_PLAYING and game.dice
            else None,
            cube_value=game.cube_value if cube else 0,
            cube_owner=side.get(game.cube_owner),
            score=self._score(),
            match_length=game.rule_set.match_length,
            crawford=game.crawford,
            position_id=game.position_id,
            match_id=self._match_id(),
        )

    def _match_id(self) -> str:
        """GNU Backgammon's Match ID of the state, in a variant gnubg plays ("" where it has none)."""
        game = self.game
        if variant_of(game).gnubg_variant is None or game.turn == games_pb2.SEAT_UNSPECIFIED:
            return ""
        on_roll = 0 if game.turn == games_pb2.SEAT_0 else 1
        to_act = on_roll
        resignation = Resignation.NONE
        if game.phase == games_pb2.PHASE_DOUBLED:
            to_act = 1 - on_roll
        elif game.phase == games_pb2.PHASE_RESIGNING:
            to_act = 1 if game.resignation.seat == games_pb2.SEAT_0 else 0
            resignation = Resignation(min(int(game.resignation.result), 3))
        score = list(game.score) or [0, 0]
        owner = {games_pb2.SEAT_0: 0, games_pb2.SEAT_1: 1}.get(game.cube_owner)
        try:
            return MatchInfo(
                player_on_roll=on_roll,  # type: ignore[arg-type]
                player_to_act=to_act,  # type: ignore[arg-type]
                match_length=game.rule_set.match_length,
                score=(score[0], score[1]),
                cube_value=game.cube_value or 1,
                cube_owner=owner,  # type: ignore[arg-type]
                dice=(game.dice[0], game.dice[1])
                if game.phase == games_pb2.PHASE_PLAYING and game.dice
                else (0, 0),
                crawford=game.crawford,
                jacoby=game.rule_set.jacoby and not game.rule_set.match_length,
                game_state=GameStatus.PLAYING,
                double_offered=game.phase == games_pb2.PHASE_DOUBLED,
                resignation_offered=resignation,
            ).match_id()
        except InvalidMatchIdError:
            return ""

    # --- words -----------------------------------------------------------------------------------

    def _introduction(self) -> str:
        options = self.options
        rules = options.rule_set()
        length = (
            f"a {options.match_length}-point match" if options.match_length else "money play, game after game"
        )
        # A 1-point match has no cube (RULES.md), whatever the options say.
        with_cube = options.cube and _with_cube(options.variant) and options.match_length != 1
        cube = "with the cube" if with_cube else "without the cube"
        backgammons = ", backgammons scored as gammons" if options.backgammons == "AS_GAMMON" else ""
        if options.home_hit_and_run == "FORBIDDEN":
            backgammons += ", a checker that hits in its home board stays there"
        if rules.match_openings != "EVERY_GAME" and options.match_length:
            opener = "each side in turn" if rules.match_openings == "ALTERNATE" else "the winner of a game"
            backgammons += f", {opener} opens the next"
        clock = f", {_clock_words(options.clock, options.match_length)}" if options.clock is not None else ""
        words = f"{length}, {cube}{backgammons}{clock}"
        first = f"Game 1: {_VARIANT_TITLES[self.game.variant]}.\n" if self._tavli else ""
        return (
            f"tavli: you play {_TAVLI_TITLE if self._tavli else rules.rules.title} against the"
            f" {self.bot_name}: {words}.\n"
            f"Game {self.game.name}.\n" + self._help() + f"\n{first}"
        ).rstrip("\n")

    def _resign_levels(self) -> tuple[GameResult, ...]:
        """What the person may offer to resign: a backgammon only where backgammons are counted."""
        return self.options.rule_set().resign_levels

    def _help(self) -> str:
        levels = "|".join(level.value for level in self._resign_levels())
        cube = (
            "  At 'roll or double?' press Enter to roll or type double; answer a double with take or drop.\n"
            if self._may_double()
            else ""
        )
        forced = (
            "  Forced plays are made for you (--no-auto-forced turns that off).\n"
            if self.options.auto_forced
            else ""
        )
        clock = ""
        if self.options.clock is not None:
            clock = (
                "  Your clock runs while you decide: if your time runs out, you lose the "
                f"{self._lost_on_time()}.\n"
            )
        return (
            "You are X, at the bottom; the bot is O. Points are numbered from your side: you move from\n"
            "your 24-point down to your 1-point, then bear off.\n"
            f"  Type a play like {self._example_plays()}.\n"
            f"{cube}{forced}{clock}"
            f"  Commands: hint (a suggestion), board (draw it again), score, resign [{levels}], help, quit."
        )

    def _lost_on_time(self) -> str:
        """What a seat out of time loses: the match in match play, the game in money play."""
        return "match" if self.options.match_length else "game (at the cube's value)"

    def _example_plays(self) -> str:
        """How plays are written in the variant played, in examples: "13/7 8/7, bar/22 ... or 6/off"."""
        *most, last = variant_of(self.game).example_plays
        return f"{', '.join(most)} or {last}" if most else last

    def _hint(self) -> str:
        """GNU Backgammon's best play and the next best, from the server's evaluator; the
        heuristic bot's choice, said as such, where the game has no evaluator."""
        game = self.game
        variant = variant_of(game)
        dice = (int(game.dice[0]), int(game.dice[1]))
        why_not = _no_evaluator(variant)
        if why_not is None:
            try:
                ranked = self.client.ranked_plays(
                    variant.name, game.position_id, dice, self._evaluator_context()
                )
            except TavliServerError as error:
                why_not = f"GNU Backgammon cannot be asked ({error.message})"
            else:
                return _ranked_in_words(ranked)
        plays = list(variant.legal_plays(position_of(game), dice))
        best = bots.create("heuristic", seed=0).choose_play(variant, position_of(game), dice, plays)
        others = len(plays) - 1
        return (
            f"{why_not}. The heuristic bot would play {best.notation() or '(no move)'}"
            f" ({others} other legal play{'s' if others != 1 else ''})."
        )

    def _evaluator_context(self) -> analysis_pb2.GameContext:
        """The game as the evaluator is asked it, from the person's side (on roll)."""
        game, rule_set = self.game, self.game.rule_set
        owner = analysis_pb2.CUBE_OWNER_UNSPECIFIED
        if game.cube_owner != games_pb2.SEAT_UNSPECIFIED:
            mine = game.cube_owner == self.human.seat
            owner = analysis_pb2.CUBE_OWNER_PLAYER if mine else analysis_pb2.CUBE_OWNER_OPPONENT
        context = analysis_pb2.GameContext(
            cube_value=max(game.cube_value, 1), cube_owner=owner, plies=HINT_PLIES
        )
        if rule_set.match_length:
            context.match_length = rule_set.match_length
            context.player_score, context.opponent_score = self._score()
            context.crawford = game.crawford
        else:
            context.jacoby, context.beavers = rule_set.jacoby, rule_set.beavers
        return context

    def _who(self, seat: int) -> str:
        return "You" if seat == self.human.seat else f"The {self.bot_name}"

    def _may_double(self) -> bool:
        return self.options.cube and _with_cube(self.options.variant)

    # --- the streams -----------------------------------------------------------------------------

    def _read(self, prompt: str) -> str:
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            if self.echo:
                self.output.write("\n")
            raise _Quit
        text = line.strip()
        if self.echo:
            self.output.write(text + "\n")
        return text

    def _say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()


# --- the clocks --------------------------------------------------------------------------------


def _no_evaluator(variant: Variant) -> str | None:
    """Why GNU Backgammon cannot judge a play in ``variant``, or None where it can: it knows
    standard backgammon and nackgammon, with hit-and-run allowed in the home board."""
    if variant.gnubg_variant not in EVALUATED:
        return f"GNU Backgammon does not evaluate {variant.title}"
    if getattr(variant, "home_hit_and_run", "ALLOWED") != "ALLOWED":
        return f"GNU Backgammon does not know {variant.title} with hit-and-run forbidden"
    return None


def _ranked_in_words(ranked: list[analysis_pb2.RankedPlay]) -> str:
    """The best play with its equity and the next best with what it gives up."""
    best = ranked[0]
    if not best.play.notation:
        return "The roll cannot be played."
    said = f"GNU Backgammon's best play: {best.play.notation} (equity {best.equity:+.3f})"
    if len(ranked) == 1:
        return f"{said}, the only legal play."
    runner_up = ranked[1]
    return (
        f"{said}; next best {runner_up.play.notation} ({runner_up.equity:+.3f}, {runner_up.loss:.3f} worse)."
    )


def clocks_at(
    game: games_pb2.Game, now: float, *, x_seat: int, x_name: str = "X", o_name: str = "O"
) -> Clocks | None:
    """The clocks of ``game`` at ``now`` (seconds since the epoch), X being the seat ``x_seat``;
    None in a game without clocks."""
    if not game.rule_set.HasField("clock"):
        return None
    clocks = game.clocks
    reserves = _reserves_at(clocks, now)
    x = 0 if x_seat == games_pb2.SEAT_0 else 1
    running: Literal["X", "O"] | None = None
    if clocks.running != games_pb2.SEAT_UNSPECIFIED:
        running = "X" if clocks.running == x_seat else "O"
    return Clocks(
        x_name=x_name,
        o_name=o_name,
        x_time=reserves[x],
        o_time=reserves[1 - x],
        running=running,
        delay_left=_delay_left(clocks, now),
        move_limit_left=_move_limit_left(game, now),
    )


def _reserves_at(clocks: games_pb2.Clocks, now: float) -> list[float | None]:
    """Each seat's reserve at ``now``: the running seat's less the time since its turn's delay
    ended, never below 0; None for both in a clock with no reserve."""
    if not clocks.remaining:
        return [None, None]
    reserves: list[float | None] = [_seconds(left) for left in clocks.remaining]
    if clocks.running != games_pb2.SEAT_UNSPECIFIED:
        index = 0 if clocks.running == games_pb2.SEAT_0 else 1
        used = max(0.0, now - _seconds(clocks.delay_end_time))
        reserves[index] = max(0.0, _seconds(clocks.remaining[index]) - used)
    return reserves


def _delay_left(clocks: games_pb2.Clocks, now: float) -> float:
    """What is left at ``now`` of the running turn's delay (0 when no clock runs)."""
    if clocks.running == games_pb2.SEAT_UNSPECIFIED:
        return 0.0
    return max(0.0, _seconds(clocks.delay_end_time) - now)


def _move_limit_left(game: games_pb2.Game, now: float) -> float | None:
    """What is left at ``now`` of the running turn's move limit; None without a limit or a turn."""
    limit = _seconds(game.rule_set.clock.move_limit)
    if not limit or game.clocks.running == games_pb2.SEAT_UNSPECIFIED:
        return None
    return max(0.0, _seconds(game.clocks.turn_start_time) + limit - now)


def _seconds(stamp: Any) -> float:
    """A Duration or a Timestamp in seconds (a Timestamp's since the epoch)."""
    return float(stamp.ToNanoseconds()) / 1e9


def _clock_words(clock: ClockRules, match_length: int) -> str:
    """The clock in words: "with a clock (5:00 each for the match, a delay of 0:10 a turn)"."""
    words = []
    if clock.reserve:
        words.append(f"{clock_time(clock.reserve)} each for the {'match' if match_length else 'game'}")
    if clock.reserve_per_point:
        words.append(f"{clock_time(clock.reserve_per_point)} more a point of the match")
    if clock.delay:
        words.append(f"a delay of {clock_time(clock.delay)} a turn")
    if clock.move_limit:
        words.append(f"at most {clock_time(clock.move_limit)} a turn")
    return f"with a clock ({', '.join(words)})"


def _dice_words(dice: Any) -> str:
    """A roll as players say it, the higher die first: 6-5."""
    return "-".join(str(die) for die in sorted(dice, reverse=True))


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _fail(message: str) -> int:
    print(f"tavli play: {message}", file=sys.stderr)
    return 2
