"""The engine's speed, side by side with GNU Backgammon's generator and OpenSpiel's backgammon.

    .venv/bin/python -m pytest benchmarks/test_engine_speed.py

Every benchmark here does the same work as the baseline it is compared with (the same positions,
or the same number of whole games), so the ratios ``conftest.py`` prints at the end compare like
with like. Nothing here asserts a speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from benchmarks.games import gnubg_game
from tavli.engine import BACKGAMMON, LONG_NARDI, Play, Position, Variant
from tests.engine.test_perft import read_perft

Corpus = list[tuple[Position, tuple[int, int]]]
GAMES = 20  # whole random games per timed round
MOST_TURNS = 2_000  # random play ends a game in a few hundred turns; this only stops a bug


def load(name: str) -> Corpus:
    return [
        (Position.from_id(position_id), (max(dice), min(dice))) for position_id, dice, _ in read_perft(name)
    ]


BACKGAMMON_CORPUS = load("perft-backgammon.txt")
LONG_NARDI_CORPUS = load("perft-long-nardi.txt")


def enumerate_all(variant: Variant, corpus: Corpus) -> int:
    return sum(len(variant.generate_plays(position, dice)) for position, dice in corpus)


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg-nn's board: the opponent's 25 counts (points 1-24, bar), then the mover's."""
    return [list(position.opponent[1:26]), list(position.player[1:26])]


# --- enumeration over the corpora -----------------------------------------------------------


def test_engine_backgammon(timed: Callable[..., Any]) -> None:
    assert timed("engine-backgammon", lambda: enumerate_all(BACKGAMMON, BACKGAMMON_CORPUS)) > 30_000


def enumerate_with_ids(variant: Variant, corpus: Corpus) -> int:
    # Each play with the Position ID it leads to, as gnubg-nn's moves() gives each its position key.
    return sum(len(variant.generate_plays(position, dice).position_ids()) for position, dice in corpus)


def test_engine_backgammon_ids(timed: Callable[..., Any]) -> None:
    assert timed("engine-backgammon-ids", lambda: enumerate_with_ids(BACKGAMMON, BACKGAMMON_CORPUS)) > 30_000


def test_engine_long_nardi_ids(timed: Callable[..., Any]) -> None:
    assert timed("engine-long-nardi-ids", lambda: enumerate_with_ids(LONG_NARDI, LONG_NARDI_CORPUS)) > 10_000


def test_engine_backgammon_cached(timed: Callable[..., Any]) -> None:
    def query_twice() -> int:
        # What a GUI does: list the plays, then validate the chosen one; the second is a cache hit.
        return sum(len(BACKGAMMON.legal_plays(position, dice)) for position, dice in BACKGAMMON_CORPUS)

    query_twice()
    assert timed("engine-backgammon-cached", query_twice) > 30_000


def test_engine_long_nardi(timed: Callable[..., Any]) -> None:
    assert timed("engine-long-nardi", lambda: enumerate_all(LONG_NARDI, LONG_NARDI_CORPUS)) > 10_000


def test_gnubg_backgammon(timed: Callable[..., Any]) -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    boards = [(gnubg_board(p), dice) for p, dice in BACKGAMMON_CORPUS]

    def enumerate_gnubg() -> int:
        return sum(len(gnubg_nn.moves(board, dice[0], dice[1])) or 1 for board, dice in boards)

    assert timed("gnubg-backgammon", enumerate_gnubg) > 30_000


# --- applying one play ----------------------------------------------------------------------

FIRST_PLAYS: list[tuple[Position, tuple[int, int], Play]] = [
    (position, dice, next(iter(BACKGAMMON.generate_plays(position, dice))))
    for position, dice in BACKGAMMON_CORPUS
]


def test_engine_position_after(timed: Callable[..., Any]) -> None:
    # The unchecked path a bot or a search takes: the steps are already known to be legal.
    def apply_all() -> int:
        return sum(
            BACKGAMMON.position_after(position, play.steps).player[0] + 1 for position, _, play in FIRST_PLAYS
        )

    assert timed("engine-position-after", apply_all) >= len(FIRST_PLAYS)


def test_engine_parse_play(timed: Callable[..., Any]) -> None:
    # The checked path a servicer takes: read the notation, find the legal play it writes. Its
    # legal plays come from the cache after the first round (the corpus fits in it).
    written = [(position, dice, play.notation()) for position, dice, play in FIRST_PLAYS]

    def parse_all() -> int:
        return sum(len(BACKGAMMON.parse_play(position, dice, text).steps) for position, dice, text in written)

    assert timed("engine-parse-play", parse_all) >= 0


