"""Reading plays written in standard notation, and saying why a written play is not legal.

Writing needs no position and lives on :class:`~engine.play.Play`. Reading needs one: ``24/13``
with 6-5 may go through the 18-point or the 19-point, and which of them hits depends on the
board. A written play names the play whose resulting position it describes; when it describes
none, the reason is found by playing the written moves step by step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tavli.engine.errors import IllegalPlayError, InvalidPlayError
from tavli.engine.play import Dice, Play, Step, check_dice
from tavli.engine.position import BAR, OFF, Point, Position

if TYPE_CHECKING:
    from tavli.engine.variant import LegalPlays, Variant

MAX_NOTATION_LENGTH = 128
"""The longest text read as a play. The longest play written sensibly (four checkers from the bar,
each hitting, parts separated by commas) is about 30 characters; longer text is refused before
any work is done on it."""

_MOVE = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d+)\))?$")
_REPEATS = {"1": 1, "2": 2, "3": 3, "4": 4}
_POINT = re.compile(r"^(?P<point>bar|b|off|o|\d{1,2})(?P<hit>\*?)$", re.IGNORECASE)
_NO_PLAY = {"", "pass", "no play", "none", "-"}


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """One checker's path as written: ``24/18*/13`` is ``(24, 18, 13)`` with a hit on 18."""

    points: tuple[Point, ...]
    hits: tuple[bool, ...]  # for each point after the first: is a hit marked there?

    @property
    def start(self) -> Point:
        return self.points[0]

    @property
    def end(self) -> Point:
        return self.points[-1]


def parse_moves(text: str) -> list[WrittenMove]:
    """The moves a play's text writes, one per checker (``13/7(2)`` gives two).

    Points are numbers from the mover's side, ``bar`` (or 25) and ``off`` (or 0); parts are
    separated by spaces or commas, in any order.

    :raises InvalidPlayError: for text that is not a play in standard notation, or longer than
        :data:`MAX_NOTATION_LENGTH`.
    """
    _check_length(text)
    if text.strip().lower() in _NO_PLAY:
        return []
    moves: list[WrittenMove] = []
    for part in text.replace(",", " ").split():
        match = _MOVE.match(part)
        if match is None:
            raise InvalidPlayError(f"cannot read {part!r}: write a move as from/to, like 13/7 or bar/22*")
        pieces = match["path"].split("/")
        if len(pieces) < 2:
            raise InvalidPlayError(f"cannot read {part!r}: a move needs a start and an end, like 13/7")
        points: list[Point] = []
        hits: list[bool] = []
        for index, piece in enumerate(pieces):
            point_match = _POINT.match(piece)
            if point_match is None:
                raise InvalidPlayError(f"cannot read {part!r}: {piece!r} is not a point (1-24, bar or off)")
            point = _point_number(point_match["point"], part)
            if index == 0 and point_match["hit"]:
                raise InvalidPlayError(f"cannot read {part!r}: a hit is marked where the checker lands")
            if point == BAR and index:
                raise InvalidPlayError(f"cannot read {part!r}: a checker cannot move to the bar")
            if index and point >= points[-1]:
                raise InvalidPlayError(f"cannot read {part!r}: checkers move from higher points to lower")
            if point == OFF and index < len(pieces) - 1:
                raise InvalidPlayError(f"cannot read {part!r}: a checker borne off moves no further")
            points.append(point)
            if index:
                hits.append(bool(point_match["hit"]))
        written_count = match["count"] or "1"
        count = _REPEATS.get(written_count.lstrip("0"))
        if count is None:
            raise InvalidPlayError(
                f"cannot read {part!r}: a move repeats one to four times, not {written_count}"
            )
        moves.extend([WrittenMove(tuple(points), tuple(hits))] * count)
    if len(moves) > 4 and sum(len(move.points) - 1 for move in moves) > 4:
        raise InvalidPlayError(f"cannot read {text!r}: a play has at most four steps")
    return moves


def _check_length(text: str) -> None:
    if len(text) > MAX_NOTATION_LENGTH:
        raise InvalidPlayError(
            f"cannot read a play of {len(text):,} characters: "
            f"a play is written in at most {MAX_NOTATION_LENGTH}"
        )


def _point_number(name: str, part: str) -> Point:
    name = name.lower()
    if name in ("bar", "b"):
        return BAR
    if name in ("off", "o"):
        return OFF
    number = int(name)
    if number > 25:
        raise InvalidPlayError(f"cannot read {part!r}: there is no point {number}")
    return number


