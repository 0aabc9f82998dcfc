"""A board that stays put: Game carries the position from seat 0's side whichever seat is on turn,
both seats' pip counts, and the last play as its steps with the position it was played in, so a
GUI draws and animates every turn from the Game alone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise

import pytest

from tavli.clients.client import TavliClient
from tavli.engine import VARIANTS, Position
from tavli.engine.position import BAR, pips
from tavli.server.convert import board_message
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import MOST_ACTIONS, Policy, act_once, connected, running_server


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    with running_server() as server, connected(server.port) as connection:
        yield connection


def seat0_position(game: games_pb2.Game) -> Position:
    """The position from seat 0's side, as the on-turn Position ID gives it."""
    on_turn = Position.from_id(game.position_id)
    return on_turn if game.turn != games_pb2.SEAT_1 else on_turn.swapped()


def states(client: TavliClient, variant: str, seed: int) -> list[games_pb2.Game]:
    """Every state of a seeded random match of ``variant``, in turn."""
    seats = client.create_game(variant=variant, match_length=3, dice_seed=f"steady-{seed}")  # type: ignore[arg-type]
    policy = Policy(random.Random(seed), double_rate=0.05)
    game = seats[0].game()
    seen = [game]
    for _ in range(MOST_ACTIONS):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            return seen
        game = act_once(seats, game, policy)
        seen.append(game)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_the_seat0_board_and_pip_counts_are_seat_0s_in_every_state(client: TavliClient, variant: str) -> None:
    for game in states(client, variant, seed=1):
        position = seat0_position(game)
        assert game.seat0_board == board_message(position)
        assert list(game.pip_counts) == [pips(position.player), pips(position.opponent)]


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_the_last_play_carries_the_position_before_and_its_steps_lead_to_the_one_after(
    client: TavliClient, variant: str
) -> None:
    rules = VARIANTS[variant]
    plays = 0
    for before, after in pairwise(states(client, variant, seed=2)):
        last = after.last_play
        if not after.HasField("last_play") or before.HasField("last_play") and last == before.last_play:
            continue  # no play between these two states
        plays += 1
        mover = 0 if last.seat == games_pb2.SEAT_0 else 1
        assert last.position_id_before == before.position_id  # the mover was on turn, its dice rolled
        played_in = Position.from_id(last.position_id_before)
        assert last.seat0_board_before == board_message(played_in if mover == 0 else played_in.swapped())
        steps = [(step.from_point, step.to_point) for step in last.steps]
        played = rules.check_play(played_in, tuple(last.dice), steps) if steps else None  # type: ignore[arg-type]
        seat0_after = seat0_position(after)
        mover_after = seat0_after if mover == 0 else seat0_after.swapped()
        if played is not None:
            assert played.position == mover_after
        # Only the mover's checkers moved, and the other side's only by a hit (to the bar).
        other_before = played_in.opponent
        other_after = mover_after.opponent
        moved = [point for point in range(1, 25) if other_before[point] != other_after[point]]
        assert all(other_after[point] < other_before[point] for point in moved)
        assert other_after[BAR] - other_before[BAR] == sum(other_before[p] - other_after[p] for p in moved)
    assert plays > 20


def test_every_play_event_carries_its_steps(client: TavliClient) -> None:
    game = states(client, "backgammon", seed=3)[-1]
    events = list(client.watch(game.name))
    plays = [response.event for response in events if response.event.kind == games_pb2.EVENT_KIND_PLAY]
    assert plays and all(event.steps or not event.notation for event in plays)
