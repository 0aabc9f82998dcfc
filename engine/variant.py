"""What every variant shares: the maximum-use rule, the legal-play view and the checked entry points.

A variant is a sibling class of :class:`Variant` that says how a step may move, where the sides
start, which of its positions are possible and how a finished game scores. Legal plays come from
its ``_step_sequences``: every sequence of steps it allows, each with the position it leads to.
The base class keeps, from those, the plays the maximum-use rule allows, each position once.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from tavli.engine import core, wire
from tavli.engine.checking import GivenStep, check_play, higher_first
from tavli.engine.errors import GameOverError, InvalidPositionError
from tavli.engine.notation import read_play
from tavli.engine.play import Dice, Play, Step, check_dice
from tavli.engine.position import BAR, CHECKERS_PER_SIDE, OFF, Checkers, Point, Position

if TYPE_CHECKING:
    from tavli.engine._core import CompiledPlays
    from tavli.engine.events import ResignLevel  # (only a name for the annotations: the events'
    # module is not imported by a program that needs the rules alone, such as check-match's core path)

VariantName = Literal["backgammon", "long-nardi", "plakoto", "fevga"]


class GameResult(enum.Enum):
    """How a finished game was won."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    MARS = "mars"  # long nardi's gammon: the loser has borne off none
    MOTHER = "mother"  # Plakoto: the loser's last checker on its 24-point is pinned
    DRAW = "draw"  # Plakoto: both sides' mothers are pinned; nobody wins

    @property
    def multiplier(self) -> int:
        """What the win is worth, before the cube: 1, 2 or 3 (a draw 0; a mother loss 2 unless
        the rule set says 3, :meth:`~tavli.engine.rules.RuleSet.multiplier`)."""
        return _MULTIPLIERS[self]

    @property
    def resign_level(self) -> ResignLevel:
        """The result as a resignation offers it (a mother loss or a draw is never offered: KeyError)."""
        return _RESIGN_LEVELS[self]


_RESIGN_LEVELS: dict[GameResult, ResignLevel] = {
    GameResult.SINGLE: "single",
    GameResult.GAMMON: "gammon",
    GameResult.BACKGAMMON: "backgammon",
    GameResult.MARS: "mars",
}

_MULTIPLIERS = {
    GameResult.SINGLE: 1,
    GameResult.GAMMON: 2,
    GameResult.BACKGAMMON: 3,
    GameResult.MARS: 2,
    GameResult.MOTHER: 2,
    GameResult.DRAW: 0,
}


