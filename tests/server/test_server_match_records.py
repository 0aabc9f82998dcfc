"""Match records (.mat and GNU Backgammon's SGF) through the API, end to end on a real server:
RulesService.ValidateMatch reports what a record holds and every problem where it stands;
GamesService.ImportMatch stores a clean record as a game of the server (played on from where it
stops) and refuses one with problems, every problem in the status details, storing nothing; hostile
records (too large, all newlines, a million points, endless blanks and digits; SGF cut short,
nested, of another game) are refused as what they are, never with INTERNAL. An SGF record is told
by its content, and ExportMatch writes SGF when asked.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
import uuid
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavli.clients.client import TavliClient, TavliServerError
from tavli.engine.dice import SeededDice, verify_throws
from tavli.engine.events import Event, Rolled
from tavli.engine.match import Match
from tavli.engine.matfile import Problem, check_mat, check_sgf, export_mat, export_sgf, import_mat, import_sgf
from tavli.engine.rules import RuleSet
from tavli.server.convert import event_message
from tavli.server.limits import MOST_MATCH_RECORD
from tavli.server.quotas import QuotaLimits
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    match_record_pb2,
    rules_service_pb2 as rules_pb2,
)
from tests.games import BACKGAMMON_GAME, as_gammon_match_with_a_backgammon, bot_match
from tests.server_play import RPC_TIMEOUT, Policy, all_events, connected, play_to_end, running_server

INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    with running_server() as server, connected(server.port) as connection:
        yield connection


def mat(*games: str, length: int = 3) -> str:
    """A record of ``games`` (each its lines from " Game n" on) in a match of ``length`` points."""
    return f"\n {length} point match\n\n" + "\n".join(games)


def refused(call: object, *arguments: object, **options: object) -> TavliServerError:
    """Call, expecting the server to refuse; returns the refusal."""
    with pytest.raises(TavliServerError) as refusal:
        call(*arguments, **options)  # type: ignore[operator]
    return refusal.value


def where_and_why(problem: match_record_pb2.MatchProblem) -> tuple[object, ...]:
    """A problem's fields, None where unset."""
    return tuple(
        getattr(problem, name) if problem.HasField(name) else None
        for name in ("game", "move", "line", "side")
    ) + (problem.action, problem.reason)


def engine_problem(problem: Problem) -> tuple[object, ...]:
    return (problem.game, problem.move, problem.line, problem.side, problem.action, problem.reason)


def logged(events: list[Event]) -> list[games_pb2.GameEvent]:
    """A log as ListGameEvents gives it."""
    return [event_message(sequence, event) for sequence, event in enumerate(events)]


def names(client: TavliClient) -> set[str]:
    listed = client.games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT)
    return {game.name for game in listed.games}


def rolled_at_the_end(rules: RuleSet, seed: int) -> Match:
    """A match cut just after a roll, its play not yet made."""
    whole = bot_match(rules, seed=seed)
    cut = next(index for index in range(40, len(whole.events)) if isinstance(whole.events[index], Rolled))
    return bot_match(rules, seed=seed, events=cut + 1)


# A record with a problem in each of three games: a double by the side that does not own the cube
# (move 3, the right column), a game that ends without a result though another follows (no side,
# no move), and an opening throw that is a double (move 1, the left column).
THREE_PROBLEMS = mat(
    " Game 1\n Alice : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                  Doubles => 2\n"
    "  2)  Takes                       42: 8/4 6/4\n"
    "  3) 52: 13/8 13/11                Doubles => 4\n",
    " Game 2\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                  42: 8/4 6/4\n",
    " Game 3\n Alice : 0                      Bob : 0\n  1) 33: 8/5(2) 6/3(2)\n",
)


# --- ValidateMatch ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "variant"),
    [
        (RuleSet(match_length=7), board_pb2.VARIANT_BACKGAMMON),
        (RuleSet(variant="long-nardi", match_length=3), board_pb2.VARIANT_LONG_NARDI),
    ],
)
def test_a_clean_record_is_reported_with_its_games_score_and_players(client, rules, variant) -> None:
    match = bot_match(rules, seed=1, resign=0.01)
    text = export_mat(match, players=("Alice", "Bob"))

    report = client.validate_match(text)

    assert report.variant == variant
    assert report.match_length == rules.match_length
    assert report.games == len(match.state.finished) == len(check_mat(text).games)
    assert list(report.score) == list(match.state.score)
    assert list(report.players) == ["Alice", "Bob"]
    assert list(report.problems) == [] and report.problem_count == 0


