"""An independent, deliberately simple reference for long nardi's legal plays.

Used only by tests, to cross-check the engine. It shares no code with ``engine/``: it decodes
Position IDs itself and finds the legal plays by trying every order of every step (both die orders
for a non-double), keeping every prefix of every step sequence as a candidate play, then applying
the rules of RULES.md ("Shared vocabulary" and "Long nardi") to the candidates in the plainest way.

A side is a list of 26 counts from its own view: index 0 = borne off, 1..24 its points
(24 = the head), 25 = the bar (always 0 in nardi).
"""

from __future__ import annotations

import base64

CHECKERS = 15
HEAD = 24
BAR = 25
# First-turn rolls that let two checkers leave the head.
DOUBLE_HEAD_ROLLS = {(6, 6), (4, 4), (3, 3)}


# --- Position ID -------------------------------------------------------------------------------


def decode(position_id: str) -> tuple[list[int], list[int]]:
    """Return (player, opponent), player being the side on roll (the second half of the key)."""
    if len(position_id) != 14:
        raise ValueError(f"position id {position_id!r} is not 14 characters")
    key = base64.b64decode(position_id + "==")
    bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
    sides: list[list[int]] = []
    pos = 0
    for _ in range(2):
        side = [0] * 26
        for slot in range(1, 26):  # points 1..24, then the bar
            while bits[pos] == 1:
                side[slot] += 1
                pos += 1
            pos += 1  # the 0-bit closing the slot
        side[0] = CHECKERS - sum(side[1:])
        if side[0] < 0:
            raise ValueError(f"position id {position_id!r} has more than {CHECKERS} checkers a side")
        sides.append(side)
    opponent, player = sides
    return player, opponent


def encode(player: list[int], opponent: list[int]) -> str:
    """The inverse of :func:`decode`."""
    bits: list[int] = []
    for side in (opponent, player):
        for slot in range(1, 26):
            bits.extend([1] * side[slot])
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    key = bytearray(10)
    for i, bit in enumerate(bits):
        if bit:
            key[i // 8] |= 1 << (i % 8)
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


# --- Board geometry ----------------------------------------------------------------------------


def opponent_point(point: int) -> int:
    """My point ``point`` in the opponent's numbering."""
    return point + 12 if point <= 12 else point - 12


def my_point(opponent_pt: int) -> int:
    """The opponent's point ``opponent_pt`` in my numbering (the same map: it is its own inverse)."""
    return opponent_pt + 12 if opponent_pt <= 12 else opponent_pt - 12


# --- One step ----------------------------------------------------------------------------------


def step_result(player: list[int], opponent: list[int], source: int, die: int) -> list[int] | None:
    """The player's side after moving one checker from ``source`` by ``die``, or None if illegal.

    The head rule is not checked here (it needs the whole turn); everything else about one step is.
    """
    if player[source] == 0:
        return None
    target = source - die
    if target >= 1:
        if opponent[opponent_point(target)] > 0:
            return None  # a single opposing checker holds a point
    else:
        # Bearing off: every checker still on the board must be on points 1..6.
        if any(player[p] > 0 for p in range(7, 25)):
            return None
        if target < 0 and any(player[p] > 0 for p in range(source + 1, 7)):
            return None  # a higher die: only from the highest occupied point
        target = 0
    after = list(player)
    after[source] -= 1
    after[target] += 1
    return after


# --- Six in a row ------------------------------------------------------------------------------


def breaks_six_in_a_row(player: list[int], opponent: list[int]) -> bool:
    """True if the player holds six consecutive points along the opponent's path with no opponent
    checker past them (on an opponent point lower than the run's start, or borne off)."""
    for start in range(1, 20):  # opponent's numbering start..start+5, start+5 <= 24
        if all(player[my_point(q)] > 0 for q in range(start, start + 6)):
            someone_past = opponent[0] > 0 or any(opponent[q] > 0 for q in range(1, start))
            if not someone_past:
                return True
    return False


# --- Whole plays -------------------------------------------------------------------------------


def _candidates(
    player: list[int],
    opponent: list[int],
    dice_left: list[int],
    used: tuple[int, ...],
    head_moves_left: int,
    out: set[tuple[tuple[int, ...], tuple[int, ...]]],
) -> None:
    """Add (player after, dice used in order) for this prefix and every longer step sequence."""
    out.add((tuple(player), used))
    if not dice_left:
        return
    die = dice_left[0]
    for source in range(1, 25):
        if source == HEAD and head_moves_left == 0:
            continue
        after = step_result(player, opponent, source, die)
        if after is None:
            continue
        _candidates(
            after,
            opponent,
            dice_left[1:],
            used + (die,),
            head_moves_left - (1 if source == HEAD else 0),
            out,
        )


def legal_plays(player: list[int], opponent: list[int], dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """The player's side after each legal play (as tuples); {unchanged} when no play is possible."""
    d1, d2 = dice
    if d1 == d2:
        orders = [[d1] * 4]
    else:
        orders = [[d1, d2], [d2, d1]]
    first_turn = player[HEAD] == CHECKERS
    head_moves = 2 if first_turn and (d1, d2) in DOUBLE_HEAD_ROLLS else 1

    candidates: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for order in orders:
        _candidates(list(player), opponent, order, (), head_moves, candidates)

    # Six in a row is judged on the position after the whole play; the empty play (no step) is
    # kept regardless, as the play when nothing else is possible.
    legal = [
        (after, used)
        for after, used in candidates
        if not used or not breaks_six_in_a_row(list(after), opponent)
    ]

    most = max(len(used) for _, used in legal)
    legal = [(after, used) for after, used in legal if len(used) == most]
    if d1 != d2 and most == 1:
        higher = max(d1, d2)
        if any(used == (higher,) for _, used in legal):
            legal = [(after, used) for after, used in legal if used == (higher,)]
    return {after for after, _ in legal}


def legal_results(player: list[int], opponent: list[int], dice: tuple[int, int]) -> set[str]:
    """Position IDs (same side first) of every distinct position a legal play leads to."""
    return {encode(list(after), opponent) for after in legal_plays(player, opponent, dice)}
