"""The board in text, drawn the way GNU Backgammon's ``show board`` draws it.

    print(draw(Table(variant=BACKGAMMON, position=position, x_name="you", o_name="bot")))

The player at the bottom is ``X``, the one at the top ``O``, and the points are numbered from X's
side: X's 24-point at the top right, its home board (points 1-6) at the bottom right, the bar in
the middle and the checkers borne off to the right of each side's half. Each point shows up to
five checkers; a taller stack shows its count in the fifth place (6-9, then A-F for 10-15), as
gnubg does. The notes to the right (names, score, dice, cube) go where gnubg puts them.

Long nardi uses the same frame. Both sides move the same way round (right to left along the top,
left to right along the bottom), so O's checkers stand on X's numbering too: O's 24-point (its
head) is X's 12, O's home board is X's 13-18. A line under the board says so.

The clocks of a game with clocks are a line of their own (:func:`draw_clocks`, times as
:func:`clock_time` writes them): they change as time passes, the board only as the game does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from tavli.engine import Position, Variant
from tavli.engine.position import BAR, OFF, pips

Side = Literal["X", "O"]

# gnubg's characters for the fifth place of a point: blank below five, the checker at five,
# then the count (its achX/achO tables).
_TALL = "     {}6789ABCDEF"
_TOP_FRAME = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM_FRAME = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
_MIDDLE = "|                  |BAR|                  |"
_TOP_POINTS = (range(13, 19), range(19, 25))  # left and right of the bar, left to right
_BOTTOM_POINTS = (range(12, 6, -1), range(6, 0, -1))
_NOTES = "     "  # between the frame and the notes to its right


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """What the board shows: the position from X's side and the notes around it.

    ``position``: ``player`` is X, ``opponent`` is O, each counted on its own points (as the
    engine counts them); ``variant`` says where O's points are on X's numbering.
    ``position_id`` defaults to the Position ID of ``position`` (X on roll); give the ID of the
    side actually on roll, as gnubg writes it. ``dice`` are the dice rolled and not yet played.
    ``cube_owner`` is ``None`` while the cube is centred; ``cube_value`` 0 means no cube.
    """

    variant: Variant
    position: Position
    x_name: str = "X"
    o_name: str = "O"
    on_roll: Side | None = "X"
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: Side | None = None
    score: tuple[int, int] = (0, 0)  # (X, O)
    match_length: int = 0
    crawford: bool = False
    title: str = ""
    position_id: str = ""
    match_id: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Clocks:
    """Both sides' clocks at one moment, in seconds.

    ``x_time`` and ``o_time``: each side's reserve left, None when the clock has no reserve (only
    a move limit). ``running``: the side whose clock runs, or None. ``delay_left``: what is left
    of the running turn's delay (its reserve runs once the delay is over); ``move_limit_left``:
    what is left of the running turn's move limit, None without one.
    """

    x_name: str = "X"
    o_name: str = "O"
    x_time: float | None = None
    o_time: float | None = None
    running: Side | None = None
    delay_left: float = 0.0
    move_limit_left: float | None = None


def draw(table: Table) -> str:
    """The board as gnubg's ``show board`` draws it, then the pip counts (and, in long nardi, how
    the points are numbered). Lines carry no trailing spaces."""
    x, o = _columns(table)
    off_x, off_o = table.position.player[OFF], table.position.opponent[OFF]
    notes = _notes(table)
    title = table.title or table.variant.title.capitalize()
    lines = [f" {title:<15} Position ID: {table.position_id or table.position.position_id()}"]
    if table.match_id:
        lines.append(f"{'':17}Match ID   : {table.match_id}")
    lines.append(_TOP_FRAME + _NOTES + notes[0])
    for row in range(5):  # from the top edge down to the middle
        points = "|".join("".join(_place(x[p], o[p], row) for p in half) for half in _TOP_POINTS)
        left, right = points.split("|")
        bar = _stack_char(table.position.opponent[BAR], row, "O")
        off = "".join("O" if off_o > 5 * column + row else " " for column in range(3))
        line = f" |{left}| {bar} |{right}| {off}"
        lines.append(line if row == 4 else f"{line} {notes[row + 1] if row < 2 else ''}")
    lines.append(("v" if table.on_roll == "X" else "^") + _MIDDLE + _NOTES + notes[3])
    for row in range(4, -1, -1):  # from the middle down to the bottom edge
        points = "|".join("".join(_place(x[p], o[p], row) for p in half) for half in _BOTTOM_POINTS)
        left, right = points.split("|")
        bar = _stack_char(table.position.player[BAR], row, "X")
        off = "".join("X" if off_x > 5 * column + row else " " for column in range(3))
        line = f" |{left}| {bar} |{right}| {off}"
        lines.append(line if row == 4 else f"{line} {notes[5 - row] if row < 2 else ''}")
    lines.append(_BOTTOM_FRAME + _NOTES + notes[6])
    lines = [line.rstrip() for line in lines]
    pip_x, pip_o = pips(table.position.player), pips(table.position.opponent)
    lines.append(f" Pip counts: O {pip_o}, X {pip_x}")
    if max(x + o) >= 10:
        lines.append(" A stack of 10 or more shows its count as a letter: A = 10, B = 11, ... F = 15.")
    lines.extend(_pinned(table))
    if table.variant.same_way_round:
        lines.extend(_same_way_round(table.variant))
    return "\n".join(lines) + "\n"


def draw_clocks(clocks: Clocks) -> str:
    """The clocks in a line, X's first, such as
    ``Clocks: you 4:32 (running, delay 0:07 left), bot 5:00; move limit 0:45 left.``"""
    heading = "Clocks" if clocks.x_time is not None else "Clocks (no reserve)"
    sides = ", ".join(_clock_of(clocks, side) for side in ("X", "O"))
    left = clocks.move_limit_left
    limit = "" if left is None else f"; move limit {clock_time(left)} left"
    return f"{heading}: {sides}{limit}."


def _clock_of(clocks: Clocks, side: Side) -> str:
    """One side's clock: its name, its time, and whether it runs."""
    name, time = (clocks.x_name, clocks.x_time) if side == "X" else (clocks.o_name, clocks.o_time)
    shown = name if time is None else f"{name} {clock_time(time)}"
    if clocks.running != side:
        return shown
    delay = f", delay {clock_time(clocks.delay_left)} left" if clocks.delay_left > 0 else ""
    return f"{shown} (running{delay})"