def test_every_problem_of_a_record_comes_back_where_it_stands_and_why(client) -> None:
    report = client.validate_match(THREE_PROBLEMS)

    assert report.problem_count == 3 and report.games == 3
    assert [where_and_why(problem) for problem in report.problems] == [
        engine_problem(problem) for problem in check_mat(THREE_PROBLEMS).problems
    ]
    doubled, unfinished, opening = report.problems
    assert (doubled.game, doubled.move, doubled.line, doubled.side) == (1, 3, 8, 1)
    assert doubled.action == "doubles" and "your opponent owns" in doubled.reason
    assert unfinished.game == 2 and unfinished.HasField("line")
    assert not unfinished.HasField("side") and not unfinished.HasField("move")
    assert unfinished.reason == "the game ends without a result: nobody has won it"
    assert (opening.game, opening.move, opening.side) == (3, 1, 0)
    assert "the opening throw cannot be a double" in opening.reason
    assert list(report.players) == ["Alice", "Bob"]


def test_latin_1_bytes_come_through_unchanged(client) -> None:
    text = export_mat(bot_match(RuleSet(match_length=3), seed=2), players=("Jörg", "Zoë"))
    data = text.encode("latin-1")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")

    from_bytes = client.validate_match(data)

    assert list(from_bytes.players) == ["Jörg", "Zoë"]
    assert from_bytes == client.validate_match(text) == client.validate_match(text.encode("utf-8"))
    seat, _ = client.import_match(data)
    game = client.game(seat.name)
    assert (game.seat0_player.display_name, game.seat1_player.display_name) == ("Jörg", "Zoë")
    assert client.export_mat(seat.name) == text  # the record's names are the game's


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ("hello, world", "not a .mat file: no ' N point match' line before the first game"),
        (b"\x00\xff" * 1000, "not a .mat file"),
        (" 3 point match\n\n", "the file holds no game: no ' Game 1' line after the match line"),
        (
            '; [Variation "Chess"]\n 3 point match\n Game 1\n',
            (
                "tavli plays backgammon, long nardi, plakoto, fevga, nackgammon, 1-checker hypergammon,"
                " 2-checker hypergammon and 3-checker hypergammon, not 'Chess'"
            ),
        ),
    ],
)
def test_a_text_that_holds_no_match_is_refused_with_the_reason_in_words(client, record, words) -> None:
    refusal = refused(client.validate_match, record)

    assert (refusal.status, refusal.reason) == (INVALID_ARGUMENT, "UNREADABLE_MATCH_RECORD")
    assert words in refusal.message
    assert [problem.reason for problem in refusal.problems] == [refusal.message]


def test_a_request_without_a_record_is_refused(client) -> None:
    with pytest.raises(grpc.RpcError) as refusal:
        client.rules.ValidateMatch(rules_pb2.ValidateMatchRequest(), timeout=RPC_TIMEOUT)
    assert refusal.value.code() == INVALID_ARGUMENT
    assert refusal.value.details() == "give the match record: its text, or its data (the file's bytes)"


def test_a_record_over_the_size_bound_is_refused_saying_the_bound(client) -> None:
    record = export_mat(bot_match(RuleSet(match_length=3), seed=3))
    at_the_bound = record + "\n" * (MOST_MATCH_RECORD - len(record))
    assert client.validate_match(at_the_bound).problem_count == 0

    for too_long, unit in ((at_the_bound + "\n", "characters"), ((at_the_bound + "\n").encode(), "bytes")):
        refusal = refused(client.validate_match, too_long)
        assert (refusal.status, refusal.reason) == (INVALID_ARGUMENT, "FIELD_TOO_LONG")
        form = "text" if unit == "characters" else "data"
        assert refusal.message == f"record.{form} is 1,048,577 {unit}; at most 1,048,576"


# --- ImportMatch: a record becomes a game of the server ---------------------------------------------


