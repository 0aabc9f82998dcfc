"""The backgammon rule set's options that change how checkers move (RULES.md, "New options of the
backgammon rule set", "Nackgammon", "Hypergammon"): ``start`` and ``home_hit_and_run``.

Legal plays are held to an independent enumerator written for these tests
(:mod:`tests.engine.brute_force_backgammon`): from each start to depth 2, and on random positions.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tavli.engine import BAR, OFF, GameResult, IllegalPlayError, InvalidPositionError, Position
from tavli.engine.backgammon import Backgammon
from tavli.engine.play import Dice
from tavli.engine.position import Checkers
from tavli.engine.rules import InvalidRuleSetError, RuleSet
from tavli.engine.variants import VARIANTS, variant_with
from tests.engine.brute_force_backgammon import brute_force_positions
from tests.kept_answers import kept_answers

ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]

NACKGAMMON = RuleSet(start="NACKGAMMON").rules
HYPERGAMMON = {n: RuleSet(start=f"HYPERGAMMON_{n}").rules for n in (1, 2, 3)}  # type: ignore[arg-type]
NO_HIT_AND_RUN = RuleSet(home_hit_and_run="FORBIDDEN").rules


# --- the starts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "position_id", "pips", "checkers"),
    [
        ("STANDARD", "4HPwATDgc/ABMA", 167, 15),
        ("NACKGAMMON", "4Dl4ADbgOXgANg", 194, 15),
        ("HYPERGAMMON_1", "AACAAAAAAgAAAA", 24, 1),
        ("HYPERGAMMON_2", "AABAAQAACgAAAA", 47, 2),
        ("HYPERGAMMON_3", "AACgAgAAKgAAAA", 69, 3),
    ],
)
def test_each_start_is_the_rule_books(start: str, position_id: str, pips: int, checkers: int) -> None:
    rules = RuleSet(start=start).rules  # type: ignore[arg-type]
    position = rules.start_position()
    assert position.position_id() == position_id
    assert position.pip_count() == (pips, pips)
    assert rules.checkers == checkers == position.checkers
    assert Position.from_id(position_id, checkers=checkers) == position
    rules.validate(position)


def test_nackgammon_places_two_checkers_on_the_23_point_and_moves_as_backgammon() -> None:
    start = NACKGAMMON.start_position()
    assert start.player[24] == start.player[23] == 2 and start.player[13] == 4 and start.player[6] == 4
    plays = {play.notation() for play in NACKGAMMON.legal_plays(start, (3, 1))}
    assert "8/5 6/5" in plays and "24/21 23/22" in plays
    assert NACKGAMMON.mat_variation == "NackGammon" and NACKGAMMON.gnubg_variant == "nackgammon"


def test_the_compiled_core_plays_only_the_fifteen_checker_starts_with_hit_and_run_allowed() -> None:
    assert RuleSet().rules.compiled_rules is not None
    assert NACKGAMMON.compiled_rules == RuleSet().rules.compiled_rules
    assert all(variant.compiled_rules is None for variant in HYPERGAMMON.values())
    assert NO_HIT_AND_RUN.compiled_rules is None


def test_rule_sets_share_one_instance_of_the_rules_for_each_set_of_options() -> None:
    assert (
        RuleSet(start="NACKGAMMON").rules is RuleSet(start="NACKGAMMON", match_length=3).rules is NACKGAMMON
    )
    assert RuleSet().rules is VARIANTS["backgammon"]
    options = (("start", "NACKGAMMON"), ("home_hit_and_run", "ALLOWED"))
    assert variant_with("backgammon", options) is NACKGAMMON


def test_a_hypergammon_position_id_is_read_with_the_games_checkers() -> None:
    position = HYPERGAMMON[3].start_position()
    fifteen = Position.from_id(position.position_id())  # 12 of 15 taken as borne off
    assert fifteen.player[OFF] == 12
    with pytest.raises(InvalidPositionError, match="each side has 3 checkers in 3-checker hypergammon"):
        HYPERGAMMON[3].check_position(fifteen)
    with pytest.raises(InvalidPositionError, match="each side has 15 checkers in backgammon"):
        RuleSet().rules.check_position(position)
    with pytest.raises(InvalidPositionError, match="a side has 2"):
        Position.from_id(position.position_id(), checkers=2)


def test_both_sides_have_as_many_checkers() -> None:
    with pytest.raises(InvalidPositionError, match="both sides have as many"):
        Position(tuple(3 if point == 24 else 0 for point in range(26)), (2, *[0] * 25))


def test_hypergammon_bears_off_once_all_its_checkers_are_home() -> None:
    position = Position.from_points({5: 1, 2: 1}, {24: 1, 21: 1}, checkers=2)
    assert {play.notation() for play in HYPERGAMMON[2].legal_plays(position, (6, 5))} == {"5/off 2/off"}
    assert {play.notation() for play in HYPERGAMMON[2].legal_plays(position, (6, 2))} == {
        "5/off 2/off",
        "5/off",
    }
    outside = Position.from_points({8: 1, 2: 1}, {24: 1, 21: 1}, checkers=2)
    with pytest.raises(IllegalPlayError, match="cannot bear off while you have checkers outside"):
        HYPERGAMMON[2].parse_play(outside, (2, 1), "2/off 8/7")


@pytest.mark.parametrize(
    ("loser", "result"),
    [
        ({OFF: 1, 20: 1}, GameResult.SINGLE),
        ({12: 2}, GameResult.GAMMON),
        ({12: 1, 20: 1}, GameResult.BACKGAMMON),  # the loser's 20-point is in the winner's home board
        ({12: 1, BAR: 1}, GameResult.BACKGAMMON),
    ],
)
def test_hypergammon_is_won_when_all_n_checkers_are_off(loser: dict[int, int], result: GameResult) -> None:
    board = {point: count for point, count in loser.items() if point != OFF}
    # The opponent (not on roll) has just borne off its two; the loser is the player.
    position = Position.from_points(board, {}, checkers=2)
    assert HYPERGAMMON[2].result(position) is result


def test_every_win_of_one_checker_hypergammon_is_at_least_a_gammon() -> None:
    rules = HYPERGAMMON[1]
    assert rules.result(Position.from_points({12: 1}, {}, checkers=1)) is GameResult.GAMMON
    assert rules.most_to_lose(Position.from_points({12: 1}, {10: 1}, checkers=1)) is GameResult.GAMMON
    assert rules.most_to_lose(Position.from_points({12: 1}, {14: 1}, checkers=1)) is GameResult.BACKGAMMON


BruteForce = dict[tuple[Checkers, Checkers, Dice], set[Position]]
"""The brute-force enumerator's answers: the positions the plays of a roll lead to."""


