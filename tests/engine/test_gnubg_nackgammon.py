"""Nackgammon and hypergammon against GNU Backgammon: the matches Debian's gnubg plays against itself
in nackgammon read by tavli (every play legal, gnubg's score), tavli's own nackgammon and
hypergammon exports read back by gnubg, and the legal plays of random positions of every start
held to gnubg's move generator (the gnubg-nn package).

Debian's gnubg has no bear-off databases for hypergammon, so it cannot play hypergammon against
itself (its evaluation fails); it reads hypergammon match files, which is what is checked of it.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import gnubg_nn
import pytest

from tavli.engine import Position
from tavli.engine.backgammon import Backgammon
from tavli.engine.dice import SeededDice
from tavli.engine.match import Match
from tavli.engine.matfile import check_mat, export_mat
from tavli.engine.rules import RuleSet
from tests.gnubg_mat import gnubg_read, gnubg_selfplay_match, requires_gnubg

SEEDS = (21, 22, 23)


@pytest.fixture(scope="module")
def nackgammon_matches(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("nackgammon")
    with ThreadPoolExecutor(len(SEEDS)) as pool:
        return list(
            pool.map(
                lambda seed: gnubg_selfplay_match(
                    folder / f"{seed}.mat", length=3, seed=seed, variation="nackgammon"
                ),
                SEEDS,
            )
        )


@requires_gnubg
def test_nackgammon_matches_gnubg_plays_are_legal_and_score_as_gnubg_reads_them(
    nackgammon_matches: list[Path],
) -> None:
    for path in nackgammon_matches:
        text = path.read_text()
        assert '; [Variation "NackGammon"]' in text
        check = check_mat(text)
        assert check.problems == (), path
        assert check.rules == RuleSet(start="NACKGAMMON", match_length=3)
        reading = gnubg_read(path)
        assert reading is not None and reading.warnings == ()
        assert (len(check.games), check.score) == (reading.games, reading.score)
        assert max(check.score) >= 3 and check.match().state.over


def _random_match(rules: RuleSet, seed: int) -> Match:
    """A match of ``rules`` played to its end by random legal plays (no doubles)."""
    rng = random.Random(seed)
    match = Match(rules, dice=SeededDice(f"random-{seed}"))
    while not match.state.over:
        side = match.state.game.turn if match.state.game.phase.value != "opening" else 0
        plays = match.legal_plays()
        if plays:
            match.play(side, rng.choice(plays))
        else:
            match.roll(side)
    return match


@requires_gnubg
@pytest.mark.parametrize(
    ("start", "variation"),
    [
        ("NACKGAMMON", "NackGammon"),
        ("HYPERGAMMON_1", "HyperGammon (1)"),
        ("HYPERGAMMON_2", "HyperGammon (2)"),
        ("HYPERGAMMON_3", "HyperGammon (3)"),
    ],
)
def test_gnubg_reads_tavlis_export_back_as_the_same_match(start: str, variation: str, tmp_path: Path) -> None:
    rules = RuleSet(start=start, match_length=3, cube=False)  # type: ignore[arg-type]
    match = _random_match(rules, seed=7)
    text = export_mat(match)
    assert f'; [Variation "{variation}"]' in text
    path = tmp_path / "tavli.mat"
    path.write_text(text)
    reading = gnubg_read(path)
    assert reading is not None and reading.warnings == ()
    assert (reading.games, reading.score) == (len(match.state.finished), match.state.score)
    assert check_mat(text).rules == rules


def _gnubg_positions(position: Position, dice: tuple[int, int]) -> set[Position]:
    board = [list(position.opponent[1:26]), list(position.player[1:26])]
    checkers = position.checkers
    found = set()
    for key in gnubg_nn.moves(board, dice[0], dice[1]):
        opponent, player = gnubg_nn.board_from_position_key(key)
        found.add(Position((checkers - sum(player), *player), (checkers - sum(opponent), *opponent)))
    return found or {position}


@pytest.mark.parametrize("start", ["NACKGAMMON", "HYPERGAMMON_1", "HYPERGAMMON_2", "HYPERGAMMON_3"])
def test_legal_plays_agree_with_gnubgs_move_generator_on_random_games(start: str) -> None:
    rules = RuleSet(start=start).rules  # type: ignore[arg-type]
    assert isinstance(rules, Backgammon)
    rng = random.Random(start)
    compared = games = 0
    while compared < 500:  # whole games from the start, a few hundred positions in all
        games += 1
        position = rules.start_position()
        while rules.result(position) is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = list(rules.legal_plays(position, dice))
            ours = {play.position for play in plays}
            assert ours == _gnubg_positions(position, dice), position.position_id()
            compared += 1
            position = rng.choice(plays).position.swapped()
    assert games >= 2
