"""The named tables (engine/presets.json, shared with the web table): each preset is a rule set
the engine accepts with the customs its name promises, and one the server creates a game with."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from tavli.engine.presets import PRESETS, RULE_OPTIONS, presets_from_json
from tavli.engine.rules import RuleSet
from tavli.server.convert import rules_message, rules_of
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import RPC_TIMEOUT, connected, running_server

ENGINE_HAS_BACKGAMMONS = "backgammons" in {field.name for field in fields(RuleSet)}


def test_the_tables_players_know_are_offered_in_order() -> None:
    assert list(PRESETS) == [
        "international",
        "money",
        "israeli-cafe",
        "single-games",
        "portes",
        "tavla",
        "long-nardi",
        "plakoto",
        "fevga",
        "tavli",
    ]
    for preset in PRESETS.values():
        assert preset.title and preset.description, preset.key


def test_international_is_a_match_with_the_cube_and_crawford() -> None:
    rules = PRESETS["international"].rule_set()
    assert (rules.variant, rules.is_match, rules.uses_cube, rules.crawford) == (
        "backgammon",
        True,
        True,
        True,
    )


def test_money_plays_on_with_jacoby_and_beavers() -> None:
    rules = PRESETS["money"].rule_set()
    assert (rules.match_length, rules.cube, rules.jacoby, rules.beavers) == (0, True, True, True)


def test_the_israeli_cafe_has_no_cube_rolls_again_plays_forced_moves_and_counts_no_backgammon() -> None:
    preset = PRESETS["israeli-cafe"]
    rules = preset.rule_set()
    assert (rules.cube, rules.opening, rules.auto_play_forced) == (False, "WINNER_ROLLS_AGAIN", True)
    assert preset.rules["backgammons"] == "AS_GAMMON"
    if ENGINE_HAS_BACKGAMMONS:
        assert rules.backgammons == "AS_GAMMON"  # type: ignore[attr-defined, unused-ignore]


def test_single_games_keep_a_running_total_with_the_cube_off() -> None:
    rules = PRESETS["single-games"].rule_set()
    assert (rules.variant, rules.match_length, rules.cube) == ("backgammon", 0, False)


@pytest.mark.parametrize(("key", "home_hit_and_run"), [("portes", "ALLOWED"), ("tavla", "FORBIDDEN")])
def test_portes_and_tavla_are_backgammon_as_the_rule_book_writes_them(
    key: str, home_hit_and_run: str
) -> None:
    rules = PRESETS[key].rule_set()
    assert (rules.variant, rules.start, rules.cube) == ("backgammon", "STANDARD", False)
    assert rules.backgammons == "AS_GAMMON"
    assert (rules.opening, rules.match_openings) == ("WINNER_ROLLS_AGAIN", "WINNER_OPENS")
    assert rules.home_hit_and_run == home_hit_and_run == getattr(rules.rules, "home_hit_and_run", None)
    assert rules.match_length == 5


def test_long_nardi_is_played_without_a_cube() -> None:
    rules = PRESETS["long-nardi"].rule_set()
    assert (rules.variant, rules.cube, rules.opening) == ("long-nardi", False, "WINNER_ROLLS_AGAIN")


@pytest.mark.parametrize("key", list(PRESETS))
def test_each_preset_names_every_rule_a_player_sees(key: str) -> None:
    assert RULE_OPTIONS <= PRESETS[key].rules.keys()


def test_a_preset_that_leaves_out_an_option_or_names_an_unknown_one_is_refused() -> None:
    entry = {"key": "k", "title": "T", "description": "D", "rules": dict(PRESETS["money"].rules)}
    del entry["rules"]["crawford"]
    with pytest.raises(ValueError, match=r"preset 'k': missing options \['crawford'\]"):
        presets_from_json(json.dumps({"presets": [entry]}))
    entry["rules"] = {**PRESETS["money"].rules, "raccoons": True}
    with pytest.raises(ValueError, match=r"unknown options \['raccoons'\]"):
        presets_from_json(json.dumps({"presets": [entry]}))


def test_the_server_creates_a_game_with_each_preset() -> None:
    with running_server() as server, connected(server.port) as client:
        for preset in PRESETS.values():
            rules = preset.rule_set()
            created = client.games.CreateGame(
                games_pb2.CreateGameRequest(rule_set=rules_message(rules)), timeout=RPC_TIMEOUT
            )
            assert rules_of(created.game.rule_set) == rules, preset.key
            assert created.game.phase == games_pb2.PHASE_OPENING, preset.key


@pytest.mark.parametrize(
    ("key", "games"),
    [("plakoto", ["plakoto"]), ("fevga", ["fevga"]), ("tavli", ["backgammon", "plakoto", "fevga"])],
)
def test_the_greek_games_are_matches_without_a_cube_the_winner_opening_the_next(
    key: str, games: list[str]
) -> None:
    rules = PRESETS[key].rule_set()
    assert (rules.variant, rules.match_length, rules.cube) == (key, 5, False)
    assert (rules.opening, rules.match_openings) == ("WINNER_ROLLS_AGAIN", "WINNER_OPENS")
    assert [variant.name for variant in rules.variants_played] == games