def _perft_from_the_start(rules: Backgammon, depth: int) -> int:
    """:func:`_perft` from the start, the enumerator's answers kept for the run: the pure engine's
    pass of ./run test is held to those the compiled core's pass had it work out
    (tests/kept_answers.py)."""
    with kept_answers(("backgammon's brute-force plays from the start", repr(rules), depth)) as brute_force:
        return _perft(rules, rules.start_position(), depth, brute_force)


def _perft(rules: Backgammon, position: Position, depth: int, brute_force: BruteForce) -> int:
    """The plays from ``position`` over ``depth`` turns of every roll, each checked against the
    brute-force enumerator (its answers looked up in and added to ``brute_force``)."""
    total = 0
    hitter_stays = rules.home_hit_and_run == "FORBIDDEN"
    for roll in ROLLS:
        plays = rules.legal_plays(position, roll)
        asked = (position.player, position.opponent, roll)
        if asked not in brute_force:
            brute_force[asked] = brute_force_positions(position, roll, hitter_stays=hitter_stays)
        assert {play.position for play in plays} == brute_force[asked]
        if depth == 1:
            total += len(plays)
            continue
        for play in plays:
            after = play.position.swapped()
            total += 1 if rules.result(after) is not None else _perft(rules, after, depth - 1, brute_force)
    return total


@pytest.mark.parametrize(
    ("rules", "depth", "count"),
    [
        pytest.param(HYPERGAMMON[1], 3, 9_026, marks=pytest.mark.no_core),
        pytest.param(HYPERGAMMON[2], 2, 6_616, marks=pytest.mark.no_core),
        pytest.param(HYPERGAMMON[3], 2, 38_017, marks=[pytest.mark.no_core, pytest.mark.slow]),
        (NACKGAMMON, 1, 547),
        pytest.param(NO_HIT_AND_RUN, 1, 447, marks=pytest.mark.no_core),
    ],
)
def test_perft_from_the_start_agrees_with_brute_force(rules: Backgammon, depth: int, count: int) -> None:
    assert _perft_from_the_start(rules, depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "count"),
    [(NACKGAMMON, 324_161), pytest.param(NO_HIT_AND_RUN, 200_516, marks=pytest.mark.no_core)],
)
def test_perft_to_depth_two_agrees_with_brute_force(rules: Backgammon, count: int) -> None:
    assert _perft_from_the_start(rules, 2) == count


# --- hit-and-run in the home board -----------------------------------------------------------------


