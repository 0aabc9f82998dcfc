"""An independent enumerator of backgammon's legal plays, for the tests to hold the engine to.

It knows nothing of the engine's generator: it walks every order of the dice one step at a time,
with the rules written out again from RULES.md (entering, blocking, hitting, bearing off, the
hitter that stays in the home board under ``home_hit_and_run`` ``FORBIDDEN``), and only then
applies the maximum-use and higher-die rules to what it found. A play that bears off the last
checker has used the dice it played: under backgammon's maximum-use rule a one-die bear-off of the
last checker gives way to a play of both dice (as GNU Backgammon's generator has it; RULES.md's
family addition, which counts a play that ends the game as using the whole roll, decides
Plakoto's and Fevga's plays, not those of backgammon's rule set). Slow and plain on purpose, but for
one thing: a board reached again with the same dice left (the same steps in another order) is not
walked again, since everything after it was found the first time.
"""

from __future__ import annotations

from tavli.engine import BAR, OFF, Position


def brute_force_positions(
    position: Position, dice: tuple[int, int], *, hitter_stays: bool = False
) -> set[Position]:
    """Every position a legal play of ``dice`` leads to (the mover still first)."""
    high, low = max(dice), min(dice)
    roll = [high] * 4 if high == low else [high, low]
    found: list[tuple[Position, tuple[int, ...]]] = []
    walked: set[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], frozenset[int]]] = set()

    # Every way on from the position, one die at a time (a stack of boards still to go on from).
    to_walk: list[tuple[list[int], list[int], list[int], tuple[int, ...], set[int]]] = [
        (list(position.player), list(position.opponent), roll, (), set())
    ]
    while to_walk:
        player, opponent, left, used, stays = to_walk.pop()
        board = (tuple(player), tuple(opponent), tuple(left), frozenset(stays if hitter_stays else ()))
        if board in walked:
            continue
        walked.add(board)
        moved = False
        for index, die in enumerate(left):
            if die in left[:index]:
                continue  # the same die again: the same steps
            for start in range(BAR, 0, -1):
                after = _step(player, opponent, start, die, stays if hitter_stays else set())
                if after is None:
                    continue
                moved = True
                new_player, new_opponent, hit_at = after
                new_stays = stays | ({hit_at} if hit_at is not None and hit_at <= 6 else set())
                to_walk.append(
                    (new_player, new_opponent, left[:index] + left[index + 1 :], (*used, die), new_stays)
                )
        if not moved:
            found.append((Position(tuple(player), tuple(opponent)), used))
    most = max(len(used) for _, used in found)
    plays = [(after, used) for after, used in found if len(used) == most]
    if most == 1 and high != low and any(used == (high,) for _, used in plays):
        plays = [(after, used) for after, used in plays if used == (high,)]
    return {after for after, _ in plays}


def _step(
    player: list[int], opponent: list[int], start: int, die: int, stays: set[int]
) -> tuple[list[int], list[int], int | None] | None:
    """The sides after moving a checker from ``start`` by ``die``, and the point hit (if any);
    ``None`` when the rules forbid the step."""
    if not player[start] or (player[BAR] and start != BAR):
        return None
    if start in stays and player[start] == 1:  # the hitter's point would be left empty
        return None
    end = start - die
    if end <= 0:
        if any(player[7:26]):
            return None
        if end < 0 and any(player[start + 1 : 7]):
            return None
        end = OFF
    elif opponent[25 - end] >= 2:
        return None
    new_player, new_opponent = list(player), list(opponent)
    new_player[start] -= 1
    new_player[end] += 1
    hit_at = None
    if end != OFF and opponent[25 - end] == 1:
        new_opponent[25 - end] = 0
        new_opponent[BAR] += 1
        hit_at = end
    return new_player, new_opponent, hit_at
