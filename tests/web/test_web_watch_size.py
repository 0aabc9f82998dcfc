"""A watch over the web port does not grow with the games played: after its first message each
Game (as Connect JSON, as the page reads it) carries only the finished games its event finished,
and the web table puts the others back: its move list closes every finished game with its result,
replayed from the start and live."""

from __future__ import annotations

import http.client
import json
import random
import struct

from google.protobuf import json_format
from playwright.sync_api import Page, expect

from tavli.clients.client import Seat, TavliClient, with_finished_games_sent
from tavli.engine.matfile import export_mat
from tavli.engine.rules import RuleSet
from tavli.server.app import Running
from tavli.v1 import games_service_pb2 as games_pb2
from tests.browser import TURN_TIMEOUT_MS, by, game_root, url
from tests.games import bot_match
from tests.server_play import Policy, act_once

MOST_JSON_BYTES = 4096
"""What a watch's message after its first may take as JSON, however many games were played: a
Game without the match's history is about 2,400 bytes (the finished games of 200 games, 32,000)."""

SPEED_KEY = "tavli.animation-speed"


def imported_session(client: TavliClient, games: int, seed: int) -> tuple[Seat, Seat]:
    """A money session of ``games`` games, imported: its seats, to play on."""
    return client.import_match(export_mat(bot_match(RuleSet(), seed=seed, games=games)))


def connect_watch(port: int, name: str, count: int) -> list[bytes]:
    """The first ``count`` messages of a Connect WatchGame of ``name`` from its first event, as
    the page reads them (JSON)."""
    body = json.dumps({"name": name}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(
            "POST",
            "/tavli.v1.GamesService/WatchGame",
            body=struct.pack(">BI", 0, len(body)) + body,
            headers={"Content-Type": "application/connect+json"},
        )
        response = connection.getresponse()
        assert response.status == 200
        messages = []
        while len(messages) < count:
            flags, length = struct.unpack(">BI", response.read(5))
            payload = response.read(length)
            assert flags == 0, payload
            messages.append(payload)
        return messages
    finally:
        connection.close()


def test_every_message_of_a_web_watch_of_a_long_session_is_bounded_and_it_ends_as_get_game(
    server: Running, client: TavliClient
) -> None:
    stored = imported_session(client, 60, seed=21)[0].game()
    assert len(stored.finished_games) == 60
    messages = connect_watch(server.web_port, stored.name, stored.event_count)
    assert max(len(message) for message in messages[1:]) <= MOST_JSON_BYTES
    kept = games_pb2.Game()
    for message in messages:
        game = json_format.Parse(message, games_pb2.WatchGameResponse()).game
        kept = with_finished_games_sent(game, kept)
    assert kept == stored


def test_the_move_list_closes_every_finished_game_replayed_from_the_start_and_live(
    page: Page, server: Running, client: TavliClient
) -> None:
    page.add_init_script(f"window.localStorage.setItem({SPEED_KEY!r}, 'off')")
    seats = imported_session(client, 6, seed=22)
    stored = seats[0].game()
    page.goto(url(server, f"#/watch/{stored.name.removeprefix('games/')}?from=start"))
    root = game_root(page)
    expect(root).to_have_attribute("data-event-count", str(stored.event_count), timeout=TURN_TIMEOUT_MS * 4)
    expect(root).to_have_attribute("data-replaying", "false")
    results = by(page, "record-result")
    expect(results).to_have_count(6)
    for result, finished in zip(results.all(), stored.finished_games):
        expect(result).to_contain_text(f"{finished.points} point")
    # Then live: the next game played to its end, its result added.
    policy = Policy(random.Random(22))
    game = stored
    while len(game.finished_games) < 7:
        game = act_once(seats, game, policy)
    expect(root).to_have_attribute("data-event-count", str(game.event_count), timeout=TURN_TIMEOUT_MS * 4)
    expect(results).to_have_count(7)
    expect(results.last).to_contain_text(f"{game.finished_games[-1].points} point")