def test_a_checker_that_hits_in_the_home_board_may_not_move_on() -> None:
    # The opponent's blot on the player's 4-point; the player's 1-point is open.
    position = Position.from_points({10: 2, 13: 13}, {21: 1, 6: 14})
    assert "10/4*/1" in {play.notation() for play in RuleSet().rules.legal_plays(position, (6, 3))}
    plays = {play.notation() for play in NO_HIT_AND_RUN.legal_plays(position, (6, 3))}
    assert "10/4*/1" not in plays and "10/7 10/4*" in plays
    with pytest.raises(IllegalPlayError, match="the checker that hit on your 4-point must stay there"):
        NO_HIT_AND_RUN.check_play(position, (6, 3), [(10, 4), (4, 1)])


def test_another_checker_may_leave_the_point_the_hitter_holds() -> None:
    # 3-3, a blot on the player's 4-point: 7/4* hits; a second checker that comes to the 4-point
    # may move on from there, since the point keeps the hitter.
    position = Position.from_points({10: 1, 7: 1, 13: 13}, {21: 1, 6: 14})
    play = NO_HIT_AND_RUN.check_play(position, (3, 3), [(7, 4), (10, 7), (7, 4), (4, 1)])
    assert play.position.player[4] == 1 and play.position.player[1] == 1 and play.position.opponent[BAR] == 1
    with pytest.raises(IllegalPlayError, match="the checker that hit on your 4-point must stay there"):
        NO_HIT_AND_RUN.check_play(position, (3, 3), [(7, 4), (4, 1), (13, 10), (13, 10)])
    assert "13/10(2) 7/4*/1" in {p.notation() for p in RuleSet().rules.legal_plays(position, (3, 3))}
    assert "13/10(2) 7/4*/1" not in {p.notation() for p in NO_HIT_AND_RUN.legal_plays(position, (3, 3))}


def test_the_hitter_may_not_bear_off() -> None:
    # All home: 6/2* hits on the 2-point; the 4 left would bear the hitter off from there.
    position = Position.from_points({6: 1, 1: 14}, {23: 1, 12: 14})
    with pytest.raises(IllegalPlayError, match="must stay there"):
        NO_HIT_AND_RUN.check_play(position, (4, 2), [(6, 2), (2, 0)])
    assert {play.notation() for play in RuleSet().rules.legal_plays(position, (4, 2))} == {
        "6/2*/off",
        "6/off",
    }
    assert {play.notation() for play in NO_HIT_AND_RUN.legal_plays(position, (4, 2))} == {"6/off"}


def test_maximum_use_and_the_higher_die_choose_among_the_plays_that_remain() -> None:
    # One checker left to move, on the 10-point; a blot on the player's 4-point, the 1-point open.
    position = Position.from_points({10: 1}, {21: 1, 12: 14})
    assert {play.notation() for play in RuleSet().rules.legal_plays(position, (6, 3))} == {"10/4*/1", "10/1"}
    assert {play.notation() for play in NO_HIT_AND_RUN.legal_plays(position, (6, 3))} == {"10/1"}
    # With the 7-point held too, only the 6 can be played: the hitter stays where it hit.
    blocked = Position.from_points({10: 1}, {21: 1, 18: 2, 12: 12})
    assert {play.notation() for play in RuleSet().rules.legal_plays(blocked, (6, 3))} == {"10/4*/1"}
    assert {play.notation() for play in NO_HIT_AND_RUN.legal_plays(blocked, (6, 3))} == {"10/4*"}
    with pytest.raises(IllegalPlayError, match="must stay there"):
        NO_HIT_AND_RUN.check_play(blocked, (6, 3), [(10, 4), (4, 1)])


def test_a_written_hit_and_run_is_refused_not_read_as_another_route() -> None:
    # 10/1 through the 7-point is legal; written through a hit on the 4-point it is the play the
    # rule forbids, and the reader says so rather than taking the other route.
    position = Position.from_points({10: 1}, {21: 1, 12: 14})
    assert NO_HIT_AND_RUN.parse_play(position, (6, 3), "10/7/1").notation() == "10/1"
    assert NO_HIT_AND_RUN.parse_play(position, (6, 3), "10/1").notation() == "10/1"
    with pytest.raises(IllegalPlayError, match="the checker that hit on your 4-point must stay there"):
        NO_HIT_AND_RUN.parse_play(position, (6, 3), "10/4*/1")
    assert RuleSet().rules.parse_play(position, (6, 3), "10/4*/1").notation() == "10/4*/1"


def test_a_hit_outside_the_home_board_lets_the_hitter_run_on() -> None:
    position = Position.from_points({13: 2, 24: 13}, {15: 1, 6: 14})  # a blot on the player's 10
    plays = {play.notation() for play in NO_HIT_AND_RUN.legal_plays(position, (3, 3))}
    assert "13/10*/1" in plays


