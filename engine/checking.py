"""Judging one given play: legal or not, and if not, why, in a player's words.

A play is given as moves from point to point, each with the dice it takes (one die a move when
given as steps; one or more when read from notation, ``24/13`` taking a 6 and a 5). The moves are
played in turn with the variant's :meth:`~tavli.engine.variant.Variant.step`, which allows or refuses
each step. A play that uses every die this way is legal unless the variant refuses the finished
play (long nardi's six points in a row): no other play need be listed to know. A play that uses
fewer dice is legal only when no play uses more, or the higher die (the maximum-use rule), which
takes the legal plays to decide.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from tavli.engine import core
from tavli.engine.errors import IllegalPlayError, InvalidPlayError
from tavli.engine.play import Dice, Play, Step, check_dice
from tavli.engine.position import BAR, OFF, Point, Position, point_name

if TYPE_CHECKING:
    from tavli.engine.variant import LegalPlays, Variant

Move: TypeAlias = tuple[Point, Point]
"""A checker's move from a point to a lower one (:data:`BAR` = 25 to start, :data:`OFF` = 0 to end)."""

GivenStep: TypeAlias = "Step | Move"
"""A step as a player gives it: a :class:`Step` (its die and hit are not read) or a move."""

_Given = TypeVar("_Given", Step, Move)


def check_play(variant: Variant, position: Position, dice: Dice, given: Sequence[GivenStep]) -> Play:
    """The legal play made of the ``given`` steps, each one checker moved by one die (the dice
    and the hits follow from the board). Its steps keep the order given, unless they cannot be
    played in it.

    :raises InvalidPlayError: for a move that no checker can make on any board (25/27, 6/8).
    :raises IllegalPlayError: if the play is not legal here; its ``why`` says why not.
    """
    dice = higher_first(check_dice(dice))
    variant.check_position(position)
    moves = [check_move(step[0], step[1]) for step in given]
    play = compiled_check(variant, position, dice, moves)
    if play is not None:
        return play
    written = " ".join(f"{point_name(start)}/{point_name(end)}" for start, end in moves)
    ways, refusal = follow(variant, position, dice, moves, one_die=True)
    for order in other_orders(moves):
        if ways:
            break
        ways, _ = follow(variant, position, dice, order, one_die=True)
    if not ways:
        raise IllegalPlayError(written, position.position_id(), dice, refusal)
    return finish(variant, position, dice, written, ways[0])


def compiled_check(variant: Variant, position: Position, dice: Dice, moves: Sequence[Move]) -> Play | None:
    """The play of ``moves`` (one die each, ``dice`` the higher first) when the compiled core allows
    it at once: the commonest play, one that uses every die. ``None`` where there is no core for
    the variant or the pure code must decide (and say why, if it refuses)."""
    rules = variant.compiled_rules
    if rules is None or core.compiled is None:
        return None
    play: Play | None = core.compiled.check_play(rules, position, dice[0], dice[1], moves)
    return play


def other_orders(moves: Sequence[_Given]) -> Iterator[list[_Given]]:
    """The orders ``moves`` may be played in besides the one given: from the highest start down
    first (:func:`in_play_order`, enough in backgammon), then every other (where a step's
    legality depends on the steps before it: Fevga's first checker, Plakoto's touching down)."""
    tried = {tuple(moves)}
    for order in itertools.chain([tuple(in_play_order(moves))], itertools.permutations(moves)):
        if order not in tried:
            tried.add(order)
            yield list(order)


def in_play_order(moves: Sequence[_Given]) -> list[_Given]:
    """``moves`` from the highest start down. Any play can be played in this order (the bar
    first, a checker on before it moves on, a higher checker before a lower one bears off), so it
    is tried when the moves cannot be played in the order given."""
    return sorted(moves, key=lambda move: (-move[0], -move[1]))


def check_move(start: int, end: int) -> Move:
    """``(start, end)`` as a move, checked.

    :raises InvalidPlayError: unless it goes from a point (or the bar) to a lower point (or off).
    """
    if not (isinstance(start, int) and isinstance(end, int) and 1 <= start <= BAR and OFF <= end < start):
        raise InvalidPlayError(
            "a move goes from a point (1-24, or 25 for the bar) to a lower one (0 to bear off),"
            f" not {start}/{end}"
        )
    if start == BAR and end == OFF:
        raise InvalidPlayError("a checker on the bar cannot be borne off")
    return start, end


def higher_first(dice: Dice) -> Dice:
    return (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])


def follow(
    variant: Variant, position: Position, dice: Dice, moves: Sequence[Move], *, one_die: bool
) -> tuple[list[tuple[Step, ...]], str]:
    """Every way to play ``moves`` in turn with the dice and the allowed steps.

    A move takes one die (``one_die``) or any number whose steps add up to it; a move that bears
    off may take a higher die than it needs. Returns the ways found (each a sequence of steps), and
    when there is none, the refusal met by the attempt that got furthest.
    """
    following = _Following(variant, dice, moves, one_die=one_die)
    following.attempt(0, position, [dice[0]] * 4 if dice[0] == dice[1] else list(dice), ())
    return following.ways, following.furthest[1]