class LegalPlays:
    """The legal plays of one position and roll: iterate, ``len``, ``in`` (a play or a position).

    The plays come as :class:`~tavli.engine.play.Play` objects, or from the compiled core as C data
    that is made into them only when they are read: :meth:`position_ids` and :meth:`notations`
    answer from that data directly, for callers that want only those.
    """

    __slots__ = ("_by_position", "_compiled", "_plays", "dice", "position")

    def __init__(self, position: Position, dice: Dice, plays: list[Play]) -> None:
        """``plays`` must lead to distinct positions."""
        self.position = position
        self.dice = dice
        self._plays: list[Play] | None = plays
        self._compiled: CompiledPlays | None = None
        self._by_position: dict[Position, Play] | None = None

    @classmethod
    def from_compiled(cls, position: Position, dice: Dice, compiled: CompiledPlays) -> LegalPlays:
        """The plays the compiled core found for ``position`` and ``dice``."""
        legal = cls.__new__(cls)
        legal.position = position
        legal.dice = dice
        legal._plays = None
        legal._compiled = compiled
        legal._by_position = None
        return legal

    @property
    def _all(self) -> list[Play]:
        if self._plays is None:
            assert self._compiled is not None
            self._plays = self._compiled.plays()
        return self._plays

    def __iter__(self) -> Iterator[Play]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._compiled) if self._plays is None else len(self._plays)  # type: ignore[arg-type]

    def __getitem__(self, index: int) -> Play:
        """The play at ``index`` in the order of the plays (a bot's pick costs that play alone)."""
        if self._plays is None:
            assert self._compiled is not None
            return self._compiled.play(index)
        return self._plays[index]

    def __contains__(self, item: object) -> bool:
        """Whether ``item`` is one of the plays (its steps in any order: ``6/4 4/2 6/4 4/2`` is
        the listed ``6/4 6/4 4/2 4/2``), or a position one of them leads to."""
        if isinstance(item, Play):
            listed = self.leading_to(item.position)
            return listed is not None and sorted(listed.steps) == sorted(item.steps)
        return isinstance(item, Position) and self.leading_to(item) is not None

    def leading_to(self, position: Position) -> Play | None:
        """The legal play that leads to ``position``, if there is one."""
        if self._by_position is None:
            self._by_position = {play.position: play for play in self._all}
        return self._by_position.get(position)

    @property
    def dice_used(self) -> int:
        """How many dice every legal play uses (0 when the roll cannot be played)."""
        if self._plays is None:
            assert self._compiled is not None
            return self._compiled.dice_used
        return self._plays[0].dice_used

    def position_ids(self) -> list[str]:
        """The Position ID each play leads to (the mover still first), in the order of the plays."""
        if self._plays is None:
            assert self._compiled is not None
            return self._compiled.position_ids()
        return [play.position.position_id() for play in self._plays]

    def plays_field(self, field: int) -> bytes:
        """The plays, in their order, as the repeated field number ``field`` of a protobuf message
        that holds tavli.v1's ``Play`` messages, in protobuf's wire format: what a server joins to
        the rest of its answer (:mod:`tavli.engine.wire`; in C with the compiled core)."""
        if self._plays is None:
            assert self._compiled is not None
            return self._compiled.plays_field(field)
        return wire.plays_field(field, ((play.steps, play.position.position_id()) for play in self._plays))

    def notations(self) -> list[str]:
        """Each play in standard notation, in the order of the plays."""
        if self._plays is None:
            assert self._compiled is not None
            return self._compiled.notations()
        return [play.notation() for play in self._plays]

    def __repr__(self) -> str:
        plays = ", ".join(play.notation() or "(no play)" for play in self)
        return f"<LegalPlays {self.position!r} {self.dice[0]}-{self.dice[1]}: {plays}>"


