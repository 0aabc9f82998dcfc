"""Secrets and identities: what a thief of the database or the logs learns, and what a reused
request_id or a seeded game may do.

- Seat tokens (from CreateGame's answers) and the seeds of verifiable dice not yet revealed are
  nowhere in the database's files (the .sqlite3, -wal, -shm and whatever else lies beside them,
  a key file included), while the server runs or after it stopped, nor in its logs. The seeds are
  learnt afterwards, from the SEED_REVEALED events of the games finished later, and checked
  against their commitments, so the scan looks for the real ones.
- A request_id reused for another request (another method, the other seat, another body, a
  CreateGame of other rules) is refused with INVALID_ARGUMENT, reason REQUEST_ID_REUSED, and
  changes nothing; the same request again gets its first answer.
- A replayed CreateGame returns the same game and tokens that work, after a restart too.
- DICE_MODE_SEEDED is refused with FAILED_PRECONDITION (SEEDED_DICE_DISABLED) unless the server
  was started with --allow-seeded-dice; every Game shows its dice_mode.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.hostile.campaign import (
    Figures,
    Served,
    figures_fixture,  # noqa: F401 - the fixture `figures`
    random_action,
    refusal_of,
    serve,
    stop,
    stored_log,
)
from tests.server_play import MOST_ACTIONS, RPC_TIMEOUT

BACKGAMMON = games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, cube=games_pb2.CUBE_MODE_CUBE)
NARDI_MATCH = games_pb2.RuleSet(variant=board_pb2.VARIANT_LONG_NARDI, match_length=3)


@contextlib.contextmanager
def serving(tmp_path: Path, *arguments: str, name: str = "serve") -> Iterator[tuple[Served, TavliClient]]:
    (tmp_path / "db").mkdir(parents=True, exist_ok=True)
    served = serve("--db", str(tmp_path / "db" / "games.sqlite3"), *arguments, log=tmp_path / f"{name}.log")
    client = TavliClient.connect(served.address, timeout=RPC_TIMEOUT)
    try:
        yield served, client
    finally:
        client.close()
        stop(served)


def created(
    client: TavliClient, rule_set: games_pb2.RuleSet, **fields: object
) -> games_pb2.CreateGameResponse:
    request = games_pb2.CreateGameRequest(rule_set=rule_set, request_id=str(uuid.uuid4()), **fields)
    return client.games.CreateGame(request, timeout=RPC_TIMEOUT)


def seats_of(client: TavliClient, answer: games_pb2.CreateGameResponse) -> tuple[Seat, Seat]:
    name = answer.game.name
    return Seat(client, name, 0, answer.seat0_token, answer.game), Seat(
        client, name, 1, answer.seat1_token, answer.game
    )


def revealed_seeds(client: TavliClient, name: str) -> dict[int, str]:
    """The seeds a game's log has revealed, by game number, each checked against its commitment."""
    events = stored_log(client.games, name)
    commitments = {
        e.game_number: e.dice_commitment for e in events if e.kind == games_pb2.EVENT_KIND_DICE_COMMITTED
    }
    seeds = {e.game_number: e.dice_seed for e in events if e.kind == games_pb2.EVENT_KIND_SEED_REVEALED}
    for number, seed in seeds.items():
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitments[number], (
            f"{name}: seed {number} does not open its commitment"
        )
    return seeds


def play_until_revealed(seats: tuple[Seat, Seat], game_number: int, rng: random.Random) -> None:
    """Play (resigning now and then) until game ``game_number`` is over and its seed revealed."""
    game = seats[0].game()
    for _ in range(MOST_ACTIONS):
        if game.game_number > game_number or game.phase == games_pb2.PHASE_MATCH_OVER:
            assert game_number in revealed_seeds(seats[0].client, seats[0].name), (
                f"game {game_number} ended unrevealed"
            )
            return
        game = random_action(seats, game, rng, resign_rate=0.05)
    raise AssertionError(f"game {game_number} of {seats[0].name} did not end within {MOST_ACTIONS} actions")


def secret_seed_in_play(client: TavliClient, name: str) -> tuple[str, int] | None:
    """The verifiable game in play whose seed is still secret, if any."""
    game = client.game(name)
    if game.phase == games_pb2.PHASE_MATCH_OVER or game.game_number in revealed_seeds(client, name):
        return None
    return name, game.game_number