def test_an_imported_match_is_a_game_of_the_server_and_exports_the_same_record(client) -> None:
    match = bot_match(RuleSet(match_length=5), seed=7, double=0.4)
    text = export_mat(match)
    expected = import_mat(text)

    seat_0, seat_1 = client.import_match(text)

    game = client.game(seat_0.name)
    assert seat_0.name in names(client)
    assert (game.phase, game.winner) == (
        games_pb2.PHASE_MATCH_OVER,
        games_pb2.SEAT_0 if match.state.winner == 0 else games_pb2.SEAT_1,
    )
    assert list(game.score) == list(match.state.score)
    assert [(f.game_number, f.points) for f in game.finished_games] == [
        (f.number, f.points) for f in match.state.finished
    ]
    assert game.rule_set.match_length == 5 and game.dice_mode == games_pb2.DICE_MODE_UNSPECIFIED
    events = all_events(client, game.name)
    assert events == logged(expected.events) and game.event_count == len(events)
    watched = list(client.watch(game.name))
    assert [response.event for response in watched] == events
    assert watched[-1].game.score == game.score
    assert list(seat_1.legal_actions().actions) == []

    exported = client.export_mat(game.name)
    assert exported == text
    again, _ = client.import_match(exported)
    assert all_events(client, again.name) == events
    assert list(client.game(again.name).score) == list(game.score)
    assert client.export_mat(again.name) == text


def test_an_imported_record_keeps_backgammons_as_gammons_and_exports_its_header_line(client) -> None:
    match = as_gammon_match_with_a_backgammon()
    text = export_mat(match)
    seat_0, _ = client.import_match(text)
    game = client.game(seat_0.name)
    assert game.rule_set.backgammons == games_pb2.BACKGAMMONS_AS_GAMMON
    scored = game.finished_games[BACKGAMMON_GAME - 1]
    assert (scored.result, scored.points) == (board_pb2.GAME_RESULT_GAMMON, 2 * scored.cube_value)
    assert list(game.score) == list(match.state.score)
    assert client.export_mat(seat_0.name) == text
    # Without its header line the record counts the backgammon: the result written is a problem.
    unmarked = text.replace('; [Backgammons "AsGammon"]\n', "", 1)
    (problem,) = client.validate_match(unmarked).problems
    assert problem.game == BACKGAMMON_GAME and problem.reason.endswith("winning 3 points")


def test_an_imported_money_session_plays_on_into_its_next_game(client) -> None:
    match = bot_match(RuleSet(), seed=3, games=4, resign=0.02)
    seats = client.import_match(export_mat(match))

    game = seats[0].game()
    assert (game.game_number, game.phase) == (5, games_pb2.PHASE_OPENING)
    assert list(game.score) == list(match.state.score)
    seats[0].roll()
    assert seats[0].game().event_count == len(import_mat(export_mat(match)).events) + 1


def throws_by_commitment(
    events: list[games_pb2.GameEvent],
) -> list[tuple[games_pb2.GameEvent, list[tuple[int, int]], str]]:
    """Each dice commitment of a log, the throws after it in its game, and the seed revealed."""
    found: list[tuple[games_pb2.GameEvent, list[tuple[int, int]], str]] = []
    for event in events:
        if event.kind == games_pb2.EVENT_KIND_DICE_COMMITTED:
            found.append((event, [], ""))
        elif found and not found[-1][2]:
            commitment, throws, _ = found[-1]
            if event.kind == games_pb2.EVENT_KIND_SEED_REVEALED:
                found[-1] = (commitment, throws, event.dice_seed)
            elif event.kind == games_pb2.EVENT_KIND_OPENING_THROW:
                throws.extend((throw.seat0_die, throw.seat1_die) for throw in event.opening_throws)
            elif event.kind == games_pb2.EVENT_KIND_ROLL:
                throws.append((event.dice[0], event.dice[1]))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("dice", ["system", "seeded", "verifiable"])
