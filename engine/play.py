"""Steps, plays and dice: what a turn is made of."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, TypeAlias

from tavli.engine import core
from tavli.engine.errors import InvalidDiceError
from tavli.engine.position import Point, Position, point_name

Dice: TypeAlias = tuple[int, int]


class Step(NamedTuple):
    """One checker moved by one die, in the mover's numbering (:data:`BAR` = 25, :data:`OFF` = 0).

    ``die`` is the die used; it exceeds ``start - end`` only when a higher die bears a checker off.
    """

    start: Point
    end: Point
    die: int
    hit: bool = False


PLAIN_STEPS: tuple[dict[Point, Step], ...] = tuple(
    {start: Step(start, start - die, die, False) for start in range(die + 1, 26)} for die in range(7)
)
"""Every step of a checker that stays on the board and hits nothing, by die and start:
``PLAIN_STEPS[die][start]``. The move generators take them from here rather than build them again."""


class _PlayFields(NamedTuple):
    steps: tuple[Step, ...]
    position: Position


class Play(_PlayFields):
    """All the steps of one turn and the position they lead to (the mover still first).

    An immutable pair ``(steps, position)``, a tuple for the same reason as :class:`Position`.
    The steps are in an order in which they can be played. The empty play is the pass of a roll
    with no legal step.
    """

    __slots__ = ()

    @classmethod
    def trusted(cls, steps: tuple[Step, ...], position: Position) -> Play:
        """A play built without checks, for steps the engine itself found legal."""
        return tuple.__new__(cls, (steps, position))

    @property
    def hits(self) -> bool:
        """Whether the play hits at least one blot."""
        return any(step.hit for step in self.steps)

    @property
    def dice_used(self) -> int:
        """How many dice (steps) the play uses."""
        return len(self.steps)

    def notation(self) -> str:
        """The play in standard notation, as GNU Backgammon writes it (``""`` for no play)."""
        return format_steps(self.steps)

    def __str__(self) -> str:
        return self.notation()


def steps_code(steps: tuple[Step, ...]) -> int:
    """``steps`` as one whole number, a compact key for them: how many in the lowest 3 bits, then
    14 bits a step (its start, end, die and hit: 5, 5, 3 and 1 bits). :func:`steps_of_code` reads it."""
    code = len(steps)
    for index, (start, end, die, hit) in enumerate(steps):
        code |= (start | end << 5 | die << 10 | hit << 13) << (3 + 14 * index)
    return code


def steps_of_code(code: int) -> tuple[Step, ...]:
    """The steps a :func:`steps_code` stands for."""
    fields = [code >> (3 + 14 * index) for index in range(code & 7)]
    return tuple(
        Step(field & 31, field >> 5 & 31, field >> 10 & 7, bool(field >> 13 & 1)) for field in fields
    )


def check_dice(dice: tuple[int, ...] | list[int]) -> Dice:
    """The dice as a pair, checked.

    :raises InvalidDiceError: unless they are two whole numbers from 1 to 6.
    """
    if len(dice) != 2:
        raise InvalidDiceError(f"a roll is two dice, not {len(dice)}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidDiceError(f"a die shows 1 to 6, not {die!r}")
    return dice[0], dice[1]


def format_steps(steps: tuple[Step, ...]) -> str:
    """Standard notation for ``steps``: ``24/18*/13 13/7(2) 6/off``, ``""`` for none.

    A checker's consecutive steps join into one move that names the points between only where it
    hit; moves along the same points are counted with ``(n)``, a hit marked once (``13/7*(4)``);
    moves go from the highest starting point down. A blot hit where two checkers land is marked
    on the move from higher up, whichever of them was given the hit: the notation does not depend
    on the order of the steps.
    """
    if core.compiled is not None and (text := core.compiled.format_steps(steps)) is not None:
        return text  # type: ignore[no-any-return]
    return _notation(steps)


# Plays of the same roll share their steps across many positions: each written once.
@lru_cache(maxsize=65536)
def _notation(steps: tuple[Step, ...]) -> str:
    if len(steps) == 2:
        first, second = steps
        if first.start < second.start or (first.start == second.start and first.end < second.end):
            first, second = second, first
        if first.end != second.start and (first.start != second.start or first.end != second.end):
            # Two checkers' moves, the commonest play of all: nothing to join or count.
            if second.hit and first.end == second.end:
                first, second = first._replace(hit=True), second._replace(hit=False)
            return f"{_step_text(first)} {_step_text(second)}"
    # A move: its points as [start, hit points between..., end], and the points it hit. Sorted
    # as tuples, the steps go from the highest start down (ties, steps along the same points,
    # come out the same whatever their order).
    moves: list[tuple[list[Point], list[Point]]] = []
    unmarked = {step.end for step in steps if step.hit}  # each marked on its first landing
    for start, end, _, _ in sorted(steps, reverse=True):
        hit = end in unmarked
        unmarked.discard(end)
        for points, hit_points in moves:
            if points[-1] == start:
                if start not in hit_points:
                    points.pop()
                points.append(end)
                break
        else:
            points, hit_points = [start, end], []
            moves.append((points, hit_points))
        if hit:
            hit_points.append(end)
    counts: dict[tuple[Point, ...], int] = {}
    marked: dict[tuple[Point, ...], list[Point]] = {}
    for points, hit_points in moves:
        path = tuple(points)
        counts[path] = counts.get(path, 0) + 1
        marked.setdefault(path, []).extend(hit_points)
    parts = []
    for path, count in counts.items():
        hit_points = marked[path]
        text = "/".join([_NAMES[point] + "*" if point in hit_points else _NAMES[point] for point in path])
        parts.append(f"{text}({count})" if count > 1 else text)
    return " ".join(parts)


def _step_text(step: Step) -> str:
    return (
        f"{_NAMES[step.start]}/{_NAMES[step.end]}*"
        if step.hit
        else f"{_NAMES[step.start]}/{_NAMES[step.end]}"
    )


_NAMES = [point_name(point) for point in range(26)]  # off, 1-24, bar
