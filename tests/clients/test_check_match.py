"""`tavli check-match`: a report per file, JSON lines for scripts, exit statuses by the worst file;
.mat files and GNU Backgammon's SGF told apart by their content."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tavli.clients import check_match_command
from tavli.clients.cli import main
from tavli.engine.matfile import export_mat, export_sgf
from tavli.engine.rules import RuleSet
from tests.games import bot_match

CLEAN = export_mat(bot_match(RuleSet(match_length=3), seed=5), players=("Alice", "Bob"))
# Move 2 of game 1 moves a checker from a point the mover does not hold.
BROKEN = """ 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 65: 12/1                    Doubles => 2
  3)  Drops                       Wins 1 point
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "clean": tmp_path / "clean.mat",
        "broken": tmp_path / "broken.mat",
        "junk": tmp_path / "junk.txt",
    }
    paths["clean"].write_text(CLEAN)
    paths["broken"].write_text(BROKEN)
    paths["junk"].write_text("not a match record\n")
    return paths


def _json_lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines()]


def test_a_clean_file_exits_0_with_its_games_and_score(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-match", "--json", str(files["clean"])]) == 0
    (found,) = _json_lines(capsys.readouterr().out)
    match = bot_match(RuleSet(match_length=3), seed=5)
    assert found == {
        "file": str(files["clean"]),
        "match_length": 3,
        "games": len(match.state.finished),
        "score": list(match.state.score),
        "problems": [],
    }


def test_a_file_with_problems_exits_1_and_says_where(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-match", "--json", str(files["broken"])]) == 1
    (found,) = _json_lines(capsys.readouterr().out)
    assert found["games"] == 1 and found["score"] == [0, 1]  # the result written after the problem
    (problem,) = found["problems"]  # type: ignore[misc]
    assert problem["game"] == 1 and problem["move"] == 2 and problem["line"] == 6 and problem["side"] == 0
    assert problem["message"].startswith("plays '12/1' with 6-5: ")


def test_an_unreadable_file_exits_2_and_the_worst_file_decides(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.mat"
    names = [str(files["clean"]), str(files["junk"]), str(files["broken"]), str(missing)]
    assert main(["check-match", "--json", *names]) == 2
    captured = capsys.readouterr()
    found = _json_lines(captured.out)
    assert [line["file"] for line in found] == names  # one line a file, in the order given
    assert "point match" in str(found[1]["error"]) and "No such file" in str(found[3]["error"])
    assert "4 files: 1 clean, 1 with problems, 2 unreadable" in captured.err  # stdout stays JSON
    assert main(["check-match", "--json", str(files["clean"]), str(files["broken"])]) == 1


def test_the_readable_report_names_the_players_and_every_problem(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-match", str(files["broken"]), str(files["clean"])]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{files['broken']}: 3 point match, Alice - Bob, 1 game, score 0-1: 1 problem"
    assert out[1].startswith("  game 1, move 2, player 0 (Alice), line 6: plays '12/1' with 6-5: ")
    assert out[2].endswith(": clean")
    assert out[3].startswith("2 files: 1 clean, 1 with problems, 0 unreadable (")


def test_it_reads_standard_input_and_non_utf8_bytes() -> None:
    latin = BROKEN.replace("Alice", "Kévin").encode("latin-1")
    done = subprocess.run(
        [sys.executable, "-m", "tavli.clients.cli", "check-match", "-"],
        input=latin,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode("utf-8")
    assert out.startswith("-: 3 point match, Kévin - Bob, 1 game, score 0-1: 1 problem\n")
    assert "game 1, move 2, player 0 (Kévin), line 6: plays '12/1' with 6-5: " in out


def test_files_checked_in_several_processes_are_reported_in_the_order_given(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    names = [str(files[kind]) for kind in ("clean", "broken", "junk")] * 12
    assert main(["check-match", "--json", "--jobs", "2", *names]) == 2
    together = capsys.readouterr().out
    assert main(["check-match", "--json", "--jobs", "1", *names]) == 2
    alone = capsys.readouterr().out
    assert together == alone
    assert [line["file"] for line in _json_lines(together)] == names


# Bob resigns the 1 point match: the loser's line at the line's start, the winner's in the left column.
LINE_START_RESULT = """ 1 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
Losses 1 point
      Wins 1 point and the match
"""


def test_a_result_at_the_line_start_is_reported_by_its_meaning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paired, alone = tmp_path / "paired.mat", tmp_path / "alone.mat"
    paired.write_text(LINE_START_RESULT)
    alone.write_text(LINE_START_RESULT.replace("      Wins 1 point and the match\n", ""))
    assert main(["check-match", "--json", str(paired)]) == 0
    (found,) = _json_lines(capsys.readouterr().out)
    assert found["score"] == [1, 0] and found["problems"] == []
    assert main(["check-match", "--json", str(alone)]) == 1
    (found,) = _json_lines(capsys.readouterr().out)
    (problem,) = found["problems"]  # type: ignore[misc]
    assert (problem["game"], problem["move"], problem["line"], problem["side"]) == (1, 1, 6, None)
    assert "the result does not say who lost" in problem["message"]


# --- GNU Backgammon's SGF ----------------------------------------------------------------------------

CLEAN_SGF = export_sgf(bot_match(RuleSet(match_length=3), seed=5), players=("Alice", "Bob"))
# Game 1, black's first play moves checkers from a point black does not hold (its 12-point).
BROKEN_SGF = (
    "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]RU[Crawford]\n;W[31hefe]\n;B[65msmr]\n)\n"
)


def test_an_sgf_file_is_told_by_its_content_and_reported_as_its_mat_file_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sgf = tmp_path / "match.txt"  # the name says nothing: the content does
    sgf.write_bytes(b"\xef\xbb\xbf\n  " + CLEAN_SGF.encode())
    mat = tmp_path / "match.mat"
    mat.write_text(CLEAN)
    assert main(["check-match", "--json", str(sgf), str(mat)]) == 0
    from_sgf, from_mat = _json_lines(capsys.readouterr().out)
    assert from_sgf == {**from_mat, "file": str(sgf)}
    assert from_sgf["problems"] == [] and from_sgf["games"] == len(
        bot_match(RuleSet(match_length=3), seed=5).state.finished
    )


def test_a_problem_in_an_sgf_file_gives_its_game_move_side_and_sgf_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.sgf"
    broken.write_text(BROKEN_SGF)
    assert main(["check-match", "--json", str(broken)]) == 1
    (found,) = _json_lines(capsys.readouterr().out)
    (problem,) = found["problems"]  # type: ignore[misc]
    assert (problem["game"], problem["move"], problem["line"], problem["side"]) == (1, 1, 3, 1)
    assert problem["message"] == "plays '12/6 12/7' with 6-5: you have no checker on your 12-point"
    assert main(["check-match", str(broken)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{broken}: 3 point match, Alice - Bob, 1 game, score 0-0: 1 problem"
    where = "  game 1, move 1, player 1 (Bob), line 3: "
    assert out[1] == where + "plays '12/6 12/7' with 6-5: you have no checker on your 12-point"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;FF[4]GM[1]SZ[19];B[pd])", "records another game (GM[1]), not backgammon"),
        ("(;FF[4]GM[6]MI[length:3]PW[Alice", "the file ends inside a property value"),
        ("(;FF[4]GM[6]MI[length:3];W[31hefe]", "the file ends inside a game tree"),
        ("(;FF[4]GM[6]MI[length:lots])", "the match information's length is a number, not 'lots'"),
        ("(;FF[4]RU[Crawford])", "does not say which game it records: backgammon's is GM[6]"),
        ("(;" + "(" * 100_000, "the file ends inside a game tree"),
    ],
)
def test_an_sgf_file_that_holds_no_match_exits_2_saying_why(
    text: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "bad.sgf"
    file.write_text(text)
    assert main(["check-match", "--json", str(file)]) == 2
    (found,) = _json_lines(capsys.readouterr().out)
    assert found["file"] == str(file) and words in found["error"]  # type: ignore[operator]


def test_binary_bytes_are_no_match_in_either_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "binary.sgf"
    binary.write_bytes(bytes(range(256)) * 64)
    assert main(["check-match", "--json", str(binary)]) == 2
    (found,) = _json_lines(capsys.readouterr().out)
    assert "match" in found["error"]  # type: ignore[operator]


def test_sgf_and_mat_files_checked_in_several_processes_are_reported_in_the_order_given(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sgf, broken = tmp_path / "clean.sgf", tmp_path / "broken.sgf"
    sgf.write_text(CLEAN_SGF)
    broken.write_text(BROKEN_SGF)
    names = [str(path) for path in (sgf, files["clean"], broken, files["broken"])] * 8
    assert main(["check-match", "--json", "--jobs", "2", *names]) == 1
    together = capsys.readouterr().out
    assert main(["check-match", "--json", "--jobs", "1", *names]) == 1
    assert capsys.readouterr().out == together
    assert [line["file"] for line in _json_lines(together)] == names


@pytest.mark.parametrize("jobs", ["-1", "two"])
def test_jobs_that_are_no_number_of_processes_are_refused_in_words(
    jobs: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check-match", "--jobs", jobs, str(files["clean"])])
    assert stopped.value.code == 2
    assert f"a number of processes, 1 or more (0: one a CPU), not '{jobs}'" in capsys.readouterr().err


@pytest.mark.parametrize(("files_given", "most_chunks"), [(1000, 512), (40, 4)])
def test_files_dealt_to_workers_in_chunks_are_each_checked_once_in_order(
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    files_given: int,
    most_chunks: int,
) -> None:
    """The workers take the files in chunks as they are ready, as many chunks as the pipe they are
    dealt from holds at most: every file is checked once and reported in the order given."""
    monkeypatch.setattr(check_match_command, "_MOST_CHUNKS", most_chunks)
    kinds = ("clean", "broken", "junk")
    names = [str(files[kinds[index % 7 % 3]]) for index in range(files_given)]
    assert main(["check-match", "--json", "--jobs", "3", *names]) == 2
    reported = _json_lines(capsys.readouterr().out)
    assert [line["file"] for line in reported] == names
    assert [("error" in line, bool(line.get("problems"))) for line in reported] == [
        (name == str(files["junk"]), name == str(files["broken"])) for name in names
    ]


def test_more_jobs_than_files_check_each_file_once(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    names = [str(files["clean"]), str(files["broken"])]
    assert main(["check-match", "--json", "--jobs", "8", *names]) == 1
    assert [line["file"] for line in _json_lines(capsys.readouterr().out)] == names


@pytest.mark.parametrize(("kind", "status"), [("clean", "0"), ("broken", "1")])
def test_a_record_is_checked_without_loading_the_pure_checker(
    files: dict[str, Path], kind: str, status: str
) -> None:
    """With the compiled core, a .mat record is read and checked in its one pass, a clean one and
    one with an illegal play (whose words the engine's play reading gives from the core's board):
    the command does not import the engine's game, the pure checker or the SGF reader (their import
    is a good part of a short run). Without the core, the pure checker is what checks it (the SGF
    reader is imported for SGF records alone)."""
    script = (
        "import sys\n"
        "from tavli.clients.cli import main\n"
        "from tavli.engine import core\n"
        f"status = main(['check-match', '--json', {str(files[kind])!r}])\n"
        "loaded = [name for name in ('tavli.engine.game', 'tavli.engine.matfile.checking',"
        " 'tavli.engine.matfile.sgf') if name in sys.modules]\n"
        "print(status, core.compiled is not None, loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "12/1" in done.stdout or kind == "clean"
    found, compiled, loaded = done.stdout.splitlines()[-1].split(" ", 2)
    assert found == status
    expected = "[]" if compiled == "True" else "['tavli.engine.game', 'tavli.engine.matfile.checking']"
    assert loaded == expected