@pytest.mark.parametrize("cut", ["between games", "mid-game", "after a roll", "long nardi"])
def test_an_unfinished_record_is_played_on_to_its_end_with_the_seat_tokens(client, dice, cut) -> None:
    if cut == "between games":
        match = bot_match(RuleSet(match_length=7), seed=13, games=1)
    elif cut == "mid-game":
        match = bot_match(RuleSet(match_length=5), seed=7, double=0.4, events=41)
    elif cut == "after a roll":
        match = rolled_at_the_end(RuleSet(match_length=3), seed=5)
    else:
        match = bot_match(RuleSet(variant="long-nardi", match_length=3), seed=2, events=60)
    text = export_mat(match)
    imported = import_mat(text)
    options = (
        {"dice_seed": f"import-{cut}"} if dice == "seeded" else {"verifiable_dice": dice == "verifiable"}
    )

    seats = client.import_match(text, **options)

    game = seats[0].game()
    stopped = imported.match.state.game
    assert game.phase != games_pb2.PHASE_MATCH_OVER
    assert (game.game_number, game.position_id, list(game.dice)) == (
        stopped.number,
        stopped.position.position_id(),
        list(stopped.dice or ()),
    )
    assert (
        game.dice_mode
        == {
            "system": games_pb2.DICE_MODE_UNSPECIFIED,
            "seeded": games_pb2.DICE_MODE_SEEDED,
            "verifiable": games_pb2.DICE_MODE_VERIFIABLE,
        }[dice]
    )
    recorded = len(imported.events)
    assert game.event_count == recorded + (1 if dice == "verifiable" else 0)
    if dice == "verifiable":
        assert len(game.dice_commitment) == 64
    else:
        assert game.dice_commitment == ""

    final = play_to_end(seats, Policy(random.Random(4)))

    assert final.phase == games_pb2.PHASE_MATCH_OVER
    winner = 0 if final.winner == games_pb2.SEAT_0 else 1
    assert final.score[winner] >= match.rules.match_length > final.score[1 - winner]
    events = all_events(client, final.name)
    assert events[:recorded] == logged(imported.events)
    if dice == "verifiable":
        commitments = throws_by_commitment(events)
        assert commitments[0][0].sequence == recorded  # right after the record's own events
        assert commitments[0][0].game_number == stopped.number
        for commitment, throws, seed in commitments:
            assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment.dice_commitment
            assert verify_throws(bytes.fromhex(seed), commitment.dice_commitment, throws)


def test_seeded_dice_after_a_record_are_the_seeds_throws_from_the_records_throws_on(client) -> None:
    text = export_mat(bot_match(RuleSet(match_length=7), seed=13, games=1))
    expected = Match.replay(import_mat(text).rules, import_mat(text).events, dice=SeededDice("same seed"))
    expected.roll(0)

    openings = []
    for _ in range(2):
        seat, _ = client.import_match(text, dice_seed="same seed")
        seat.roll()
        openings.append(all_events(client, seat.name)[-1])

    assert openings[0] == openings[1]
    assert openings[0].kind == games_pb2.EVENT_KIND_OPENING_THROW
    assert [(throw.seat0_die, throw.seat1_die) for throw in openings[0].opening_throws] == list(
        expected.events[-1].throws  # type: ignore[attr-defined]
    )


def test_a_retried_import_returns_the_game_first_imported(client) -> None:
    text = export_mat(bot_match(RuleSet(match_length=3), seed=4, events=20))
    request = games_pb2.ImportMatchRequest(
        record=match_record_pb2.MatchRecord(text=text), request_id=str(uuid.uuid4())
    )
    first = client.games.ImportMatch(request, timeout=RPC_TIMEOUT)
    again = client.games.ImportMatch(request, timeout=RPC_TIMEOUT)
    assert (again.game.name, again.seat0_token, again.seat1_token) == (
        first.game.name,
        first.seat0_token,
        first.seat1_token,
    )

    other = games_pb2.ImportMatchRequest(
        record=match_record_pb2.MatchRecord(text=text + "\n"), request_id=request.request_id
    )
    with pytest.raises(grpc.RpcError) as reused:
        client.games.ImportMatch(other, timeout=RPC_TIMEOUT)
    assert reused.value.code() == INVALID_ARGUMENT and "REQUEST_ID_REUSED" in str(
        rpc_status.from_call(reused.value)
    )


# --- ImportMatch: a record with problems is refused, and nothing is stored ----------------------------


