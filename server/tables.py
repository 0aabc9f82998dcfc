"""The games being played, each at a table: the game layer between the service and the store.

An action is decided on a copy of the game as last stored (:meth:`Match.fork`); it becomes the
game's state, visible to readers, watchers and the actions waiting behind it, only once its
write has committed. A write that loses a race (another process extended the log first) leaves
no trace: the table is read again from the store and the action decided again on what is
there, as if it had come second. :class:`Tables` returns :class:`~tavli.server.game_views.GameView`
values, each of which builds its messages once (the stored summary is the first of them), and
its watchers share the game's :class:`~tavli.server.watch_feed.Feed`.

Seat tokens and the seeds of verifiable dice are derived from the server's key, never stored.
A request_id is bound to the request it came with (its method, seat and body): a retry gets the
first answer again (rebuilt from the stored log), anything else with the same id is refused.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, TypeVar, cast

import structlog

from tavli.engine.clock import ClockRules
from tavli.engine.dice import SeededDice
from tavli.engine.events import DiceCommitted, Event, Side, event_from_dict
from tavli.engine.game import ActionError
from tavli.engine.match import Match
from tavli.engine.rules import MOVE_OPTION_DEFAULTS, RuleSet, default_backgammons
from tavli.server.errors import (
    BadRequest,
    GameDataLost,
    GameNotFound,
    GameTooLong,
    RecordTooLong,
    RequestIdReused,
    SeededDiceDisabled,
    ShuttingDown,
    StaleEtag,
    StoreUnavailable,
    WrongSeatToken,
)
from tavli.server.game_views import DiceMode, GameView
from tavli.server.keys import ServerKey, same_token
from tavli.server.limits import MOST_GAME_EVENTS
from tavli.server.log_text import log_as_text, log_of_text, stored_as_text
from tavli.server.players import NOBODY, Players
from tavli.server.snapshots import NOTHING_PLAYED, Played, snapshot_to_keep, start_in_play, start_of
from tavli.server.store import (
    Append,
    GameRecord,
    RequestIdTaken,
    RequestRecord,
    Snapshot,
    Store,
    StoreConflict,
    tail_start,
)
from tavli.server.watch_feed import Feed, beginning
from tavli.v1 import games_service_pb2 as pb

Action = Callable[[Match, Side], object]
Fold = Callable[[dict[str, Any], list[str]], Awaitable[Snapshot | None]]
"""Where a stored game's game in play starts, given its rules as stored and its log as text."""
T = TypeVar("T")
log = structlog.get_logger("tavli.server")

# Lost races an action is decided again after before it gives up with ABORTED.
_ATTEMPTS = 5
# The longest log folded whole on a thread; a longer one is folded in a process of its own.
FOLDED_ON_A_THREAD = 2_000
# How often stored request_ids past their retention are forgotten.
_FORGET_EVERY_SECONDS = 60.0


@dataclass(frozen=True)
class Request:
    """A request made with a request_id: which method, and a hash of its body."""

    request_id: str
    method: str
    body_hash: str


@dataclass(frozen=True)
class Created:
    """A new game and its seats' tokens."""

    game: GameView
    tokens: tuple[str, str]


@dataclass(frozen=True)
class Summary:
    """A listed game: its record and the summary stored with its last action."""

    record: GameRecord
    summary: bytes


class Table:
    """One game in memory: its last stored version, the lock its actions take, a signal that
    wakes its watchers when a new version is stored, and what they are sent."""

    def __init__(self, view: GameView, record: GameRecord) -> None:
        self.view = view
        self.record = record
        self.lock = asyncio.Lock()
        self.feed = Feed()
        self.checked = time.monotonic()  # when the store was last asked whether it moved on
        self.seat_tokens: tuple[str, str] | None = None  # derived from the server's key when first needed
        self._changed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def publish(self, view: GameView) -> None:
        """Show ``view``, a stored version of the game, to everyone from now on."""
        if view.version <= self.view.version and self.view is not view:
            return
        self.view = view
        self.feed.follow(view)
        self.wake()

    def wake(self) -> None:
        changed, self._changed = self._changed, asyncio.get_running_loop().create_future()
        changed.set_result(None)

    async def wait(self, timeout: float, *, until: asyncio.Future[Any] | None = None) -> None:
        """Until a new version is published, ``timeout`` seconds pass or ``until`` is done.

        Neither the signal (shared by every waiter) nor ``until`` (its owner's) is cancelled: the
        waiter only listens to them, through a future of its own (what ``asyncio.wait`` does, with
        none of the sets it builds, twice an action on a seat stream)."""
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def wake(_: object = None) -> None:
            if not woken.done():
                woken.set_result(None)

        signals = (self._changed,) if until is None else (self._changed, until)
        for signal in signals:
            signal.add_done_callback(wake)
        timer = loop.call_later(timeout, wake)
        try:
            await woken
        finally:
            timer.cancel()
            for signal in signals:
                signal.remove_done_callback(wake)


