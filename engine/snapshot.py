"""A match's folded state at the start of one of its games, as data: where a reader of a long log
starts folding instead of at event 0.

A game's start is the one moment a match's state is small and plain: the score, the games
finished, the throws made, the clocks and the new game's number, opener and Crawford flag; the
board is the variant's start and the cube is centred at 1. Only such a state is written as a
snapshot, and only if it reads back as exactly the state it was written from. The log stays the
truth: a snapshot only saves folding what comes before it.
"""

from __future__ import annotations

from typing import Any

from tavli.engine.clock import Clock
from tavli.engine.events import Side
from tavli.engine.game import FinishedGame, GameState, MatchState, Phase
from tavli.engine.rules import RuleSet
from tavli.engine.variant import GameResult

FORMAT = 1
"""The snapshots this engine writes and reads; one of another format is not read (the log is folded)."""


def snapshot_of(state: MatchState) -> dict[str, Any] | None:
    """``state`` as a JSON-ready dict, if it is the start of a game (nothing of it played yet,
    the match not over); else None."""
    game = state.game
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": {
            "number": game.number,
            "turn": game.turn,
            "phase": game.phase.value,
            "crawford": game.crawford,
        },
        "score": list(state.score),
        "finished": [
            [done.number, done.winner, done.result.value, done.points, done.cube_value, done.ended_by]
            for done in state.finished
        ],
        "crawford_played": state.crawford_played,
        "throws": state.throws,
        "clock": None
        if state.clock is None
        else [list(state.clock.remaining), state.clock.running, state.clock.started],
    }
    if (
        state.over
        or game.phase not in (Phase.OPENING, Phase.ROLLING)
        or state_of_snapshot(state.rules, data) != state
    ):
        return None
    return data


def state_of_snapshot(rules: RuleSet, data: dict[str, Any]) -> MatchState:
    """The state a snapshot of a match played by ``rules`` stands for.

    :raises ValueError: if ``data`` is not a snapshot this engine reads.
    """
    try:
        if data["format"] != FORMAT:
            raise ValueError(f"a snapshot of format {data['format']!r}, not {FORMAT}")
        game, clock = data["game"], data["clock"]
        phase, turn = Phase(game["phase"]), _side(game["turn"])
        return MatchState(
            rules=rules,
            game=GameState(
                number=int(game["number"]),
                position=rules.for_game(int(game["number"])).rules.start_position(),
                turn=turn,
                phase=phase,
                crawford=bool(game["crawford"]),
                opener=turn if phase is Phase.ROLLING else None,  # a game starts rolling only for its opener
            ),
            score=(int(data["score"][0]), int(data["score"][1])),
            finished=tuple(
                FinishedGame(
                    int(number),
                    None if winner is None else _side(winner),  # a draw has no winner
                    GameResult(result),
                    int(points),
                    int(cube),
                    ended_by,
                )
                for number, winner, result, points, cube, ended_by in data["finished"]
            ),
            crawford_played=bool(data["crawford_played"]),
            throws=int(data["throws"]),
            clock=None
            if clock is None
            else Clock(
                (float(clock[0][0]), float(clock[0][1])),
                None if clock[1] is None else _side(clock[1]),
                float(clock[2]),
            ),
        )
    except (KeyError, IndexError, TypeError) as error:
        raise ValueError(f"a malformed snapshot: {type(error).__name__}: {error}") from None


def _side(value: object) -> Side:
    if value == 0:
        return 0
    if value == 1:
        return 1
    raise ValueError(f"a side must be 0 or 1, not {value!r}")


__all__ = ["FORMAT", "snapshot_of", "state_of_snapshot"]
