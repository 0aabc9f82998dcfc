"""The ``gnubg`` package's evaluator, called in a worker process's main thread only.

Everything here takes and returns plain values (tuples, ints, floats, dataclasses of them), so
that a question and its answer cross a process boundary as they are. A gnubg board is two tuples
of 25 counts, each side on its own points 1-24 and then its bar; the second is the side on roll.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import os
import re
import tempfile
from collections.abc import Iterator

import gnubg

from tavli.server.analysis.values import Context, CubeDecision, CubeOwnerName, Evaluation, GnubgBoard, Steps
from tavli.server.errors import CannotDouble  # gnubg says the side on roll cannot (a dead cube)

# gnubg's cube owner in its cubeinfo: -1 centred, else the owner's index in the board.
_CUBE_OWNER = {"centre": -1, "player": 1, "opponent": 0}
# The cube's owner seen from the other side.
_OTHER_SIDES_OWNER: dict[CubeOwnerName, CubeOwnerName] = {
    "centre": "centre",
    "player": "opponent",
    "opponent": "player",
}
_EQUITY_LINE = re.compile(
    r"^\d\. (No (?:re)?double|(?:Re)?[Dd]ouble, (?:pass|take))\s+([+-]?\d+\.\d+)", re.MULTILINE
)
_CUBELESS_LINE = re.compile(r"cubeless equity\s+([+-]?\d+\.\d+)")
_PROPER_ACTION = re.compile(r"Proper cube action: ([^,\n]+), (\w+)")
# A row of ``eval``'s table: the ply, five probabilities, the cubeless and the cubeful equity.
_EVAL_ROW = re.compile(r"^ *(static|\d ply):(?: +[+-]?\d+\.\d+){6} +([+-]?\d+\.\d+)", re.MULTILINE)
_LIBC = ctypes.CDLL(None)
# gnubg's move filters when it analyses a match: at 2 plies, the plays within 0.32 of the best at
# 0 plies (at most 16) are looked at again, none pruned at 1 ply (its hint keeps fewer).
_FILTERED_IN, _FILTER_WINDOW = 16, 0.32
REVIEW_FILTERS = [
    {"ply": 1, "level": 0, "acceptmoves": 0, "extramoves": _FILTERED_IN, "threshold": _FILTER_WINDOW},
    {"ply": 2, "level": 0, "acceptmoves": 0, "extramoves": _FILTERED_IN, "threshold": _FILTER_WINDOW},
    {"ply": 2, "level": 1, "acceptmoves": -1, "extramoves": 0, "threshold": 0.0},
]


# gnubg keeps what it evaluates in a cache, where a question finds what another left in place of
# what it would work out itself. A 2-ply ranking first ranks the plays at 0 plies in a way of its
# own, which it leaves under the same key as a 0-ply question's: at 3-away 2-away a 0-ply ranking
# asked after a 2-ply one of the same roll gave its best play -1.646, where a fresh evaluator says
# -1.607 (and the roll's luck -0.130 for -0.094), and a 2-ply ranking asked after a 0-ply one kept
# a play the filters drop at -1.742, where from an empty cache it has -1.763. So a question that
# looks ahead starts from an empty cache, and so does a 0-ply question after one that looked ahead;
# 0-ply questions leave each other what each would work out, but for its last float bits (a
# luck by about a ten-millionth). Emptying costs about 2 ms of CPU at this size, which holds what a
# 2-ply question itself evaluates.
_CACHE_ENTRIES = 1 << 18


@dataclasses.dataclass(slots=True)
class _Cache:
    """What gnubg's cache holds, and whether the question being answered has evaluated yet."""

    holds_0_plies: bool = False
    holds_deeper: bool = False
    question_begun: bool = False


_cache = _Cache()


def start() -> None:
    """Set gnubg up for a worker: one thread (or its analysis commands hang), the cache's size."""
    with _silenced():
        gnubg.command("set threads 1")
        gnubg.command("set output mwc off")  # match equities in EMG, as money equities
        gnubg.command(f"set cache {_CACHE_ENTRIES}")