class Tables:
    """Every game the server keeps, the most recently used of them in memory.

    Every method runs on the server's event loop; a store that waits on a database is called, and
    a game in play is folded, in worker threads (an in-memory store is called on the loop itself);
    a long log that no snapshot shortens is folded whole by :attr:`fold`, in the heavy work's
    processes, and only its game in play here.
    """

    def __init__(
        self,
        store: Store,
        key: ServerKey,
        *,
        capacity: int = 10_000,
        events_in_memory: int = 2_000_000,
        shared: bool = False,
        allow_seeded_dice: bool = False,
        request_retention: float = 24 * 3600.0,
        on_over: Callable[[str], None] = lambda name: None,
        on_deadline: Callable[[float], None] = lambda deadline: None,
        clock: Callable[[], float] = time.time,
        most_events: int = MOST_GAME_EVENTS,
        fold: Fold | None = None,
    ) -> None:
        """``on_over`` hears the name of each game whose match an action of this process ended, and
        ``on_deadline`` each deadline of a running clock it stored (the timer's wake-up call).
        ``clock`` tells the time: of each action, and of the clocks of games that have them.
        ``shared``: other processes act on the same store, so every read first checks that no
        other process has extended the game's log (and reads it again if one has).
        ``most_events``: the most events a game's log may hold, imported or played.
        ``fold`` finds where the game in play of a long log that no snapshot shortens starts
        (:func:`game_in_play_start`, in the heavy work's processes); by default on a thread.
        ``capacity`` and ``events_in_memory``: the most games kept in memory, and the most events
        of them all together (a long imported session holds tens of thousands): the least
        recently used are let go of, counted when a game is loaded, created or imported."""
        self.store = store
        self.key = key
        self.capacity = capacity
        self.events_in_memory = events_in_memory
        self.shared = shared
        self.allow_seeded_dice = allow_seeded_dice
        self.request_retention = request_retention
        self.on_over = on_over
        self.on_deadline = on_deadline
        self.clock = clock
        self.most_events = most_events
        self.fold = fold or _fold_on_a_thread
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._closing = False
        self._commits: set[asyncio.Future[bool]] = set()
        self._requests_forgotten = clock()

    # --- creating and finding ------------------------------------------------------------

    async def create(
        self,
        rules: RuleSet,
        *,
        dice_mode: DiceMode,
        dice_seed: str,
        request: Request | None,
        admit: Callable[[str], None] = lambda name: None,
        played: Played = NOTHING_PLAYED,
        players: Players = NOBODY,
        hints_allowed: bool = False,
        name: str | None = None,
    ) -> Created:
        """Create a game, or answer again the create first made with ``request``'s id.

        ``name`` is the new game's name when it was chosen before (a rematch's), else a new one.

        ``players`` says who sits at each seat (names to show, kept with the game), and
        ``hints_allowed`` whether they may ask for hints (kept with it too).

        ``played`` is the log of a match played elsewhere (an imported record, folded by
        :func:`~tavli.server.snapshots.played_log`) that the game goes on from: it is stored with
        the game, in the same write, only its game in play is folded here, and the game's dice
        come from ``dice_mode`` after it. ``admit(name)`` is called before a new game is stored, and
        may refuse it by raising; a game whose match ``played`` ends is over at once.

        :raises SeededDiceDisabled: for seeded dice on a server that does not allow them.
        :raises BadRequest: for a seeded game without a seed.
        :raises RecordTooLong: if ``played`` holds more events than a game may.
        :raises RequestIdReused: if the id came first with another request.
        """
        if dice_mode == "seeded":
            if not self.allow_seeded_dice:
                raise SeededDiceDisabled(
                    "seeded dice are off on this server: whoever knows the seed knows every die"
                    " (a test rig or arena starts the server with --allow-seeded-dice)"
                )
            if not dice_seed:
                raise BadRequest("seeded dice need a dice_seed")
        if len(played.events) > self.most_events:
            raise RecordTooLong(
                f"the record holds {len(played.events):,} events,"
                f" more than a game may hold ({self.most_events:,}); split the session into shorter records"
            )
        if request is not None:
            earlier = await self._earlier("", request, -1)
            if earlier is not None:
                return await self._created_again(earlier)
        name = name or new_game_name()
        now = self.clock()
        seed = dice_seed if dice_mode == "seeded" else ""
        if played.events:  # its log read and its game in play folded: off the event loop
            match, log_written = await asyncio.to_thread(
                self._new_match, name, rules, dice_mode, dice_seed, played
            )
        else:
            match, log_written = self._new_match(name, rules, dice_mode, dice_seed, played)
        record = GameRecord(
            name,
            rules_to_dict(rules),
            dice_mode,
            seed,
            now,
            now,
            players=players,
            hints_allowed=hints_allowed,
            snapshot=played.snapshot,
        )
        view = GameView(name, rules, dice_mode, match, now, now, players, hints_allowed)
        stored = None if request is None else self._request_record("", request, -1, view)
        admit(name)
        try:
            # A verifiable game's first event, the commitment to its seed, is stored with the game.
            # An imported record's log is written on a thread whatever the store: its many events
            # cost more than the hand-off.
            write = lambda: self.store.create(record, log_written, view.summary, stored, match.deadline)
            await (asyncio.to_thread(write) if played.events else self._in_store(write))
        except RequestIdTaken:
            assert request is not None
            self.on_over(name)  # never made: it counts as a live game nowhere
            earlier = await self._earlier("", request, -1)
            if earlier is None:
                raise StaleEtag("another create with this request_id came first; send it again") from None
            return await self._created_again(earlier)
        except BaseException:
            self.on_over(name)
            raise
        self._remember(Table(view, record))
        if view.state.over:
            self.on_over(name)
        if match.deadline is not None:
            self.on_deadline(match.deadline)
        return Created(view, self._tokens(name))

    async def rematch(self, view: GameView, *, admit: Callable[[str], None]) -> Created:
        """The game that ``view``'s accepted rematch is played as, with both seats' tokens:
        created the first time it is asked for, with the finished game's rules, dice mode,
        players and hints, so that however often and by whichever seat it is asked for it is one game.

        :raises GameNotFound: if ``view`` has no accepted rematch.
        :raises StoreUnavailable: if the store cannot take the new game.
        """
        rematch = view.state.rematch
        if rematch is None or rematch.game is None:
            raise GameNotFound("this game has no rematch yet")
        table = await self._table(view.name)
        async with table.lock:  # one creation at a time for this game's rematch
            try:
                return Created(await self.get(rematch.game), self._tokens(rematch.game))
            except GameNotFound:
                pass
            seed = f"{table.record.dice_seed}/rematch" if view.dice_mode == "seeded" else ""
            try:
                return await self.create(
                    view.rules,
                    dice_mode=view.dice_mode,
                    dice_seed=seed,
                    request=None,
                    admit=admit,
                    players=view.players,
                    hints_allowed=view.hints_allowed,
                    name=rematch.game,
                )
            except StoreUnavailable as unavailable:
                # Another process may have made it meanwhile: then it is that one.
                try:
                    return Created(await self.get(rematch.game), self._tokens(rematch.game))
                except GameNotFound:
                    raise unavailable from None

    def _new_match(
        self, name: str, rules: RuleSet, dice_mode: DiceMode, dice_seed: str, played: Played
    ) -> tuple[Match, list[str]]:
        """The match of a new game, and its log to store (each event as its JSON text): at its
        start, or going on from ``played`` with the game's own dice. Of ``played``'s log only its
        game in play is read and folded, from the snapshot of its start; the events before it are
        stored as they came, unread, as a cold load leaves them. With verifiable dice, the game in
        play after ``played`` is committed to a seed (its throws from then on come from it)."""
        dice = SeededDice(dice_seed) if dice_mode == "seeded" else None
        verifiable = dice_mode == "verifiable"
        seeds = self._seeds(name)
        if not played.events:
            match = Match(rules, dice=dice, verifiable=verifiable, seeds=seeds, now=self.clock)
            return match, log_as_text(match.events)
        first = tail_start(played.snapshot)
        tail = [json.loads(event) for event in played.events[first:]]
        start = start_of(name, rules, played.snapshot, [{}] * first + tail)
        if start is None and first:  # the snapshot does not stand: the whole log is read and folded
            first, tail = 0, [json.loads(event) for event in played.events]
        begin = 0 if start is None else start[0]
        events = [_NOT_READ] * begin + [event_from_dict(event) for event in tail[begin - first :]]
        match = Match.replay(
            rules, events, dice=dice, verifiable=verifiable, seeds=seeds, now=self.clock, start=start
        )
        if not verifiable or match.state.over:
            return match, played.events
        number, first_throw = match.state.game.number, match.state.throws
        commitment = DiceCommitted(number, SeededDice(seeds(number)).commitment, first_throw)
        match = Match.replay(
            rules,
            [*events, commitment],
            dice=dice,
            verifiable=verifiable,
            seeds=seeds,
            now=self.clock,
            start=start,
        )
        return match, [*played.events, *log_as_text([commitment])]

    async def get(self, name: str) -> GameView:
        """The game ``name`` as last stored.

        :raises GameNotFound: if there is no such game.
        :raises GameDataLost: if its stored log no longer replays.
        """
        return (await self._table(name)).view

    async def _in_store(self, call: Callable[[], T]) -> T:
        """``call``'s answer, for a call that reads or writes the store: on a thread when the store
        waits on a database, on the event loop itself when it does not (a thread's hand-off would
        cost more than the call)."""
        return await asyncio.to_thread(call) if self.store.waits else call()

    async def listing(self, page_size: int, after: tuple[float, str] | None) -> list[Summary]:
        """A page of games, newest first, after the cursor ``(created, name)``, read from the
        summaries stored with each game's last action (no game is replayed for a listing)."""
        rows = await self._in_store(lambda: self.store.listing(page_size, after))
        return [Summary(record, summary or await self._summary_of(record)) for record, summary in rows]

    # --- acting ----------------------------------------------------------------------------

    async def act(
        self, name: str, token: str, etag: str, request: Request | None, action: Action
    ) -> GameView:
        """Make ``action`` for the seat ``token`` holds; returns the game as stored after it.

        :raises GameNotFound, WrongSeatToken, StaleEtag, RequestIdReused: as their names say.
        :raises ActionError: if the rules forbid the action now; nothing changes then.
        :raises GameTooLong: if the action would take the game past the events a game may hold.
        :raises StoreUnavailable: if the store cannot take the write; nothing changes then.
        """
        table = await self._table(name)
        seat = self._seat_of(table, token)
        async with table.lock:
            for _ in range(_ATTEMPTS):
                if request is not None:
                    earlier = await self._earlier(name, request, seat)
                    if earlier is not None:
                        return await self._view_at(table, earlier.version, earlier.updated)
                view = table.view
                if etag and etag != view.etag:
                    raise StaleEtag(f"the game has moved on since etag {etag}; it is now at {view.etag}")
                decided = view.match.fork()
                try:
                    action(decided, seat)
                except ActionError as error:
                    if error.reason == "OUT_OF_TIME":  # too late: the time loss is stored first
                        await self._expire(table)
                    raise
                if decided.version > self.most_events:
                    raise GameTooLong(
                        f"this game holds {view.version:,} events, and a game may hold at most"
                        f" {self.most_events:,}; start a new game to play on"
                    )
                after = replace(view, match=decided, updated=self.clock())
                stored = None if request is None else self._request_record(name, request, seat, after)
                if await self._write(table, view, after, stored):
                    await self._forget_old_requests()
                    return after
                await self._reload(table)
        raise StaleEtag("other actions on this game kept coming first; read it again")

    async def expire(self, name: str) -> GameView | None:
        """Record that the running clock of game ``name`` ran out, if it has; returns the game
        as stored after it, or None when no clock had run out (or another process recorded it).

        :raises GameNotFound, GameDataLost, StoreUnavailable: as their names say.
        """
        table = await self._table(name)
        async with table.lock:
            return await self._expire(table)

    async def _expire(self, table: Table) -> GameView | None:
        """:meth:`expire` for a caller that holds the table's lock."""
        for _ in range(_ATTEMPTS):
            view = table.view
            decided = view.match.fork()
            now = self.clock()
            expired = decided.expire(now)
            if not expired:
                return None
            after = replace(view, match=decided, updated=now)
            if await self._write(table, view, after, None):
                ran_out = expired[0]
                late = round(now - (ran_out.at or now), 3)  # how long after the deadline it was noticed
                log.info(
                    "time ran out", game=view.name, seat=getattr(ran_out, "side", None), late_seconds=late
                )
                return after
            await self._reload(table)  # another process wrote first: decided again on what it wrote
        return None

    async def _write(
        self, table: Table, view: GameView, after: GameView, request: RequestRecord | None
    ) -> bool:
        """Store ``after``, decided on ``view``, and publish it; False if the write lost a race."""
        deadline = after.match.deadline
        append = Append(
            name=view.name,
            first_sequence=view.version,
            events=[event.to_dict() for event in after.events[view.version :]],
            updated=after.updated,
            summary=after.summary,
            request=request,
            deadline=deadline,
            snapshot=snapshot_to_keep(after.match, view.version),
        )
        if self.store.waits:
            # Shielded: a caller that goes away mid-write does not leave memory behind the store.
            commit = asyncio.ensure_future(self._commit(table, append, after))
            self._commits.add(commit)
            commit.add_done_callback(self._commits.discard)
            stored = await asyncio.shield(commit)
        else:  # a write that does not wait is made and published before anyone else runs
            stored = await self._commit(table, append, after)
        if not stored:
            return False
        if deadline is not None:
            self.on_deadline(deadline)
        return True

    async def _commit(self, table: Table, append: Append, after: GameView) -> bool:
        """Write ``append``; publish ``after`` once it is stored. False if the write lost a race."""
        try:
            await self._in_store(lambda: self.store.append(append))
        except StoreConflict:
            return False
        table.publish(after)
        if after.state.over:
            self.on_over(after.name)
        return True

    # --- watching ----------------------------------------------------------------------------

    async def watch(
        self,
        name: str,
        from_sequence: int,
        *,
        poll: float = 0.5,
        pay: Callable[[float], Awaitable[None]] | None = None,
    ) -> AsyncIterator[pb.WatchGameResponse]:
        """Every stored event from ``from_sequence`` on, with the game just after it, then the
        live ones as they are stored; ends after the event that ends the match. The messages
        are the game's feed's, shared by its watchers: never changed. The first is whole; each
        later one's Game carries only the finished games its event finished. Each message
        folded for this watcher alone (one before the feed's first) is paid for before it is
        sent: ``pay`` is awaited with the CPU seconds it took.

        :raises ShuttingDown: when the server stops while the watch is open.
        """
        table = await self._table(name)
        sequence = from_sequence
        first = True
        while not self._closing:
            view = table.view
            if sequence >= view.version:
                if view.state.over:
                    return
                await table.wait(poll)
                if self._tables.get(name) is not table:
                    table = await self._table(name)  # let go of meanwhile: follow the one in use
                elif self.shared:
                    await self._refresh(table, unless_within=poll / 2)  # another process may act
                continue
            if _unread(view.events) and sequence < max(view.match.game_started[0], table.feed.first):
                await self._read_history(table)  # a fold from the log's first event
                continue
            if not table.feed.started:  # where it starts may take a fold of most of the log
                table.feed.begin(await asyncio.to_thread(beginning, view, sequence))
                continue
            messages = table.feed.since(sequence, view)
            alone = sequence < table.feed.first
            # Its first message folds the log up to it from the first event: on a thread.
            folding = alone
            while True:
                if folding:
                    message, spent = await asyncio.to_thread(_next_timed, messages)
                    folding = False
                else:
                    message, spent = _next_timed(messages)
                if alone and pay is not None:
                    await pay(spent)
                if message is None:
                    break
                if first and message.game.omitted_finished_game_count:
                    message = pb.WatchGameResponse(event=message.event, game=view.whole(message.game))
                first = False
                yield message
                sequence += 1
        raise ShuttingDown("the server is shutting down; watch again from the next event number")

    async def history(self, name: str) -> GameView:
        """The game ``name`` as last stored, with every event of its log at hand: a cold load
        reads only the events after the game's snapshot, and those before it are read the first
        time they are asked for (a page of events, an export, a watch from before the game in play).

        :raises GameNotFound, GameDataLost: as :meth:`get`.
        """
        table = await self._table(name)
        await self._read_history(table)
        return table.view

    async def _read_history(self, table: Table) -> None:
        unread = _unread(table.view.events)
        if not unread:
            return
        name = table.view.name

        def read_head() -> list[Event] | None:
            loaded = self.store.load(name)
            return None if loaded is None else [event_from_dict(event) for event in loaded[1][:unread]]

        # Reading and decoding a long log (66,052 events: over a second) off the event loop.
        head = await asyncio.to_thread(read_head)
        if head is None:
            raise GameNotFound(f"there is no game {name!r}")
        events = table.view.events
        if _unread(events) == unread:  # the log read before the snapshot is the same for every version
            events[:unread] = head

    async def seat(self, name: str, token: str) -> Side:
        """The seat of game ``name`` that ``token`` holds.

        :raises GameNotFound, WrongSeatToken, GameDataLost: as their names say.
        """
        return self._seat_of(await self._table(name), token)

    async def next_view(
        self, name: str, version: int, *, until: asyncio.Future[Any], poll: float = 0.5
    ) -> GameView | None:
        """The game ``name`` as last stored, once that is another version than ``version``: at
        once if it is already, else when the next one is stored (what a seat stream sends);
        None if ``until`` is done first.

        :raises GameNotFound, GameDataLost: as :meth:`get`.
        :raises ShuttingDown: when the server stops while it waits.
        """
        table = await self._table(name)
        while not self._closing:
            if table.view.version != version:
                return table.view
            if until.done():
                return None
            await table.wait(poll, until=until)
            if self._tables.get(name) is not table:
                table = await self._table(name)  # let go of meanwhile: follow the one in use
            elif self.shared:
                await self._refresh(table, unless_within=poll / 2)  # another process may act
        raise ShuttingDown("the server is shutting down; join the seat again to go on")

    # --- other processes' writes ------------------------------------------------------------

    def heard_of_write(self, name: str, event_count: int) -> None:
        """Another process (or this one) stored game ``name`` at ``event_count`` events: the
        watchers and seat streams of a game in memory that is behind are woken to read it again
        at once, rather than when they next poll (calls check the store themselves)."""
        table = self._tables.get(name)
        if table is None or table.view.version >= event_count:
            return
        table.checked = float("-inf")  # the next check goes to the store, however recent the last
        table.wake()

    async def drain(self) -> None:
        """Wait for the writes under way (of callers that went away) to finish."""
        if self._commits:
            await asyncio.wait(list(self._commits))

    def close_watches(self) -> None:
        """End every open watch and seat stream (the server is stopping)."""
        self._closing = True
        for table in self._tables.values():
            table.wake()

    # --- memory ------------------------------------------------------------------------------

    async def _table(self, name: str) -> Table:
        table = self._tables.get(name)
        if table is None:
            return await self._load(name)
        self._tables.move_to_end(name)
        if self.shared:  # each call sees every write answered before it, whoever wrote it
            await self._refresh(table)
        return table

    async def _refresh(self, table: Table, *, unless_within: float = 0.0) -> None:
        """Read the game again if another process has extended its log (checked at most once
        in ``unless_within`` seconds: the many watchers of one game share one check)."""
        now = time.monotonic()
        if now - table.checked < unless_within:
            return
        table.checked = now
        if await asyncio.to_thread(self.store.event_count, table.view.name) != table.view.version:
            await self._reload(table)

    async def _load(self, name: str) -> Table:
        """The table of game ``name``, read from the store: once, for all who ask meanwhile."""
        loading = self._loading.get(name)
        if loading is None:
            loading = self._loading[name] = asyncio.ensure_future(self._loaded(name))
            loading.add_done_callback(functools.partial(self._loaded_by_all, name))
        return await asyncio.shield(loading)

    def _loaded_by_all(self, name: str, loading: asyncio.Future[Table]) -> None:
        """Forget the load of ``name`` once it is done; its failure is retrieved here, for when
        every caller that waited on it went away first (a refusal, not a fault of the server)."""
        self._loading.pop(name, None)
        if not loading.cancelled():
            loading.exception()

    async def _loaded(self, name: str) -> Table:
        read = await self._read_latest(name)
        if read is None:
            raise GameNotFound(f"there is no game {name!r}")
        record, view = read
        existing = self._tables.get(name)  # loaded meanwhile by another call
        if existing is not None:
            existing.publish(view)
            return existing
        table = Table(view, record)
        self._remember(table)
        return table

    async def _reload(self, table: Table) -> None:
        """Take in what other processes have stored of the game since this one last read it."""
        try:
            view = await asyncio.to_thread(self._caught_up, table.view)
        except _CannotCatchUp:
            read = await self._read(table.view.name)
            view = None if read is None else read[1]
        if view is not None:
            table.publish(view)

    def _caught_up(self, view: GameView) -> GameView | None:
        """``view`` with the events stored after it applied: only those are read and folded (in a
        worker thread).

        :raises _CannotCatchUp: if they cannot be applied to it (the whole log is the judge).
        """
        loaded = self.store.load(view.name, view.version)
        if loaded is None:
            return None
        record, events = loaded
        match = view.match.fork()
        try:
            match.extend([event_from_dict(event) for event in events])
        except Exception:  # noqa: BLE001 - whatever they raise, the whole log is the judge
            raise _CannotCatchUp from None
        return replace(view, match=match, updated=record.updated).built()

    async def _read_latest(self, name: str) -> tuple[GameRecord, GameView] | None:
        """Game ``name`` read from the store for a cold load: its snapshot and the events after
        it, the events before left unread until asked for (:meth:`history`); the whole log if
        the snapshot does not stand, or if the game keeps none and its log is long (then folded
        as :meth:`_read` folds it). None if there is no game."""
        loaded = await asyncio.to_thread(self.store.load_latest, name)
        if loaded is None:
            return None
        record, first, tail = loaded
        if not first and len(tail) > FOLDED_ON_A_THREAD:
            return record, await self._folded(record, tail)
        try:
            return record, await asyncio.to_thread(self._replay, record, tail, first=first)
        except _SnapshotSetAside:
            return await self._read(name)

    async def _read(self, name: str, upto: int | None = None) -> tuple[GameRecord, GameView] | None:
        """Game ``name`` read from the store and replayed (up to event ``upto``), None if there
        is none (see :meth:`_folded`)."""
        loaded = await asyncio.to_thread(self.store.load, name)
        if loaded is None:
            return None
        record, events = loaded
        return record, await self._folded(record, events[:upto])

    async def _folded(self, record: GameRecord, log_read: list[dict[str, Any]]) -> GameView:
        """The game ``record`` and its whole ``log_read`` stand for: a long log is folded whole
        by :attr:`fold` (in the heavy work's processes) to find where its game in play starts,
        and only that game is folded here, on a thread.

        :raises GameDataLost: if the log does not replay.
        """
        start = None
        if len(log_read) > FOLDED_ON_A_THREAD:
            text = await asyncio.to_thread(stored_as_text, log_read)
            start = await self.fold(record.rules, text)
        # A start that does not stand (or none) has the log folded whole here: the log decides.
        return await asyncio.to_thread(self._replay, replace(record, snapshot=start), log_read)

    def _replay(
        self,
        record: GameRecord,
        stored_events: list[dict[str, Any]],
        upto: int | None = None,
        *,
        first: int = 0,
    ) -> GameView:
        """The game ``record`` and its ``stored_events`` (those from number ``first`` on) stand
        for, up to event ``upto``.

        :raises _SnapshotSetAside: if events before ``first`` are needed (the snapshot does not stand).
        :raises GameDataLost: if the log does not replay.
        """
        try:
            rules = rules_from_dict(record.rules)
            log_read = stored_events[: None if upto is None else upto - first]
            start = start_of(record.name, rules, record.snapshot, [{}] * first + log_read)
            if first and (start is None or start[0] < first):
                raise _SnapshotSetAside
            match = Match.replay(
                rules,
                [_NOT_READ] * first + [event_from_dict(event) for event in log_read],
                dice=SeededDice(record.dice_seed) if record.dice_mode == "seeded" else None,
                verifiable=record.dice_mode == "verifiable",
                seeds=None if record.legacy_seed else self._seeds(record.name),
                seed_in_play=bytes.fromhex(record.legacy_seed) if record.legacy_seed else None,
                now=self.clock,
                start=start,
            )
        except _SnapshotSetAside:
            raise
        except Exception as error:  # noqa: BLE001 - whatever a damaged log raises, the game is lost
            log.error(
                "stored game does not replay", game=record.name, error=f"{type(error).__name__}: {error}"
            )
            raise GameDataLost(
                f"game {record.name} cannot be served: its stored log does not replay; other games are not "
                "affected"
            ) from None
        return GameView(
            record.name,
            rules,
            record.dice_mode,  # type: ignore[arg-type]
            match,
            record.created,
            record.updated,
            record.players,
            record.hints_allowed,
        ).built()

    def _remember(self, table: Table) -> None:
        self._tables[table.view.name] = table
        events = sum(kept.view.version for kept in self._tables.values())
        while len(self._tables) > 1 and (len(self._tables) > self.capacity or events > self.events_in_memory):
            _, let_go = self._tables.popitem(last=False)
            events -= let_go.view.version

    def in_memory(self) -> int:
        return len(self._tables)

    # --- seats, secrets and request ids ------------------------------------------------------

    def _tokens(self, name: str) -> tuple[str, str]:
        return self.key.seat_token(name, 0), self.key.seat_token(name, 1)

    def _seeds(self, name: str) -> Callable[[int], bytes]:
        return lambda number: self.key.dice_seed(name, number)

    def _seat_of(self, table: Table, token: str) -> Side:
        record = table.record
        if table.seat_tokens is None:  # derived once a table, not at each action
            table.seat_tokens = self._tokens(record.name)
        seats: tuple[Side, Side] = (0, 1)
        for seat in seats:
            legacy = record.token_hashes[seat]
            if legacy:
                digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
                if hmac.compare_digest(digest, legacy):
                    return seat
            elif same_token(token, table.seat_tokens[seat]):
                return seat
        raise WrongSeatToken("that token holds no seat at this game")

    async def _earlier(self, scope: str, request: Request, seat: int) -> RequestRecord | None:
        """The request stored with ``request``'s id, if it is the same request.

        :raises RequestIdReused: if the id was stored with another method, seat or body.
        """
        not_before = self.clock() - self.request_retention
        earlier = await self._in_store(lambda: self.store.request(scope, request.request_id, not_before))
        if earlier is None:
            return None
        if (earlier.method, earlier.seat, earlier.body_hash) != (request.method, seat, request.body_hash):
            raise RequestIdReused(
                f"request_id {request.request_id!r} was already used for another request"
                f" ({earlier.method}{'' if earlier.seat < 0 else f' by seat {earlier.seat}'}); use a new id "
                "for a new request"
            )
        return earlier

    def _request_record(self, scope: str, request: Request, seat: int, after: GameView) -> RequestRecord:
        return RequestRecord(
            scope=scope,
            request_id=request.request_id,
            method=request.method,
            seat=seat,
            body_hash=request.body_hash,
            game=after.name,
            version=after.version,
            updated=after.updated,
            stored_at=self.clock(),
        )

    async def _created_again(self, earlier: RequestRecord) -> Created:
        table = await self._table(earlier.game)
        return Created(
            await self._view_at(table, earlier.version, earlier.updated), self._tokens(earlier.game)
        )

    async def _view_at(self, table: Table, version: int, updated: float) -> GameView:
        """The game as it was at ``version`` (a request's first answer)."""
        view = table.view
        if view.version == version:
            return view
        read = await self._read(view.name, version)
        if read is None:
            raise GameNotFound(f"there is no game {view.name!r}")
        return replace(read[1], updated=updated)

    async def _summary_of(self, record: GameRecord) -> bytes:
        # Games stored before summaries were: replayed once, for their listing.
        try:
            return (await self._table(record.name)).view.summary
        except GameDataLost:
            return b""

    async def _forget_old_requests(self) -> None:
        now = self.clock()
        if now - self._requests_forgotten < _FORGET_EVERY_SECONDS:
            return
        self._requests_forgotten = now
        try:
            await asyncio.to_thread(self.store.forget_requests, now - self.request_retention)
        except StoreUnavailable:
            pass  # tried again later; an expired id is refused by its age meanwhile


