"""Plays are stored as data: the log keeps each play's steps and its notation as the server writes
it, whatever the player wrote; a replay reads no text. Games stored by earlier servers, whose logs
keep the player's own text, still load, and go on in the new form."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import Seat
from tavli.engine import BACKGAMMON, Position
from tavli.engine.events import WrittenPlay, event_from_dict
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.engine.variant import Variant
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2, rules_service_pb2 as rules_pb2
from tests.server_play import all_events, connected, error_info, running_server

SEED = "stored-24"  # its opening throw is 3-1 for seat 0 (checked below)


def stored_events(database: Path, name: str) -> list[dict[str, object]]:
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT event FROM events WHERE game = ? ORDER BY sequence", (name,)).fetchall()
    return [json.loads(event) for (event,) in rows]


def stored_plays(database: Path, name: str) -> list[dict[str, object]]:
    return [event for event in stored_events(database, name) if event["kind"] == "play"]


def test_the_log_keeps_the_play_as_the_server_writes_it(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as running, connected(running.port) as client:
        seat_0, _ = client.create_game(variant="backgammon", dice_seed=SEED)
        assert list(seat_0.roll().dice) == [3, 1]
        game = seat_0.play("6/5, 8/5")  # written with a comma, the lower move first
        assert game.last_play.notation == "8/5 6/5"
        assert [(step.from_point, step.to_point, step.die) for step in game.last_play.steps] == [
            (6, 5, 1),
            (8, 5, 3),
        ]
        (event,) = [
            event for event in all_events(client, seat_0.name) if event.kind == games_pb2.EVENT_KIND_PLAY
        ]
        assert event.notation == "8/5 6/5"
        assert [(step.from_point, step.to_point, step.die) for step in event.steps] == [(6, 5, 1), (8, 5, 3)]
    assert stored_plays(database, seat_0.name) == [
        {
            "kind": "play",
            "side": 0,
            "steps": [[6, 5, 1, False], [8, 5, 3, False]],
            "notation": "8/5 6/5",
            "forced": False,
        }
    ]


def test_a_play_given_as_steps_is_checked_and_made() -> None:
    with running_server() as running, connected(running.port) as client:
        seat_0, _ = client.create_game(variant="backgammon", dice_seed=SEED)
        seat_0.roll()

        def play(*moves: tuple[int, int]) -> games_pb2.PlayMoveResponse:
            steps = board_pb2.PlaySteps(
                steps=[board_pb2.Step(from_point=start, to_point=end) for start, end in moves]
            )
            request = games_pb2.PlayMoveRequest(name=seat_0.name, seat_token=seat_0.token, steps=steps)
            return client.games.PlayMove(request, timeout=10)

        with pytest.raises(grpc.RpcError) as refused:
            play((24, 21), (24, 20))  # the 4 is no die of 3-1
        assert error_info(refused.value)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_PLAY")
        assert (
            refused.value.details()
            == "24/20 is not a step of one die of your 3-1 (a step moves a checker by one die)"
        )
        with pytest.raises(grpc.RpcError) as malformed:
            play((6, 8))
        assert error_info(malformed.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PLAY")
        game = play((24, 21), (21, 20)).game
        assert (game.last_play.notation, game.turn) == ("24/20", games_pb2.SEAT_1)


def test_a_play_the_text_does_not_name_alone_is_malformed_input() -> None:
    # "24/13" with 6-5 may go through the 18-point or the 19-point, and each holds a blot.
    blots = Position.from_points({24: 1, 6: 14}, {7: 1, 6: 1, 2: 13})
    BACKGAMMON.validate(blots)
    request = rules_pb2.ValidatePlayRequest(
        variant=board_pb2.VARIANT_BACKGAMMON,
        position=board_pb2.Position(position_id=blots.position_id()),
        dice=[6, 5],
        notation="24/13",
    )
    with running_server() as running, connected(running.port) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.rules.ValidatePlay(request, timeout=10)
        assert error_info(error.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "AMBIGUOUS_PLAY")
        assert error.value.details() == "'24/13' could mean 24/18*/13 or 24/19*/13: say which you mean"
        request.notation = "24/18*/13"
        assert client.rules.ValidatePlay(request, timeout=10).play.notation == "24/18*/13"


def test_a_replay_reads_no_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match(RuleSet(), verifiable=False)
    for _ in range(40):
        if match.state.over:
            break
        side = match.state.game.turn
        if match.legal_plays():
            match.play(side, match.legal_plays()[-1].notation())
        else:
            match.roll(side)

    def no_text(*_: object) -> None:
        raise AssertionError("a replay read a play's text")

    monkeypatch.setattr(Variant, "parse_play", no_text)
    assert Match.replay(RuleSet(), match.events).state == match.state


def test_a_game_stored_in_the_old_form_loads_and_goes_on_in_the_new(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as running, connected(running.port) as client:
        seat_0, seat_1 = client.create_game(variant="backgammon", dice_seed=SEED)
        seat_0.roll()
        seat_0.play("8/5 6/5")
        seat_1.game()
        seat_1.roll()
        seat_1.play(seat_1.legal_actions().plays[-1].notation)
        before = seat_0.game()
        events_before = all_events(client, seat_0.name)
    # Rewrite the plays as earlier servers stored them: the player's own text, no steps.
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT sequence, event FROM events WHERE game = ?", (seat_0.name,)).fetchall()
        for sequence, text in rows:
            event = json.loads(text)
            if event["kind"] == "play":
                written = "8/5, 6/5" if event["side"] == 0 else event["notation"]
                old = {"kind": "play", "side": event["side"], "play": written, "forced": False}
                db.execute(
                    "UPDATE events SET event = ? WHERE game = ? AND sequence = ?",
                    (json.dumps(old), seat_0.name, sequence),
                )
    old_form = stored_plays(database, seat_0.name)
    assert next(("steps" in event, event["play"]) for event in old_form) == (False, "8/5, 6/5")
    assert all(isinstance(event_from_dict(event), WrittenPlay) for event in old_form)

    with running_server(db=database) as running, connected(running.port) as client:
        again = client.game(seat_0.name)
        assert again.SerializeToString() == before.SerializeToString()
        # The events read as the server writes plays now: canonical notation, and steps.
        assert all_events(client, seat_0.name) == events_before
        seat = Seat(client, seat_0.name, 0, seat_0.token, again)
        seat.roll()
        seat.play(seat.legal_actions().plays[0].notation)
    plays = stored_plays(database, seat_0.name)
    assert plays[:2] == old_form  # what was stored stays as it was
    assert "steps" in plays[2] and "play" not in plays[2]  # what is new is stored in the new form