def status_of_refusal(
    call: object, request: object
) -> tuple[grpc.RpcError, error_details_pb2.ErrorInfo, list[match_record_pb2.MatchProblem]]:
    with pytest.raises(grpc.RpcError) as refusal:
        call(request, timeout=RPC_TIMEOUT)  # type: ignore[operator]
    status = rpc_status.from_call(refusal.value)
    assert status is not None
    info, problems = error_details_pb2.ErrorInfo(), []
    assert status.details[0].Unpack(info)
    for detail in status.details[1:]:
        problem = match_record_pb2.MatchProblem()
        assert detail.Unpack(problem)
        problems.append(problem)
    return refusal.value, info, problems


def test_a_record_with_problems_is_refused_with_every_problem_and_nothing_is_stored(client) -> None:
    before = names(client)
    request = games_pb2.ImportMatchRequest(record=match_record_pb2.MatchRecord(text=THREE_PROBLEMS))

    error, info, problems = status_of_refusal(client.games.ImportMatch, request)

    assert (
        error.code() == INVALID_ARGUMENT and info.reason == "INVALID_MATCH_RECORD" and info.domain == "tavli"
    )
    assert error.details().startswith(
        "the record has 3 problems; the first: game 1, move 3, player 1 (Bob), line 8: "
    )
    assert dict(info.metadata) == {"problemCount": "3", "problemsInDetails": "3"}
    assert problems == list(client.validate_match(THREE_PROBLEMS).problems)
    assert len({where_and_why(problem) for problem in problems}) == 3
    assert names(client) == before

    refusal = refused(client.import_match, THREE_PROBLEMS)  # the Python client hands them over
    assert refusal.reason == "INVALID_MATCH_RECORD" and list(refusal.problems) == problems


def test_a_record_with_thousands_of_problems_is_refused_with_those_that_fit_a_status(client) -> None:
    record = mat(*(f" Game {number}\n Alice : 0   Bob : 0\n" for number in range(1, 5001)), length=0)
    before = names(client)

    error, info, problems = status_of_refusal(
        client.games.ImportMatch,
        games_pb2.ImportMatchRequest(record=match_record_pb2.MatchRecord(text=record)),
    )

    assert error.code() == INVALID_ARGUMENT and info.reason == "INVALID_MATCH_RECORD"
    assert error.details() == (
        "the record has 4,999 problems; the first: game 1, line 6:"
        " the game ends without a result: nobody has won it"
    )
    assert info.metadata["problemCount"] == "4999"
    assert 10 < len(problems) == int(info.metadata["problemsInDetails"]) < 4999
    report = client.validate_match(record)
    assert report.problem_count == 4999 and len(report.problems) == 1000
    assert list(report.problems[: len(problems)]) == problems
    assert names(client) == before