def test_entering_from_the_bar_is_never_concerned() -> None:
    position = Position.from_points({BAR: 1, 13: 14}, {4: 1, 24: 14})  # a blot on the player's 21
    plays = {play.notation() for play in NO_HIT_AND_RUN.legal_plays(position, (4, 3))}
    assert "bar/21*/18" in plays


# --- the rule set ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"variant": "long-nardi", "start": "NACKGAMMON"},
            (
                "a start other than the standard one is not a rule of long nardi:"
                " start NACKGAMMON does not apply"
            ),
        ),
        (
            {"variant": "plakoto", "home_hit_and_run": "FORBIDDEN"},
            "forbidding hit-and-run in the home board is not a rule of plakoto",
        ),
        ({"start": "LONGGAMMON"}, "start is STANDARD or NACKGAMMON or .*, not 'LONGGAMMON'"),
        ({"home_hit_and_run": "SOMETIMES"}, "home_hit_and_run is ALLOWED or FORBIDDEN, not 'SOMETIMES'"),
        ({"match_openings": "ALTERNATE"}, "the sides take turns to open the games of a match"),
    ],
)
def test_options_that_do_not_apply_are_refused_in_words(options: dict[str, str], words: str) -> None:
    with pytest.raises(InvalidRuleSetError, match=words):
        RuleSet(**options)  # type: ignore[arg-type]


# --- properties on random positions ----------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, checkers: int) -> Position:
    """A backgammon position with ``checkers`` a side, spread over points, bar and tray."""
    sides: list[list[int]] = []
    taken: set[int] = set()  # the player's points already holding a checker of either side
    for side in range(2):
        farthest = draw(st.sampled_from([6, 6, 12, 24]))
        to_player = (lambda point: point) if side == 0 else (lambda point: 25 - point)
        slots = [OFF, BAR, *(p for p in range(1, farthest + 1) if to_player(p) not in taken)]
        counts = [0] * 26
        for slot in draw(st.lists(st.sampled_from(slots), min_size=checkers, max_size=checkers)):
            counts[slot] += 1
        if counts[OFF] == checkers:
            counts[OFF] -= 1
            counts[BAR] += 1
        taken |= {to_player(point) for point in range(1, 25) if counts[point]}
        sides.append(counts)
    return Position(tuple(sides[0]), tuple(sides[1]))


def test_the_last_checker_borne_off_with_one_die_gives_way_to_a_play_of_both_dice() -> None:
    """Hypergammon's maximum use is backgammon's (RULES.md: "everything else is backgammon"): with
    the last checker on the 2-point and 2-1 to play, bearing it off with the 2 alone is refused
    while 2/1*/off plays both dice (and hits, making the game a backgammon). The README says why
    RULES.md's family addition, a play that ends the game counting as the whole roll, is not read
    into backgammon's rule set; tests/engine/test_gnubg_crosscheck.py holds 15 checkers to gnubg."""
    player, opponent = [0] * 26, [0] * 26
    player[2] = opponent[24] = 1  # the opponent's checker on the mover's 1-point
    position = Position(tuple(player), tuple(opponent))
    plays = HYPERGAMMON[1].legal_plays(position, (2, 1))
    assert [play.notation() for play in plays] == ["2/1*/off"]
    assert {play.position for play in plays} == brute_force_positions(position, (2, 1))
    with pytest.raises(IllegalPlayError, match=r"you must play both dice: 2/1\*/off does"):
        HYPERGAMMON[1].check_play(position, (2, 1), [(2, OFF)])


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
options = st.sampled_from(
    [(3, "ALLOWED"), (2, "ALLOWED"), (1, "ALLOWED"), (15, "FORBIDDEN"), (3, "FORBIDDEN")]
)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), option=options, roll=dice)
def test_every_legal_play_is_the_brute_force_ones_and_passes_the_checked_path(
    data: st.DataObject, option: tuple[int, str], roll: tuple[int, int]
) -> None:
    checkers, hit_and_run = option
    start = "STANDARD" if checkers == 15 else f"HYPERGAMMON_{checkers}"
    rules = RuleSet(start=start, home_hit_and_run=hit_and_run).rules  # type: ignore[arg-type]
    position = data.draw(positions(checkers))
    rules.validate(position)
    plays = rules.legal_plays(position, roll)
    hitter_stays = hit_and_run == "FORBIDDEN"
    assert {play.position for play in plays} == brute_force_positions(
        position, roll, hitter_stays=hitter_stays
    )
    for play in plays:
        rules.validate(play.position)
        assert play.position.checkers == checkers
        assert rules.check_play(position, roll, play.steps) == play
        assert rules.parse_play(position, roll, play.notation()).position == play.position