def before_call() -> None:
    """A new question: its first evaluation decides whether the cache is emptied first."""
    _cache.question_begun = False


def _evaluating(plies: int) -> None:
    """Called before each evaluation ``plies`` deep, so that every answer is the one a fresh
    evaluator gives, whatever was asked before (see ``_CACHE_ENTRIES``)."""
    if not _cache.question_begun:
        _cache.question_begun = True
        if _cache.holds_deeper or (plies > 0 and _cache.holds_0_plies):
            with _silenced():
                gnubg.command("set cache 0")  # setting the size it has would keep what it holds
                gnubg.command(f"set cache {_CACHE_ENTRIES}")
            _cache.holds_0_plies = _cache.holds_deeper = False
    if plies > 0:
        _cache.holds_deeper = True
    else:
        _cache.holds_0_plies = True


def evaluate(board: GnubgBoard, context: Context) -> Evaluation:
    """The side on roll's chances and equities before it rolls."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon, cubeless = gnubg.evaluate(
        board, _cubeinfo(context), _evalcontext(context.plies)
    )
    return Evaluation(
        (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon),
        cubeless,
        _cubeful_equity(board, context),
    )


def play_equities(
    board: GnubgBoard,
    context: Context,
    dice: tuple[int, int],
    plays: list[tuple[Steps, GnubgBoard]],
    *,
    reviewing: bool = False,
) -> list[float]:
    """The cubeful equity, for the side on roll, of each legal play (its steps and the board after
    it, the mover still second), in the order given: the plays must be all the roll's legal plays,
    each resulting board once. ``reviewing``: look ahead at as many plays as gnubg's analysis of
    a match does (:data:`REVIEW_FILTERS`), rather than as many as its hint does.

    gnubg ranks its own moves, but the package reports a move's steps only up to its first
    bear-off (whose "to 0" it takes for the end of the steps): a move
    whose steps lead to one of the boards is that play; the moves cut short are matched one to one
    with the plays left whose steps include theirs, the better moves first taking the plays better
    by cubeless equity (where several fit, they differ only in which checkers bear off).

    :raises RuntimeError: if gnubg's moves cannot be matched with the plays.
    """
    moves = gnubg.findbestmoves(
        board, _cubeinfo(context), _evalcontext(context.plies), dice, *([REVIEW_FILTERS] if reviewing else [])
    )
    if not moves:  # no legal step: the one empty play leaves the opponent on roll in the same position
        return [-_cubeful_equity((board[1], board[0]), _swapped(context))]
    index_of = {after: index for index, (_, after) in enumerate(plays)}
    equities: dict[int, float] = {}
    cut_short: list[tuple[Steps, int | None, float]] = []  # best first, as gnubg ranks them
    for move in moves:
        steps = _pairs(move["move"])
        index = index_of.get(_after(board, steps))
        # A move ending in a bear-off may have been cut there: where it leads is then not where
        # the play goes, unless the play is made of its steps.
        may_be_cut = len(move["move"]) % 2 == 1
        if (
            index is not None
            and index not in equities
            and (not may_be_cut or _includes(plays[index][0], steps))
        ):
            equities[index] = float(move["score"])
        else:
            cut_short.append((steps, index, float(move["score"])))
    if cut_short:
        left = [index for index in range(len(plays)) if index not in equities]
        cubeless = {index: _cubeless_after(plays[index][1], context) for index in left}
        candidates = [
            sorted(
                (index for index in left if _includes(plays[index][0], steps) or index == leads_to),
                key=lambda index: -cubeless[index],
            )
            for steps, leads_to, _ in cut_short
        ]
        equities.update(zip(_matched(candidates), (score for _, _, score in cut_short)))
    if len(equities) != len(plays):
        raise RuntimeError(f"gnubg found {len(moves)} moves for {len(plays)} legal plays")
    return [equities[index] for index in range(len(plays))]


def reviewed_play_equities(
    board: GnubgBoard,
    context: Context,
    dice: tuple[int, int],
    plays: list[tuple[Steps, GnubgBoard]],
    played: int,
) -> list[float]:
    """:func:`play_equities` as gnubg's analysis of a match finds them (:data:`REVIEW_FILTERS`),
    the play made (``plays[played]``) always looked at as far ahead as asked.

    gnubg's analysis adds the play made to the plays its filters keep for a deeper look. Where
    the filters keep one play only (every other more than the window behind it at 0 plies),
    gnubg looks no further at that one; with the play made beside it, both are looked at as
    far ahead as asked, and the loss is measured between the two at full depth. The package's
    ``findbestmoves`` cannot be told of the play made, so both are evaluated here."""
    equities = play_equities(board, context, dice, plays, reviewing=True)
    if context.plies == 0:
        return equities
    ranked = sorted(range(len(plays)), key=lambda index: -equities[index])
    best = ranked[0]
    looked_at = {played}
    if len(ranked) > 1 and equities[ranked[1]] < equities[best] - _FILTER_WINDOW and best != played:
        looked_at.add(best)  # kept alone by the filters: gnubg looks further only beside the play made
    for index in looked_at:
        waiting, moved = plays[index][1]
        if any(moved):  # else the game is over: no one to look ahead for
            equities[index] = -_cubeful_equity((moved, waiting), _swapped(context))
    return equities


def luck(board: GnubgBoard, context: Context, dice: tuple[int, int], *, opening: bool) -> float:
    """The luck of ``dice`` for the side on roll, as gnubg's analysis measures it: the 0-ply
    cubeful equity after the best play of the roll minus the mean of it over every roll.

    An ``opening`` roll (two different dice that decide who starts) is measured against the 30
    rolls that may start a game, 15 of them for either side, as gnubg measures it."""
    ours = _best_equities(board, dataclasses.replace(context, plies=0))
    this_roll = ours[max(dice), min(dice)]
    if not opening:
        return (
            this_roll - sum(equity * (1 if high == low else 2) for (high, low), equity in ours.items()) / 36
        )
    theirs = _best_equities((board[1], board[0]), _swapped(dataclasses.replace(context, plies=0)))
    starts = [roll for roll in ours if roll[0] != roll[1]]
    return this_roll - sum(ours[roll] - theirs[roll] for roll in starts) / 30


def _best_equities(board: GnubgBoard, context: Context) -> dict[tuple[int, int], float]:
    """The side on roll's cubeful 0-ply equity after its best play of each of the 21 rolls (the
    higher die first), without the pruning nets (as gnubg measures luck)."""
    _evaluating(0)
    cubeinfo, evalcontext = _cubeinfo(context), gnubg.evalcontext(1, 0, 1, 0, 0.0)
    equities: dict[tuple[int, int], float] = {}
    stuck: float | None = None  # after a roll that cannot be played: the opponent on roll, the same board
    for high in range(1, 7):
        for low in range(1, high + 1):
            moves = gnubg.findbestmoves(board, cubeinfo, evalcontext, (high, low))
            if moves:
                equities[high, low] = max(float(move["score"]) for move in moves)
                continue
            if stuck is None:
                stuck = -_cubeful_equity((board[1], board[0]), _swapped(context))
            equities[high, low] = stuck
    return equities


def cube_decision(board: GnubgBoard, context: Context) -> CubeDecision:
    """gnubg's cube analysis for the side on roll, through its command interface (the package
    has no call for it), read from what ``hint`` prints.

    :raises CannotDouble: where gnubg says the side on roll cannot double.
    """
    decision = _cube_analysis(board, context)
    if decision is None:
        raise CannotDouble("the side on roll cannot double here: gnubg says the cube is dead")
    return decision


def _cube_analysis(board: GnubgBoard, context: Context) -> CubeDecision | None:
    """What ``hint`` says of the cube for the side on roll, or None where it cannot double (the
    opponent owns the cube, the Crawford game, a dead cube)."""
    xgid = xgid_of(board, context)
    _look_ahead(context.plies)
    with _printed() as printed:
        gnubg.setgnubgid(xgid)
        gnubg.command("hint")
    text = "".join(printed)
    if "cannot double" in text:
        return None
    equities = {
        name.lower().replace("redouble", "double"): float(value) for name, value in _EQUITY_LINE.findall(text)
    }
    proper = _PROPER_ACTION.search(text)
    cubeless = _CUBELESS_LINE.search(text)
    if proper is None or cubeless is None or len(equities) != 3:
        raise RuntimeError(f"gnubg gave no cube analysis for {xgid}: {text.strip()!r}")
    return CubeDecision(
        no_double=equities["no double"],
        double_take=equities["double, take"],
        double_pass=equities["double, pass"],
        action=proper.group(1),
        response=proper.group(2),
        cubeless_equity=float(cubeless.group(1)),
    )


def _cubeful_equity(board: GnubgBoard, context: Context) -> float:
    """The side on roll's cubeful equity before its roll, its proper cube action taken.

    gnubg's ``eval`` table gives the equity of holding the cube: where the side on roll may
    double, its cube analysis decides (a side that should double and be passed has 1, not the
    equity of playing on), as gnubg values a position when it ranks the plays that lead to it."""
    decision = _cube_analysis(board, context)
    if decision is not None:
        return decision.optimal
    # gnubg's evaluate() is cubeless whatever it is told: the cubeful equity of a side that cannot
    # double comes from its ``eval`` command, whose table has a row for each ply up to the one asked.
    _look_ahead(context.plies)
    with _printed() as printed:
        gnubg.setgnubgid(xgid_of(board, context))
        gnubg.command("eval")
    rows = dict(_EVAL_ROW.findall("".join(printed)))
    row = "static" if context.plies == 0 else f"{context.plies} ply"
    if row not in rows:
        raise RuntimeError(f"gnubg gave no {row} evaluation for {xgid_of(board, context)}")
    return float(rows[row])


def _look_ahead(plies: int) -> None:
    # ``eval`` and ``hint`` read both settings (eval's table stops at the cube decision's plies).
    _evaluating(plies)
    with _silenced():
        gnubg.command(f"set evaluation chequerplay evaluation plies {plies}")
        gnubg.command(f"set evaluation cubedecision evaluation plies {plies}")


def _cubeinfo(context: Context) -> dict[str, object]:
    player_score, opponent_score = context.score
    cubeinfo: dict[str, object] = gnubg.cubeinfo(
        context.cube_value,
        _CUBE_OWNER[context.cube_owner],
        1,  # the side on roll is the board's second half
        context.match_length,
        (opponent_score, player_score),
        int(context.crawford),
        0,
    )
    # gnubg's cubeinfo has the Jacoby rule by default: the game's own rules, as the XGID its eval
    # and hint commands read says them, so that every question is asked of the same game.
    cubeinfo["jacoby"] = int(context.jacoby)
    cubeinfo["beavers"] = int(context.beavers)
    return cubeinfo


def _after(board: GnubgBoard, steps: Steps) -> GnubgBoard:
    """The board after gnubg's steps (1-based points, 25 the bar, 0 off), the mover still second."""
    waiting, mover = list(board[0]), list(board[1])
    for start, end in steps:
        mover[start - 1] -= 1
        if end > 0:
            mover[end - 1] += 1
            if waiting[24 - end]:  # a blot hit: on the opponent's point 25 - end
                waiting[24 - end] = 0
                waiting[24] += 1
    return tuple(waiting), tuple(mover)


