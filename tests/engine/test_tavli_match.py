"""The Greek tavli match (RULES.md, "The Greek tavli match"): Portes, Plakoto and Fevga in turn,
each game scored by its own rules, no cube, the winner opening the next game, a drawn game
counted as played."""

from __future__ import annotations

import random

import pytest

from tavli.engine.dice import SeededDice
from tavli.engine.events import Side
from tavli.engine.game import Phase
from tavli.engine.match import Match
from tavli.engine.rules import InvalidRuleSetError, RuleSet
from tavli.engine.snapshot import snapshot_of, state_of_snapshot
from tavli.engine.variants import VARIANTS


def test_game_k_is_portes_plakoto_or_fevga_by_k_mod_3() -> None:
    rules = RuleSet(variant="tavli", match_length=7)
    names = [rules.for_game(number).variant for number in range(1, 8)]
    assert names == ["backgammon", "plakoto", "fevga", "backgammon", "plakoto", "fevga", "backgammon"]


def test_each_game_is_played_by_its_own_rules_with_the_matchs_options() -> None:
    rules = RuleSet(variant="tavli", match_length=5, mother_value=3, first_checker="INTO_START_QUARTER")
    portes, plakoto, fevga = (rules.for_game(number) for number in (1, 2, 3))
    assert (portes.cube, portes.backgammons, portes.opening) == (False, "AS_GAMMON", "WINNER_ROLLS_AGAIN")
    assert plakoto.mother_value == 3 and plakoto.rules.pins
    assert fevga.first_checker == "INTO_START_QUARTER" and fevga.rules.same_way_round
    for game in (portes, plakoto, fevga):
        assert (game.match_length, game.match_openings, game.cube) == (5, "WINNER_OPENS", False)
    assert rules.match_openings == "WINNER_OPENS" and not rules.uses_cube


def _resign(match: Match, loser: Side, level: str = "single") -> None:
    if match.state.game.phase is Phase.OPENING:
        match.roll(0)
    match.resign(loser, level)  # type: ignore[arg-type]
    match.accept(1 - loser)  # type: ignore[arg-type]


def test_the_rotation_goes_on_game_by_game_and_the_winner_opens_the_next() -> None:
    match = Match(RuleSet(variant="tavli", match_length=9), dice=SeededDice("rotation"))
    for number, loser in zip(range(1, 6), (0, 1, 1, 0, 1), strict=True):
        state = match.state
        rules = state.game_rules
        assert rules is state.rules.for_game(number) and state.game.number == number
        assert state.game.position == rules.rules.start_position()
        assert state.next_game_rules is state.rules.for_game(number + 1)
        _resign(match, loser)
        game = match.state.game
        assert game.phase is Phase.ROLLING and game.turn == game.opener == 1 - loser  # no opening throw
    assert match.state.score == (3, 2)
    assert [game.points for game in match.state.finished] == [1] * 5


def test_the_match_ends_as_soon_as_a_side_has_its_points_mid_rotation() -> None:
    match = Match(RuleSet(variant="tavli", match_length=3), dice=SeededDice("short"))
    _resign(match, 1, "gammon")  # Portes: a gammon, 2 points
    _resign(match, 1, "single")  # Plakoto: the third point; Fevga is never played
    assert match.state.over and match.state.winner == 0 and match.state.score == (3, 0)
    assert match.state.game.number == 2 and match.state.game_rules.variant == "plakoto"


def _play_randomly_until_game_ends(match: Match, rng: random.Random) -> None:
    number = match.state.game.number
    while match.state.game.number == number and not match.state.over:
        state = match.state
        if state.game.phase in (Phase.OPENING, Phase.ROLLING):
            match.roll(state.game.turn)
        else:
            plays = sorted(match.legal_plays(), key=lambda play: play.notation())
            match.play(state.game.turn, rng.choice(plays))


