"""Real match records (../shared/realmat, written by other programs) and matches GNU Backgammon
plays against itself: every file read, every clean one scored as gnubg scores it, every illegal
play gnubg warns of found, and the problems of the real files found where they stand."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tavli.engine.events import Doubled, Played
from tavli.engine.matfile import MatchCheck, check_mat
from tests.gnubg_mat import GnubgReading, gnubg_read, gnubg_reads, gnubg_selfplay_match, requires_gnubg

REALMAT = Path(__file__).resolve().parents[3] / "shared" / "realmat"
FILES = sorted(path for path in REALMAT.rglob("*") if path.is_file() and path.name != "README.md")

pytestmark = pytest.mark.skipif(not FILES, reason=f"the real match records are not here ({REALMAT})")

# Every problem the real files hold, where it stands: (file, game, move, line, side, words of the reason).
PROBLEMS = {
    ("bgnori__bglib/MONSTER-nori-2009Apr112157.txt", 3, 24, 76, 1, "worth at most 6 points"),
    ("kevung__gbf/test.mat", 2, 29, 71, 1, "not recorded ('???')"),
    ("kevung__gbf/test.mat", 5, 62, 166, 0, "not recorded ('???')"),
    ("kevung__gbf/test.mat", 7, 31, 231, 1, "not recorded ('???')"),
    ("kevung__lazyBG/match2.txt", 1, 38, 58, 1, "not recorded ('????')"),
    ("kevung__lazyBG/match2.txt", 2, 24, 88, 0, "not recorded ('????')"),
    ("kevung__lazyBG/match2.txt", 5, 25, 158, 0, "not recorded ('????')"),
    ("kevung__lazyBG/match2.txt", 9, 23, 244, 1, "not recorded ('????')"),
    ("mbiyimoh__guru-builder/cmj85q5mg000qeuggisvp5h8g.txt", 2, 12, 43, 1, "you must play both dice"),
    ("mbiyimoh__guru-builder/cmj85qrh90019eugg8y1xibs0.txt", 5, 16, 75, 0, "not your turn"),
    ("mbiyimoh__guru-builder/cmj85wrj3001weuggpddobbkj.txt", 7, 8, 128, 1, "board dump"),
    ("mbiyimoh__guru-builder/cmj85xmy0001xeuggxcdsi4tf.txt", 3, 21, 93, 1, "turns the cube to 4"),
    # The last game ends with " Wins 1 point" at the line's start while it is still on, and no other
    # line says whose it is (gnubg takes it as the left player's: a guess).
    ("mbiyimoh__guru-builder/cmj85q5mg000qeuggisvp5h8g.txt", 29, 23, 683, None, "does not say who lost"),
    # "Wins 2 points and the match" in the left column, while the left player would reach 10 of 11
    # points (this file writes every result in the left column; the right player reaches 11).
    ("mbiyimoh__guru-builder/cmj85xmy0001xeuggxcdsi4tf.txt", 5, 23, 135, 0, "the match is not won"),
}


@pytest.fixture(scope="module")
def checked() -> dict[Path, MatchCheck]:
    return {path: check_mat(path.read_bytes()) for path in FILES}


@pytest.fixture(scope="module")
def readings() -> dict[Path, GnubgReading | None]:
    """How gnubg reads each real file (one gnubg process a file)."""
    return gnubg_reads(FILES)


def test_every_real_file_is_read(checked: dict[Path, MatchCheck]) -> None:
    assert len(checked) == len(FILES) >= 177
    assert all(check.games for check in checked.values())


def test_the_real_files_problems_are_found_where_they_stand(checked: dict[Path, MatchCheck]) -> None:
    found = {
        (
            str(path.relative_to(REALMAT)),
            problem.game,
            problem.move,
            problem.line,
            problem.side,
            problem.message,
        )
        for path, check in checked.items()
        for problem in check.problems
    }
    expected = {where[:-1] for where in PROBLEMS}
    assert {where[:-1] for where in found} == expected
    for where in PROBLEMS:
        (message,) = [found_where[-1] for found_where in found if found_where[:-1] == where[:-1]]
        assert where[-1] in message, where


@pytest.mark.slow
@requires_gnubg
def test_every_clean_real_file_scores_as_gnubg_reads_it(
    checked: dict[Path, MatchCheck], readings: dict[Path, GnubgReading | None]
) -> None:
    clean = [path for path, check in checked.items() if check.clean]
    assert len(clean) >= 150
    for path in clean:
        reading = readings[path]
        assert reading is not None, f"gnubg cannot read {path}"
        check = checked[path]
        ours = (check.rules.match_length, len(check.games), check.score)
        assert ours == (reading.match_length, reading.games, reading.score), path


# --- matches gnubg plays against itself -----------------------------------------------------------

SEEDS = (11, 12, 13, 14)


@pytest.fixture(scope="module")
def selfplay(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("selfplay")
    with ThreadPoolExecutor(len(SEEDS)) as pool:
        return list(
            pool.map(lambda seed: gnubg_selfplay_match(folder / f"{seed}.mat", length=7, seed=seed), SEEDS)
        )


@requires_gnubg
def test_matches_gnubg_plays_against_itself_are_clean_and_score_as_it_reads_them(
    selfplay: list[Path],
) -> None:
    for path in selfplay:
        check = check_mat(path.read_bytes())
        assert check.problems == (), path
        reading = gnubg_read(path)
        assert reading is not None and reading.warnings == ()
        assert (len(check.games), check.score) == (reading.games, reading.score)
        assert max(check.score) >= 7 and check.match().state.over


_PLAY = re.compile(r"(?P<dice>[1-6][1-6]): (?P<play>\d+/\d+(?: \d+/\d+)*)")


@pytest.mark.slow
@requires_gnubg
def test_every_illegal_play_gnubg_warns_of_is_found_at_its_line(selfplay: list[Path], tmp_path: Path) -> None:
    """Plant an illegal play (a checker moved from the 1-point backwards is no move; one moved by the
    wrong die is): gnubg warns of it, and the checker reports it at its game, move and line."""
    planted = 0
    for path in selfplay:
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            found = _PLAY.search(line)
            if found is None or number % 7:
                continue
            start, end = (int(point) for point in found["play"].split()[0].split("/"))
            if end == 0 or start - end >= 6 or start == 25:
                continue
            wrong = f"{start}/{end - 1}"  # one pip further than the die
            broken = lines[:number] + [line.replace(found["play"].split()[0], wrong, 1)] + lines[number + 1 :]
            target = tmp_path / f"{path.stem}-{number}.mat"
            target.write_text("\n".join(broken) + "\n")
            reading = gnubg_read(target)
            assert reading is not None
            if not any("Invalid move" in warning for warning in reading.warnings):
                continue  # gnubg does not see it (e.g. the wrong step is another legal play)
            check = check_mat(target.read_bytes())
            assert any(problem.line == number + 1 for problem in check.problems), (target, line)
            planted += 1
            if planted >= 12:
                return
    assert planted >= 6


@pytest.mark.slow
@requires_gnubg
def test_where_gnubg_warns_of_a_drop_without_a_double_the_record_wrote_a_dance_before_it(
    checked: dict[Path, MatchCheck], readings: dict[Path, GnubgReading | None]
) -> None:
    """gnubg misreads a roll written with nothing played (a checker on the bar that cannot enter)
    followed by the opponent's double, and then warns of the drop: the engine finds the roll had
    no legal play (it takes an empty play only then), the double and the drop as written."""
    warned = [
        path
        for path, reading in readings.items()
        if reading is not None and any("Drop record found" in warning for warning in reading.warnings)
    ]
    assert warned
    for path in warned:
        check = checked[path]
        if not check.clean:
            continue  # a file whose problems we report: its warnings are not all misreadings
        dances_then_doubles = [
            game.number
            for game in check.games
            for before, after in zip(game.events, game.events[1:])
            if isinstance(before, Played) and not before.steps and isinstance(after, Doubled)
        ]
        assert dances_then_doubles, path