def _matched(candidates: list[list[int]]) -> list[int]:
    """One play for each move, from its candidates (best first), all different: each move in turn
    takes the first candidate with which the moves after it can still all be matched.

    :raises RuntimeError: if there is no such matching.
    """
    chosen: list[int] = []
    for number, choices in enumerate(candidates):
        taken = set(chosen)
        choice = next(
            (
                play
                for play in choices
                if play not in taken and _can_match(candidates[number + 1 :], taken | {play})
            ),
            None,
        )
        if choice is None:
            raise RuntimeError("gnubg's moves cut short at a bear-off match no set of the legal plays")
        chosen.append(choice)
    return chosen


def _can_match(candidates: list[list[int]], taken: set[int]) -> bool:
    """Whether every move can get a different play of its candidates, none of ``taken`` (Kuhn's
    augmenting paths)."""
    owner: dict[int, int] = {}
    return all(_place(move, candidates, taken, owner, set()) for move in range(len(candidates)))


def _place(
    move: int, candidates: list[list[int]], taken: set[int], owner: dict[int, int], seen: set[int]
) -> bool:
    """Give ``move`` a play of its candidates, none of ``taken`` nor ``seen``, moving the play's
    ``owner`` to another of its own if it has one; whether that could be done."""
    for play in candidates[move]:
        if play in taken or play in seen:
            continue
        seen.add(play)
        if play not in owner or _place(owner[play], candidates, taken, owner, seen):
            owner[play] = move
            return True
    return False