def files_beside(database: Path) -> dict[str, bytes]:
    """Every file in the database's directory (the database, its -wal and -shm, any key file)."""
    return {path.name: path.read_bytes() for path in sorted(database.parent.rglob("*")) if path.is_file()}


def needles(secret: str) -> list[bytes]:
    """The ways a secret could lie in a file: as text, hex in either case, or the raw bytes of its hex."""
    found = [secret.encode()]
    with contextlib.suppress(ValueError):
        raw = bytes.fromhex(secret)
        found += [secret.upper().encode(), raw]
    return found


def test_seat_tokens_and_unrevealed_seeds_are_nowhere_in_the_database_or_the_logs(
    tmp_path: Path, figures: Figures
) -> None:
    database = tmp_path / "db" / "games.sqlite3"
    rng = random.Random(8)
    snapshots: dict[str, dict[str, bytes]] = {}
    with serving(tmp_path, name="first") as (_, client):
        answers = [
            created(client, BACKGAMMON),
            created(client, NARDI_MATCH),
            created(
                client,
                games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, match_length=9),
                dice_mode=games_pb2.DICE_MODE_VERIFIABLE,
            ),
            created(
                client,
                games_pb2.RuleSet(variant=board_pb2.VARIANT_LONG_NARDI),
                dice_mode=games_pb2.DICE_MODE_VERIFIABLE,
            ),
        ]
        games = [seats_of(client, answer) for answer in answers]
        for seats in games[:2]:
            game = seats[0].game()
            for _ in range(20):
                game = random_action(seats, game, rng)
        # The 9-point match finishes its first game (seed 1 revealed) and is in its second
        # (seed 2 secret); the long nardi session is in its first game (seed 1 secret).
        play_until_revealed(games[2], 1, rng)
        game = games[3][0].game()
        for _ in range(10):
            game = random_action(games[3], game, rng)
        in_play = [secret_seed_in_play(client, answer.game.name) for answer in answers[2:]]
        secret_games = {secret for secret in in_play if secret is not None}
        assert secret_games, "no verifiable game in play to hold a secret seed"
        snapshots["while serving"] = files_beside(database)
    snapshots["after stopping"] = files_beside(database)
    with serving(tmp_path, name="second") as (_, client):
        games = [seats_of(client, answer) for answer in answers]
        for name, number in secret_games:
            play_until_revealed(next(seats for seats in games if seats[0].name == name), number, rng)
        seeds = {(name, number): revealed_seeds(client, name)[number] for name, number in secret_games}
    logs = {
        "first run's log": (tmp_path / "first.log").read_bytes(),
        "second run's log": (tmp_path / "second.log").read_bytes(),
    }
    tokens = [token for answer in answers for token in (answer.seat0_token, answer.seat1_token)]
    found: Counter[str] = Counter()
    for when, files in [*snapshots.items(), ("logs", logs)]:
        for file_name, content in files.items():
            for token in tokens:
                if any(needle in content for needle in needles(token)):
                    found[f"seat tokens in {file_name} ({when})"] += 1
            for (name, number), seed in seeds.items():
                if any(needle in content for needle in needles(seed)):
                    found[f"unrevealed seeds in {file_name} ({when})"] += 1
    # The scan reads what the files hold: the games' names are there in plain text.
    readable = all(
        answer.game.name.encode() in b"".join(snapshots["after stopping"].values()) for answer in answers
    )
    figures.update(
        files_scanned=sorted({name for files in snapshots.values() for name in files}),
        bytes_scanned=sum(
            len(content) for files in [*snapshots.values(), logs] for content in files.values()
        ),
        tokens_looked_for=len(tokens),
        unrevealed_seeds_looked_for=len(seeds),
        secrets_found=sum(found.values()),
        found=dict(found),
    )
    assert readable, "the games' names are not in the database files: the scan reads nothing"
    assert not found, f"{sum(found.values())} secrets found: {dict(found)}"
    figures.passed()


# --- request_ids ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, TavliClient]]:
    with serving(tmp_path_factory.mktemp("security")) as running:
        yield running