class Variant(ABC):
    """A rule set for moving checkers, and everything else that differs between variants.

    Instances are stateless and shared; the registry of variants is :mod:`tavli.engine.variants`.
    Code outside a variant's own module asks it (``variant.hits``, ``variant.resign_levels``),
    never compares its name.
    """

    name: ClassVar[VariantName]
    """The variant's name in the API and in rule sets: ``"backgammon"``, ``"long-nardi"``."""

    title: str
    """The variant's name in a player's words: "backgammon", "long nardi", "nackgammon"."""

    hits: ClassVar[bool]
    """Whether a checker landing on a lone opposing checker hits it (and so whether there is a bar)."""

    pins: ClassVar[bool] = False
    """Whether a checker landing on a lone opposing checker pins it (Plakoto): positions may then
    carry :class:`~tavli.engine.position.Pins`, and only then."""

    cube: ClassVar[bool]
    """Whether the doubling cube may be played at all (rule sets may still leave it out)."""

    default_opening: ClassVar[Literal["PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"]]
    """How a game starts unless the rule set says otherwise."""

    fixed_opening: ClassVar[bool] = False
    """Whether the variant allows no other opening than its own (long nardi: the opening throw is
    never played)."""

    default_match_openings: ClassVar[Literal["EVERY_GAME", "WINNER_OPENS"]] = "EVERY_GAME"
    """Who opens the later games of a match unless the rule set says otherwise."""

    resign_levels: ClassVar[tuple[GameResult, ...]]
    """What a side may offer to resign, from the least to the most: single first."""

    mat_variation: str | None
    """The ``; [Variation "..."]`` header a .mat file names the variant with (``None``: the
    variant a .mat file is assumed to be without one). An instance may name its own (nackgammon)."""

    gnubg_variant: str | None
    """The variant as GNU Backgammon names it, if it plays it (``None``: it does not)."""

    checkers: int = CHECKERS_PER_SIDE
    """How many checkers a side has: 15, or 1-3 in hypergammon. Bearing off, the result and the
    Position ID count to it."""

    same_way_round: ClassVar[bool]
    """Whether both sides move the same way round the board, so that the opponent's points are the
    player's half a turn on (long nardi) rather than the player's mirrored (backgammon)."""

    example_plays: ClassVar[tuple[str, ...]]
    """Plays in standard notation, one of each kind the variant has, to show a player how to write them."""

    move_options: ClassVar[tuple[str, ...]] = ()
    """The rule set's options that change how this variant's checkers move: the keyword arguments
    of its constructor, each named as the rule set names it (:func:`~tavli.engine.variants.variant_with`)."""

    compiled_rules: int | None = None
    """Which moves of the compiled core (:mod:`tavli.engine.core`) are this variant's, if any: its
    legal plays, the check of a given play and of a position then run there. A subclass that
    changes how checkers move or which positions and plays are allowed has none, unless it says."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "compiled_rules" not in cls.__dict__ and any(name in cls.__dict__ for name in _MOVE_RULES):
            cls.compiled_rules = None

    @abstractmethod
    def start_position(self) -> Position:
        """The position before the first roll of a game."""

    @abstractmethod
    def opponent_point(self, point: Point) -> Point:
        """The opponent's number for the mover's ``point`` (1-24)."""

    def validate(self, position: Position) -> None:
        """Check that ``position`` can occur in this variant: no point holds both sides' checkers,
        and not both sides have borne off all theirs. Variants add their own checks.

        :raises InvalidPositionError: with what makes it impossible.
        """
        if position.pins and not self.pins:
            raise InvalidPositionError(f"{self.title} has no pinned checkers, and this position pins some")
        self.check_checkers(position)
        player, opponent = position
        for point in range(1, 25):
            if player[point] and opponent[self.opponent_point(point)]:
                raise InvalidPositionError(
                    f"both sides have checkers on the player's {point}-point"
                    f" (the opponent's {self.opponent_point(point)}-point)"
                )
        if player[OFF] == self.checkers and opponent[OFF] == self.checkers:
            raise InvalidPositionError("both sides have borne off all their checkers")

    def check_checkers(self, position: Position) -> None:
        """Check that each side of ``position`` has the variant's :attr:`checkers`.

        :raises InvalidPositionError: with how many it has.
        """
        player, opponent = position
        if sum(player) != self.checkers or sum(opponent) != self.checkers:
            raise InvalidPositionError(
                f"each side has {self.checkers} checkers in {self.title}, not {sum(player)}"
            )

    @abstractmethod
    def most_to_lose(self, position: Position) -> GameResult:
        """The most the side on roll (the player) can still lose this game by, on the board
        alone (RULES.md, Resigning); the game's rules may lower it (Jacoby)."""

    @abstractmethod
    def result(self, position: Position) -> GameResult | None:
        """How the game stands won, if a side has borne off all its checkers; else ``None``.

        The winner is whichever side has borne off all its :attr:`checkers`; the result says by how much.
        """

    def player_won(self, position: Position) -> bool:
        """Whether the game in ``position`` is over and won by the side on roll (the player)."""
        return position.player[OFF] == self.checkers

    @abstractmethod
    def _step_sequences(self, position: Position, dice: Dice) -> list[Play]:
        """The plays the variant's steps allow with ``dice``, before the maximum-use rule.

        Each resulting position comes once, with the longest sequence of steps that reaches it (of
        two one-step ways, the higher die's). Every position that a sequence which cannot be
        extended reaches must be there; others may be too (a variant whose rules judge the
        finished play needs them). The order of a double's steps may be fixed to spare
        permutations, as long as every reachable position is reached.
        """

    @abstractmethod
    def step(
        self, position: Position, start: Point, die: int, *, taken: tuple[Step, ...], dice: Dice
    ) -> Step | str:
        """The step of ``die`` from ``start`` if the rules allow it now, else why not, in words.

        ``position`` is the board after ``taken``, the steps already played this turn with ``dice``.
        This is the checked path that explains refusals; :meth:`legal_plays` does not use it.
        """

    def refusal_of_play(self, position: Position) -> str | None:
        """Why a play that led to ``position`` is not allowed, for rules that judge the whole play."""
        return None

    def refusal_of_duty(self, position: Position, dice: Dice, after: Position) -> str | None:
        """Why a play from ``position`` to ``after`` that every other rule allows is not, for a duty
        laid on the whole turn once the maximum-use rule has chosen (Fevga's unblocking)."""
        return None

    def position_after(self, position: Position, steps: tuple[Step, ...]) -> Position:
        """The position after ``steps`` (the mover still first); hit checkers go to the bar."""
        player = list(position.player)
        opponent = list(position.opponent)
        for step in steps:
            player[step.start] -= 1
            player[step.end] += 1
            if step.hit:
                opponent[self.opponent_point(step.end)] -= 1
                opponent[BAR] += 1
        return Position.trusted(tuple(player), tuple(opponent))

    def check_valid(self, position: Position) -> None:
        """:meth:`validate`, answered by the compiled core when it has this variant's rules (and
        by :meth:`validate`, which says what is wrong, when the core finds anything).

        :raises InvalidPositionError: for a position this variant cannot have.
        """
        if not self._valid_by_the_core(position, in_play=False):
            self.validate(position)

    def _valid_by_the_core(self, position: Position, *, in_play: bool) -> bool:
        """Whether the compiled core, where it has this variant's rules for ``position`` (their
        checkers, no pins), finds it valid (``in_play``: and its game not over)."""
        rules, compiled = self.compiled_rules, core.compiled
        return (
            rules is not None
            and compiled is not None
            and position.checkers == self.checkers
            and not position.pins
            and compiled.valid(rules, position, in_play=in_play)
        )

    def check_position(self, position: Position) -> None:
        """Check that ``position`` can occur in this variant and its game is not over.

        :raises InvalidPositionError: for a position this variant cannot have.
        :raises GameOverError: if a side has already borne off all its checkers.
        """
        if self._valid_by_the_core(position, in_play=True):
            return
        self.validate(position)
        if self.result(position) is not None:
            who = "you have" if position.player[OFF] == self.checkers else "your opponent has"
            raise GameOverError(f"the game is over: {who} borne off all {self.checkers} checkers")

    def check_play(self, position: Position, dice: Dice, steps: Sequence[GivenStep]) -> Play:
        """The legal play made of ``steps``, each one checker moved by one die (a :class:`Step`,
        or its start and end: the die and the hit follow from the board), in an order in which
        they can be played. A play that uses every die is judged without listing the others.

        :raises InvalidPlayError: for a step no checker can make on any board (``6/8``).
        :raises IllegalPlayError: if it is not legal here; its ``why`` says why not in words.
        :raises InvalidDiceError: for dice that cannot be rolled.
        :raises InvalidPositionError: for a position this variant cannot have.
        :raises GameOverError: if a side has already borne off all its checkers.
        """
        return check_play(self, position, dice, steps)

    def parse_play(self, position: Position, dice: Dice, text: str) -> Play:
        """The legal play that ``text`` writes in standard notation, in any equivalent form:
        the notation read, then the play checked as :meth:`check_play` checks it.

        :raises InvalidPlayError: if ``text`` cannot be read as a play.
        :raises AmbiguousPlayError: if it could mean more than one play.
        :raises IllegalPlayError: if it is not legal here; its ``why`` says why not in words.
        :raises InvalidDiceError: for dice that cannot be rolled.
        :raises InvalidPositionError: for a position this variant cannot have.
        :raises GameOverError: if a side has already borne off all its checkers.
        """
        if isinstance(dice, tuple) and all(isinstance(die, int) for die in dice):
            return _read_play(self, position, dice, text)
        return read_play(self, position, dice, text)

    def legal_plays(self, position: Position, dice: Dice) -> LegalPlays:
        """The legal plays of the side on roll, each resulting position once.

        :raises InvalidDiceError: for dice that cannot be rolled.
        :raises InvalidPositionError: for a position this variant cannot have.
        :raises GameOverError: if a side has already borne off all its checkers.
        """
        return _checked_legal_plays(self, position, higher_first(check_dice(dice)))

    def generate_plays(self, position: Position, dice: Dice) -> LegalPlays:
        """:meth:`legal_plays` without checks or cache, for search loops that own a valid position.

        ``dice`` must be two dice from 1 to 6, the higher first.
        """
        rules = self.compiled_rules
        if rules is not None and core.compiled is not None:
            return LegalPlays.from_compiled(position, dice, core.compiled.legal_plays(rules, position, *dice))
        return self._pure_plays(position, dice)

    def _pure_plays(self, position: Position, dice: Dice) -> LegalPlays:
        """:meth:`generate_plays` in pure Python: the reference the compiled core is held to."""
        return self._apply_maximum_use(position, dice, self._step_sequences(position, dice))

    def _apply_maximum_use(
        self, position: Position, dice: Dice, plays: list[Play], *, ending: Collection[Position] = ()
    ) -> LegalPlays:
        """The plays the maximum-use and higher-die rules leave of ``plays``. A play that ends the
        game (its position in ``ending``) stops there and counts as using the whole roll: when one
        does, the legal plays are those and the plays that use every die."""
        if ending:
            whole = 4 if dice[0] == dice[1] else 2
            every_die = [play for play in plays if len(play.steps) == whole]
            ended = [play for play in plays if len(play.steps) < whole and play.position in ending]
            return LegalPlays(position, dice, every_die + ended)
        if not plays:
            return LegalPlays(position, dice, [Play.trusted((), position)])
        most = len(plays[0][0])
        if any(len(steps) != most for steps, _ in plays):  # usually every play uses as many dice
            most = max(len(steps) for steps, _ in plays)
            plays = [play for play in plays if len(play[0]) == most]
        if most == 0:
            return LegalPlays(position, dice, [Play.trusted((), position)])
        if most == 1 and dice[0] != dice[1]:
            higher = max(dice)
            plays = [play for play in plays if play[0][0].die == higher] or plays
        return LegalPlays(position, dice, plays)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