_NOT_READ = cast(Event, None)
"""In a log read from its snapshot on, each event before it until :meth:`Tables.history` reads them."""


class _SnapshotSetAside(Exception):
    """A snapshot read did not stand: the log is folded whole."""


class _CannotCatchUp(Exception):
    """Events stored by another process do not apply to the game as this one last read it."""


def _unread(events: list[Event]) -> int:
    """How many of a log's first events are not read yet (see :data:`_NOT_READ`)."""
    if not events or events[0] is not _NOT_READ:
        return 0
    return next((index for index, event in enumerate(events) if event is not _NOT_READ), len(events))


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    data = {field.name: getattr(rules, field.name) for field in fields(rules) if field.init}
    if rules.clock is None:
        del data["clock"]  # as games without clocks were always stored
    else:
        data["clock"] = asdict(rules.clock)
    if rules.backgammons == default_backgammons(rules.variant):
        del data["backgammons"]  # as games were stored before the option, for a server of then to read
    for name, default in MOVE_OPTION_DEFAULTS.items():
        if data[name] == default:
            del data[name]  # likewise: stored only where a rule set departs from the rule book
    return data


def rules_from_dict(data: dict[str, Any]) -> RuleSet:
    clock = data.get("clock")
    return RuleSet(**{**data, "clock": None if clock is None else ClockRules(**clock)})


def game_in_play_start(rules: dict[str, Any], log: Sequence[str]) -> Snapshot | None:
    """Where the game in play of a stored game starts, given its rules as stored and its whole
    ``log`` as text: the snapshot of that place, folded from the log's first event (long work:
    the heavy work's processes do it). None if that game is the first, or the log does not
    fold (the server's own fold then says why)."""
    try:
        return start_in_play(rules_from_dict(rules), log_of_text(log))
    except Exception:  # noqa: BLE001 - whatever a damaged log raises, the server's fold reports it
        return None


async def _fold_on_a_thread(rules: dict[str, Any], log: list[str]) -> Snapshot | None:
    return await asyncio.to_thread(game_in_play_start, rules, log)


def _next_timed(messages: Iterator[pb.WatchGameResponse]) -> tuple[pb.WatchGameResponse | None, float]:
    """The next of ``messages`` (None after the last), with the CPU seconds the calling thread
    took to make it."""
    started = time.thread_time()
    message = next(messages, None)
    return message, time.thread_time() - started


def new_game_name() -> str:
    """A fresh game's resource name, "games/{16 hex digits}"."""
    return f"games/{secrets.token_hex(8)}"
