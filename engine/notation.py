"""Reading plays written in standard notation.

Writing needs no position and lives on :class:`~tavli.engine.play.Play`. Reading needs one: ``24/13``
with 6-5 may go through the 18-point or the 19-point, and which of them hits depends on the
board. The written moves are played step by step and the play they make is judged as any given
play is (:mod:`tavli.engine.checking`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from tavli.engine.checking import compiled_check, finish, follow, higher_first, in_play_order
from tavli.engine.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from tavli.engine.play import Dice, Play, Step, check_dice, format_steps
from tavli.engine.position import BAR, OFF, Point, Position

if TYPE_CHECKING:
    from tavli.engine.variant import Variant

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
    return list(_parsed_moves(text))


# The same few hundred texts make most plays ("8/5 6/5", "13/7 8/7"): each is read once.
@lru_cache(maxsize=4096)
def _parsed_moves(text: str) -> tuple[WrittenMove, ...]:
    if text.strip().lower() in _NO_PLAY:
        return ()
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
    return tuple(moves)


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

    A point written is a point landed on. A move written across points it does not name may go
    more than one way (``24/13`` with 6-5, through the 18-point or the 19-point): the way that
    hits nowhere unnamed is meant; when the ways hit different blots, the text names no single
    play.

    :raises InvalidPlayError: if ``text`` is not a play in standard notation, or longer than
        :data:`MAX_NOTATION_LENGTH`.
    :raises AmbiguousPlayError: if it could mean more than one play.
    :raises IllegalPlayError: if it is one, but not legal here; its ``why`` says why not.
    :raises GameOverError: if a side has already borne off all its checkers.
    """
    _check_length(text)
    dice = higher_first(check_dice(dice))
    variant.check_position(position)
    moves = parse_moves(text)
    if moves and all(len(move.points) == 2 for move in moves):
        # One die a move, as most programs write plays: the compiled core allows the commonest
        # play at once, as for a play given as steps.
        play = compiled_check(variant, position, dice, [(move.start, move.end) for move in moves])
        if play is not None:
            return play
    segments = [segment for move in moves for segment in zip(move.points, move.points[1:])]
    # The order written, if it can be played so; else from the highest start down (which any
    # play can), whose refusal is the one given: a text's order means nothing.
    ways, refusal = follow(variant, position, dice, segments, one_die=False)
    if not ways and (ordered := in_play_order(segments)) != segments:
        ways, refusal = follow(variant, position, dice, ordered, one_die=False)
    if not ways:
        # Written through a point it cannot stop on ("24/19/13" with 6-5 when the 19-point is
        # blocked) or in an order it cannot be played in: the legal play with the same checkers
        # at the end is meant, as GNU Backgammon reads it, if it hits wherever a hit is marked
        # ("10/4*/1" where the hitter must stay on the 4-point is not "10/7/1").
        ways = _legal_ways_to(variant, position, dice, moves)
        if not ways:
            raise IllegalPlayError(text, position.position_id(), dice, refusal)
    return finish(variant, position, dice, text, _the_way_meant(variant, position, text, moves, ways))


def _legal_ways_to(
    variant: Variant, position: Position, dice: Dice, moves: list[WrittenMove]
) -> list[tuple[Step, ...]]:
    counts = list(position.player)
    for move in moves:
        counts[move.start] -= 1
        counts[move.end] += 1
    target = tuple(counts)
    marked = {point for move in moves for point, hit in zip(move.points[1:], move.hits) if hit}
    return [
        play.steps
        for play in variant.legal_plays(position, dice)
        if play.position.player == target and marked <= _hit_points(play.steps)
    ]


def _the_way_meant(
    variant: Variant, position: Position, text: str, moves: list[WrittenMove], ways: list[tuple[Step, ...]]
) -> tuple[Step, ...]:
    by_position: dict[Position, tuple[Step, ...]] = {}
    for steps in ways:
        by_position.setdefault(variant.position_after(position, steps), steps)
    if len(by_position) == 1:
        return ways[0]
    # Only the hits tell them apart: a checker hits on every point it is written to land on,
    # marked or not; on a point it passes unnamed, it hits only when no other way exists.
    named = {point for move in moves for point in move.points[1:]}
    distinct = list(by_position.values())
    meant = [steps for steps in distinct if _hit_points(steps) <= named] or distinct
    meant.sort(key=lambda steps: -len(_hit_points(steps) & named))
    if len(meant) > 1 and _hit_points(meant[0]) & named == _hit_points(meant[1]) & named:
        raise AmbiguousPlayError(text, [format_steps(steps) for steps in meant])
    return meant[0]


def _hit_points(steps: tuple[Step, ...]) -> set[Point]:
    return {step.end for step in steps if step.hit}