def test_an_import_counts_as_a_game_created_until_its_match_is_over() -> None:
    finished = export_mat(bot_match(RuleSet(match_length=3), seed=1))
    unfinished = export_mat(bot_match(RuleSet(match_length=3), seed=1, events=30))
    quotas = QuotaLimits(live_games_per_client=1)
    with running_server(quotas=quotas) as server, connected(server.port) as client:
        client.import_match(finished)  # over at once: it does not count
        client.import_match(unfinished)
        refusal = refused(client.import_match, unfinished)
        assert (refusal.status, refusal.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_GAMES")
        assert refused(client.create_game).reason == "TOO_MANY_GAMES"


def test_seeded_dice_after_a_record_need_a_server_that_allows_them() -> None:
    text = export_mat(bot_match(RuleSet(match_length=3), seed=1, events=30))
    with running_server(allow_seeded_dice=False) as server, connected(server.port) as client:
        refusal = refused(client.import_match, text, dice_seed="mine")
        assert (refusal.status, refusal.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "SEEDED_DICE_DISABLED",
        )
        assert names(client) == set()


# --- hostile records: refused as what they are, never INTERNAL -----------------------------------------


@pytest.mark.parametrize(
    ("record", "reason", "words"),
    [
        ("\n" * MOST_MATCH_RECORD, "UNREADABLE_MATCH_RECORD", "no ' N point match' line"),
        (" 1000000 point match\n Game 1\n a : 0  b : 0\n", "UNREADABLE_MATCH_RECORD", "at most 32767 points"),
        (mat(f" Game {10**20}\n a : 0  b : 0\n"), "UNREADABLE_MATCH_RECORD", "the file holds no game"),
        (
            "x" * (3 * MOST_MATCH_RECORD),
            "FIELD_TOO_LONG",
            "record.text is 3,145,728 characters; at most 1,048,576",
        ),
    ],
    ids=["all newlines", "a million points", "game 10^20", "3 MB"],
)
def test_hostile_records_are_refused_as_what_they_are(client, record, reason, words) -> None:
    # (how long they take is benchmarks/record_check_cost.py's to measure)
    for call in (client.validate_match, client.import_match):
        refusal = refused(call, record)
        assert (refusal.status, refusal.reason) == (INVALID_ARGUMENT, reason)
        assert words in refusal.message


@pytest.mark.parametrize(
    ("record", "where", "words"),
    [
        (
            mat(" Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   Wins " + "9" * 5000 + " points\n"),
            (1, 1, 6, 1),
            "a result is written 'Wins 2 points'",
        ),
        (mat(" Game 1\n" + " " * 400_000 + ":" + " " * 400_000 + "x\n"), (1, None, 5, None), "score line"),
        (
            mat(" Game 1\n a : 0  b : 0\n  1) 31: " + "?? " * 100_000 + "\n"),
            (1, 1, 6, 0),
            "not recorded",
        ),
        (  # 19,000 clean games, then an illegal play: checked game after game, not over and over
            mat(
                *(f" Game {n}\n A : {n - 1}  B : 0\n      Wins 1 point\n" for n in range(1, 19_000)),
                " Game 19000\n A : 18999  B : 0\n  1) 31: 13/1\n",
                length=0,
            ),
            (19_000, 1, 4 + 18_999 * 4 + 2, 0),
            "",
        ),
    ],
    ids=["5000 digits", "800,000 blanks", "100,000 unrecorded moves", "19,000 games"],
)
def test_hostile_but_readable_records_are_checked_with_their_problem(
    client, monkeypatch, record, where, words
) -> None:
    monkeypatch.setattr(client, "timeout", 60.0)  # 19,000 games take ~7 s of CPU: room on a busy machine
    report = client.validate_match(record)
    (problem,) = report.problems
    assert where_and_why(problem)[:4] == where and words in problem.reason


def test_a_result_that_does_not_say_who_lost_is_a_problem_of_nobodys_side(client) -> None:
    record = mat(" Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\nWins 1 point\n")
    ((where, action, reason),) = [
        (where_and_why(problem)[:4], problem.action, problem.reason)
        for problem in client.validate_match(record).problems
    ]
    assert (where, action) == ((1, 1, 7, None), "Wins 1 point")
    assert reason.startswith("the result does not say who lost")


def test_a_game_numbered_a_million_is_a_problem_where_it_stands(client) -> None:
    report = client.validate_match(mat(" Game 1000000\n a : 0  b : 0\n"))
    assert [where_and_why(problem) for problem in report.problems] == [
        (1000000, None, 4, None, "", "game 1 comes next, not game 1000000")
    ]


def test_a_record_past_the_servers_message_size_is_resource_exhausted_not_internal(client) -> None:
    refusal = refused(client.validate_match, b"x" * (5 * MOST_MATCH_RECORD))
    assert refusal.status == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert client.validate_match(THREE_PROBLEMS).problem_count == 3  # and the server goes on


def test_tens_of_thousands_of_problems_are_counted_and_the_first_thousand_listed(client, monkeypatch) -> None:
    record = mat(*(" Game 1\n a : 0  b : 0\n" for _ in range(40_000)), length=0)
    assert len(record) < MOST_MATCH_RECORD
    monkeypatch.setattr(client, "timeout", 60.0)  # checked at nice 10: room on a busy machine
    report = client.validate_match(record)
    assert report.problem_count == 39_999 and len(report.problems) == 1000  # the last game may be unfinished
    assert report.games == 40_000


@pytest.mark.alone
def test_the_server_answers_other_calls_while_a_long_record_is_checked(client) -> None:
    # A megabyte of games, each one a problem: a second or so to check.
    slow = mat(*(" Game 1\n" + " " * 16 + ":" + " " * 16 + "x\n" for _ in range(22_000)), length=0)
    answers: list[rules_pb2.ValidateMatchResponse] = []
    checking = threading.Thread(target=lambda: answers.append(client.validate_match(slow)))
    started = time.monotonic()
    checking.start()
    answered = 0
    while checking.is_alive():
        client.legal_plays("backgammon", "4HPwATDgc/ABMA", (3, 1))
        answered += 1
    checking.join()
    assert answers[0].problem_count == 22_000  # no game has a score line
    # Other calls are answered while the check runs (not after it): how fast is the benchmarks' to say.
    assert answered >= 5, f"{answered} calls answered in the {time.monotonic() - started:.2f} s of the check"


# --- GNU Backgammon's SGF: told by its content, imported, exported --------------------------------------

SGF = match_record_pb2.MATCH_RECORD_FORMAT_SGF


def test_an_sgf_record_is_reported_as_its_mat_record_is_and_says_its_format(client) -> None:
    match = bot_match(RuleSet(match_length=5), seed=8, double=0.4, resign=0.01)
    mat_text, sgf_text = (
        export_mat(match, players=("Alice", "Bob")),
        export_sgf(match, players=("Alice", "Bob")),
    )

    from_mat, from_sgf = client.validate_match(mat_text), client.validate_match(sgf_text.encode())

    assert from_mat.format == match_record_pb2.MATCH_RECORD_FORMAT_MAT and from_sgf.format == SGF
    from_mat.format = SGF
    assert from_sgf == from_mat
    assert list(from_sgf.score) == list(match.state.score) and from_sgf.problem_count == 0


def test_a_problem_in_an_sgf_record_stands_at_its_sgf_line(client) -> None:
    record = (
        "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]\n;W[31hefe]\n;B[65msmr]\n)\n"
    )
    report = client.validate_match(record)
    assert [where_and_why(problem) for problem in report.problems] == [
        (1, 1, 3, 1, "plays '12/6 12/7' with 6-5", "you have no checker on your 12-point")
    ]
    assert [where_and_why(problem) for problem in report.problems] == [
        engine_problem(problem) for problem in check_sgf(record).problems
    ]
    refusal = refused(client.import_match, record)
    assert refusal.reason == "INVALID_MATCH_RECORD" and list(refusal.problems) == list(report.problems)


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        (RuleSet(match_length=5), {"double": 0.4, "resign": 0.02}),
        (RuleSet(beavers=True, jacoby=True), {"games": 4, "double": 0.4, "beaver": 0.5}),
    ],
    ids=["match", "money session with beavers"],
)
def test_an_imported_sgf_record_is_a_game_that_exports_the_same_sgf_and_mat(client, rules, options) -> None:
    match = bot_match(rules, seed=9, **options)
    sgf_text = export_sgf(match, players=("Ann", "Bob"))

    seat, _ = client.import_match(sgf_text)

    game = client.game(seat.name)
    assert (game.seat0_player.display_name, game.seat1_player.display_name) == ("Ann", "Bob")
    assert list(game.score) == list(match.state.score)
    assert all_events(client, game.name) == logged(import_sgf(sgf_text).events)
    assert client.export_sgf(game.name) == sgf_text
    assert client.export_mat(game.name) == export_mat(match, players=("Ann", "Bob"))
    both = client.games.ExportMatch(
        games_pb2.ExportMatchRequest(name=game.name, format=SGF), timeout=RPC_TIMEOUT
    )
    assert (both.mat, both.sgf) == ("", sgf_text)  # only the format asked for