def refusal(call: object, request: object) -> tuple[str, str]:
    try:
        call(request, timeout=RPC_TIMEOUT)  # type: ignore[operator]
    except grpc.RpcError as error:
        answer = refusal_of(error)
        return answer.status.name, answer.reason
    return "OK", ""


def test_a_request_id_reused_for_another_method_seat_or_body_is_refused_and_changes_nothing(
    server, figures: Figures
) -> None:
    _, client = server
    games = client.games
    outcomes: dict[str, tuple[str, str]] = {}
    unchanged: dict[str, bool] = {}
    seat_0, seat_1 = seats_of(client, created(client, BACKGAMMON))
    name = seat_0.name

    # The other seat: seat 0 throws the opening with an id, seat 1 throws with the same id.
    reused = str(uuid.uuid4())
    first = games.RollDice(
        games_pb2.RollDiceRequest(name=name, seat_token=seat_0.token, request_id=reused), timeout=RPC_TIMEOUT
    )
    before = client.game(name)
    outcomes["the other seat"] = refusal(
        games.RollDice, games_pb2.RollDiceRequest(name=name, seat_token=seat_1.token, request_id=reused)
    )
    unchanged["the other seat"] = client.game(name) == before
    # The same request again: its first answer, and nothing done twice.
    again = games.RollDice(
        games_pb2.RollDiceRequest(name=name, seat_token=seat_0.token, request_id=reused), timeout=RPC_TIMEOUT
    )
    replayed_the_first_answer = again == first and client.game(name) == before

    # Another method: the seat on turn plays with the id of the opening throw.
    mover = seat_0 if before.turn == games_pb2.SEAT_0 else seat_1
    plays = [play.notation for play in mover.legal_actions().plays]
    request = games_pb2.PlayMoveRequest(
        name=name, seat_token=mover.token, request_id=reused, notation=plays[0]
    )
    outcomes["another method"] = refusal(games.PlayMove, request)
    unchanged["another method"] = client.game(name) == before

    # Another body: a play with an id, then another play with the same id.
    played_id = str(uuid.uuid4())
    games.PlayMove(
        games_pb2.PlayMoveRequest(name=name, seat_token=mover.token, request_id=played_id, notation=plays[0]),
        timeout=RPC_TIMEOUT,
    )
    after_play = client.game(name)
    other_body = games_pb2.PlayMoveRequest(
        name=name,
        seat_token=mover.token,
        request_id=played_id,
        notation=plays[-1] if len(plays) > 1 else "pass",
    )
    outcomes["another body"] = refusal(games.PlayMove, other_body)
    unchanged["another body"] = client.game(name) == after_play

    # CreateGame of other rules with the id of an earlier create: no game made.
    create_id = str(uuid.uuid4())
    games.CreateGame(
        games_pb2.CreateGameRequest(rule_set=BACKGAMMON, request_id=create_id), timeout=RPC_TIMEOUT
    )
    listed = len(games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT).games)
    outcomes["CreateGame of other rules"] = refusal(
        games.CreateGame, games_pb2.CreateGameRequest(rule_set=NARDI_MATCH, request_id=create_id)
    )
    unchanged["CreateGame of other rules"] = (
        len(games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT).games) == listed
    )

    figures.update(
        outcomes={kind: "/".join(outcome) for kind, outcome in outcomes.items()}, unchanged=unchanged
    )
    assert replayed_the_first_answer, "the same request with the same id did not get its first answer"
    wrong = {
        kind: outcome
        for kind, outcome in outcomes.items()
        if outcome != ("INVALID_ARGUMENT", "REQUEST_ID_REUSED")
    }
    assert not wrong, f"reused request_ids not refused as INVALID_ARGUMENT/REQUEST_ID_REUSED: {wrong}"
    assert all(unchanged.values()), f"a refused reuse changed something: {unchanged}"
    figures.passed()


