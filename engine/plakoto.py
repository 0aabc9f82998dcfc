"""Plakoto: pinning instead of hitting, the mother rule and draws (RULES.md, "Plakoto").

The sides move as in backgammon (my point ``p`` is the opponent's ``25 - p``), all 15 checkers
starting on the side's 24-point. A checker landing on a lone opposing checker pins it; a pinned
checker cannot move until the last opposing checker leaves its point. The pins are the position's
:class:`~tavli.engine.position.Pins`. After every step the mother rule is tested: a side whose last
checker on its 24-point is pinned loses, unless the pinner still has checkers on its own 24-point
(the mother exception); two pinned mothers are a draw. A step that ends the game ends the play.
"""

from __future__ import annotations

from typing import Literal

from tavli.engine import core
from tavli.engine.errors import GameOverError, InvalidPositionError
from tavli.engine.play import PLAIN_STEPS, Dice, Play, Step
from tavli.engine.position import BAR, OFF, Checkers, Pins, Point, Position
from tavli.engine.variant import (
    GameResult,
    LegalPlays,
    Variant,
    bear_off_refusal,
    bear_off_start,
    dice_with_rest,
    is_better_way,
)

MOTHER_POINT: Point = 24
"""Where each side starts, and where its *mother*, its last checker there, may be pinned."""

_START: Checkers = tuple(15 if point == MOTHER_POINT else 0 for point in range(26))

MotherLoser = Literal["player", "opponent", "both"]


