"""What a game's watchers and a replica that is behind cost the server, in CPU a stored event.

    .venv/bin/python -m benchmarks.watchers [--events 100] [--rounds 2]

One game layer over a SQLite file plays ``--events`` actions of a money session (a roll, or the
first legal play of the roll) while 1, 100 or 1,000 watchers follow it; each watcher serializes
every message it is sent, as its stream would. The CPU the process spends (``time.process_time``)
is divided by the events stored. Against it, in the same run: what each watcher cost before its
game's messages were shared (a fold of every event through the rules and a Game message built for
each watcher: the same work done here for one watcher, measured alone), and a second game layer
over the same file (``shared``, as a replica is) serving the game again when it is behind by 1
and by 500 events, a stored event's CPU. Each figure is the least of ``--rounds``; printed as
ratios, all in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from tavli.engine.game import Phase, apply, new_match
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.game_views import GameView
from tavli.server.keys import ServerKey
from tavli.server.snapshots import played_log
from tavli.server.sqlite_store import SqliteStore
from tavli.server.store import Append
from tavli.server.tables import Tables
from tests.games import bot_match

MONEY = RuleSet()
WATCHERS = (1, 100, 1000)
BEHIND = 500


async def next_action(tables: Tables, view: GameView, tokens: tuple[str, str]) -> GameView:
    seat = view.state.game.turn
    if view.state.game.phase is Phase.PLAYING:
        play = view.match.legal_plays()[0]
        return await tables.act(
            view.name, tokens[seat], view.etag, None, lambda match, side: match.play(side, play)
        )
    return await tables.act(view.name, tokens[seat], view.etag, None, lambda match, side: match.roll(side))


async def watched_play(store: SqliteStore, watchers: int, events: int) -> tuple[float, list[GameView]]:
    """CPU seconds a stored event with ``watchers`` watching, and the versions stored."""
    tables = Tables(store, ServerKey(b"k" * 32))
    created = await tables.create(MONEY, dice_mode="system", dice_seed="", request=None)
    view, tokens = await next_action(tables, created.game, created.tokens), created.tokens
    start = view.version
    reached = 0  # the watchers that have the last event stored
    caught_up = asyncio.Event()
    target = start

    async def watch() -> None:
        nonlocal reached
        async for message in tables.watch(view.name, start):
            message.SerializeToString()  # what its stream does with it
            if message.event.sequence + 1 == target:
                reached += 1
                if reached == watchers:
                    caught_up.set()

    tasks = [asyncio.ensure_future(watch()) for _ in range(watchers)]
    versions = [view]
    started = time.process_time()
    while view.version - start < events:
        target, reached = view.version + 1, 0  # one event a version: each watcher is sent one message
        caught_up.clear()
        view = await next_action(tables, view, tokens)
        versions.append(view)
        assert view.version == target
        await caught_up.wait()
    spent = time.process_time() - started
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return spent / (view.version - start), versions


def one_watcher_before(versions: list[GameView]) -> float:
    """CPU seconds a stored event of what one watcher did before its messages were shared: a
    fold of each event through the rules and a Game message of its own."""
    last = versions[-1]
    start = versions[0].version
    state = new_match(MONEY)
    for event in last.events[:start]:
        state = apply(state, event)
    started = time.process_time()
    for sequence in range(start, last.version):
        event = last.events[sequence]
        state = apply(state, event)
        convert.serialized_game(
            last.name,
            last.rules,
            state,
            event_count=sequence + 1,
            dice_commitment="",
            dice_mode="system",
            created=last.created,
            updated=last.updated,
            players=last.players,
        )
        convert.event_message(sequence, event)
    return (time.process_time() - started) / (last.version - start)


async def behind_by(store: SqliteStore, count: int) -> float:
    """CPU seconds a stored event for a replica behind by ``count`` events to serve the game."""
    whole = bot_match(MONEY, seed=1, games=30, double=0.0)
    stored = len(whole.events) - BEHIND
    created = await Tables(store, ServerKey(b"k" * 32)).create(
        MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events[:stored])
    )
    name = created.game.name
    replica = Tables(store, ServerKey(b"k" * 32), shared=True)
    await replica.get(name)
    events = [event.to_dict() for event in whole.events[stored : stored + count]]
    store.append(Append(name, stored, events, updated=time.time(), summary=b""))
    started = time.process_time()
    assert (await replica.get(name)).version == stored + count
    return (time.process_time() - started) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "games.sqlite3")
        figures: dict[str, float] = {}
        before = float("inf")
        for watchers in WATCHERS:
            least = float("inf")
            for _ in range(options.rounds):
                spent, versions = asyncio.run(watched_play(store, watchers, options.events))
                least = min(least, spent)
                before = min(before, one_watcher_before(versions))
            figures[f"{watchers:,} watchers"] = least
        for count in (1, BEHIND):
            figures[f"a replica behind by {count}"] = min(
                asyncio.run(behind_by(store, count)) for _ in range(options.rounds)
            )
        store.close()
    one = figures["1 watchers"]
    print(f"CPU a stored event, {options.events} events a round, least of {options.rounds} rounds")
    print(f"  with 1 watcher: {one * 1e6:,.0f} us (the baseline)")
    for watchers in WATCHERS[1:]:
        spent = figures[f"{watchers:,} watchers"]
        each = (spent - one) / (watchers - 1)
        print(
            f"  with {watchers:,} watchers: {spent / one:6.2f} x the baseline;"
            f" each watcher more {each / one:.3f} x, {each / before:.3f} x what one cost before it shared"
        )
    print(f"  one watcher's own fold and message, as before: {before / one:.2f} x the baseline")
    one_behind, many_behind = figures["a replica behind by 1"], figures[f"a replica behind by {BEHIND}"]
    print(f"  a replica behind by 1, serving the game: {one_behind / one:.2f} x the baseline an event")
    print(
        f"  a replica behind by {BEHIND}: {many_behind / one:.2f} x the baseline an event;"
        f" {many_behind / one_behind:.2f} x behind by 1 an event,"
        f" {many_behind * BEHIND / one_behind:.0f} x in all"
    )


if __name__ == "__main__":
    main()
