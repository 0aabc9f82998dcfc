"""Who sits at a game's seats: names and ids given at creation (or taken from an imported record),
checked, kept through restarts, shown in Game wherever a game is shown, and written in exports."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import TavliClient, TavliServerError
from tavli.engine.matfile import check_mat, export_mat
from tavli.engine.rules import RuleSet
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.games import bot_match
from tests.server_play import connected, running_server


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    with running_server() as server, connected(server.port) as connection:
        yield connection


def seated(client: TavliClient, *players: games_pb2.Player) -> games_pb2.CreateGameResponse:
    request = games_pb2.CreateGameRequest(
        rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, match_length=3)
    )
    for field, player in zip(("seat0_player", "seat1_player"), players):
        getattr(request, field).CopyFrom(player)
    return client.games.CreateGame(request, timeout=10)


def shown(game: games_pb2.Game) -> tuple[tuple[str, str], tuple[str, str]]:
    return (
        (game.seat0_player.display_name, game.seat0_player.player_id),
        (game.seat1_player.display_name, game.seat1_player.player_id),
    )


def test_the_players_created_with_are_shown_wherever_the_game_is(client: TavliClient) -> None:
    created = seated(
        client,
        games_pb2.Player(display_name="Alice", player_id="acct-17"),
        games_pb2.Player(display_name="Bob 🎲"),
    )
    expected = (("Alice", "acct-17"), ("Bob 🎲", ""))
    assert shown(created.game) == expected
    name = created.game.name
    assert shown(client.game(name)) == expected
    listed = client.games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=10).games
    assert [shown(game) for game in listed if game.name == name] == [expected]
    seat = client.games.RollDice(
        games_pb2.RollDiceRequest(name=name, seat_token=created.seat0_token), timeout=10
    )
    assert shown(seat.game) == expected
    assert shown(next(iter(client.watch(name))).game) == expected


def test_an_export_writes_the_names_and_reads_back_with_them(client: TavliClient) -> None:
    created = seated(
        client, games_pb2.Player(display_name="Jörg"), games_pb2.Player(display_name="Zoë, 1750")
    )
    exported = client.export_mat(created.game.name)
    assert " Jörg : 0" in exported and "Zoë, 1750 : 0" in exported
    assert check_mat(exported).record.players == ("Jörg", "Zoë, 1750")
    nameless = client.create_game(match_length=3)[0].name
    assert " Player 0 : 0" in client.export_mat(nameless)
    assert not client.game(nameless).HasField("seat0_player")


def test_an_imported_record_seats_its_own_names_unless_the_request_names_others(client: TavliClient) -> None:
    text = export_mat(bot_match(RuleSet(match_length=3), seed=4), players=("Annette,1750", "Bo"))
    seat, _ = client.import_match(text)
    assert shown(client.game(seat.name)) == (("Annette,1750", ""), ("Bo", ""))
    renamed, _ = client.import_match(text, players=("A.", "B."))
    assert shown(client.game(renamed.name)) == (("A.", ""), ("B.", ""))
    assert "A. : 0" in client.export_mat(renamed.name)


@pytest.mark.parametrize(
    ("player", "words"),
    [
        (
            games_pb2.Player(display_name="Al\nice"),
            "seat0_player.display_name holds a control character (0x000a)",
        ),
        (games_pb2.Player(display_name="Al\x00"), "control character (0x0000)"),
        (
            games_pb2.Player(player_id="id\x1b[31m"),
            "seat0_player.player_id holds a control character (0x001b)",
        ),
        (games_pb2.Player(display_name="Alice: the best"), "holds ':', which match records use"),
    ],
)
def test_a_name_or_id_a_table_cannot_show_is_refused_in_words(
    client: TavliClient, player: games_pb2.Player, words: str
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        seated(client, player)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    assert words in refused.value.details()  # type: ignore[attr-defined]


@pytest.mark.parametrize("field", ["display_name", "player_id"])
def test_a_name_or_id_is_at_most_64_characters(client: TavliClient, field: str) -> None:
    assert seated(client, games_pb2.Player(**{field: "é" * 64}))
    with pytest.raises(grpc.RpcError) as refused:
        seated(client, games_pb2.Player(**{field: "é" * 65}))
    assert "at most 64" in refused.value.details()  # type: ignore[attr-defined]


def test_names_survive_a_restart_and_older_databases_open_without_them(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as server, connected(server.port) as client:
        name = client.create_game(match_length=3, players=("Alice", "Bob"))[0].name
    with sqlite3.connect(database) as db:  # a game stored before names were kept
        db.execute(
            "INSERT INTO games (name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created,"
            " updated, summary) SELECT 'games/old', rules, '', '', dice_mode, dice_seed, created, updated,"
            " summary FROM games"
        )
    with running_server(db=database) as server, connected(server.port) as client:
        assert shown(client.game(name)) == (("Alice", ""), ("Bob", ""))
        old = client.game("games/old")
        assert not old.HasField("seat0_player") and not old.HasField("seat1_player")


def test_the_python_client_names_the_seats(client: TavliClient) -> None:
    seat, _ = client.create_game(players=("Left", "Right"))
    assert shown(client.game(seat.name)) == (("Left", ""), ("Right", ""))
    with pytest.raises(TavliServerError) as refused:
        client.create_game(players=("Left\tTab", "Right"))
    assert refused.value.status == grpc.StatusCode.INVALID_ARGUMENT