def test_an_unfinished_sgf_record_is_played_on_and_exported_with_the_new_plays(client) -> None:
    rules = RuleSet(match_length=3)
    seat_0, seat_1 = client.import_match(export_sgf(rolled_at_the_end(rules, seed=4)), dice_seed="on")
    final = play_to_end((seat_0, seat_1), Policy(random.Random(4)))
    exported = client.export_sgf(final.name)
    assert import_sgf(exported).score == tuple(final.score)
    assert client.validate_match(exported).problem_count == 0


def test_gnubgs_analysis_is_read_past_not_refused(client) -> None:
    record = (
        "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:1][game:0][ws:0][bs:0]"
        "PW[gnubg]PB[Ann]RU[Crawford]RE[B+1R]\n"
        ";W[31hefe]A[0 ver 3\\davg 0.0 0.0 0.0]DA[1 ver 3]LU[0.25]TE[1]BM[1]GS[0 0 0]C[a fine play]\n"
        ";B[42qusu]\n)"
    )
    seat, _ = client.import_match(record)
    game = client.game(seat.name)
    assert list(game.score) == [0, 1] and game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_game_sgf_cannot_record_is_refused_in_words_and_mat_still_exports_it(client) -> None:
    seat, _ = client.create_game(variant="long-nardi", match_length=3)
    refusal = refused(client.export_sgf, seat.name)
    assert (refusal.status, refusal.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "FORMAT_CANNOT_RECORD")
    assert refusal.message.startswith("GNU Backgammon's SGF cannot record long nardi")
    assert '; [Variation "Long Nardi"]' in client.export_mat(seat.name)


