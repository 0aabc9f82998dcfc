""".mat records of Plakoto, Fevga and the Greek tavli match: a ``Variation`` header of the kind
GNU Backgammon writes (``Plakoto``, ``Fevga``, tavli's own ``Tavli``), a tag for each option not at
the rule book's default, and mother losses and drawn games read back to the same match."""

from __future__ import annotations

import random

import pytest

from tavli.engine.dice import SeededDice
from tavli.engine.game import Phase
from tavli.engine.match import Match
from tavli.engine.matfile import MatFileError, export_mat, import_mat
from tavli.engine.matfile.export import rule_headers
from tavli.engine.rules import RuleSet


def _played_out(rules: RuleSet, seed: str) -> Match:
    """A match played to its end by random plays (in notation order), on seeded dice."""
    match = Match(rules, dice=SeededDice(seed))
    rng = random.Random(seed)
    while not match.state.over:
        state = match.state
        if state.game.phase in (Phase.OPENING, Phase.ROLLING):
            match.roll(state.game.turn)
        else:
            match.play(
                state.game.turn, rng.choice(sorted(match.legal_plays(), key=lambda play: play.notation()))
            )
    return match


@pytest.mark.parametrize(
    ("rules", "headers"),
    [
        (RuleSet(variant="plakoto", match_length=5), [("Variation", "Plakoto")]),
        (RuleSet(variant="fevga", match_length=5), [("Variation", "Fevga")]),
        (RuleSet(variant="tavli", match_length=5), [("Variation", "Tavli")]),
        (
            RuleSet(variant="plakoto", match_length=3, mother_value=3, mother_exception=False),
            [("Variation", "Plakoto"), ("MotherValue", "3"), ("MotherException", "Off")],
        ),
        (
            RuleSet(
                variant="fevga", match_length=3, first_checker="INTO_START_QUARTER", fevga_quarter_test="STEP"
            ),
            [("Variation", "Fevga"), ("FirstChecker", "IntoStartQuarter"), ("FevgaQuarterTest", "Step")],
        ),
        (
            RuleSet(variant="tavli", match_length=3, pinned_blocks_bear_off=False, fevga_primes="NONE"),
            [("Variation", "Tavli"), ("PinnedBlocksBearOff", "Off"), ("FevgaPrimes", "None")],
        ),
        (
            RuleSet(variant="tavli", match_length=3, match_openings="EVERY_GAME", backgammons="COUNTED"),
            [("Variation", "Tavli"), ("MatchOpenings", "EveryGame"), ("Backgammons", "Counted")],
        ),
    ],
)
def test_the_header_names_the_game_and_every_option_off_its_default(
    rules: RuleSet, headers: list[tuple[str, str]]
) -> None:
    assert rule_headers(rules) == headers


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(variant="plakoto", match_length=7, mother_value=3),
        RuleSet(variant="fevga", match_length=5, fevga_primes="NO_PRIME_UNLESS_PASSED"),
        RuleSet(variant="tavli", match_length=7),
        RuleSet(variant="tavli", match_length=5, mother_exception=False, first_checker="INTO_START_QUARTER"),
    ],
)
@pytest.mark.parametrize("seed", ["mat-1", "mat-2"])
def test_a_match_reads_back_to_the_same_match(rules: RuleSet, seed: str) -> None:
    match = _played_out(rules, seed)
    text = export_mat(match)
    back = import_mat(text)
    assert back.rules == rules
    assert back.match.state.finished == match.state.finished
    assert back.match.state.score == match.state.score and back.winner == match.state.winner
    assert export_mat(back.match) == text


def test_mother_losses_and_drawn_games_read_back_as_such() -> None:
    seen = set()
    for seed in range(40):
        match = _played_out(RuleSet(variant="tavli", match_length=11), f"ends-{seed}")
        ends = {finished.ended_by for finished in match.state.finished}
        if not ends & {"mother", "draw"}:
            continue
        back = import_mat(export_mat(match))
        assert back.match.state.finished == match.state.finished
        seen |= ends
        if {"mother", "draw"} <= seen:
            return
    raise AssertionError(f"40 seeded tavli matches ended games only by {sorted(seen)}")


def test_a_drawn_game_is_written_as_winning_no_points() -> None:
    for seed in range(40):
        match = _played_out(RuleSet(variant="plakoto", match_length=3), f"draw-{seed}")
        drawn = [finished.number for finished in match.state.finished if finished.ended_by == "draw"]
        if drawn:
            text = export_mat(match)
            game = text.split(f" Game {drawn[0]}\n")[1].split(" Game ")[0]
            assert "Wins 0 points" in game
            return
    raise AssertionError("no Plakoto match of 40 seeded ones had a drawn game")


def test_a_tavli_record_read_as_backgammon_is_refused_where_a_game_breaks_its_rules() -> None:
    match = _played_out(RuleSet(variant="tavli", match_length=5), "wrong-header")
    text = export_mat(match).replace('; [Variation "Tavli"]\n', "")
    with pytest.raises(MatFileError):
        import_mat(text)


def test_an_unknown_option_word_is_refused_in_words() -> None:
    text = export_mat(_played_out(RuleSet(variant="fevga", match_length=1), "words"))
    text = text.replace('; [Variation "Fevga"]', '; [Variation "Fevga"]\n; [FevgaPrimes "Sometimes"]')
    with pytest.raises(MatFileError) as refused:
        import_mat(text)
    assert "FevgaPrimes is StartQuarterAndUnblock or NoPrimeUnlessPassed or None, not 'Sometimes'" in str(
        refused.value
    )