def read_play(variant: Variant, position: Position, dice: Dice, text: str) -> Play:
    """The legal play that ``text`` writes, in any equivalent way of writing it.

    :raises InvalidPlayError: if ``text`` is not a play in standard notation, or longer than
        :data:`MAX_NOTATION_LENGTH`.
    :raises IllegalPlayError: if it is one, but not legal here; its ``reason`` says why.
    :raises GameOverError: if a side has already borne off all its checkers.
    """
    _check_length(text)
    dice = check_dice(dice)
    legal = variant.legal_plays(position, dice)
    written = legal.written_as(text)
    if written is not None:
        return written
    moves = parse_moves(text)
    target = _player_after(position.player, moves)
    matching = [play for play in legal if play.position.player == target]
    if len(matching) > 1:
        # Only the hits tell them apart: a checker hits on every point it is written to land on,
        # marked or not; on a point it passes unnamed, it hits only when no other route exists.
        marked = {point for move in moves for point in move.points[1:]}
        matching = [play for play in matching if _hit_points(play) <= marked] or matching
        matching.sort(key=lambda play: -len(_hit_points(play) & marked))
        if len(matching) > 1 and _hit_points(matching[0]) & marked == _hit_points(matching[1]) & marked:
            ways = " or ".join(play.notation() for play in matching)
            raise IllegalPlayError(text, position.position_id(), dice, f"say which you mean: {ways}")
    if matching:
        return matching[0]
    raise IllegalPlayError(text, position.position_id(), dice, _why_not(variant, position, dice, moves, legal))


def _player_after(player: tuple[int, ...], moves: list[WrittenMove]) -> tuple[int, ...] | None:
    counts = list(player)
    for move in moves:
        counts[move.start] -= 1
        counts[move.end] += 1
    return tuple(counts) if min(counts) >= 0 else None


def _hit_points(play: Play) -> set[Point]:
    return {step.end for step in play.steps if step.hit}


def _why_not(variant: Variant, position: Position, dice: Dice, moves: list[WrittenMove], legal: LegalPlays) -> str:
    example = next(iter(legal))
    steps, refusal = _follow(variant, position, dice, moves)
    if steps is None:
        return refusal
    if not example.steps:
        return "no checker can move with this roll, so the turn passes"
    if len(steps) < legal.dice_used:
        if dice[0] != dice[1]:
            return f"you must play both dice: {example.notation()} does"
        if legal.dice_used == 4:
            return f"you must play all four {dice[0]}s: {example.notation()} does"
        return f"you must play {legal.dice_used} of your {dice[0]}s, as many as can be played: {example.notation()} does"
    if len(steps) == 1 and dice[0] != dice[1] and steps[0].die != max(dice):
        return f"you must play the higher die: {example.notation()} does"
    return variant.refusal_of_play(variant.position_after(position, steps)) or "that play is not legal"


def _follow(
    variant: Variant, position: Position, dice: Dice, moves: list[WrittenMove]
) -> tuple[tuple[Step, ...] | None, str]:
    """Play the written moves step by step, from the highest start down.

    Returns the steps if some choice of dice plays every move with allowed steps; otherwise
    ``None`` and the refusal met by the attempt that got furthest.
    """
    segments = [
        (start, end)
        for move in sorted(moves, key=lambda move: -move.start)
        for start, end in zip(move.points, move.points[1:])
    ]
    furthest: list[tuple[int, str]] = [(-1, "")]

    def note(depth: int, refusal: str) -> None:
        if depth > furthest[0][0]:
            furthest[0] = (depth, refusal)

    def attempt(index: int, board: Position, left: list[int], done: tuple[Step, ...]) -> tuple[Step, ...] | None:
        if index == len(segments):
            return done
        start, end = segments[index]
        splits = _die_splits(start, end, left)
        if not splits:
            note(len(done), _no_dice_for(start, end, dice, left))
        for split in splits:
            current, taken, point = board, done, start
            for die in split:
                outcome = variant.step(current, point, die, taken=taken, dice=dice)
                if isinstance(outcome, str):
                    note(len(taken), outcome)
                    break
                taken += (outcome,)
                current = variant.position_after(current, (outcome,))
                point = outcome.end
            else:
                rest = list(left)
                for die in split:
                    rest.remove(die)
                found = attempt(index + 1, current, rest, taken)
                if found is not None:
                    return found
        return None

    remaining = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    return attempt(0, position, remaining, ()), furthest[0][1]


def _die_splits(start: Point, end: Point, dice: list[int]) -> list[tuple[int, ...]]:
    """The orders of dice from ``dice`` that take a checker from ``start`` to ``end``."""
    distance = start - end
    splits: set[tuple[int, ...]] = set()

    def extend(taken: tuple[int, ...], left: list[int], travelled: int) -> None:
        for index, die in enumerate(left):
            total = travelled + die
            if total == distance or (end == OFF and total > distance):
                splits.add(taken + (die,))
            elif total < distance:
                extend(taken + (die,), left[:index] + left[index + 1 :], total)

    extend((), dice, 0)
    return sorted(splits, key=lambda split: (len(split), [-die for die in split]))


def _no_dice_for(start: Point, end: Point, dice: Dice, left: list[int]) -> str:
    rolled = f"{dice[0]}-{dice[1]}"
    move = f"{_name(start)}/{_name(end)}"
    if not left:
        return f"{move} is one move too many: your {rolled} is used up"
    if end == OFF:
        return f"{move} needs at least {start} pips, more than your {rolled} has left"
    pips = "pip" if start - end == 1 else "pips"
    return f"{move} is {start - end} {pips}, which your {rolled} cannot make"


def _name(point: Point) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)
