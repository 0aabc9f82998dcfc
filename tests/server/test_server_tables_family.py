"""Plakoto, Fevga and the Greek tavli match through the server: whole matches with resignations,
drawn games and mother losses, pinned checkers on the board, the options in the rule set, and the
rules' refusals in words from the stateless queries."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import GAME_RESULTS, Seat, TavliClient, TavliServerError
from tavli.engine import GameResult, Position
from tavli.engine.rules import RuleSet
from tavli.server.convert import rules_message, rules_of
from tavli.server.tables import rules_from_dict, rules_to_dict
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    match_record_pb2,
    rules_service_pb2 as rules_pb2,
)
from tests.server_play import MOST_ACTIONS, RPC_TIMEOUT, all_events, connected, error_info, running_server

PLAKOTO, FEVGA, TAVLI = board_pb2.VARIANT_PLAKOTO, board_pb2.VARIANT_FEVGA, board_pb2.VARIANT_TAVLI
BACKGAMMON = board_pb2.VARIANT_BACKGAMMON
ROTATION = (BACKGAMMON, PLAKOTO, FEVGA)  # game k of a tavli match: Portes, Plakoto, Fevga


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    with running_server() as server, connected(server.port) as client:
        yield client


def _new_game(client: TavliClient, rule_set: games_pb2.RuleSet, seed: str) -> tuple[Seat, Seat]:
    created = client.games.CreateGame(
        games_pb2.CreateGameRequest(rule_set=rule_set, dice_mode=games_pb2.DICE_MODE_SEEDED, dice_seed=seed),
        timeout=RPC_TIMEOUT,
    )
    name = created.game.name
    return Seat(client, name, 0, created.seat0_token, created.game), Seat(
        client, name, 1, created.seat1_token, created.game
    )


def every(games: int) -> Callable[[games_pb2.Game], bool]:
    """Whether a game is one of every ``games``-th of the match."""
    return lambda game: game.game_number % games == 0


def no_game(game: games_pb2.Game) -> bool:
    return False


def _play_out(
    seats: tuple[Seat, Seat], rng: random.Random, *, resigned: Callable[[games_pb2.Game], bool] = no_game
) -> games_pb2.Game:
    """Play the match to its end choosing among the listed plays (in notation order, so that the
    choice does not hang on the order the server lists them in); in the games ``resigned`` names
    the seat on turn offers to resign a single game or a gammon once it may, and the other accepts."""
    game = seats[0].game()
    for _ in range(MOST_ACTIONS):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            return game
        index = 0 if not game.to_act or game.to_act[0] == games_pb2.SEAT_0 else 1
        seat = seats[index]
        actions = set(seat.legal_actions().actions)
        if games_pb2.ACTION_ACCEPT in actions:
            game = seat.accept()
        elif games_pb2.ACTION_RESIGN in actions and resigned(game):
            game = seat.resign(rng.choice(["single", "gammon"]))
        elif games_pb2.ACTION_PLAY in actions:
            plays = sorted(seat.legal_actions().plays, key=lambda play: play.notation)
            game = seat.play(rng.choice(plays).notation)
        else:
            assert games_pb2.ACTION_ROLL in actions, f"no action for seat {index} in phase {game.phase}"
            game = seat.roll()
    raise AssertionError(f"the match did not end within {MOST_ACTIONS} actions")


def _check_scores_add_up(game: games_pb2.Game, length: int) -> None:
    totals = [0, 0]
    for finished in game.finished_games:
        if finished.result == board_pb2.GAME_RESULT_DRAW:
            assert (finished.winner, finished.points, finished.ended_by) == (
                games_pb2.SEAT_UNSPECIFIED,
                0,
                games_pb2.GAME_END_DRAW,
            )
            continue
        totals[0 if finished.winner == games_pb2.SEAT_0 else 1] += finished.points
    assert list(game.score) == totals
    assert max(totals) >= length > max(totals) - game.finished_games[-1].points


@pytest.mark.parametrize("variant", [PLAKOTO, FEVGA])
def test_a_whole_match_with_resignations_is_scored_game_by_game(client: TavliClient, variant: int) -> None:
    seats = _new_game(client, games_pb2.RuleSet(variant=variant, match_length=7), f"family-{variant}")
    game = _play_out(seats, random.Random(7), resigned=every(2))
    _check_scores_add_up(game, 7)
    for finished in game.finished_games:
        resigned = finished.ended_by == games_pb2.GAME_END_RESIGNATION
        assert resigned == (finished.game_number % 2 == 0)
        assert not resigned or finished.points == finished.result  # a single 1, a gammon 2
    assert len(game.finished_games) >= 2
    assert all(finished.variant == variant for finished in game.finished_games)
    assert game.variant == game.next_variant == variant
    assert game.rule_set.cube == games_pb2.CUBE_MODE_NO_CUBE
    assert game.rule_set.match_openings == games_pb2.MATCH_OPENINGS_WINNER_OPENS


def test_a_tavli_match_plays_portes_plakoto_and_fevga_in_turn(client: TavliClient) -> None:
    seats = _new_game(client, games_pb2.RuleSet(variant=TAVLI, match_length=9), "tavli-9")
    assert (seats[0].last_seen.variant, seats[0].last_seen.next_variant) == (BACKGAMMON, PLAKOTO)
    game = _play_out(seats, random.Random(3), resigned=every(4))
    _check_scores_add_up(game, 9)
    assert game.rule_set.variant == TAVLI
    for finished in game.finished_games:
        assert finished.variant == ROTATION[(finished.game_number - 1) % 3]
        assert finished.result != board_pb2.GAME_RESULT_BACKGAMMON  # Portes counts it as a gammon
    assert len(game.finished_games) >= 4
    last = game.finished_games[-1].game_number
    assert (game.game_number, game.variant, game.next_variant) == (
        last,
        ROTATION[(last - 1) % 3],
        ROTATION[last % 3],
    )
    # Every later game is opened by the winner of the one before (no opening throw) unless it was drawn.
    openings = [
        event for event in all_events(client, game.name) if event.kind == games_pb2.EVENT_KIND_OPENING_THROW
    ]
    draws = sum(finished.ended_by == games_pb2.GAME_END_DRAW for finished in game.finished_games[:-1])
    assert len(openings) == 1 + draws


def _tavli_match_with_a_draw_and_a_mother_win(client: TavliClient) -> games_pb2.Game:
    """The first of a few seeded tavli matches to 9, its Portes games resigned by the seat on turn
    and its Plakoto and Fevga games played out, with a drawn Plakoto game and one won by the mother."""
    endings = {games_pb2.GAME_END_DRAW, games_pb2.GAME_END_MOTHER}
    for attempt in range(20):
        seats = _new_game(client, games_pb2.RuleSet(variant=TAVLI, match_length=9), f"tavli-ends-{attempt}")
        game = _play_out(seats, random.Random(attempt), resigned=lambda game: game.variant == BACKGAMMON)
        if endings <= {finished.ended_by for finished in game.finished_games}:
            return game
    raise AssertionError("no tavli match of 20 seeded ones had both a drawn Plakoto game and a mother win")


def test_a_whole_tavli_match_with_resignations_a_drawn_plakoto_game_and_a_mother_win(
    client: TavliClient,
) -> None:
    game = _tavli_match_with_a_draw_and_a_mother_win(client)
    _check_scores_add_up(game, 9)
    ended_by = {
        BACKGAMMON: {games_pb2.GAME_END_RESIGNATION},
        PLAKOTO: {games_pb2.GAME_END_PLAY, games_pb2.GAME_END_MOTHER, games_pb2.GAME_END_DRAW},
        FEVGA: {games_pb2.GAME_END_PLAY},
    }
    for finished in game.finished_games:
        assert finished.variant == ROTATION[(finished.game_number - 1) % 3]
        assert finished.ended_by in ended_by[finished.variant]
        if finished.ended_by == games_pb2.GAME_END_MOTHER:
            assert (finished.result, finished.points) == (board_pb2.GAME_RESULT_MOTHER, 2)
    assert {finished.variant for finished in game.finished_games} == set(ROTATION)
    # Each game after the first is opened by the winner of the one before (no opening throw), or
    # after a draw by the opening throw; the rotation moves on either way.
    openings = [
        event for event in all_events(client, game.name) if event.kind == games_pb2.EVENT_KIND_OPENING_THROW
    ]
    draws = sum(finished.ended_by == games_pb2.GAME_END_DRAW for finished in game.finished_games[:-1])
    assert draws >= 1 and len(openings) == 1 + draws


def _first_match_ending(client: TavliClient, rule_set: games_pb2.RuleSet, end: int) -> games_pb2.Game:
    """The first of a few seeded matches in which a game ends by ``end``, played until it does."""
    for attempt in range(40):
        seats = _new_game(client, rule_set, f"ending-{end}-{attempt}")
        rng = random.Random(attempt)
        game = seats[0].game()
        while game.phase != games_pb2.PHASE_MATCH_OVER:
            game = _play_out_one_action(seats, game, rng)
            if game.finished_games and game.finished_games[-1].ended_by == end:
                return game
    raise AssertionError(f"no game ended by {end} in 40 seeded matches")


def _play_out_one_action(
    seats: tuple[Seat, Seat], game: games_pb2.Game, rng: random.Random
) -> games_pb2.Game:
    index = 0 if game.to_act[0] == games_pb2.SEAT_0 else 1
    legal = seats[index].legal_actions()
    if games_pb2.ACTION_PLAY in legal.actions:
        return seats[index].play(rng.choice(sorted(legal.plays, key=lambda play: play.notation)).notation)
    return seats[index].roll()


def test_a_drawn_plakoto_game_scores_nothing_and_the_next_starts_with_the_opening_throw(
    client: TavliClient,
) -> None:
    game = _first_match_ending(
        client, games_pb2.RuleSet(variant=PLAKOTO, match_length=3), games_pb2.GAME_END_DRAW
    )
    drawn = game.finished_games[-1]
    assert (drawn.winner, drawn.result, drawn.points) == (
        games_pb2.SEAT_UNSPECIFIED,
        board_pb2.GAME_RESULT_DRAW,
        0,
    )
    assert list(game.score) == [
        sum(f.points for f in game.finished_games if f.winner == seat)
        for seat in (games_pb2.SEAT_0, games_pb2.SEAT_1)
    ]
    assert (game.game_number, game.phase) == (drawn.game_number + 1, games_pb2.PHASE_OPENING)
    assert not game.board.player_pinned_points and not game.board.opponent_pinned_points  # a fresh start


def test_a_pinned_mother_loses_the_rule_sets_mother_value(client: TavliClient) -> None:
    rule_set = games_pb2.RuleSet(variant=PLAKOTO, match_length=5, mother_value=3)
    game = _first_match_ending(client, rule_set, games_pb2.GAME_END_MOTHER)
    won = game.finished_games[-1]
    assert (won.result, won.points) == (board_pb2.GAME_RESULT_MOTHER, 3)
    assert won.winner in (games_pb2.SEAT_0, games_pb2.SEAT_1)
    assert GAME_RESULTS[won.result] is GameResult.MOTHER


def test_pinned_checkers_are_on_the_board_and_in_the_position_id(client: TavliClient) -> None:
    # The player pins the opponent's checker on its 19-point (the player's 6) from the player's 8.
    start = Position.from_points({24: 14, 8: 1}, {24: 14, 19: 1})
    request = rules_pb2.ApplyPlayRequest(
        variant=PLAKOTO,
        position=board_pb2.Position(position_id=start.position_id()),
        dice=[2, 1],
        notation="8/6 24/23",
    )
    applied = client.rules.ApplyPlay(request, timeout=RPC_TIMEOUT)
    assert applied.play.position_id.endswith(":o19")
    converted = client.rules.ConvertPosition(
        rules_pb2.ConvertPositionRequest(
            variant=PLAKOTO, position=board_pb2.Position(position_id=applied.play.position_id)
        ),
        timeout=RPC_TIMEOUT,
    )
    assert list(converted.board.opponent_pinned_points) == [19]
    assert list(converted.board.player_pinned_points) == []
    assert converted.board.player_points[5] == 1 and converted.board.opponent_points[18] == 1
    # The board form with its pins reads back to the same position.
    back = client.rules.ConvertPosition(
        rules_pb2.ConvertPositionRequest(variant=PLAKOTO, position=board_pb2.Position(board=converted.board)),
        timeout=RPC_TIMEOUT,
    )
    assert back.position_id == applied.play.position_id


@pytest.mark.parametrize(
    ("variant", "position", "dice", "play", "reason"),
    [
        # A point where the opponent has two checkers is closed (the opponent's 6 is the player's 19).
        (
            PLAKOTO,
            Position.from_points({24: 15}, {6: 2, 24: 13}),
            (5, 1),
            "24/19",
            "your opponent holds your 19-point",
        ),
        # Fevga: from the start only the first checker moves.
        (FEVGA, RuleSet(variant="fevga").rules.start_position(), (3, 1), "24/21 24/23", "first checker"),
    ],
)
def test_validate_play_says_why_in_a_players_words(
    client: TavliClient, variant: int, position: Position, dice: tuple[int, int], play: str, reason: str
) -> None:
    request = rules_pb2.ValidatePlayRequest(
        variant=variant,
        position=board_pb2.Position(position_id=position.position_id()),
        dice=list(dice),
        notation=play,
    )
    answer = client.rules.ValidatePlay(request, timeout=RPC_TIMEOUT)
    assert not answer.legal
    assert reason in answer.reason, answer.reason


def test_a_game_refuses_an_illegal_plakoto_play_with_the_reason_and_changes_nothing(
    client: TavliClient,
) -> None:
    seats = _new_game(client, games_pb2.RuleSet(variant=PLAKOTO, match_length=1), "refusal")
    game = seats[0].roll()  # the opening throw
    seat = seats[0 if game.turn == games_pb2.SEAT_0 else 1]
    seat.observe(game)
    before = seat.roll()
    with pytest.raises(TavliServerError) as refused:
        seat.play("24/off")
    assert refused.value.reason == "ILLEGAL_PLAY"
    assert "24/off needs at least 24 pips" in refused.value.message, refused.value.message
    assert seat.game().event_count == before.event_count


def test_the_mother_value_and_the_options_score_through_score_position(client: TavliClient) -> None:
    # The opponent's mother is pinned on its 24-point (the player's 1) and the player has left its own start.
    position = Position.from_id(f"{Position.from_points({1: 1, 6: 14}, {24: 1, 13: 14}).position_id()}:o24")
    answer = client.rules.ScorePosition(
        rules_pb2.ScorePositionRequest(
            variant=PLAKOTO, position=board_pb2.Position(position_id=position.position_id()), mother_value=3
        ),
        timeout=RPC_TIMEOUT,
    )
    assert (answer.result, answer.player_won, answer.points) == (board_pb2.GAME_RESULT_MOTHER, True, 3)


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(variant="plakoto", match_length=5, mother_value=3, pinned_blocks_bear_off=False),
        RuleSet(variant="plakoto", mother_exception=False),
        RuleSet(
            variant="fevga", match_length=3, first_checker="INTO_START_QUARTER", fevga_quarter_test="STEP"
        ),
        RuleSet(variant="fevga", fevga_primes="NONE"),
        RuleSet(variant="tavli", match_length=5),
        RuleSet(
            variant="tavli",
            match_length=3,
            mother_value=3,
            match_openings="EVERY_GAME",
            backgammons="COUNTED",
        ),
    ],
)
def test_the_options_convert_both_ways_and_are_stored_as_they_are(rules: RuleSet) -> None:
    assert rules_of(rules_message(rules)) == rules
    assert rules_from_dict(rules_to_dict(rules)) == rules


def test_a_tavli_match_through_export_and_import_is_the_same_match(client: TavliClient) -> None:
    seats = _new_game(client, games_pb2.RuleSet(variant=TAVLI, match_length=3, mother_value=3), "export")
    played = _play_out(seats, random.Random(11))
    record = client.export_mat(played.name)
    assert '; [Variation "Tavli"]' in record and '; [MotherValue "3"]' in record
    checked = client.validate_match(record)
    assert (checked.variant, checked.problem_count, list(checked.score)) == (TAVLI, 0, list(played.score))
    imported = client.games.ImportMatch(
        games_pb2.ImportMatchRequest(record=match_record_pb2.MatchRecord(text=record)), timeout=RPC_TIMEOUT
    ).game
    assert imported.rule_set == played.rule_set
    assert [(game.variant, game.result, game.points) for game in imported.finished_games] == [
        (game.variant, game.result, game.points) for game in played.finished_games
    ]


@pytest.mark.parametrize(
    ("rule_set", "words"),
    [
        (games_pb2.RuleSet(variant=TAVLI), "a tavli match is played to a number of points"),
        (games_pb2.RuleSet(variant=TAVLI, match_length=5, cube=games_pb2.CUBE_MODE_CUBE), "without a cube"),
        (games_pb2.RuleSet(variant=BACKGAMMON, mother_value=3), "the mother's value is a rule of Plakoto"),
        (
            games_pb2.RuleSet(variant=PLAKOTO, first_checker=board_pb2.FIRST_CHECKER_INTO_START_QUARTER),
            "the first-checker rule is not a rule of plakoto",
        ),
        (
            games_pb2.RuleSet(
                variant=TAVLI, match_length=3, start=board_pb2.START_HYPERGAMMON_1, mother_value=4
            ),
            "in the tavli match's Plakoto games: a mother loss is worth 2 or 3 points",
        ),
    ],
)
def test_a_rule_set_that_makes_no_sense_is_refused_in_words(
    client: TavliClient, rule_set: games_pb2.RuleSet, words: str
) -> None:
    with pytest.raises(grpc.RpcError) as failure:
        client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set), timeout=RPC_TIMEOUT)
    assert error_info(failure.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_RULE_SET")
    assert words in failure.value.details()  # type: ignore[attr-defined]


def test_a_rule_query_refuses_the_tavli_match_in_words(client: TavliClient) -> None:
    request = rules_pb2.ListLegalPlaysRequest(
        variant=TAVLI, position=board_pb2.Position(position_id="4HPwATDgc/ABMA"), dice=[3, 1]
    )
    with pytest.raises(grpc.RpcError) as failure:
        client.rules.ListLegalPlays(request, timeout=RPC_TIMEOUT)
    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    assert "name the game whose rules apply" in failure.value.details()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("variant", "player_pins", "opponent_pins", "words"),
    [
        (BACKGAMMON, [6], [], "backgammon has no pinned checkers"),
        (PLAKOTO, [30], [], "m30"),
        (PLAKOTO, [6, 6], [], "twice"),
        (PLAKOTO, [5], [], "on its 5-point, where it has none"),
    ],
)
def test_a_board_with_impossible_pins_is_refused_in_words(
    client: TavliClient, variant: int, player_pins: list[int], opponent_pins: list[int], words: str
) -> None:
    board = board_pb2.Board(
        player_points=[0] * 5 + [1] + [0] * 17 + [14],
        opponent_points=[0] * 18 + [2] + [0] * 4 + [13],
        player_pinned_points=player_pins,
        opponent_pinned_points=opponent_pins,
    )
    request = rules_pb2.ConvertPositionRequest(variant=variant, position=board_pb2.Position(board=board))
    with pytest.raises(grpc.RpcError) as failure:
        client.rules.ConvertPosition(request, timeout=RPC_TIMEOUT)
    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    assert words in failure.value.details(), failure.value.details()  # type: ignore[attr-defined]


def test_a_tavli_match_goes_on_after_the_server_restarts(tmp_path: Path) -> None:
    database = tmp_path / "tavli.sqlite3"
    rule_set = games_pb2.RuleSet(variant=TAVLI, match_length=5, backgammons=games_pb2.BACKGAMMONS_COUNTED)
    with running_server(db=database) as server, connected(server.port) as client:
        seats = _new_game(client, rule_set, "restart")
        rng = random.Random(5)
        game = seats[0].game()
        in_plakoto = 0  # actions into game 2, Plakoto: stopped in the middle of it
        while in_plakoto < 40 and game.phase != games_pb2.PHASE_MATCH_OVER:
            game = _play_out_one_action(seats, game, rng)
            in_plakoto += game.game_number == 2
        before = seats[0].game()
    with running_server(db=database) as server, connected(server.port) as client:
        tokens = (seats[0].token, seats[1].token)
        seats = (
            Seat(client, before.name, 0, tokens[0], before),
            Seat(client, before.name, 1, tokens[1], before),
        )
        after = seats[0].game()
        assert after == before  # the same version, the same board (pins and all), the same rule set
        assert after.rule_set.backgammons == games_pb2.BACKGAMMONS_COUNTED
        over = _play_out(seats, rng)
    _check_scores_add_up(over, 5)
    assert [game.variant for game in over.finished_games] == [
        ROTATION[(game.game_number - 1) % 3] for game in over.finished_games
    ]


def test_watchers_see_each_game_of_a_tavli_match_and_how_it_ended(client: TavliClient) -> None:
    seats = _new_game(client, games_pb2.RuleSet(variant=TAVLI, match_length=3), "watched")
    played = _play_out(seats, random.Random(2), resigned=every(3))
    seen: list[games_pb2.FinishedGame] = []
    for message in client.watch(played.name):
        game = message.game
        assert game.variant == ROTATION[(game.game_number - 1) % 3]
        assert game.next_variant == ROTATION[game.game_number % 3]
        if len(game.finished_games) > len(seen):
            ended = game.finished_games[-1]
            kinds = {
                games_pb2.GAME_END_RESIGNATION: games_pb2.EVENT_KIND_ACCEPT,
                games_pb2.GAME_END_PLAY: games_pb2.EVENT_KIND_PLAY,
                games_pb2.GAME_END_MOTHER: games_pb2.EVENT_KIND_PLAY,
                games_pb2.GAME_END_DRAW: games_pb2.EVENT_KIND_PLAY,
            }
            assert message.event.kind == kinds[ended.ended_by]  # told with the event that ended it
            seen = list(game.finished_games)
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            break
    assert seen == list(played.finished_games)


def test_an_option_number_the_api_does_not_define_is_refused_in_words(client: TavliClient) -> None:
    rule_set = games_pb2.RuleSet(variant=FEVGA, fevga_primes=9)  # type: ignore[arg-type]
    with pytest.raises(grpc.RpcError) as failure:
        client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set), timeout=RPC_TIMEOUT)
    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    said = failure.value.details()  # type: ignore[attr-defined]
    assert said.startswith("rule_set.fevga_primes is 9, which tavli.v1.FevgaPrimes does not define"), said
