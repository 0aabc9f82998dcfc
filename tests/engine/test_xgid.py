"""XGID, checked against what the real GNU Backgammon reads from it (tests/data/gnubg_ids.json)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from tavli.engine.errors import InvalidMatchIdError, InvalidPositionError
from tavli.engine.position import BAR, OFF, Position
from tavli.engine.xgid import Xgid, format_xgid, parse_xgid

GNUBG = json.loads((Path(__file__).resolve().parents[1] / "data" / "gnubg_ids.json").read_text())
XGIDS = GNUBG["xgids"]
OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"


def as_gnubg_holds_it(xgid: Xgid) -> Xgid:
    """gnubg cannot hold a double awaiting its answer: it steps back to the doubler's turn."""
    return replace(xgid, double_offered=False)


@pytest.mark.parametrize("example", XGIDS, ids=[example["xgid"] for example in XGIDS])
def test_reading_gives_the_ids_gnubg_holds(example: dict[str, Any]) -> None:
    xgid = parse_xgid(example["xgid"])
    if example["gnubg_says"] == ["Stepping back to the offering of the cube."]:
        assert xgid.double_offered
        xgid = as_gnubg_holds_it(xgid)
    position_id, match_id = example["gnubg_id"].split(":")
    assert xgid.position.position_id() == position_id
    assert xgid.match_info().match_id() == match_id
    assert xgid.player_on_roll == example["gnubg_state"]["player_on_roll"]


@pytest.mark.parametrize("example", XGIDS, ids=[example["xgid"] for example in XGIDS])
def test_writing_gives_back_the_same_text(example: dict[str, Any]) -> None:
    assert format_xgid(parse_xgid(example["xgid"])) == example["xgid"]


@pytest.mark.parametrize(
    "rejected", GNUBG["rejected_xgids"], ids=[rejected["xgid"] for rejected in GNUBG["rejected_xgids"]]
)
def test_xgids_gnubg_refuses_are_refused(rejected: dict[str, Any]) -> None:
    assert rejected["gnubg_says"]
    with pytest.raises(InvalidPositionError):
        parse_xgid(rejected["xgid"])


def test_the_prefix_is_optional_to_read_and_always_written() -> None:
    without = parse_xgid(OPENING.removeprefix("XGID="))
    assert without == parse_xgid(OPENING)
    assert str(without) == OPENING


def test_the_board_is_turned_to_the_side_on_roll() -> None:
    # eXtreme Gammon 2 manual, p. 146: the top player (lower case) is on roll with 6-3.
    xgid = parse_xgid("XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8")
    assert xgid.player_on_roll == 0
    top, bottom = xgid.position
    assert top[24] == 1 and top[15] == 1 and top[13] == 4 and top[6] == 2 and top[5] == 3
    assert bottom[6] == 5 and bottom[13] == 4 and bottom[3] == 2
    assert xgid.cube_value == 2 and xgid.cube_owner == 1
    assert xgid.dice == (6, 3) and xgid.match_length == 3 and xgid.max_cube == 256


def test_bars_are_the_first_and_last_characters() -> None:
    xgid = parse_xgid("XGID=aa----E-C---eE---c-e-----B:0:0:1:52:0:0:0:0:10")
    bottom, top = xgid.position
    assert top[BAR] == 1 and top[24] == 1
    assert bottom[BAR] == 2 and bottom[24] == 0
    assert top[OFF] == 0 and bottom[OFF] == 0


def test_scores_are_written_bottom_player_first() -> None:
    xgid = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10")
    assert xgid.score == (2, 1)  # (player 0 = top, player 1 = bottom)
    assert xgid.crawford


def test_doubled_names_the_doubler_on_roll_and_the_other_to_act() -> None:
    xgid = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:D:3:1:0:5:10")
    assert xgid.double_offered and xgid.dice == (0, 0)
    assert xgid.player_on_roll == 1 and xgid.player_to_act == 0
    assert xgid.match_info().double_offered