def _includes(play: Steps, steps: Steps) -> bool:
    left = list(play)
    for step in steps:
        if step not in left:
            return False
        left.remove(step)
    return True


def _cubeless_after(board: GnubgBoard, context: Context) -> float:
    """The cubeless equity of the side that moved, with the other side on roll."""
    waiting, moved = board
    return -float(
        gnubg.evaluate((moved, waiting), _cubeinfo(_swapped(context)), _evalcontext(context.plies))[5]
    )


def _swapped(context: Context) -> Context:
    return dataclasses.replace(
        context,
        score=(context.score[1], context.score[0]),
        cube_owner=_OTHER_SIDES_OWNER[context.cube_owner],
    )


def _evalcontext(plies: int) -> object:
    _evaluating(plies)
    return gnubg.evalcontext(1, plies, 1, 1, 0.0)  # cubeful, deterministic, pruned, no noise


def _pairs(flat: tuple[int, ...]) -> Steps:
    # gnubg's move is a flat (from, to, from, to, ...) array ended by a 0, and bearing off is "to 0":
    # the package stops reading at the first bear-off's 0, so an odd length ends with one.
    if len(flat) % 2:
        flat = (*flat, 0)
    return tuple((flat[index], flat[index + 1]) for index in range(0, len(flat), 2))