# --- whole random games -----------------------------------------------------------------------


def random_game(variant: Variant, rng: random.Random) -> int:
    """A game of random legal plays from the start to its end; returns its number of turns."""
    position = variant.start_position()
    for turn in range(MOST_TURNS):
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        plays = variant.generate_plays(position, (max(first, second), min(first, second)))
        after = plays[rng.randrange(len(plays))].position  # the pick alone is made a Play
        if variant.result(after) is not None:
            return turn + 1
        position = after.swapped()
    raise AssertionError(f"a random {variant.name} game did not end in {MOST_TURNS} turns")


def random_games(variant: Variant) -> int:
    rng = random.Random(2024)
    return sum(random_game(variant, rng) for _ in range(GAMES))


def test_engine_game_backgammon(timed: Callable[..., Any]) -> None:
    assert timed("engine-game-backgammon", lambda: random_games(BACKGAMMON)) > GAMES


def test_engine_game_long_nardi(timed: Callable[..., Any]) -> None:
    assert timed("engine-game-long-nardi", lambda: random_games(LONG_NARDI)) > GAMES


def test_gnubg_game_backgammon(timed: Callable[..., Any]) -> None:
    pytest.importorskip("gnubg_nn")
    start = gnubg_board(BACKGAMMON.start_position())

    def games() -> int:
        rng = random.Random(2024)
        return sum(gnubg_game(start, rng, most_turns=MOST_TURNS) for _ in range(GAMES))

    assert timed("gnubg-game-backgammon", games) > GAMES


def test_openspiel_game_backgammon(timed: Callable[..., Any]) -> None:
    pytest.importorskip("pyspiel")
    from benchmarks.openspiel_games import load_game, play_random_game

    game = load_game()

    def games() -> int:
        rng = random.Random(2024)
        return sum(play_random_game(game, rng) for _ in range(GAMES))

    assert timed("openspiel-game-backgammon", games) > GAMES


# --- on the positions OpenSpiel's own games reach -----------------------------------------------


@cache
def openspiel_positions() -> list[Any]:
    """Every whole-turn decision point of ten seeded random OpenSpiel games (about 1,200)."""
    pytest.importorskip("pyspiel")
    from benchmarks.openspiel_games import random_games as openspiel_games

    return list(openspiel_games(seed=11, count=10))


def test_openspiel_agrees_with_the_engine(note: Callable[[str], None]) -> None:
    # A sanity check of the conversion, so that the timings below compare the same positions.
    from benchmarks.openspiel_games import agreement

    sample = openspiel_positions()[::4]
    agreeing, _ = agreement(sample)
    note(f"OpenSpiel positions: resulting positions agree with tavli's in {agreeing} of {len(sample)}")


def _not_doubles() -> list[Any]:
    # OpenSpiel lists only the first half of a double (two checker moves): compare on the rest.
    return [reached for reached in openspiel_positions() if reached.dice[0] != reached.dice[1]]


def test_engine_openspiel_positions(timed: Callable[..., Any]) -> None:
    reached = _not_doubles()
    timed(
        "engine-openspiel-positions",
        lambda: sum(len(BACKGAMMON.generate_plays(r.position, r.dice)) for r in reached),
    )


def test_openspiel_openspiel_positions(timed: Callable[..., Any]) -> None:
    reached = _not_doubles()
    timed("openspiel-openspiel-positions", lambda: sum(len(r.state.legal_actions()) for r in reached))


def test_gnubg_openspiel_positions(timed: Callable[..., Any]) -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    boards = [(gnubg_board(r.position), r.dice) for r in _not_doubles()]
    timed("gnubg-openspiel-positions", lambda: sum(len(gnubg_nn.moves(b, d[0], d[1])) for b, d in boards))


def test_engine_openspiel_positions_with_doubles(timed: Callable[..., Any]) -> None:
    reached = openspiel_positions()
    timed(
        "engine-openspiel-all",
        lambda: sum(len(BACKGAMMON.generate_plays(r.position, r.dice)) for r in reached),
    )


def test_gnubg_openspiel_positions_with_doubles(timed: Callable[..., Any]) -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    boards = [(gnubg_board(r.position), r.dice) for r in openspiel_positions()]
    timed("gnubg-openspiel-all", lambda: sum(len(gnubg_nn.moves(b, d[0], d[1])) for b, d in boards))
