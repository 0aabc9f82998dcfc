"""GNU Backgammon's Match ID, checked against IDs the real program wrote (tests/data/gnubg_ids.json)."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from tavli.engine.errors import InvalidMatchIdError, InvalidPositionError
from tavli.engine.match_id import (
    MAX_POINTS,
    GameStatus,
    MatchInfo,
    Resignation,
    decode_match_id,
    encode_match_id,
)

# The same code on either engine (a Match ID holds the score and the cube, not the board): run once.
pytestmark = pytest.mark.no_core

GNUBG = json.loads((Path(__file__).resolve().parents[1] / "data" / "gnubg_ids.json").read_text())
MATCH_IDS = GNUBG["match_ids"]


def state_from_json(fields: dict[str, Any]) -> MatchInfo:
    return MatchInfo(
        player_on_roll=fields["player_on_roll"],
        player_to_act=fields["player_to_act"],
        match_length=fields["match_length"],
        score=tuple(fields["score"]),
        cube_value=fields["cube_value"],
        cube_owner=fields["cube_owner"],
        dice=tuple(fields["dice"]),
        crawford=fields["crawford"],
        jacoby=fields["jacoby"],
        game_state=GameStatus[fields["game_state"].upper()],
        double_offered=fields["double_offered"],
        resignation_offered=Resignation[fields["resignation_offered"].upper()],
    )


def with_field(match_id: str, *, bit: int, width: int, value: int) -> str:
    """``match_id`` with the field at ``bit`` set to ``value``."""
    key = int.from_bytes(base64.b64decode(match_id), "little")
    key = key & ~(((1 << width) - 1) << bit) | value << bit
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def high_die_first(state: MatchInfo) -> MatchInfo:
    return replace(state, dice=(max(state.dice), min(state.dice)))


@pytest.mark.parametrize("example", MATCH_IDS, ids=[example["match_id"] for example in MATCH_IDS])
def test_encoding_gives_the_id_gnubg_wrote(example: dict[str, Any]) -> None:
    assert encode_match_id(state_from_json(example["state"])) == example["match_id"]


@pytest.mark.parametrize("example", MATCH_IDS, ids=[example["match_id"] for example in MATCH_IDS])
def test_decoding_gives_the_state_gnubg_held(example: dict[str, Any]) -> None:
    # gnubg keeps the dice as set (1-3) but writes the higher die first; the ID says 3-1.
    expected = high_die_first(state_from_json(example["state"]))
    assert decode_match_id(example["match_id"]) == expected


def test_the_commonly_cited_id_is_a_money_session_before_the_first_game() -> None:
    state = decode_match_id("cAgAAAAAAAAA")
    assert state.money and state.jacoby
    assert state.game_state is GameStatus.NO_GAME
    assert state.cube_value == 1 and state.cube_owner is None
    assert state.player_on_roll == state.player_to_act == 1


def test_bit_66_is_set_when_the_jacoby_rule_is_not_in_force() -> None:
    with_jacoby = MatchInfo(player_on_roll=1, player_to_act=1, game_state=GameStatus.NO_GAME, jacoby=True)
    assert with_jacoby.match_id() == "cAgAAAAAAAAA"
    assert replace(with_jacoby, jacoby=False).match_id() == "cAgAAAAAAAAE"


def test_the_higher_die_is_written_first_as_gnubg_does() -> None:
    state = MatchInfo(player_on_roll=1, player_to_act=1, match_length=7, dice=(1, 3))
    assert state.match_id() == "cInlAAAAAAAE"
    # gnubg reads a low-first ID in the order written, and writes it back high-first.
    assert decode_match_id("cInsAAAAAAAE").dice == (1, 3)
    assert decode_match_id("cInsAAAAAAAE").match_id() == "cInlAAAAAAAE"


def test_repr_round_trips() -> None:
    state = decode_match_id("MMvqAAAAEAAE")
    assert repr(state) == "MatchInfo.from_match_id('MMvqAAAAEAAE')"
    assert MatchInfo.from_match_id("MMvqAAAAEAAE") == state


seats = st.sampled_from((0, 1))


@st.composite
def match_states(draw: st.DrawFn) -> MatchInfo:
    match_length = draw(st.sampled_from((0, 1, 3, 5, 7, 25, MAX_POINTS)) | st.integers(0, MAX_POINTS))
    game_state = draw(st.sampled_from(GameStatus))
    if match_length and game_state is GameStatus.PLAYING:
        points = st.integers(0, match_length - 1)
    else:
        points = st.integers(0, MAX_POINTS)
    score = (draw(points), draw(points))
    crawford = bool(match_length) and draw(st.booleans())
    on_roll = draw(seats)
    cube_owner = draw(st.sampled_from((None, 0, 1)))
    double_offered = not crawford and cube_owner in (None, on_roll) and draw(st.booleans())
    rolled = draw(st.booleans())
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0)
    return MatchInfo(
        player_on_roll=on_roll,
        player_to_act=draw(seats),
        match_length=match_length,
        score=score,
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=cube_owner,
        dice=dice,
        crawford=crawford,
        jacoby=draw(st.booleans()),
        game_state=game_state,
        double_offered=double_offered,
        resignation_offered=draw(st.sampled_from(Resignation)),
    )


@given(match_states())
def test_every_state_survives_writing_and_reading(state: MatchInfo) -> None:
    match_id = encode_match_id(state)
    assert len(match_id) == 12
    assert decode_match_id(match_id) == high_die_first(state)
    assert encode_match_id(decode_match_id(match_id)) == match_id


@given(st.binary(min_size=9, max_size=9))
def test_any_twelve_characters_are_read_or_refused_cleanly(raw: bytes) -> None:
    text = base64.b64encode(raw).decode("ascii")
    try:
        state = decode_match_id(text)
    except InvalidMatchIdError:
        return
    # What is read is written back the same, but for the unused high bits and the die order.
    key = int.from_bytes(raw, "little") & ((1 << 67) - 1)
    again = int.from_bytes(base64.b64decode(encode_match_id(state)), "little")
    die_bits = ((1 << 6) - 1) << 15
    assert again & ~die_bits == key & ~die_bits


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("cAgAAAAAAAA", "12 characters"),
        ("cAgAAAAAAAAAA", "12 characters"),
        ("", "12 characters"),
        ("cAgAAAAA!AAA", "base64"),
        ("cAgAAAAA AAA", "base64"),
        ("cAgAAAAAAA==", "base64"),
        ("YYnlACAAIAAE", "cube owner 2"),
        ("cInnACAAIAAE", "from 1 to 6"),  # gnubg: Illegal match ID
        ("cAnkACAAIAAE", "without the other"),
        ("8IkFACAAIAAA", "no Crawford game"),  # gnubg: Illegal match ID
        ("cAngAHAAIAAE", "the match is over"),  # gnubg accepts it, then fails an assertion
        (with_field("cInlAAAAAAAE", bit=8, width=3, value=5), "game state"),
        (with_field("cInlAAAAAAAE", bit=8, width=3, value=7), "game state"),
        (with_field("MBkAAAAAAAAA", bit=4, width=2, value=1), "owns the cube"),
        ("8BngADAAMAAE", "Crawford game"),
    ],
)
def test_impossible_match_ids_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidMatchIdError, match=reason):
        decode_match_id(text)


def test_match_id_errors_are_position_errors() -> None:
    with pytest.raises(InvalidPositionError):
        decode_match_id("not an id")


@pytest.mark.parametrize(
    "rejected", GNUBG["rejected_match_ids"][:2], ids=lambda rejected: rejected["match_id"]
)
def test_ids_gnubg_calls_illegal_are_refused(rejected: dict[str, Any]) -> None:
    assert rejected["gnubg_says"] == [f"Illegal match ID '{rejected['match_id']}'"]
    with pytest.raises(InvalidMatchIdError):
        decode_match_id(rejected["match_id"])


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"cube_value": 3}, "power of two"),
        ({"cube_value": 1 << 16}, "power of two"),
        ({"cube_value": 0}, "power of two"),
        ({"dice": (7, 1)}, "from 1 to 6"),
        ({"dice": (0, 4)}, "without the other"),
        ({"match_length": 1 << 15}, "match length"),
        ({"score": (-1, 0)}, "score"),
        ({"score": (1 << 15, 0)}, "score"),
        ({"cube_owner": 2}, "cube"),
        ({"player_on_roll": 2}, "player_on_roll"),
        ({"match_length": 5, "score": (5, 0)}, "the match is over"),
        ({"crawford": True}, "no Crawford game"),
    ],
)
def test_impossible_states_cannot_be_built(changes: dict[str, Any], reason: str) -> None:
    with pytest.raises(InvalidMatchIdError, match=reason):
        MatchInfo(**{"player_on_roll": 0, "player_to_act": 0, **changes})


def test_a_finished_match_may_show_the_winning_score() -> None:
    won = MatchInfo(
        player_on_roll=1,
        player_to_act=0,
        match_length=3,
        score=(3, 1),
        dice=(3, 1),
        game_state=GameStatus.RESIGNED,
        resignation_offered=Resignation.SINGLE,
    )
    assert won.match_id() == "cKNlADAACAAE"


def test_live_gnubg_writes_the_same_ids() -> None:
    gnubg = pytest.importorskip("gnubg")
    for example in MATCH_IDS:
        if "gnubg.matchid(" not in example["how"]:
            continue
        fields = example["state"]
        cube_info = dict(
            gnubg.cubeinfo(
                fields["cube_value"],
                -1 if fields["cube_owner"] is None else fields["cube_owner"],
                fields["player_on_roll"],
                fields["match_length"],
                tuple(fields["score"]),
                int(fields["crawford"]),
                0,
            )
        )
        cube_info["jacoby"] = int(fields["jacoby"])
        position_info = gnubg.posinfo(
            fields["player_to_act"],
            Resignation[fields["resignation_offered"].upper()].value,
            int(fields["double_offered"]),
            GameStatus[fields["game_state"].upper()].value,
            tuple(fields["dice"]),
        )
        assert gnubg.matchid(cube_info, position_info) == encode_match_id(state_from_json(fields))
