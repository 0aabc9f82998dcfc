"""The bots: the interface contract every bot keeps, and how they fare in the arena.

The arena tests play through a real server on a loopback port (``tavli arena`` starts one in
this process), so they also check that a bot seated by the driver never makes an action the
server refuses. How well a bot plays is measured on the arena's games played on the engine alone
(``tests/games.py``'s ``bots_match``), held to the arena's games through a server on a few of them.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tavli.clients import bots
from tavli.clients.arena_command import ArenaConfig
from tavli.clients.bots.base import Situation
from tavli.clients.cli import main
from tavli.engine import BACKGAMMON, LONG_NARDI, VARIANTS, Position, Variant
from tavli.engine.matfile import import_mat, import_sgf
from tavli.engine.rules import MatchVariant, RuleSet
from tests.games import bots_match, first_game_won, positions_from_games

REPO = Path(__file__).resolve().parents[2]
HAS_GNUBG = importlib.util.find_spec("gnubg_nn") is not None
ARENA_GAMES = 200
PARALLEL = "4"


def _bots_for(variant: Variant) -> list[str]:
    names = [name for name in bots.NAMES if HAS_GNUBG or name != "gnubg"]
    return [name for name in names if bots.plays(name, variant)]


def _situation(variant: Variant, position: Position, **changes: object) -> Situation:
    fields: dict[str, object] = {
        "variant": variant,
        "position": position,
        "cube_value": 1,
        "cube_owner": "centre",
        "score": (0, 0),
        "match_length": 0,
        "crawford": False,
    }
    fields.update(changes)
    return Situation(**fields)  # type: ignore[arg-type]


def _arena(capsys: pytest.CaptureFixture[str], *arguments: str) -> dict[str, object]:
    assert main(["arena", *arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


# --- the contract ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [BACKGAMMON, LONG_NARDI, VARIANTS["plakoto"], VARIANTS["fevga"]],
    ids=lambda variant: variant.name,
)
def test_every_bot_always_chooses_one_of_the_legal_plays(variant: Variant) -> None:
    for name in _bots_for(variant):
        bot = bots.create(name, seed=3)
        for position, dice in positions_from_games(variant, seed=11, count=400):
            plays = list(variant.legal_plays(position, dice))
            chosen = bot.choose_play(variant, position, dice, plays)
            assert chosen in plays, f"{name} chose {chosen.notation()!r} in {position!r} with {dice}"


def test_every_bot_answers_a_double_with_a_legal_answer() -> None:
    for name in _bots_for(BACKGAMMON):
        bot = bots.create(name, seed=5)
        for index, (position, _) in enumerate(positions_from_games(BACKGAMMON, seed=12, count=200)):
            beavers = index % 2 == 0
            answer = bot.answer_double(_situation(BACKGAMMON, position.swapped(), beavers_allowed=beavers))
            assert answer in (("take", "drop", "beaver") if beavers else ("take", "drop")), name


@pytest.mark.parametrize("name", ["heuristic", "gnubg"])
def test_a_thinking_bot_never_doubles_when_the_rules_or_the_score_forbid_it(name: str) -> None:
    if name == "gnubg" and not HAS_GNUBG:
        pytest.skip("gnubg-nn is not installed")
    bot = bots.create(name)
    # 16 pips ahead in a 77-pip race, no gammons: a double wherever the cube is free.
    winning = Position.from_points({4: 4, 5: 5, 6: 6}, {5: 3, 6: 6, 7: 6})
    assert bot.offer_double(_situation(BACKGAMMON, winning))
    assert bot.offer_double(_situation(BACKGAMMON, winning, match_length=5, score=(2, 1)))
    assert not bot.offer_double(_situation(BACKGAMMON, winning, match_length=5, score=(3, 4), crawford=True))
    assert not bot.offer_double(
        _situation(BACKGAMMON, winning, match_length=5, score=(4, 2))
    )  # cube 1 wins it
    assert not bot.offer_double(
        _situation(BACKGAMMON, winning, match_length=5, score=(3, 2), cube_value=2, cube_owner="bot")
    )
    assert not bot.offer_double(_situation(BACKGAMMON, winning, match_length=1))


def test_the_heuristic_bot_takes_when_a_drop_would_lose_the_match_and_drops_a_hopeless_money_game() -> None:
    bot = bots.create("heuristic")
    # The opponent (on roll, doubling) bears off next turn; we have all 15 still far away.
    hopeless = Position.from_points({19: 5, 20: 5, 21: 5}, {1: 2})
    assert bot.answer_double(_situation(BACKGAMMON, hopeless)) == "drop"
    assert bot.answer_double(_situation(BACKGAMMON, hopeless, match_length=5, score=(3, 4))) == "take"


def test_the_heuristic_bot_plays_its_opening_six_one_by_making_the_seven_point() -> None:
    start = BACKGAMMON.start_position()
    plays = list(BACKGAMMON.legal_plays(start, (6, 1)))
    assert bots.create("heuristic").choose_play(BACKGAMMON, start, (6, 1), plays).notation() == "13/7 8/7"


@pytest.mark.alone
def test_the_heuristic_bot_decides_in_about_a_millisecond() -> None:
    for variant in (BACKGAMMON, LONG_NARDI):
        bot = bots.create("heuristic")
        decisions = [
            (position, dice, list(variant.legal_plays(position, dice)))
            for position, dice in positions_from_games(variant, seed=13, count=300)
        ]
        started = time.perf_counter()
        for position, dice, plays in decisions:
            bot.choose_play(variant, position, dice, plays)
        per_decision = (time.perf_counter() - started) / len(decisions)
        assert per_decision < 0.005, f"{variant.name}: {per_decision * 1000:.2f} ms a decision"


def test_unknown_bots_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'alphazero'"):
        bots.create("alphazero")


def test_the_bots_import_without_gnubg_nn_and_the_gnubg_bot_then_says_what_is_missing() -> None:
    script = (
        "import sys; sys.modules['gnubg_nn'] = None\n"
        "from clients import bots\n"
        "assert 'gnubg' in bots.NAMES\n"
        "bots.create('heuristic')\n"
        "try:\n"
        "    bots.create('gnubg')\n"
        "except bots.GnubgUnavailableError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "gnubg-nn" in done.stdout


# --- the arena ------------------------------------------------------------------------------------


def _arena_on_the_engine(
    variant: MatchVariant, names: tuple[str, str], games: int, seed: int
) -> tuple[int, int]:
    """The wins and net points of ``names[0]``'s bot in the arena's first ``games`` games of ``seed``
    (its dice and bot seeds, the seats swapped every game), played on the engine alone."""
    config = ArenaConfig(variant=variant, games=games, seed=seed, bots=names)
    wins = points = 0
    for index in range(games):
        a_seat = index % 2
        first_seed, second_seed = config.bot_seeds(index)
        first, second = bots.create(names[0], seed=first_seed), bots.create(names[1], seed=second_seed)
        seated = (first, second) if a_seat == 0 else (second, first)
        match = bots_match(RuleSet(variant=variant), seated, dice_seed=config.dice_seed(index))
        winner, won = first_game_won(match)
        wins += winner == a_seat
        points += won if winner == a_seat else -won
    return wins, points


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_the_heuristic_bot_beats_the_random_bot_in_nine_games_of_ten(variant: MatchVariant) -> None:
    """The arena's 200 games of seed 1, played on the engine alone: the bots decide with their own
    code as at a server's game, without a server's round trips, and the games are the arena's own
    (the test below holds the arena through a server to the same games)."""
    wins, _ = _arena_on_the_engine(variant, ("heuristic", "random"), ARENA_GAMES, seed=1)
    print(f"{variant}: heuristic won {wins}/{ARENA_GAMES}", file=sys.stderr)
    assert wins >= 0.9 * ARENA_GAMES


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_the_arena_through_a_server_plays_the_games_the_engine_alone_plays(
    variant: MatchVariant, capsys: pytest.CaptureFixture[str]
) -> None:
    results = _arena(
        capsys,
        *("--variant", variant, "--bots", "heuristic,random", "--games", "6", "--seed", "1"),
        *("--parallel", PARALLEL),
    )
    heuristic = results["bots"]["heuristic"]  # type: ignore[index]
    assert (heuristic["wins"], heuristic["points"]) == _arena_on_the_engine(
        variant, ("heuristic", "random"), 6, seed=1
    )


@pytest.mark.slow
@pytest.mark.skipif(not HAS_GNUBG, reason="gnubg-nn is not installed")
def test_the_gnubg_bot_beats_the_random_bot(capsys: pytest.CaptureFixture[str]) -> None:
    results = _arena(capsys, "--bots", "gnubg,random", "--games", "20", "--seed", "2", "--parallel", PARALLEL)
    assert results["bots"]["gnubg"]["wins"] >= 17  # type: ignore[index]


def test_matches_play_to_their_end_with_the_cube_and_the_crawford_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = _arena(
        capsys,
        "--bots",
        "heuristic,random",
        "--games",
        "6",
        "--match-length",
        "5",
        "--seed",
        "3",
        "--parallel",
        PARALLEL,
    )
    tallies = results["bots"]  # type: ignore[assignment]
    assert tallies["heuristic"]["games"] == 6  # type: ignore[index]
    assert tallies["heuristic"]["wins"] + tallies["random"]["wins"] == 6  # type: ignore[index]
    assert abs(tallies["heuristic"]["points"]) <= 6  # type: ignore[index]  # a match counts +1 or -1


@pytest.mark.slow
def test_the_arena_prints_one_json_object_with_every_bot_s_tally(capsys: pytest.CaptureFixture[str]) -> None:
    results = _arena(
        capsys, "--variant", "long-nardi", "--bots", "random,random", "--games", "2", "--seed", "4"
    )
    assert set(results) >= {"bots", "games_per_second"}
    assert results["games_per_second"] > 0  # type: ignore[operator]
    assert set(results["bots"]) == {"random", "random#2"}  # type: ignore[arg-type]
    for tally in results["bots"].values():  # type: ignore[attr-defined]
        assert set(tally) == {"games", "wins", "mars", "points", "ppg", "ppg_ci95"}
        assert tally["games"] == 2
    wins = [tally["wins"] for tally in results["bots"].values()]  # type: ignore[attr-defined]
    assert sum(wins) == 2
    backgammon = _arena(capsys, "--bots", "heuristic,random", "--games", "2", "--seed", "4")
    assert set(backgammon["bots"]["heuristic"]) == {  # type: ignore[index]
        "games",
        "wins",
        "gammons",
        "backgammons",
        "points",
        "ppg",
        "ppg_ci95",
    }


@pytest.mark.parametrize(
    ("arguments", "big_wins"),
    [
        (("--variant", "plakoto"), {"gammons", "mothers"}),
        (("--variant", "fevga"), {"gammons"}),
        (("--variant", "tavli", "--match-length", "3"), {"gammons", "backgammons", "mothers"}),
    ],
)
def test_the_arena_plays_plakoto_fevga_and_the_tavli_match(
    capsys: pytest.CaptureFixture[str], arguments: tuple[str, ...], big_wins: set[str]
) -> None:
    results = _arena(capsys, *arguments, "--bots", "heuristic,random", "--games", "4", "--seed", "6")
    tallies = results["bots"]
    assert set(tallies["heuristic"]) == {"games", "wins", "points", "ppg", "ppg_ci95"} | big_wins  # type: ignore[index]
    assert tallies["heuristic"]["games"] == tallies["random"]["games"] == 4  # type: ignore[index]
    assert tallies["heuristic"]["wins"] + tallies["random"]["wins"] == 4  # type: ignore[index]
    assert tallies["heuristic"]["wins"] >= 3  # type: ignore[index]
    assert results["backgammons"] == ("AS_GAMMON" if "tavli" in arguments else "COUNTED")


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("nackgammon", {"start": "NACKGAMMON", "backgammons": "COUNTED", "cube": True}),
        ("hypergammon-1", {"start": "HYPERGAMMON_1", "backgammons": "COUNTED", "cube": True}),
        ("hypergammon-2", {"start": "HYPERGAMMON_2", "backgammons": "COUNTED", "cube": True}),
        ("hypergammon-3", {"start": "HYPERGAMMON_3", "backgammons": "COUNTED", "cube": True}),
        (
            "portes",
            {"start": "STANDARD", "backgammons": "AS_GAMMON", "cube": False, "home_hit_and_run": "ALLOWED"},
        ),
        (
            "tavla",
            {"start": "STANDARD", "backgammons": "AS_GAMMON", "cube": False, "home_hit_and_run": "FORBIDDEN"},
        ),
    ],
)
def test_the_arena_plays_nackgammon_hypergammon_portes_and_tavla_by_their_rules(
    game: str, rules: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = _arena(
        capsys,
        *("--variant", game, "--bots", "heuristic,random", "--games", "2", "--seed", "6"),
        *("--match-length", "3", "--export", str(tmp_path)),
    )
    assert (results["variant"], results["backgammons"]) == (game, rules["backgammons"])
    tallies = results["bots"]
    assert tallies["heuristic"]["games"] == tallies["random"]["games"] == 2  # type: ignore[index]
    files = sorted(tmp_path.glob("*.mat"))
    assert len(files) == 2
    for file in files:
        imported = import_mat(file.read_text(encoding="utf-8"))
        assert imported.match.state.over
        assert {name: getattr(imported.rules, name) for name in rules} == rules


def test_the_arena_refuses_gnubg_at_hypergammon_and_a_table_in_money_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "--variant", "hypergammon-2", "--bots", "gnubg,random", "--games", "1"]) == 2
    assert "the gnubg bot plays" in capsys.readouterr().err
    assert main(["arena", "--variant", "portes", "--bots", "heuristic,random", "--games", "1"]) == 2
    assert "money games all start with the opening throw" in capsys.readouterr().err


def test_the_arena_refuses_money_play_of_the_tavli_match_and_gnubg_at_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "--variant", "tavli", "--bots", "heuristic,random", "--games", "1"]) == 2
    assert "a tavli match is played to a number of points" in capsys.readouterr().err
    assert main(["arena", "--variant", "tavli", "--match-length", "3", "--bots", "gnubg,random"]) == 2
    assert "backgammon only" in capsys.readouterr().err


def test_the_arena_prints_a_table_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "heuristic,random", "--games", "2", "--seed", "5"]) == 0
    table = capsys.readouterr().out
    assert "heuristic" in table and "random" in table and "games/s" in table


def test_the_arena_refuses_an_unknown_bot_and_gnubg_at_long_nardi(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "heuristic,nobody", "--games", "1"]) == 2
    assert main(["arena", "--variant", "long-nardi", "--bots", "gnubg,random", "--games", "1"]) == 2
    assert "backgammon only" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_the_arena_exports_each_game_as_a_mat_file_the_engine_reads_back(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _arena(
        capsys,
        "--variant",
        variant,
        "--bots",
        "heuristic,random",
        "--games",
        "3",
        "--seed",
        "6",
        "--export",
        str(tmp_path),
        "--match-length",
        "3",
    )
    files = sorted(tmp_path.glob("*.mat"))
    assert len(files) == 3
    for number, file in enumerate(files):
        imported = import_mat(file.read_text(encoding="utf-8"))
        assert imported.rules.variant == variant
        assert imported.match.state.over
        # Each seat is named after its bot; the bots change seats from one match to the next.
        assert imported.players == (("heuristic", "random") if number % 2 == 0 else ("random", "heuristic"))


def test_the_arena_exports_gnubgs_sgf_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _arena(
        capsys,
        *("--bots", "heuristic,random", "--games", "2", "--seed", "6", "--match-length", "3"),
        *("--export", str(tmp_path), "--export-format", "sgf"),
    )
    files = sorted(tmp_path.iterdir())
    assert [file.suffix for file in files] == [".sgf", ".sgf"]
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert text.startswith("(;FF[4]GM[6]")
        imported = import_sgf(text)
        assert imported.match.state.over and set(imported.players) == {"heuristic", "random"}


def test_the_arena_refuses_sgf_for_a_variant_it_cannot_record_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--variant", "long-nardi", "--bots", "heuristic,random", "--games", "1"]
    assert main(["arena", *arguments, "--export", str(tmp_path), "--export-format", "sgf"]) == 2
    assert "--export-format sgf: GNU Backgammon's SGF cannot record long nardi" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_arena_plays_every_game_with_backgammons_as_gammon(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = _arena(
        capsys,
        "--bots",
        "heuristic,random",
        "--games",
        "4",
        "--seed",
        "7",
        "--match-length",
        "3",
        "--backgammons",
        "as-gammon",
        "--export",
        str(tmp_path),
    )
    assert results["backgammons"] == "AS_GAMMON"
    assert all(tally["backgammons"] == 0 for tally in results["bots"].values())  # type: ignore[attr-defined]
    for file in sorted(tmp_path.glob("*.mat")):
        text = file.read_text(encoding="utf-8")
        assert text.startswith('; [Backgammons "AsGammon"]\n')
        imported = import_mat(text)
        assert imported.rules.backgammons == "AS_GAMMON"
        assert all(game.points <= 2 * game.cube_value for game in imported.match.state.finished)
    assert (
        main(
            [
                "arena",
                "--bots",
                "heuristic,random",
                "--games",
                "2",
                "--seed",
                "7",
                "--backgammons",
                "as-gammon",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith(
        "backgammon (backgammons scored as gammons), money games, seed 7, over stream\n"
    )


def test_the_arena_refuses_backgammons_as_gammon_in_long_nardi(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "arena",
                "--variant",
                "long-nardi",
                "--bots",
                "random,random",
                "--games",
                "1",
                "--backgammons",
                "as-gammon",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == (
        "tavli arena: long nardi has no backgammons to score as gammons: its biggest win, a mars, is worth 2"
        " already\n"
    )
