"""Positions reached in seeded random OpenSpiel backgammon games, in tavli's form.

OpenSpiel cannot load an arbitrary position, so the benchmarks compare on the positions its own
games reach: each decision point of a seeded random game, converted to a :class:`Position` seen
from the side on roll, with the dice rolled. OpenSpiel plays a double as two actions of two
checker moves each (the second an "extra turn" with the same dice), so only the first half of a
double is a whole decision point; :func:`resulting_positions` follows both halves.

    .venv/bin/python -m benchmarks.openspiel_games     # the agreement check alone

OpenSpiel's board: ``state.board(player, index)`` for index 0-23; player 0 (x) moves from index 0
up, so its point ``p`` is index ``24 - p``; player 1 (o) moves from index 23 down, its point ``p``
is index ``p - 1``. The bar and the borne-off checkers are only in ``str(state)``: ``Bar: xo``
lists the checkers on the bar, ``Scores, X: 3, O: 0`` counts those borne off.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tavli.engine import BACKGAMMON, BAR, OFF, Position

Dice = tuple[int, int]


@dataclass(frozen=True)
class Reached:
    """One decision point of an OpenSpiel game: its state, and the same as tavli sees it."""

    state: Any  # a pyspiel.State, player to move, first half of any double
    position: Position
    dice: Dice


def load_game() -> Any:
    import pyspiel

    return pyspiel.load_game("backgammon")


def position_of(state: Any) -> tuple[Position, Dice]:
    """The position of an OpenSpiel state at a player node, seen from the side to move, and its dice."""
    dice_line = next(line for line in str(state).splitlines() if line.startswith("Dice:"))
    first, second = int(dice_line.split()[1][0]), int(dice_line.split()[1][1])
    return board_of(state, state.current_player()), (max(first, second), min(first, second))


def board_of(state: Any, mover: int) -> Position:
    """The checkers of any OpenSpiel state, seen from ``mover``'s side."""
    bar_line = next(line for line in str(state).splitlines() if line.startswith("Bar:"))
    on_bar = {0: bar_line.count("x"), 1: bar_line.count("o")}

    def side(player: int) -> tuple[int, ...]:
        counts = [0] * 26
        for point in range(1, 25):
            counts[point] = state.board(player, 24 - point if player == 0 else point - 1)
        counts[BAR] = on_bar[player]
        counts[OFF] = 15 - sum(counts)
        return tuple(counts)

    return Position(side(mover), side(1 - mover))


def _is_extra_turn(state: Any) -> bool:
    return any(line.strip() == "Extra turn: 1" for line in str(state).splitlines())


def random_games(*, seed: int, count: int, most_actions: int = 2_000) -> Iterator[Reached]:
    """Every whole-turn decision point of ``count`` seeded random OpenSpiel games."""
    game = load_game()
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(most_actions):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([o[0] for o in outcomes], [o[1] for o in outcomes])[0]
            else:
                if not _is_extra_turn(state):
                    position, dice = position_of(state)
                    yield Reached(state.clone(), position, dice)
                action = rng.choice(state.legal_actions())
            state.apply_action(action)


def play_random_game(game: Any, rng: random.Random, *, most_actions: int = 2_000) -> int:
    """One random OpenSpiel game to its end; returns the number of player actions."""
    state = game.new_initial_state()
    actions = 0
    for _ in range(most_actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o[0] for o in outcomes], [o[1] for o in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def resulting_positions(reached: Reached) -> set[Position]:
    """The positions OpenSpiel's legal actions lead to, the mover first (both halves of a double)."""
    mover = reached.state.current_player()
    results: set[Position] = set()
    frontier = [reached.state]
    while frontier:
        state = frontier.pop()
        for action in state.legal_actions():
            child = state.child(action)
            if not child.is_terminal() and not child.is_chance_node() and child.current_player() == mover:
                frontier.append(child)  # the second half of a double
            else:
                results.add(board_of(child, mover))
    return results


def agreement(sample: list[Reached]) -> tuple[int, list[tuple[Reached, set[Position], set[Position]]]]:
    """How many of ``sample`` give the same resulting positions in both, and the ones that do not."""
    disagreements = []
    for reached in sample:
        ours = {play.position for play in BACKGAMMON.legal_plays(reached.position, reached.dice)}
        theirs = resulting_positions(reached)
        if ours != theirs:
            disagreements.append((reached, ours, theirs))
    return len(sample) - len(disagreements), disagreements


def main() -> None:
    sample = list(random_games(seed=11, count=10))
    agreeing, disagreements = agreement(sample)
    print(f"OpenSpiel vs tavli, resulting positions: {agreeing}/{len(sample)} positions agree")
    for reached, ours, theirs in disagreements[:5]:
        print(
            f"  {reached.position.position_id()} {reached.dice[0]}{reached.dice[1]}: tavli {len(ours)},"
            f" OpenSpiel {len(theirs)}, only tavli {len(ours - theirs)}, only OpenSpiel {len(theirs - ours)}"
        )


if __name__ == "__main__":
    main()
