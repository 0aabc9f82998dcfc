"""The game layer: a game is shown only as stored, a lost race leaves no trace, request ids are
bound to their requests, secrets are derived rather than stored, a damaged game harms no other."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from collections.abc import Callable, Coroutine
from typing import Any, ClassVar, TypeVar

import pytest

from tavli.engine.game import ActionError, Phase
from tavli.engine.rules import RuleSet
from tavli.server.errors import GameDataLost, RequestIdReused, SeededDiceDisabled, StaleEtag, StoreUnavailable
from tavli.server.keys import ServerKey
from tavli.server.store import Append, MemoryStore
from tavli.server.tables import GameView, Request, Tables, rules_from_dict, rules_to_dict

T = TypeVar("T")
MONEY = RuleSet()


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class FaultyStore(MemoryStore):
    """A memory store whose next append runs ``before_append`` first (another process's write,
    or a full disk)."""

    waits: ClassVar[bool] = True  # as a database shared with other processes: called on a thread
    before_append: Callable[[Append], None] | None = None
    loads: int = 0

    def append(self, append: Append) -> None:
        before, self.before_append = self.before_append, None
        if before is not None:
            before(append)
        super().append(append)

    def load(self, name: str, first: int = 0) -> Any:
        self.loads += 1
        return super().load(name, first)


def tables_over(store: MemoryStore, clock: Clock | None = None, **options: Any) -> Tables:
    return Tables(store, ServerKey(b"k" * 32), clock=clock or Clock(), **options)


def request(method: str, body: str = "") -> Request:
    return Request("id-1", method, body)


def test_a_write_that_loses_the_race_leaves_no_trace_and_the_action_is_decided_again() -> None:
    async def scenario() -> None:
        store = FaultyStore()
        tables = tables_over(store, allow_seeded_dice=True)
        created = await tables.create(MONEY, dice_mode="seeded", dice_seed="race", request=None)
        name, (token_0, token_1) = created.game.name, created.tokens
        opened = await tables.act(name, token_0, "", None, lambda match, seat: match.roll(seat))
        assert opened.state.game.phase in (Phase.PLAYING, Phase.ROLLING)

        # Another process's action lands between this one's decision and its write.
        other = tables_over(store, allow_seeded_dice=True)
        other_view = await other.get(name)
        plays = other_view.match.legal_plays()
        mover = other_view.state.game.turn
        mover_token = (token_0, token_1)[mover]
        assert len(plays) > 1, "the seeded roll should leave a choice of plays"

        def other_process_plays_first(append: Append) -> None:
            async def play() -> None:
                await other.act(name, mover_token, "", None, lambda match, seat: match.play(seat, plays[-1]))

            asyncio.run(play())

        store.before_append = other_process_plays_first
        seen_before = (await tables.get(name)).version
        # The same play again: decided first on the old state, then, after the lost race, on
        # the state the other process left, where it is not this seat's turn.
        with pytest.raises(Exception) as refused:
            await tables.act(name, mover_token, "", None, lambda match, seat: match.play(seat, plays[0]))
        assert getattr(refused.value, "reason", None) in ("NOT_YOUR_TURN", "WRONG_PHASE")
        view = await tables.get(name)
        assert view.version == store.event_count(name) > seen_before
        assert [event.to_dict() for event in view.events] == store.events[name]

    run(scenario())


class ThreadNotingStore(FaultyStore):
    """Notes the thread of each write and of each request_id looked up."""

    threads: list[int]

    def append(self, append: Append) -> None:
        self.threads.append(threading.get_ident())
        super().append(append)

    def request(self, scope: str, request_id: str, not_before: float) -> Any:
        self.threads.append(threading.get_ident())
        return super().request(scope, request_id, not_before)


@pytest.mark.parametrize("waits", [False, True], ids=["in memory", "on a database"])
def test_a_store_that_waits_is_called_on_a_thread_and_one_in_memory_on_the_event_loop(waits: bool) -> None:
    async def scenario() -> None:
        store = ThreadNotingStore()
        store.threads = []
        store.waits = waits  # type: ignore[misc]
        tables = tables_over(store)
        created = await tables.create(MONEY, dice_mode="system", dice_seed="", request=None)
        await tables.act(created.game.name, created.tokens[0], "", request("RollDice"), roll)
        loop_thread = threading.get_ident()
        assert len(store.threads) == 2  # the request_id looked up, the action written
        assert all((thread != loop_thread) == waits for thread in store.threads)

    run(scenario())


def roll(match: Any, seat: int) -> object:
    return match.roll(seat)


def test_a_write_the_store_refuses_changes_nothing_anyone_sees() -> None:
    async def scenario() -> None:
        store = FaultyStore()
        tables = tables_over(store)
        created = await tables.create(MONEY, dice_mode="system", dice_seed="", request=None)
        name, token = created.game.name, created.tokens[0]
        before = await tables.get(name)

        def disk_full(append: Append) -> None:
            raise StoreUnavailable("the game store cannot be used now (database or disk is full)")

        store.before_append = disk_full
        with pytest.raises(StoreUnavailable):
            await tables.act(name, token, "", None, lambda match, seat: match.roll(seat))
        after = await tables.get(name)
        assert after is before and after.state.game.dice is None
        # And the next try, with room on the disk again, goes through.
        rolled = await tables.act(name, token, "", None, lambda match, seat: match.roll(seat))
        assert rolled.version > before.version

    run(scenario())


def test_a_request_id_answers_its_own_request_again_and_refuses_any_other() -> None:
    async def scenario() -> None:
        clock = Clock()
        store = MemoryStore()
        tables = tables_over(store, clock)
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=request("CreateGame", "a")
        )
        again = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=request("CreateGame", "a")
        )
        assert again.game.name == created.game.name and again.tokens == created.tokens
        with pytest.raises(RequestIdReused):
            await tables.create(MONEY, dice_mode="system", dice_seed="", request=request("CreateGame", "b"))

        name, (token_0, token_1) = created.game.name, created.tokens
        roll = request("RollDice")
        first = await tables.act(name, token_0, "", roll, lambda match, seat: match.roll(seat))
        retried = await tables.act(name, token_0, "", roll, lambda match, seat: match.roll(seat))
        assert retried.version == first.version and retried.state == first.state
        # The same id for another method, or by the other seat: refused, and nothing is done.
        with pytest.raises(RequestIdReused, match="RollDice by seat 0"):
            await tables.act(
                name, token_0, "", request("OfferDouble"), lambda match, seat: match.double(seat)
            )
        with pytest.raises(RequestIdReused):
            await tables.act(name, token_1, "", roll, lambda match, seat: match.roll(seat))
        assert (await tables.get(name)).version == first.version

        # A retry after the game moved on gets the first answer, rebuilt from the log.
        mover = first.state.game.turn
        play = first.match.legal_plays()[0]
        await tables.act(
            name, (token_0, token_1)[mover], "", None, lambda match, seat: match.play(seat, play)
        )
        late = await tables.act(name, token_0, "", roll, lambda match, seat: match.roll(seat))
        assert late.version == first.version and late.state == first.state

        # Past the retention window the id is free again: judged by the rules, not as reused.
        clock.now += tables.request_retention + 1
        with pytest.raises(ActionError):
            await tables.act(name, token_1, "", roll, lambda match, seat: match.take(seat))

    run(scenario())


def test_stored_request_ids_past_their_window_are_forgotten() -> None:
    async def scenario() -> None:
        clock = Clock()
        store = MemoryStore()
        tables = tables_over(store, clock, request_retention=3600.0)
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=Request("old", "CreateGame", "")
        )
        assert ("", "old") in store.requests
        clock.now += 3600 + 120
        await tables.act(created.game.name, created.tokens[0], "", None, lambda match, seat: match.roll(seat))
        assert ("", "old") not in store.requests

    run(scenario())


def test_seat_tokens_and_unrevealed_seeds_are_not_stored() -> None:
    async def scenario() -> None:
        store = MemoryStore()
        key = ServerKey(b"s" * 32)
        tables = Tables(store, key, clock=Clock())
        created = await tables.create(
            MONEY, dice_mode="verifiable", dice_seed="", request=Request("create", "CreateGame", "")
        )
        name = created.game.name
        await tables.act(name, created.tokens[0], "", None, lambda match, seat: match.roll(seat))
        seed = key.dice_seed(name, 1)
        assert created.game.match.dice_commitment and created.game.match.seed_in_play == seed
        stored = json.dumps(
            [
                dataclasses.asdict(store.records[name]),
                store.events[name],
                [dataclasses.asdict(r) for r in store.requests.values()],
            ]
        ) + repr(store.summaries)
        for secret in (*created.tokens, seed.hex()):
            assert secret not in stored
        # A server restarted on the same store and key goes on with the same dice.
        again = Tables(store, key, clock=Clock())
        assert (await again.get(name)).match.seed_in_play == seed

    run(scenario())


def test_seeded_dice_only_where_the_server_allows_them() -> None:
    async def scenario() -> None:
        with pytest.raises(SeededDiceDisabled, match="--allow-seeded-dice"):
            await tables_over(MemoryStore()).create(MONEY, dice_mode="seeded", dice_seed="x", request=None)
        allowed = await tables_over(MemoryStore(), allow_seeded_dice=True).create(
            MONEY, dice_mode="seeded", dice_seed="x", request=None
        )
        assert allowed.game.dice_mode == "seeded"

    run(scenario())


def test_a_game_whose_log_does_not_replay_is_lost_alone() -> None:
    async def scenario() -> None:
        store = FaultyStore()
        tables = tables_over(store)
        games = [await tables.create(MONEY, dice_mode="system", dice_seed="", request=None) for _ in range(3)]
        for created in games:
            await tables.act(
                created.game.name, created.tokens[0], "", None, lambda match, seat: match.roll(seat)
            )
        damaged = games[1].game.name
        store.events[damaged].append({"type": "took", "side": 0})  # a take with no double: not allowed
        fresh = tables_over(store)  # a server that has not read the games yet
        with pytest.raises(GameDataLost, match=damaged):
            await fresh.get(damaged)
        assert (await fresh.get(games[0].game.name)).version == store.event_count(games[0].game.name)
        loads = store.loads
        listed = await fresh.listing(10, None)
        assert {entry.record.name for entry in listed} == {created.game.name for created in games}
        assert store.loads == loads  # a listing replays no game

    run(scenario())


def test_a_stale_etag_is_refused_and_changes_nothing() -> None:
    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(MONEY, dice_mode="system", dice_seed="", request=None)
        view: GameView = created.game
        await tables.act(view.name, created.tokens[0], view.etag, None, lambda match, seat: match.roll(seat))
        with pytest.raises(StaleEtag):
            await tables.act(
                view.name, created.tokens[1], view.etag, None, lambda match, seat: match.roll(seat)
            )

    run(scenario())


def test_a_rule_set_is_stored_as_before_unless_it_scores_backgammons_as_gammons() -> None:
    counted = rules_to_dict(RuleSet(match_length=5))
    assert "backgammons" not in counted  # a server from before the option reads it
    assert rules_from_dict(json.loads(json.dumps(counted))) == RuleSet(match_length=5)
    as_gammon = RuleSet(match_length=5, backgammons="AS_GAMMON")
    stored = json.loads(json.dumps(rules_to_dict(as_gammon)))
    assert stored["backgammons"] == "AS_GAMMON"
    assert rules_from_dict(stored) == as_gammon


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(match_length=5, start="NACKGAMMON"),
        RuleSet(start="HYPERGAMMON_1"),
        RuleSet(match_length=5, home_hit_and_run="FORBIDDEN", match_openings="ALTERNATE"),
    ],
)
def test_a_rule_set_stores_its_start_and_hit_and_run_rule_only_where_not_the_default(rules: RuleSet) -> None:
    assert not {"start", "home_hit_and_run"} & rules_to_dict(RuleSet(match_length=5)).keys()
    stored = json.loads(json.dumps(rules_to_dict(rules)))
    assert rules_from_dict(stored) == rules
    assert ("start" in stored) == (rules.start != "STANDARD")
    assert ("home_hit_and_run" in stored) == (rules.home_hit_and_run != "ALLOWED")


def test_fevgas_options_are_stored_only_where_they_depart_from_the_rule_book() -> None:
    default = rules_to_dict(RuleSet(variant="fevga", match_length=3))
    assert not {"first_checker", "fevga_primes", "fevga_quarter_test"} & set(default)
    assert rules_from_dict(json.loads(json.dumps(default))) == RuleSet(variant="fevga", match_length=3)
    step = RuleSet(variant="fevga", match_length=3, fevga_quarter_test="STEP")
    stored = json.loads(json.dumps(rules_to_dict(step)))
    assert stored["fevga_quarter_test"] == "STEP"
    assert rules_from_dict(stored) == step and rules_from_dict(stored).rules is step.rules