def clock_time(seconds: float) -> str:
    """A time as a clock shows it: m:ss, or h:mm:ss from an hour on. Whole seconds, rounded up, so
    that 0:00 shows only once the time is out."""
    whole = math.ceil(round(max(0.0, seconds), 3))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _same_way_round(variant: Variant) -> list[str]:
    """The lines under the board of a variant whose sides move the same way round: where O's
    points are on X's numbering (in long nardi O starts on X's 12 and bears off from X's 13-18)."""
    ours = variant.opponent_point
    start = variant.start_position().opponent
    starts = " and ".join(str(ours(point)) for point in range(24, 0, -1) if start[point])
    return [
        (
            f" {variant.title.capitalize()}: both sides move the same way round."
            " X moves 24 -> 1 and bears off from 1-6;"
        ),
        (
            f" O starts on X's {starts}, moves {ours(24)} -> {ours(13)} then {ours(12)} -> {ours(1)},"
            f" and bears off from X's {ours(1)}-{ours(6)}."
        ),
    ]


def _pinned(table: Table) -> list[str]:
    """The line under a Plakoto board that names the pinned checkers (a point shows only its
    pinners' stack), on X's numbering; none without pins."""
    pins = table.position.pins
    if not pins:
        return []
    pinned = [f"an X checker on X's {point}-point" for point in pins.player]
    pinned += [f"an O checker on X's {table.variant.opponent_point(point)}-point" for point in pins.opponent]
    return [f" Pinned, under the other side's checkers: {'; '.join(pinned)}."]


def _columns(table: Table) -> tuple[list[int], list[int]]:
    """X's and O's checkers on each of X's points 1-24 (index 0 unused)."""
    x = [0] * 25
    o = [0] * 25
    for point in range(1, 25):
        x[point] = table.position.player[point]
        o[table.variant.opponent_point(point)] = table.position.opponent[point]
    return x, o


def _place(x_count: int, o_count: int, row: int) -> str:
    """One point's three characters in ``row`` (0 at the edge of the board, 4 next to the middle)."""
    if x_count:
        return f" {_stack_char(x_count, row, 'X')} "
    return f" {_stack_char(o_count, row, 'O')} "


def _stack_char(count: int, row: int, checker: str) -> str:
    if row < 4:
        return checker if count > row else " "
    return _TALL.format(checker)[min(count, 15)]


def _notes(table: Table) -> list[str]:
    """gnubg's seven notes: O's name, O's score, O's dice, the cube, X's dice, X's score, X's name."""
    notes = [""] * 7
    notes[0] = f"O: {table.o_name}"
    notes[6] = f"X: {table.x_name}"
    notes[1] = _points(table.score[1])
    notes[5] = _points(table.score[0])
    if table.on_roll is not None:
        roll = f"Rolled {table.dice[0]}{table.dice[1]}" if table.dice else "On roll"
        notes[4 if table.on_roll == "X" else 2] = roll
    match = (
        f"{table.match_length} point{'s' if table.match_length != 1 else ''} match"
        if table.match_length
        else ""
    )
    if table.crawford:
        match += " (Crawford game)"
    if table.cube_value and table.cube_owner is None:
        notes[3] = f"{match} (Cube: {table.cube_value})".strip()
    else:
        notes[3] = match
        if table.cube_value:
            owner = 6 if table.cube_owner == "X" else 0
            notes[owner] += f" (Cube: {table.cube_value})"
    return notes


def _points(score: int) -> str:
    return f"{score} point{'s' if score != 1 else ''}"