def test_a_replayed_create_game_returns_the_same_game_and_tokens_that_work(
    tmp_path: Path, figures: Figures
) -> None:
    request = games_pb2.CreateGameRequest(rule_set=BACKGAMMON, request_id=str(uuid.uuid4()))
    with serving(tmp_path, name="first") as (_, client):
        first = client.games.CreateGame(request, timeout=RPC_TIMEOUT)
        replayed = client.games.CreateGame(request, timeout=RPC_TIMEOUT)
        seat_1 = seats_of(client, replayed)[1]
        thrown = seat_1.roll()  # the opening throw, with the replayed token of seat 1
    with serving(tmp_path, name="second") as (_, client):
        after_restart = client.games.CreateGame(request, timeout=RPC_TIMEOUT)
        seats = seats_of(client, after_restart)
        mover = seats[0] if thrown.turn == games_pb2.SEAT_0 else seats[1]
        played = mover.play(mover.legal_actions().plays[0].notation)
    figures.update(
        same_game=replayed.game.name == first.game.name == after_restart.game.name,
        same_tokens=(replayed.seat0_token, replayed.seat1_token)
        == (first.seat0_token, first.seat1_token)
        == (after_restart.seat0_token, after_restart.seat1_token),
        events_after_two_actions=played.event_count,
    )
    assert replayed.game.name == first.game.name and after_restart.game.name == first.game.name
    assert (replayed.seat0_token, replayed.seat1_token) == (first.seat0_token, first.seat1_token)
    assert (after_restart.seat0_token, after_restart.seat1_token) == (first.seat0_token, first.seat1_token)
    assert played.event_count == thrown.event_count + 1
    figures.passed()


# --- seeded dice and the dice mode ------------------------------------------------------------------


def test_seeded_dice_are_refused_unless_the_server_allows_them(tmp_path: Path, figures: Figures) -> None:
    seeded = games_pb2.CreateGameRequest(
        rule_set=BACKGAMMON, dice_mode=games_pb2.DICE_MODE_SEEDED, dice_seed="known to all"
    )
    with serving(tmp_path / "default") as (_, client):
        listed = len(
            client.games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT).games
        )
        by_default = refusal(client.games.CreateGame, seeded)
        made_by_default = (
            len(client.games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT).games)
            - listed
        )
    figures.update(by_default="/".join(by_default), games_made_by_default=made_by_default)
    with serving(tmp_path / "allowed", "--allow-seeded-dice") as (_, client):
        throws = []
        for _ in range(2):
            answer = client.games.CreateGame(seeded, timeout=RPC_TIMEOUT)
            seats_of(client, answer)[0].roll()
            throws.append(list(stored_log(client.games, answer.game.name)[0].opening_throws))
    figures.update(same_seed_same_throws=throws[0] == throws[1])
    assert by_default == ("FAILED_PRECONDITION", "SEEDED_DICE_DISABLED")
    assert made_by_default == 0
    assert throws[0] == throws[1], "two games of one seed threw different openings"
    figures.passed()


def test_every_game_shows_its_dice_mode(tmp_path: Path, figures: Figures) -> None:
    assert "dice_mode" in games_pb2.Game.DESCRIPTOR.fields_by_name, "Game has no dice_mode field"
    shown: dict[str, set[int]] = {}
    with serving(tmp_path, "--allow-seeded-dice") as (_, client):
        modes = {
            "system": (games_pb2.DICE_MODE_UNSPECIFIED, {}),
            "seeded": (games_pb2.DICE_MODE_SEEDED, {"dice_seed": "s"}),
            "verifiable": (games_pb2.DICE_MODE_VERIFIABLE, {}),
        }
        for label, (mode, fields) in modes.items():
            answer = created(client, BACKGAMMON, dice_mode=mode, **fields)
            name = answer.game.name
            watch = client.games.WatchGame(games_pb2.WatchGameRequest(name=name), timeout=RPC_TIMEOUT)
            seats_of(client, answer)[0].roll()
            watched = next(iter(watch)).game
            watch.cancel()
            page = client.games.ListGames(
                games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT
            ).games
            in_list = next(game for game in page if game.name == name)
            shown[label] = {
                answer.game.dice_mode,
                client.game(name).dice_mode,
                in_list.dice_mode,
                watched.dice_mode,
            }
            assert shown[label] == {mode}, f"a {label} game showed dice modes {shown[label]}"
    figures.update(dice_modes_shown={label: sorted(modes) for label, modes in shown.items()})
    figures.passed()