class Plakoto(Variant):
    """Plakoto as RULES.md describes it, with the options that change how checkers move.

    ``pinned_blocks_bear_off`` (default on): no checker is borne off while one of the side's is
    pinned. ``mother_exception`` (default on): a pinned mother does not lose while the pinner still
    has checkers on its own 24-point. A rule set's instance comes from
    :func:`tavli.engine.variants.variant_with`, which builds one per set of options.
    """

    name = "plakoto"
    title = "plakoto"
    hits = False
    pins = True
    cube = False
    default_opening = "WINNER_ROLLS_AGAIN"
    default_match_openings = "WINNER_OPENS"
    resign_levels = (GameResult.SINGLE, GameResult.GAMMON)
    mat_variation = "Plakoto"
    gnubg_variant = None
    same_way_round = False
    example_plays = ("24/18 24/19", "24/13", "13/7(2)", "6/off")
    move_options = ("pinned_blocks_bear_off", "mother_exception")
    compiled_rules: int | None = core.PLAKOTO_RULES

    def __init__(self, *, pinned_blocks_bear_off: bool = True, mother_exception: bool = True) -> None:
        self.pinned_blocks_bear_off = pinned_blocks_bear_off
        self.mother_exception = mother_exception
        # The compiled core plays the default options only.
        if not (pinned_blocks_bear_off and mother_exception):
            self.compiled_rules = None

    def __repr__(self) -> str:
        return (
            f"<Plakoto pinned_blocks_bear_off={self.pinned_blocks_bear_off}"
            f" mother_exception={self.mother_exception}>"
        )

    def start_position(self) -> Position:
        return Position.trusted(_START, _START)

    def opponent_point(self, point: Point) -> Point:
        return 25 - point

    # --- which positions can be -----------------------------------------------------------------

    def validate(self, position: Position) -> None:
        """Check the position can occur: no bar, and on each point either one side's checkers
        alone, or one side's free checkers on top of exactly one pinned checker of the other.

        :raises InvalidPositionError: with what makes it impossible.
        """
        self.check_checkers(position)
        player, opponent = position
        pins = position.pins
        for name, checkers in (("the player", player), ("the opponent", opponent)):
            if checkers[BAR]:
                raise InvalidPositionError(f"{name} has a checker on the bar; plakoto has no bar")
        for name, pinned_points in (("the player", pins.player), ("the opponent", pins.opponent)):
            for point in pinned_points:
                if not 2 <= point <= 24:
                    raise InvalidPositionError(
                        f"{name} has a checker pinned on its {point}-point: the pinners would stand on"
                        " their own 24-point or beyond, where no checker ever lands"
                    )
        for point in range(1, 25):
            mine, theirs = player[point], opponent[25 - point]
            mine_pinned, theirs_pinned = point in pins.player, 25 - point in pins.opponent
            where = f"the player's {point}-point (the opponent's {25 - point}-point)"
            if mine_pinned and theirs_pinned:
                raise InvalidPositionError(
                    f"both sides have a checker pinned on {where}: a point holds one pin"
                )
            if mine_pinned or theirs_pinned:
                pinned, pinners, whose = (
                    (mine, theirs, "player") if mine_pinned else (theirs, mine, "opponent")
                )
                if pinned != 1:
                    raise InvalidPositionError(
                        f"the {whose} has {pinned} checkers on {where}, one of them pinned:"
                        " only a lone checker is pinned"
                    )
                if not pinners:
                    raise InvalidPositionError(
                        f"the {whose}'s checker on {where} is pinned under no opposing checker"
                    )
            elif mine and theirs:
                raise InvalidPositionError(f"both sides have checkers on {where} and neither is pinned")
        if player[OFF] == 15 and opponent[OFF] == 15:
            raise InvalidPositionError("both sides have borne off all their checkers")

    def check_position(self, position: Position) -> None:
        self.validate(position)
        if self.result(position) is not None:
            raise GameOverError(f"the game is over: {self._ending_in_words(position)}")

    # --- how a game ends ------------------------------------------------------------------------

    def mother_loser(self, position: Position) -> MotherLoser | None:
        """Whose pinned mother ends the game (``"both"``: a draw), if the mother rule ends it."""
        player, opponent = position
        pins = position.pins
        mine = player[MOTHER_POINT] == 1 and MOTHER_POINT in pins.player
        theirs = opponent[MOTHER_POINT] == 1 and MOTHER_POINT in pins.opponent
        if mine and theirs:
            return "both"
        # The exception: while the pinner still has a checker on its own 24-point, its own mother
        # can still be pinned, and the game goes on.
        if mine and not (self.mother_exception and opponent[MOTHER_POINT]):
            return "player"
        if theirs and not (self.mother_exception and player[MOTHER_POINT]):
            return "opponent"
        return None

    def result(self, position: Position) -> GameResult | None:
        """How the game stands ended: a side bore off its 15th checker (single or gammon), a
        mother was pinned (``MOTHER``, lost by the side whose mother it is) or both were
        (``DRAW``); ``None`` while it goes on. A play ends the game only in the mover's favour
        or in a draw."""
        player, opponent = position
        if player[OFF] == 15 or opponent[OFF] == 15:
            loser = opponent if player[OFF] == 15 else player
            return GameResult.SINGLE if loser[OFF] else GameResult.GAMMON
        if not position.pins:  # the move generator asks of every board it reaches: most have none
            return None
        mother_loser = self.mother_loser(position)
        if mother_loser is None:
            return None
        return GameResult.DRAW if mother_loser == "both" else GameResult.MOTHER

    def most_to_lose(self, position: Position) -> GameResult:
        return GameResult.SINGLE if position.player[OFF] else GameResult.GAMMON

    def player_won(self, position: Position) -> bool:
        return position.player[OFF] == 15 or self.mother_loser(position) == "opponent"

    def _ending_in_words(self, position: Position) -> str:
        if position.player[OFF] == 15:
            return "you have borne off all 15 checkers"
        if position.opponent[OFF] == 15:
            return "your opponent has borne off all 15 checkers"
        loser = self.mother_loser(position)
        if loser == "both":
            return "both mothers are pinned, and the game is drawn"
        if loser == "player":
            return "your mother, your last checker on your 24-point, is pinned"
        return "your opponent's mother, its last checker on its 24-point, is pinned"

    # --- the checked path -----------------------------------------------------------------------

    def step(
        self, position: Position, start: Point, die: int, *, taken: tuple[Step, ...], dice: Dice
    ) -> Step | str:
        player = position.player
        if taken and self.result(position) is not None:
            return f"the game ended with your last step: {self._ending_in_words(position)}"
        if start == OFF:
            return "a checker borne off is out of play: it cannot move again"
        if start == BAR:
            return "plakoto has no bar: every checker moves from a point"
        if not player[start]:
            return f"you have no checker on your {start}-point"
        if start in position.pins.player:
            return (
                f"the checker on your {start}-point is pinned: it cannot move until your opponent"
                " leaves that point"
            )
        end = start - die
        if end <= 0:
            if self._pin_stops_bear_off(position) and not any(player[7:25]):
                pinned = position.pins.player[0]
                return (
                    f"a pinned checker stops you bearing off: your checker on your {pinned}-point is pinned"
                )
            return bear_off_refusal(player, start, die, outside="outside your home board")
        if not _may_land(position, end):
            if end in position.pins.player:
                return (
                    f"the {die} cannot be played from your {start}-point: your opponent holds your"
                    f" {end}-point, pinning your checker there"
                )
            return f"the {die} cannot be played from your {start}-point: your opponent holds your {end}-point"
        return Step(start, end, die, False)

    def _pin_stops_bear_off(self, position: Position) -> bool:
        """Whether a pinned checker of the side on roll stops it bearing off (``pinned_blocks_bear_off``)."""
        return self.pinned_blocks_bear_off and bool(position.pins.player)

    def position_after(self, position: Position, steps: tuple[Step, ...]) -> Position:
        """The position after ``steps``: a checker landing on a lone opposing checker pins it, and
        a pinned checker is freed when the last of the mover's checkers leaves its point."""
        for step in steps:
            position = _after_step(position, step)
        return position

    # --- the generator --------------------------------------------------------------------------

    def _pure_plays(self, position: Position, dice: Dice) -> LegalPlays:
        plays = self._step_sequences(position, dice)
        ending = [play.position for play in plays if self.result(play.position) is not None]
        return self._apply_maximum_use(position, dice, plays, ending=ending)

    def _step_sequences(self, position: Position, dice: Dice) -> list[Play]:
        # Every order of the dice and of the checkers is searched, each board reached with the same
        # dice left once: a step that ends the game stops the play there, so the order of a
        # double's steps decides which positions can be reached.
        high, low = dice
        found: dict[Position, tuple[Step, ...]] = {}
        self._search(found, set(), position, (high,) * 4 if high == low else (high, low), ())
        return [Play.trusted(steps, result) for result, steps in found.items()]

    def _search(
        self,
        found: dict[Position, tuple[Step, ...]],
        searched: set[tuple[Position, tuple[int, ...]]],
        current: Position,
        left: tuple[int, ...],
        steps: tuple[Step, ...],
    ) -> None:
        """Add to ``found`` (each board reached, and the best way to it) the boards ``steps``
        and the dice ``left`` reach from ``current``; ``searched`` holds the boards already
        searched with the dice they had left. A board reached with the last die is only kept:
        nothing is searched from it (most boards are)."""
        key = (current, left)
        if key in searched:
            return
        searched.add(key)
        if is_better_way(steps, found.get(current)):
            found[current] = steps
        if steps and self.result(current) is not None:
            return
        for die, rest in dice_with_rest(left):
            for step in self._steps(current, die):
                after, way = _after_step(current, step), (*steps, step)
                if rest:
                    self._search(found, searched, after, rest, way)
                elif is_better_way(way, found.get(after)):
                    found[after] = way

    def _steps(self, position: Position, die: int) -> list[Step]:
        """The single steps ``die`` allows the side on roll (what :meth:`step` allows, listed)."""
        player = position.player
        pinned = position.pins.player
        moves = PLAIN_STEPS[die]
        steps = [
            moves[start]
            for start in range(24, die, -1)
            if player[start] and start not in pinned and _may_land(position, start - die)
        ]
        if not any(player[7:25]) and not self._pin_stops_bear_off(position):
            start = bear_off_start(player, die, 6)
            if start is not None and start not in pinned:
                steps.append(Step(start, OFF, die, False))
        return steps


def _may_land(position: Position, end: Point) -> bool:
    """Whether a checker of the side on roll may land on its point ``end`` (1-24). The landing
    rule, stated once: never where the opponent has two or more checkers, nor where the
    opponent's checkers pin one of the mover's. A lone opposing checker is pinned by the landing;
    a pinned one is under the mover's own checkers already."""
    return position.opponent[25 - end] < 2 and end not in position.pins.player


def _after_step(position: Position, step: Step) -> Position:
    player = list(position.player)
    opponent = position.opponent
    start, end, _, _ = step
    player[start] -= 1
    player[end] += 1
    pins = position.pins
    # The mover's point p is the opponent's 25 - p: a lone checker there is pinned by the landing
    # (one pinned already stays so), and what the mover's last checker to leave pinned is freed.
    pinned = end != OFF and opponent[25 - end] == 1 and 25 - end not in pins.opponent
    freed = not player[start] and 25 - start in pins.opponent
    if pinned or freed:
        theirs = set(pins.opponent)
        if pinned:
            theirs.add(25 - end)
        if freed:
            theirs.discard(25 - start)
        pins = Pins(pins.player, tuple(sorted(theirs)))
    return Position.with_pins(tuple(player), opponent, pins)
