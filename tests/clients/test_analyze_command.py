"""`tavli analyze`: a match record's review as a table, or as the JSON the scripts read, from a
server of the command's own or one named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavli.clients.cli import main
from tests.server_play import running_server

RECORD = Path(__file__).parent.parent / "data" / "mat" / "noisy_gnubg_3_point.mat"
PLAYER_KEYS = [
    "name",
    "unforced_moves",
    "cube_decisions",
    "chequer_error_rate",
    "cube_error_rate",
    "error_rate",
    "snowie_error_rate",
    "pr",
    "luck_rate",
]
DECISION_KEYS = [
    "game",
    "move",
    "player",
    "kind",
    "unforced",
    "dice",
    "played",
    "best",
    "loss",
    "equity",
    "luck",
]


def test_json_is_one_object_a_file_in_the_shape_scripts_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.mat"
    assert main(["analyze", "--json", str(RECORD), str(missing)]) == 1
    found, failed = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert list(found) == ["file", "players", "decisions"] and found["file"] == str(RECORD)
    assert [list(player) for player in found["players"]] == [PLAYER_KEYS, PLAYER_KEYS]
    assert [player["name"] for player in found["players"]] == ["Left", "Right"]
    assert all(list(decision) == DECISION_KEYS for decision in found["decisions"])
    assert {decision["kind"] for decision in found["decisions"]} == {"chequer", "cube"}
    assert found["decisions"][0]["game"] == 1 and found["decisions"][0]["move"] == 1
    assert all(decision["loss"] >= 0 for decision in found["decisions"])
    assert failed["file"] == str(missing) and "cannot read it" in failed["error"]


def test_the_table_reads_like_gnubgs_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    with running_server(evaluators=1, log_rpcs=False) as running:
        assert main(["analyze", "--server", f"127.0.0.1:{running.port}", "--plies", "0", str(RECORD)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == str(RECORD)
    assert lines[2].split() == ["Player", "Left", "Right"]
    rows = {line[:40].strip(): line[40:].split() for line in lines[3:] if line}
    assert int(rows["Unforced moves"][0]) > 0
    assert {
        "Error rate (mEMG)",
        "Snowie error rate (mEMG)",
        "Luck rate (mEMG a move)",
        "Rating",
    } <= rows.keys()


def test_a_record_gnubg_cannot_evaluate_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "nardi.mat"
    record.write_text(
        '; [Variation "Long Nardi"]\n\n 1 point match\n\n Game 1\n A : 0   B : 0\n; [Opening "6-2"]\n'
    )
    assert main(["analyze", str(record)]) == 1
    assert capsys.readouterr().out == (
        f"{record}: GNU Backgammon does not evaluate long nardi: no analysis is available for it\n"
    )


def test_the_arena_reports_each_bots_error_rate_and_pr(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "--bots", "heuristic,random", "--games", "2", "--seed", "1", "--analyze", "--json"])
        == 0
    )
    arena = json.loads(capsys.readouterr().out)
    assert arena["analyzed_at_plies"] == 0
    heuristic, random = arena["bots"]["heuristic"], arena["bots"]["random"]
    assert random["error_rate"] > heuristic["error_rate"] > 0  # a random bot errs most
    assert all(bot["pr"] == pytest.approx(bot["error_rate"] / 2, abs=0.01) for bot in (heuristic, random))


def test_a_round_robin_ranks_the_bots_error_rates_too(capsys: pytest.CaptureFixture[str]) -> None:
    command = [
        "arena",
        "--bots",
        "heuristic,random,heuristic",
        "--round-robin",
        "--games",
        "2",
        "--seed",
        "1",
    ]
    assert main([*command, "--analyze", "0"]) == 0
    table = capsys.readouterr().out
    header = next(line for line in table.splitlines() if line.startswith("bot"))
    assert header.split()[-2:] == ["rate", "PR"]
    assert "error rate: GNU Backgammon's, at 0 plies" in table
    assert main(command) == 0
    assert "PR" not in capsys.readouterr().out  # no review unless asked
