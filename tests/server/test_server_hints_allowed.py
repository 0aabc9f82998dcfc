"""Whether a table's players may ask for hints: chosen at creation, kept with the game through
restarts and rematches, and shown in Game to both seats wherever a game is shown."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.server import sqlite_store
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import Policy, connected, play_to_end, running_server


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    with running_server() as server, connected(server.port) as connection:
        yield connection


def table(client: TavliClient, *, hints_allowed: bool) -> tuple[Seat, Seat]:
    return client.create_game(match_length=1, crawford=False, hints_allowed=hints_allowed)


def test_a_table_created_with_hints_shows_it_wherever_the_game_is_shown(client: TavliClient) -> None:
    seats = table(client, hints_allowed=True)
    name = seats[0].name
    assert seats[0].last_seen.hints_allowed
    assert client.game(name).hints_allowed
    listed = client.games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=10).games
    assert [game.hints_allowed for game in listed if game.name == name] == [True]
    rolled = client.games.RollDice(
        games_pb2.RollDiceRequest(name=name, seat_token=seats[0].token), timeout=10
    )
    assert rolled.game.hints_allowed
    assert next(iter(client.watch(name))).game.hints_allowed


def test_a_table_created_without_a_word_has_no_hints(client: TavliClient) -> None:
    seats = client.create_game(match_length=1)
    assert not seats[0].last_seen.hints_allowed
    assert not client.game(seats[0].name).hints_allowed


def test_a_rematch_keeps_the_tables_hints(client: TavliClient) -> None:
    for allowed in (True, False):
        seats = table(client, hints_allowed=allowed)
        play_to_end(seats, Policy(random.Random(5)))
        client.games.OfferRematch(
            games_pb2.OfferRematchRequest(name=seats[0].name, seat_token=seats[0].token), timeout=10
        )
        accepted = client.games.AcceptRematch(
            games_pb2.AcceptRematchRequest(name=seats[1].name, seat_token=seats[1].token), timeout=10
        )
        assert accepted.rematch.hints_allowed is allowed


BEFORE_HINTS = 8
"""The SQLite schema's version before games kept whether hints are allowed (its migration 9)."""


def test_hints_survive_a_restart_and_older_databases_open_without_them(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as server, connected(server.port) as client:
        allowed = table(client, hints_allowed=True)[0].name
        not_allowed = table(client, hints_allowed=False)[0].name
    with running_server(db=database) as server, connected(server.port) as client:
        assert client.game(allowed).hints_allowed and not client.game(not_allowed).hints_allowed
    with sqlite3.connect(database) as db:  # the file as the schema before the column left it
        db.execute("ALTER TABLE games DROP COLUMN hints_allowed")
        db.execute(f"PRAGMA user_version = {BEFORE_HINTS}")
    with running_server(db=database) as server, connected(server.port) as client:
        assert not client.game(allowed).hints_allowed  # stored before hints were kept: none
        assert table(client, hints_allowed=True)[0].last_seen.hints_allowed
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (sqlite_store.SCHEMA_VERSION,)