# What a variant defines when its moves are not those of the compiled rules it inherits.
_MOVE_RULES = (
    "step",
    "_step_sequences",
    "_pure_plays",
    "generate_plays",
    "refusal_of_play",
    "refusal_of_duty",
    "refusal_to_move",
    "refusal_to_land",
    "validate",
    "opponent_point",
)


# A GUI lists the plays and then validates the one its user picks: the second query is a cache hit.
@lru_cache(maxsize=4096)
def _checked_legal_plays(variant: Variant, position: Position, dice: Dice) -> LegalPlays:
    variant.check_position(position)
    return variant.generate_plays(position, dice)


# A play is read once: a bot or a load test sending the same text again pays a dictionary lookup.
@lru_cache(maxsize=4096)
def _read_play(variant: Variant, position: Position, dice: Dice, text: str) -> Play:
    return read_play(variant, position, dice, text)


@cache
def dice_with_rest(left: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each die of ``left`` once (a double's are alike), with the dice left after it is played."""
    return tuple(
        (die, left[:index] + left[index + 1 :]) for index, die in enumerate(left) if die not in left[:index]
    )


def is_better_way(steps: tuple[Step, ...], known: tuple[Step, ...] | None) -> bool:
    """Whether ``steps`` should replace ``known`` as the way to the position both reach: the
    longer way wins (a checker may bear off with one die or with two), and of two one-die ways
    the higher die's (see ``Variant._step_sequences``)."""
    return (
        known is None
        or len(steps) > len(known)
        or (len(steps) == len(known) == 1 and steps[0].die > known[0].die)
    )


def bear_off_refusal(player: Checkers, start: Point, die: int, *, outside: str) -> Step | str:
    """The step bearing a checker off from ``start`` with ``die``, or why it may not.

    For a side with a checker on ``start`` and ``die`` at least ``start`` (the step would leave the
    board). :func:`bear_off_start` decides; this only puts its refusal into words. ``outside``
    names where checkers may stand that forbid bearing off ("outside your home board" or
    "outside your home board or on the bar").
    """
    if bear_off_start(player, die, 6) == start:
        return Step(start, OFF, die, False)
    if any(player[7:26]):
        return f"you cannot bear off while you have checkers {outside}"
    higher = next((point for point in range(6, start, -1) if player[point]), None)
    if higher is None:  # only when the caller broke the precondition: no checker on ``start``
        return f"you have no checker on your {start}-point"
    return (
        f"the {die} bears off from your {start}-point only when no checker stands higher:"
        f" you have one on your {higher}-point"
    )


def bear_off_start(player: Checkers | list[int], die: int, highest: Point) -> Point | None:
    """The point from which ``die`` bears a checker off, if any; only points up to ``highest``
    are considered (the generator's order of a double's steps).

    The rule of bearing off, stated once (:func:`bear_off_refusal` words its refusals): only with
    every checker home (none on points 7-24 or the bar); a die bears off from its own point; a
    higher die bears off from the highest occupied point, and only when no checker stands higher.
    """
    if any(player[7:26]):
        return None
    if die <= highest and player[die]:
        return die
    for start in range(min(6, highest), 0, -1):
        if player[start]:
            if start < die and not any(player[start + 1 : 7]):
                return start
            return None
    return None
