"""Each account's events on their way to its streams (LadderService.StreamEvents).

An event is stored first (:mod:`tavli.server.ladder_records`, in the transaction of the change it
tells of), then the account's streams in this process are woken; a stream of another process or
replica is woken by the store's notification of the write (PostgreSQL's LISTEN/NOTIFY, as
watchers are), or at worst finds it at its next look (SQLite tells nobody: processes sharing the
file look every :data:`POLL_SECONDS`). A stream reads the account's log from the event after the
last one its client saw, so that it resumes with nothing lost and nothing repeated.

No secret is stored: a game's seat token is put into its GameStarted event as it is sent,
derived from the server's key, never kept in the log. An open stream is noted in the store every
:data:`HEARTBEAT_SECONDS` (the stream's row and the account's ``seen``), so that every process
knows who is there; a stream's row goes when it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator

from tavli.server.convert import timestamp
from tavli.server.errors import LimitReached, ShuttingDown, StoreUnavailable
from tavli.server.keys import ServerKey
from tavli.server.ladder_records import OnlineAccount, StoredEvent, Tell
from tavli.server.quotas import TOO_MANY_STREAMS
from tavli.server.sql_store import SqlStore
from tavli.v1 import games_service_pb2 as games_pb, ladder_service_pb2 as pb

POLL_SECONDS = 1.0
"""How often a stream looks at the store when nothing woke it."""

HEARTBEAT_SECONDS = 5.0
"""How often each account with a stream open here is noted as seen, by default."""

ONLINE_HEARTBEATS = 3
"""An account is online while one of its streams was seen within this many heartbeats (a
stream that closes is gone at once; one whose process was killed, after these)."""

STREAM_KEPT_HEARTBEATS = 100
"""A stream not seen for this many heartbeats is forgotten (its process is gone)."""

_PAGE = 100  # events read at once


class AccountEvents:
    """The events of every account, told and followed (see the module's words)."""

    def __init__(
        self,
        records: SqlStore,
        key: ServerKey,
        *,
        streams_per_account: int = 4,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.records = records
        self.key = key
        self.streams_per_account = streams_per_account
        self.heartbeat_seconds = heartbeat_seconds
        self.clock = clock
        self._signals: dict[str, asyncio.Future[None]] = {}
        self._open: Counter[str] = Counter()
        self._streams: dict[str, str] = {}  # each stream open here, by name, to its account's handle
        self._closing = False

    async def tell(self, tells: Iterable[Tell]) -> None:
        """Store each event in its account's log (in one transaction), then wake its streams."""
        tells = list(tells)
        await asyncio.to_thread(self.records.tell, tells, self.clock())
        self.told(handle for handle, _ in tells)

    def told(self, handles: Iterable[str]) -> None:
        """Wake the streams of ``handles``, whose logs have grown."""
        for handle in handles:
            signal = self._signals.pop(handle, None)
            if signal is not None and not signal.done():
                signal.set_result(None)

    def heard_of_write(self, name: str) -> None:
        """Another process (or this one) wrote ``name``: an account's, "accounts/{handle}", wakes
        its streams here."""
        kind, _, handle = name.partition("/")
        if kind == "accounts":
            self.told([handle])

    def online(self) -> set[str]:
        """The accounts with a stream open in this process."""
        return set(self._open)

    async def follow(
        self,
        handle: str,
        after: int,
        in_progress: Callable[[], Awaitable[list[pb.LadderGame]]],
        key_in_force: Callable[[], object],
    ) -> AsyncIterator[pb.StreamEventsResponse]:
        """A stream of ``handle``'s: first its games ``in_progress``, then its events after
        ``after``, then each as it is told, until the server stops. ``key_in_force()`` raises once
        the key the stream was opened with is revoked: it is asked every heartbeat, and the stream
        ends with its error.

        :raises LimitReached: TOO_MANY_STREAMS past the account's open streams (in this process).
        :raises ShuttingDown: when the server stops.
        """
        with self._following(handle) as stream:
            await asyncio.to_thread(self.records.open_stream, stream, handle, self.clock())
            checked = time.monotonic()
            try:
                yield pb.StreamEventsResponse(games_in_progress=await in_progress())
                while not self._closing:
                    signal = self._signals.setdefault(handle, asyncio.get_running_loop().create_future())
                    stored = await asyncio.to_thread(self.records.events_after, handle, after, _PAGE)
                    for event in stored:
                        yield pb.StreamEventsResponse(event=self._message(event))
                        after = event.event_id
                    if time.monotonic() - checked >= self.heartbeat_seconds:
                        await asyncio.to_thread(key_in_force)
                        checked = time.monotonic()
                    if not stored:
                        await asyncio.wait((signal,), timeout=min(POLL_SECONDS, self.heartbeat_seconds))
            finally:
                # Gone from now on: the grace period of its games counts from here. A server
                # stopping writes nothing more (its streams must end before it stops): their rows,
                # seen at the last heartbeat, stop counting after three more.
                if not self._closing:
                    with contextlib.suppress(StoreUnavailable):
                        await asyncio.to_thread(self.records.close_stream, stream, handle, self.clock())
        raise ShuttingDown("the server is shutting down; stream the events again from the last id seen")

    async def heartbeat(self) -> None:
        """Note every stream open here, and its account, as seen now; forget the streams of
        processes gone (not seen for :data:`STREAM_KEPT_HEARTBEATS` heartbeats). A process with
        no stream open writes nothing: those of the others forget for it."""
        if self._streams:
            streams, now = dict(self._streams), self.clock()
            forget_before = now - STREAM_KEPT_HEARTBEATS * self.heartbeat_seconds
            await asyncio.to_thread(
                lambda: self.records.see_streams(streams, now, forget_before=forget_before)
            )

    async def online_accounts(self, variant: str, after: str, most: int) -> list[OnlineAccount]:
        """The accounts with an event stream open now (on any process or replica), by handle from
        the one after ``after``, at most ``most``, each with its rating in ``variant``."""
        since = self.clock() - ONLINE_HEARTBEATS * self.heartbeat_seconds
        return await asyncio.to_thread(self.records.online_accounts, variant, after, since, most)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self._closing = True
        self.told(list(self._signals))

    @contextlib.contextmanager
    def _following(self, handle: str) -> Iterator[str]:
        """A new stream of ``handle``'s, by its name, counted while it is open."""
        if self._open[handle] >= self.streams_per_account:
            raise LimitReached(
                TOO_MANY_STREAMS,
                f"account {handle} has {self.streams_per_account} event streams open already, the most it"
                " may: close one first",
            )
        self._open[handle] += 1
        stream = secrets.token_hex(8)
        self._streams[stream] = handle
        try:
            yield stream
        finally:
            del self._streams[stream]
            self._open[handle] -= 1
            if not self._open[handle]:
                del self._open[handle]

    def _message(self, stored: StoredEvent) -> pb.LadderEvent:
        event = pb.LadderEvent.FromString(stored.event)
        event.event_id = stored.event_id
        event.time.CopyFrom(timestamp(stored.at))
        if event.HasField("game_started"):
            self.fill_token(event.game_started)
        return event

    def fill_token(self, game: pb.LadderGame) -> None:
        """Put the token of ``game``'s seat into it (the log keeps none)."""
        seat = 0 if game.seat == games_pb.SEAT_0 else 1
        game.seat_token = self.key.seat_token(game.game, seat)