class _Following:
    """The search :func:`follow` makes: the ways found so far, and the refusal met furthest."""

    def __init__(self, variant: Variant, dice: Dice, moves: Sequence[Move], *, one_die: bool) -> None:
        self.variant = variant
        self.dice = dice
        self.moves = moves
        self.one_die = one_die
        self.ways: list[tuple[Step, ...]] = []
        self.furthest: tuple[int, str] = (-1, "")

    def note(self, depth: int, refusal: str) -> None:
        if depth > self.furthest[0]:
            self.furthest = (depth, refusal)

    def attempt(self, index: int, board: Position, left: list[int], done: tuple[Step, ...]) -> None:
        """Play the moves from ``index`` on ``board`` with the dice ``left``, after the steps ``done``."""
        if index == len(self.moves):
            self.ways.append(done)
            return
        start, end = self.moves[index]
        splits = _die_splits(start, end, left, one_die=self.one_die)
        if not splits:
            self.note(len(done), _no_dice_for(start, end, self.dice, left, one_die=self.one_die))
        for split in splits:
            current, taken, point = board, done, start
            for die in split:
                outcome = self.variant.step(current, point, die, taken=taken, dice=self.dice)
                if isinstance(outcome, str):
                    self.note(len(taken), outcome)
                    break
                taken += (outcome,)
                current = self.variant.position_after(current, (outcome,))
                point = outcome.end
            else:
                rest = list(left)
                for die in split:
                    rest.remove(die)
                self.attempt(index + 1, current, rest, taken)


def finish(variant: Variant, position: Position, dice: Dice, written: str, steps: tuple[Step, ...]) -> Play:
    """The play ``steps`` make, once each has been allowed in turn, judged as a whole.

    :raises IllegalPlayError: if the maximum-use rule or the variant's rule for whole plays
        refuses it.
    """
    after = variant.position_after(position, steps)
    if len(steps) == (4 if dice[0] == dice[1] else 2):
        refusal = variant.refusal_of_play(after) or variant.refusal_of_duty(position, dice, after)
        if refusal is not None:
            raise IllegalPlayError(written, position.position_id(), dice, refusal)
        return Play.trusted(steps, after)
    legal = variant.legal_plays(position, dice)
    play = legal.leading_to(after)
    if play is None:
        refusal = _short_play_refusal(variant, position, dice, steps, after, legal)
        raise IllegalPlayError(written, position.position_id(), dice, refusal)
    return play


def _short_play_refusal(
    variant: Variant,
    position: Position,
    dice: Dice,
    steps: tuple[Step, ...],
    after: Position,
    legal: LegalPlays,
) -> str:
    """Why a play of allowed steps that uses fewer dice than the roll has is not legal."""
    example = next(iter(legal))
    if not example.steps:
        return "no checker can move with this roll, so the turn passes"
    if len(steps) < legal.dice_used:
        if dice[0] != dice[1]:
            return f"you must play both dice: {example.notation()} does"
        if legal.dice_used == 4:
            return f"you must play all four {dice[0]}s: {example.notation()} does"
        return (
            f"you must play {legal.dice_used} of your {dice[0]}s, as many as can be played:"
            f" {example.notation()} does"
        )
    if len(steps) == 1 and dice[0] != dice[1] and steps[0].die != dice[0]:
        return f"you must play the higher die: {example.notation()} does"
    whole_play_refusal = variant.refusal_of_play(after) or variant.refusal_of_duty(position, dice, after)
    return whole_play_refusal or "that play is not legal"


def _die_splits(start: Point, end: Point, dice: list[int], *, one_die: bool) -> list[tuple[int, ...]]:
    """The orders of dice from ``dice`` that take a checker from ``start`` to ``end``, the fewest
    dice and the highest first."""
    splits: set[tuple[int, ...]] = set()
    _add_die_splits(splits, start - end, end == OFF, (), dice, 0, one_die=one_die)
    return sorted(splits, key=lambda split: (len(split), [-die for die in split]))


def _add_die_splits(
    splits: set[tuple[int, ...]],
    distance: int,
    bearing_off: bool,
    taken: tuple[int, ...],
    left: list[int],
    travelled: int,
    *,
    one_die: bool,
) -> None:
    """Add to ``splits`` the orders of dice that go on from ``taken`` (``travelled`` pips) with
    dice from ``left`` to make ``distance`` pips (or more, ``bearing_off``)."""
    for index, die in enumerate(left):
        total = travelled + die
        if total == distance or (bearing_off and total > distance):
            splits.add(taken + (die,))
        elif total < distance and not one_die:
            rest = left[:index] + left[index + 1 :]
            _add_die_splits(splits, distance, bearing_off, taken + (die,), rest, total, one_die=one_die)


def _no_dice_for(start: Point, end: Point, dice: Dice, left: list[int], *, one_die: bool) -> str:
    rolled = f"{dice[0]}-{dice[1]}"
    move = f"{point_name(start)}/{point_name(end)}"
    if not left:
        return f"{move} is one move too many: your {rolled} is used up"
    if one_die:
        return f"{move} is not a step of one die of your {rolled} (a step moves a checker by one die)"
    if end == OFF:
        return f"{move} needs at least {start} pips, more than your {rolled} has left"
    pips = "pip" if start - end == 1 else "pips"
    return f"{move} is {start - end} {pips}, which your {rolled} cannot make"