def test_a_drawn_plakoto_game_counts_as_played_and_the_next_starts_with_the_opening_throw() -> None:
    for seed in range(200):
        match = Match(RuleSet(variant="tavli", match_length=15), dice=SeededDice(f"draw-{seed}"))
        rng = random.Random(seed)
        _resign(match, 0)  # game 1, Portes
        _play_randomly_until_game_ends(match, rng)  # game 2, Plakoto
        drawn = match.state.finished[-1]
        if drawn.ended_by != "draw":
            continue
        assert (drawn.winner, drawn.points, drawn.result.value) == (None, 0, "draw")
        assert match.state.score == (0, 1)
        game = match.state.game
        assert game.number == 3 and game.phase is Phase.OPENING and match.state.game_rules.variant == "fevga"
        assert game.position == VARIANTS["fevga"].start_position()
        return
    raise AssertionError("no Plakoto game of 200 seeded random ones was drawn")


def test_alternate_openings_take_turns_through_the_rotation_whoever_wins() -> None:
    match = Match(
        RuleSet(variant="tavli", match_length=9, match_openings="ALTERNATE"), dice=SeededDice("alt")
    )
    openers = []
    for loser in (0, 0, 1, 0):  # the opener of a game is not its winner's choice
        if match.state.game.phase is Phase.OPENING:
            match.roll(0)
        openers.append(match.state.game.opener)
        _resign(match, loser)
    first = openers[0]
    assert first is not None
    assert openers == [first, 1 - first, first, 1 - first]
    assert [game.number for game in match.state.finished] == [1, 2, 3, 4]
    assert match.state.game_rules.variant == "plakoto"  # game 5: the rotation went on
    game = match.state.game
    assert game.number == 5 and game.phase is Phase.ROLLING and game.turn == game.opener == first


def test_every_game_of_a_tavli_match_may_start_with_the_opening_throw() -> None:
    match = Match(
        RuleSet(variant="tavli", match_length=9, match_openings="EVERY_GAME"), dice=SeededDice("every")
    )
    for number in range(1, 5):
        game = match.state.game
        assert (game.number, game.phase) == (number, Phase.OPENING)
        _resign(match, number % 2)  # type: ignore[arg-type]
    assert match.state.score == (2, 2)


def test_after_a_drawn_plakoto_game_alternate_openings_go_on_taking_turns() -> None:
    rules = RuleSet(variant="tavli", match_length=15, match_openings="ALTERNATE")
    for seed in range(200):
        match = Match(rules, dice=SeededDice(f"alternate-draw-{seed}"))
        match.roll(0)
        first = match.state.game.opener
        _resign(match, 0)  # game 1, Portes
        _play_randomly_until_game_ends(match, random.Random(seed))  # game 2, Plakoto
        if match.state.finished[-1].ended_by != "draw":
            continue
        game = match.state.game
        assert first is not None and game.number == 3 and match.state.game_rules.variant == "fevga"
        assert game.phase is Phase.ROLLING and game.turn == game.opener == first  # game 2's was the other
        return
    raise AssertionError("no Plakoto game of 200 seeded random ones was drawn")


def test_a_snapshot_of_a_tavli_match_stands_for_its_state() -> None:
    match = Match(RuleSet(variant="tavli", match_length=5), dice=SeededDice("snapshot"))
    _resign(match, 1)
    snapshot = snapshot_of(match.state)
    assert snapshot is not None
    assert state_of_snapshot(match.rules, snapshot) == match.state
    assert match.state.game.position == VARIANTS["plakoto"].start_position()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, "a tavli match is played to a number of points"),
        ({"match_length": 5, "cube": True}, "a tavli match is played without a cube"),
        (
            {"match_length": 5, "mother_value": 4},
            "in the tavli match's Plakoto games: a mother loss is worth 2",
        ),
        ({"match_length": 5, "fevga_primes": "ALL"}, "in the tavli match's Fevga games: fevga_primes is"),
        ({"match_length": 5, "opening": "FIRST"}, "in the tavli match's Portes games: unknown opening"),
    ],
)
def test_a_tavli_match_that_makes_no_sense_is_refused_in_words(
    options: dict[str, object], words: str
) -> None:
    with pytest.raises(InvalidRuleSetError) as refused:
        RuleSet(variant="tavli", **options)  # type: ignore[arg-type]
    assert words in str(refused.value)


def test_an_unknown_variant_names_the_tavli_match_among_the_choices() -> None:
    with pytest.raises(InvalidRuleSetError) as refused:
        RuleSet(variant="tavla")  # type: ignore[arg-type]
    assert "tavli" in str(refused.value)