@contextlib.contextmanager
def _printed() -> Iterator[list[str]]:
    """Collects what gnubg prints to the process's standard output meanwhile (it prints from C,
    so Python's sys.stdout never sees it): the list holds the text once the block is left."""
    output: list[str] = []
    with tempfile.TemporaryFile() as capture:
        saved = [os.dup(1), os.dup(2)]  # its refusals go to standard error
        os.dup2(capture.fileno(), 1)
        os.dup2(capture.fileno(), 2)
        try:
            yield output
        finally:
            _LIBC.fflush(None)  # gnubg's C stdio buffers what it prints to a file
            for descriptor, original in enumerate(saved, start=1):
                os.dup2(original, descriptor)
                os.close(original)
            capture.seek(0)
            output.append(capture.read().decode("utf-8", "replace"))


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    with _printed():
        yield


def xgid_of(board: GnubgBoard, context: Context) -> str:
    """The XGID of a gnubg board (second half on roll, before its roll) in ``context``: the side
    on roll is the XGID's bottom player, its points written from 1 up to 24, upper case."""
    waiting, on_roll = board
    squares = [_square(-waiting[24])]
    for point in range(1, 25):
        squares.append(_square(on_roll[point - 1] or -waiting[24 - point]))
    squares.append(_square(on_roll[24]))
    cube_log = context.cube_value.bit_length() - 1
    owner = {"centre": 0, "player": 1, "opponent": -1}[context.cube_owner]
    player_score, opponent_score = context.score
    if context.match_length:
        rules = int(context.crawford)
    else:
        rules = int(context.jacoby) + 2 * int(context.beavers)
    return (
        f"XGID={''.join(squares)}:{cube_log}:{owner}:1:00:{player_score}:{opponent_score}:"
        f"{rules}:{context.match_length}:{_MAX_CUBE_LOG}"
    )


_MAX_CUBE_LOG = 12  # cubes up to 4096


def _square(count: int) -> str:
    if count > 0:
        return chr(ord("A") + count - 1)
    if count < 0:
        return chr(ord("a") - count - 1)
    return "-"