@pytest.mark.parametrize(
    ("rules", "jacoby", "beavers"),
    [("0", False, False), ("1", True, False), ("2", False, True), ("3", True, True)],
)
def test_the_rules_field_in_money_play_is_jacoby_plus_beavers(
    rules: str, jacoby: bool, beavers: bool
) -> None:
    xgid = parse_xgid(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:{rules}:0:10")
    assert (xgid.jacoby, xgid.beavers, xgid.crawford) == (jacoby, beavers, False)
    assert format_xgid(xgid).split(":")[7] == rules


def test_repr_round_trips() -> None:
    xgid = parse_xgid(OPENING)
    assert repr(xgid) == f"parse_xgid({OPENING!r})"


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any arrangement of up to 15 checkers a side, never both sides on one point."""
    bottom = [0] * 26
    top = [0] * 26
    for checker in range(draw(st.integers(0, 15))):
        bottom[draw(st.integers(1, 25))] += 1
    for checker in range(draw(st.integers(0, 15))):
        point = draw(st.integers(1, 25))
        if point == BAR or not bottom[25 - point]:
            top[point] += 1
    bottom[OFF] = 15 - sum(bottom)
    top[OFF] = 15 - sum(top)
    return Position(tuple(bottom), tuple(top))


@st.composite
def xgids(draw: st.DrawFn) -> Xgid:
    match_length = draw(st.sampled_from((0, 0, 1, 3, 7, 25)))
    points = st.integers(0, match_length - 1) if match_length else st.just(0)
    on_roll = draw(st.sampled_from((0, 1)))
    cube_owner = draw(st.sampled_from((None, 0, 1)))
    crawford = bool(match_length) and draw(st.booleans())
    double_offered = not crawford and cube_owner in (None, on_roll) and draw(st.booleans())
    rolled = not double_offered and draw(st.booleans())
    money = not match_length
    return Xgid(
        position=draw(positions()),
        player_on_roll=on_roll,
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0),
        double_offered=double_offered,
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=cube_owner,
        score=(draw(points), draw(points)),
        match_length=match_length,
        crawford=crawford,
        jacoby=money and draw(st.booleans()),
        beavers=money and draw(st.booleans()),
        max_cube=1 << draw(st.integers(0, 15)),
    )


@given(xgids())
def test_every_xgid_survives_writing_and_reading(xgid: Xgid) -> None:
    text = format_xgid(xgid)
    assert parse_xgid(text) == xgid
    assert format_xgid(parse_xgid(text)) == text


@pytest.mark.parametrize(
    ("text", "error", "reason"),
    [
        ("", InvalidMatchIdError, "10"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0", InvalidMatchIdError, "10"),
        (OPENING + ":1", InvalidMatchIdError, "10"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10", InvalidPositionError, "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B-x:0:0:1:52:0:0:0:0:10", InvalidPositionError, "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B*:0:0:1:52:0:0:0:0:10", InvalidPositionError, "cannot stand"),
        ("XGID=Ab----E-C---eE---c-e----A-:0:0:1:52:0:0:0:0:10", InvalidPositionError, "cannot stand"),
        ("XGID=-a----E-C---eE---c-e----Ba:0:0:1:52:0:0:0:0:10", InvalidPositionError, "cannot stand"),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10".replace("E-C", "F-C"),
            InvalidPositionError,
            "16",
        ),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:0:0:10", InvalidMatchIdError, "turn 0"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:0:0:10", InvalidMatchIdError, "cube owner 2"),
        ("XGID=-b----E-C---eE---c-e----B-:16:0:1:52:0:0:0:0:10", InvalidMatchIdError, "cube 16"),
        ("XGID=-b----E-C---eE---c-e----B-:-1:0:1:52:0:0:0:0:10", InvalidMatchIdError, "cube -1"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:0:0:10", InvalidMatchIdError, "must be a number"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10", InvalidMatchIdError, "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:05:0:0:0:0:10", InvalidMatchIdError, "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:0:0:10", InvalidMatchIdError, "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10", InvalidMatchIdError, "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:2:5:10", InvalidMatchIdError, "Crawford/Jacoby 2"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:4:0:10", InvalidMatchIdError, "Crawford/Jacoby 4"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:5:0:0:5:10", InvalidMatchIdError, "the match is over"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:0:0:0:10", InvalidMatchIdError, "score -1"),
        ("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:3:1:0:5:10", InvalidMatchIdError, "owns the cube"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:3:4:1:5:10", InvalidMatchIdError, "Crawford game"),
    ],
)
def test_malformed_xgids_are_refused_with_the_reason(text: str, error: type[Exception], reason: str) -> None:
    with pytest.raises(error, match=reason):
        parse_xgid(text)


def test_both_sides_cannot_share_a_point() -> None:
    both_on_six = Position.from_points({6: 1}, {19: 1})
    with pytest.raises(InvalidPositionError, match="both players"):
        Xgid(position=both_on_six, player_on_roll=1)


def test_live_gnubg_reads_the_same_ids() -> None:
    gnubg = pytest.importorskip("gnubg")
    # Both players human and nothing automatic, or gnubg starts playing the match itself.
    for command in (
        "set player 0 human",
        "set player 1 human",
        "set automatic game off",
        "set automatic roll off",
    ):
        gnubg.command(command)
    for example in XGIDS:
        gnubg.command("new match 9")
        gnubg.setgnubgid(example["xgid"])
        xgid = parse_xgid(example["xgid"])
        if xgid.double_offered:
            xgid = as_gnubg_holds_it(xgid)
        assert gnubg.gnubgid() == f"{xgid.position.position_id()}:{xgid.match_info().match_id()}"