def test_an_export_format_the_api_does_not_define_is_refused(client) -> None:
    seat, _ = client.create_game(match_length=3)
    with pytest.raises(grpc.RpcError) as refusal:
        client.games.ExportMatch(games_pb2.ExportMatchRequest(name=seat.name, format=7), timeout=RPC_TIMEOUT)
    assert refusal.value.code() == INVALID_ARGUMENT
    assert "format is 7, which tavli.v1.MatchRecordFormat does not define" in refusal.value.details()


SGF_HEAD = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]"


@pytest.mark.parametrize(
    ("record", "reason", "words"),
    [
        (
            "(;FF[4]GM[1]SZ[19];B[pd])",
            "UNREADABLE_MATCH_RECORD",
            "records another game (GM[1]), not backgammon",
        ),
        ("(;FF[4]SZ[19];B[pd])", "UNREADABLE_MATCH_RECORD", "does not say which game it records"),
        (SGF_HEAD + ";W[31hefe]", "UNREADABLE_MATCH_RECORD", "the file ends inside a game tree"),
        (SGF_HEAD + "C[" + "x" * 100_000, "UNREADABLE_MATCH_RECORD", "the file ends inside a property value"),
        (
            "(;" + "(" * (MOST_MATCH_RECORD - 2),
            "UNREADABLE_MATCH_RECORD",
            "the file ends inside a game tree",
        ),
        ("(;GM[6]MI[length:999999999])", "UNREADABLE_MATCH_RECORD", "at most 32767 points"),
        (b"(;\x00\xff\xfe" + bytes(range(256)) * 100, "UNREADABLE_MATCH_RECORD", "the file ends inside a"),
        (
            SGF_HEAD + "C[" + "x" * MOST_MATCH_RECORD + "])",
            "FIELD_TOO_LONG",
            "record.text is 1,048,634 characters; at most 1,048,576",
        ),
    ],
    ids=[
        "go",
        "no game type",
        "cut short",
        "cut in a value",
        "nested 1 MB",
        "huge match",
        "binary",
        "over the bound",
    ],
)
def test_hostile_sgf_records_are_refused_as_what_they_are(client, record, reason, words) -> None:
    before = names(client)
    for call in (client.validate_match, client.import_match):
        refusal = refused(call, record)
        assert (refusal.status, refusal.reason) == (INVALID_ARGUMENT, reason)
        assert words in refusal.message
    assert names(client) == before


@pytest.mark.parametrize(
    ("record", "where", "words"),
    [
        (SGF_HEAD + "RE[W+" + "9" * 5000 + "];W[31hefe])", (1, 1, 1, 0), "a result's points are a number"),
        (SGF_HEAD + ";W[99zz])", (1, 1, 1, 0), "a roll is two dice from 1 to 6"),
        (SGF_HEAD + ";W[31hefe]" * 50_000 + ")", (1, 1, 1, 0), "it is not your turn"),
        (SGF_HEAD + "(;" * 100_000 + ";W[31hefe];B[65msmr]" + ")" * 100_001, (1, 1, 1, 1), "no checker"),
    ],
    ids=["5000 digits", "unreadable roll", "50,000 plays of one side", "100,000 nested trees"],
)
def test_hostile_but_readable_sgf_records_are_checked_with_their_problem(
    client, record, where, words
) -> None:
    report = client.validate_match(record)
    assert report.format == SGF
    problem = report.problems[0]
    assert where_and_why(problem)[:4] == where and words in problem.reason
