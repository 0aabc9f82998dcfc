"""The gnubg oracle for `.mat` files (tests/gnubg_mat.py) runs gnubg and reads its answers right."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.gnubg_mat import SELFPLAY_NAMES, GnubgReading, gnubg_available, gnubg_read, gnubg_selfplay_match

if not gnubg_available():
    pytest.skip("GNU Backgammon is not installed", allow_module_level=True)

LENGTH = 7


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 7-point match gnubg played against itself, in a folder whose name has a space."""
    folder = tmp_path_factory.mktemp("self play")
    return gnubg_selfplay_match(folder / "gnubg v gnubg.mat", length=LENGTH, seed=2)


@pytest.fixture(scope="module")
def reading(match_file: Path) -> GnubgReading:
    found = gnubg_read(match_file)
    assert found is not None
    return found


def test_gnubg_reads_back_its_own_match_without_warnings(reading: GnubgReading) -> None:
    assert reading.games >= 1
    assert reading.match_length == LENGTH
    assert max(reading.score) >= LENGTH > min(reading.score)
    assert reading.warnings == ()
    assert reading.players == SELFPLAY_NAMES


def test_the_same_seed_gives_the_same_file(tmp_path: Path) -> None:
    first = gnubg_selfplay_match(tmp_path / "first.mat", length=3, seed=3)
    second = gnubg_selfplay_match(tmp_path / "second.mat", length=3, seed=3)
    assert first.read_bytes() == second.read_bytes()
    assert b"EventDate" not in first.read_bytes()


def test_a_drop_that_follows_no_double_is_reported(match_file: Path, tmp_path: Path) -> None:
    lines = match_file.read_text(encoding="utf-8").split("\n")
    second_move = next(i for i, line in enumerate(lines) if re.match(r"\s*2\) ", line))
    # The first game's second move becomes a drop, with no double before it.
    lines[second_move] = "  2)  Drops"
    planted = tmp_path / "planted drop.mat"
    planted.write_text("\n".join(lines), encoding="utf-8")
    found = gnubg_read(planted)
    assert found is not None
    assert "Drop record found but doesn't follow a double" in found.warnings


def test_the_score_is_given_left_column_first_whatever_the_names(
    match_file: Path, reading: GnubgReading, tmp_path: Path
) -> None:
    left, right = SELFPLAY_NAMES
    score_line = re.compile(rf"^ {left} : (\d+) +{right} : (\d+)$", re.MULTILINE)
    renamed = tmp_path / "renamed.mat"
    text = score_line.sub(r" Zoë van Dijk,1750 : \1     Ab 9 : \2", match_file.read_text(encoding="utf-8"))
    renamed.write_text(text, encoding="utf-8")
    found = gnubg_read(renamed)
    assert found is not None
    assert found.players == ("Zoë van Dijk", "Ab 9")  # gnubg cuts a name at its comma
    assert found.score == reading.score


def test_a_file_gnubg_cannot_read_gives_no_reading(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_text("no match here\n", encoding="utf-8")
    assert gnubg_read(junk) is None
