"""Per-client quotas: how much of the server one client may hold or use at a time.

A client is a key (the address the server sees it call from). Each has a token bucket of calls
(``calls_per_second``, refilled continuously, holding at most ``call_burst``), a number of calls
it may have open at once, of streams it may keep open, and of games it created that are not over
yet; each game has a number of streams open on it. Going past any of them raises
:class:`~tavli.server.errors.LimitReached` (RESOURCE_EXHAUSTED) whose reason says which was hit and
whose message names the limit and its value.

Each client also has a budget of CPU time (``cpu_seconds_per_minute``, refilled continuously,
holding at most a minute's worth): what its heavy work (match records checked, see
:mod:`tavli.server.fair_queue`) and its hosted bots spend choosing their plays is charged to it, and a
client that has spent it all is refused more of either until it has refilled. What its watches
fold from a game's log for it alone is charged too, and such a watch waits for the refill
(:meth:`Quotas.pay_cpu`): it is slowed to the budget, not refused. And a client may
have ``bots_per_client`` hosted bots playing for it at once.

One :class:`Quotas` serves one process: with ``--workers N`` each worker counts its own.

Memory stays bounded however many keys call: a client holding nothing is remembered only by its
bucket, and a bucket is forgotten once it would have filled up again (so forgetting it changes
nothing), or, past ``clients_remembered`` buckets, the least recently used first.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from types import TracebackType

from tavli.server.errors import LimitReached

RATE_LIMITED = "RATE_LIMITED"
TOO_MANY_CALLS = "TOO_MANY_CALLS"
TOO_MANY_STREAMS = "TOO_MANY_STREAMS"
TOO_MANY_GAMES = "TOO_MANY_GAMES"
TOO_MANY_BOTS = "TOO_MANY_BOTS"
TOO_MANY_ANALYSES = "TOO_MANY_ANALYSES"
CPU_BUDGET_SPENT = "CPU_BUDGET_SPENT"
TOO_MANY_ACCOUNTS = "TOO_MANY_ACCOUNTS"

# Buckets looked at for forgetting per call: more than the one a call may add, so that their
# number falls back after a crowd of clients has gone, at a bounded cost to each call.
_FORGET_PER_CALL = 8


# Tokens refilled from float clock readings fall short of a whole by a rounding error: a client
# calling exactly at the rate must not be refused for it.
_ROUNDING = 1e-6

# How much longer than its debt a client paying CPU time waits, so that it wakes with some left.
_PAY_SLACK = 0.01


@dataclass(frozen=True, slots=True)
class QuotaLimits:
    """The quotas of every client; the defaults are generous for one arena on one machine."""

    calls_per_second: float = 10_000.0  # an arena on two cores makes a few thousand
    call_burst: int = 20_000  # calls a client that has been quiet may make at once
    concurrent_calls: int = 256  # unary calls open at once
    streams_per_client: int = 2_000
    streams_per_game: int = 1_100
    live_games_per_client: int = 10_000  # games created and not over yet
    bots_per_client: int = 4  # hosted bots playing for one client at once
    cpu_seconds_per_minute: float = 30.0  # a 1 MiB record costs 2-5 s to check
    checks_waiting_per_client: int = 8  # match records waiting to be checked
    analyses_per_client: int = 2  # whole matches analysed at once (AnalysisService.AnalyzeMatch)
    accounts_per_client_per_hour: float = 10.0  # accounts made over the API (--open-accounts)
    clients_remembered: int = 100_000  # token buckets kept at most

    @classmethod
    def unbounded(cls) -> QuotaLimits:
        """Quotas that never bind: for a server whose only client is the program that runs it."""
        many = 10**9
        counted = [limit.name for limit in fields(cls) if limit.name != "clients_remembered"]
        return cls(**{name: many for name in counted})

    def __post_init__(self) -> None:
        for limit in fields(self):
            value = getattr(self, limit.name)
            if not value > 0:
                raise ValueError(f"quota {limit.name} must be positive, not {value!r}")
        if self.call_burst < 1:
            raise ValueError(f"quota call_burst must be at least 1, not {self.call_burst!r}")


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


@dataclass(slots=True)
class _Holdings:
    """What a client holds now; dropped when it holds nothing."""

    calls: int = 0
    streams: int = 0
    games: int = 0
    bots: int = 0
    analyses: int = 0

    def empty(self) -> bool:
        return not (self.calls or self.streams or self.games or self.bots or self.analyses)


class Quotas:
    """The quotas of every client of one server; safe to use from an event loop and threads.

    Each unary call enters :meth:`admit_call`, each stream :meth:`open_stream` (a stream counts
    against the calls a second, not the calls at once: it has a limit of its own). A game counts
    from :meth:`count_game` to :meth:`release_game`.
    """

    def __init__(
        self, limits: QuotaLimits | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limits = limits or QuotaLimits()
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()  # least recently used first
        self._holdings: dict[str, _Holdings] = {}
        self._streams_on_game: dict[str, int] = {}
        self._game_creators: dict[str, str] = {}
        self._bot_clients: dict[tuple[str, int], str] = {}
        self._cpu_spent: OrderedDict[str, _Bucket] = (
            OrderedDict()
        )  # seconds owed, least recently charged first
        self._accounts_made: OrderedDict[str, _Bucket] = OrderedDict()  # accounts made, least recent first
        self._cpu_per_second = self.limits.cpu_seconds_per_minute / 60
        self._accounts_per_second = self.limits.accounts_per_client_per_hour / 3600
        # An empty bucket is full again after this long: one untouched as long can be forgotten.
        self._refill_seconds = self.limits.call_burst / self.limits.calls_per_second

    def admit_call(self, client: str) -> _Held:
        """A context manager for one unary call of ``client``: entering it takes a token from
        the client's bucket and one of its concurrent calls, released on exit (however the call
        ends).

        :raises LimitReached: on entering, RATE_LIMITED or TOO_MANY_CALLS.
        """
        return _Held(self._enter_call, self._exit_call, (client,), "a call is admitted once")

    def open_stream(self, client: str, game: str = "") -> _Held:
        """A context manager for one stream of ``client`` on ``game`` (or on no game, ""):
        entering it takes a token and an open stream of the client's and of the game's, the
        streams released on exit.

        :raises LimitReached: on entering, RATE_LIMITED or TOO_MANY_STREAMS.
        """
        return _Held(self._enter_stream, self._exit_stream, (client, game), "a stream is opened once")

    def count_game(self, client: str, game: str) -> None:
        """Count ``game`` as a live game created by ``client``, until :meth:`release_game`;
        counting a game again changes nothing (a retried create).

        :raises LimitReached: TOO_MANY_GAMES, when the client has as many live games as allowed.
        """
        with self._lock:
            if game in self._game_creators:
                return
            holdings = self._holdings.get(client) or _Holdings()
            most = self.limits.live_games_per_client
            if holdings.games >= most:
                raise LimitReached(
                    TOO_MANY_GAMES, f"more than {most} live games created by {client}; finish some first"
                )
            holdings.games += 1
            self._holdings[client] = holdings
            self._game_creators[game] = client

    def release_game(self, game: str) -> None:
        """``game`` is over (or was never made): it no longer counts against its creator."""
        with self._lock:
            client = self._game_creators.pop(game, None)
            if client is not None:
                self._release(client, games=1)

    def count_bot(self, client: str, seat: tuple[str, int], *, seated_already: bool = False) -> None:
        """Count the hosted bot at ``seat`` (a game's name and a seat) as playing for ``client``,
        until :meth:`release_bot`; counting one again changes nothing. A seat ``seated_already``
        (given before, and taken up after its lease ran out) is counted even past the cap: the
        game needs its bot, and the client's next one is refused until it is back under the cap.

        :raises LimitReached: TOO_MANY_BOTS, when as many bots play for the client as allowed
            (never for a seat ``seated_already``).
        """
        with self._lock:
            if seat in self._bot_clients:
                return
            holdings = self._holdings.get(client) or _Holdings()
            most = self.limits.bots_per_client
            if holdings.bots >= most and not seated_already:
                raise LimitReached(
                    TOO_MANY_BOTS,
                    f"{most} of this server's bots play for {client} already, the most one client may"
                    " have; wait for one of their matches to end",
                )
            holdings.bots += 1
            self._holdings[client] = holdings
            self._bot_clients[seat] = client

    def release_bot(self, seat: tuple[str, int]) -> None:
        """The bot at ``seat`` left it: it no longer counts against its client."""
        with self._lock:
            client = self._bot_clients.pop(seat, None)
            if client is not None:
                self._release(client, bots=1)

    def bot_client(self, seat: tuple[str, int]) -> str | None:
        """The client the bot at ``seat`` plays for, if it is counted here."""
        with self._lock:
            return self._bot_clients.get(seat)

    @contextlib.contextmanager
    def hold_analysis(self, client: str) -> Iterator[None]:
        """Count one analysis of a whole match as ``client``'s while the block runs.

        :raises LimitReached: on entering, TOO_MANY_ANALYSES, when the client runs as many as allowed.
        """
        with self._lock:
            holdings = self._holdings.get(client) or _Holdings()
            most = self.limits.analyses_per_client
            if holdings.analyses >= most:
                raise LimitReached(
                    TOO_MANY_ANALYSES,
                    f"{client} has {most} matches being analysed already, the most one client may;"
                    " wait for one to end",
                )
            holdings.analyses += 1
            self._holdings[client] = holdings
        try:
            yield
        finally:
            with self._lock:
                self._release(client, analyses=1)

    def charge_cpu(self, client: str, seconds: float) -> None:
        """Charge ``seconds`` of CPU time spent for ``client`` to its budget."""
        with self._lock:
            self._charge(self._cpu_spent, client, max(0.0, seconds), self._cpu_per_second)

    async def pay_cpu(self, client: str, seconds: float) -> None:
        """Charge ``seconds`` of CPU time spent for ``client``, then wait until its budget has
        some left: what paces work a client may take as fast as it reads (a watch from the start
        of a long game) to its budget, rather than refusing it."""
        self.charge_cpu(client, seconds)
        while (left := self.cpu_left(client)) <= 0:
            await asyncio.sleep(-left / self._cpu_per_second + _PAY_SLACK)

    def count_account(self, client: str) -> None:
        """Count an account made over the API by ``client`` against its accounts an hour.

        :raises LimitReached: TOO_MANY_ACCOUNTS, when the client has made as many as allowed in
            the last hour (the count falls back evenly over the hour); nothing is counted then.
        """
        most = self.limits.accounts_per_client_per_hour
        with self._lock:
            made = self._owed(self._accounts_made, client, self._accounts_per_second)
            if made.tokens + 1 > most + _ROUNDING:
                wait = (made.tokens + 1 - most) / self._accounts_per_second
                raise LimitReached(
                    TOO_MANY_ACCOUNTS,
                    f"{client} has made {most:g} accounts in the last hour, the most it may;"
                    f" try again in {wait / 60:.0f} minutes",
                )
            self._charge(self._accounts_made, client, 1.0, self._accounts_per_second)

    def cpu_left(self, client: str) -> float:
        """The seconds of CPU ``client`` may still spend now (below zero when overspent)."""
        with self._lock:
            return self.limits.cpu_seconds_per_minute - self._cpu_owed(client).tokens

    def check_cpu_left(self, client: str) -> None:
        """:raises LimitReached: CPU_BUDGET_SPENT, if ``client`` has no CPU time left now."""
        left = self.cpu_left(client)
        if left <= 0:
            budget = self.limits.cpu_seconds_per_minute
            wait = -left / (budget / 60) + 1
            raise LimitReached(
                CPU_BUDGET_SPENT,
                f"{client} has spent its {budget:g} s a minute of the server's CPU (match records checked,"
                f" bots' plays and watches read from a game's log); try again in {wait:.0f} s",
            )

    def live_games(self, client: str) -> int:
        """How many live games ``client`` created."""
        with self._lock:
            holdings = self._holdings.get(client)
            return holdings.games if holdings else 0

    def clients_remembered(self) -> int:
        """How many clients the quotas hold anything for (a bucket, a call, a stream, a game, a
        bot, CPU spent)."""
        with self._lock:
            remembered = self._buckets.keys() | self._holdings.keys() | self._cpu_spent.keys()
            return len(remembered | self._accounts_made.keys())

    # --- under the lock ---------------------------------------------------------------------

    def _cpu_owed(self, client: str) -> _Bucket:
        """The CPU seconds ``client`` has spent and not yet earned back, as of now."""
        return self._owed(self._cpu_spent, client, self._cpu_per_second)

    def _owed(self, spending: OrderedDict[str, _Bucket], client: str, repaid_per_second: float) -> _Bucket:
        """What ``client`` has spent of one budget (``spending``) and not yet earned back, as of now."""
        now = self._clock()
        spent = spending.get(client) or _Bucket(0.0, now)
        earned = max(0.0, now - spent.updated) * repaid_per_second
        return _Bucket(max(0.0, spent.tokens - earned), now)

    def _charge(
        self, spending: OrderedDict[str, _Bucket], client: str, amount: float, repaid_per_second: float
    ) -> None:
        spent = self._owed(spending, client, repaid_per_second)
        spent.tokens += amount
        spending[client] = spent
        spending.move_to_end(client)
        # Those whose spending is repaid are forgotten, a few at each charge, oldest first.
        for _ in range(_FORGET_PER_CALL):
            if len(spending) <= 1:
                return
            oldest = next(iter(spending))
            if self._owed(spending, oldest, repaid_per_second).tokens > 0:
                return
            del spending[oldest]

    # Every unary call enters and leaves here: the two are kept to what they must do.
    def _enter_call(self, client: str) -> None:
        with self._lock:
            bucket = self._refilled(client)
            holdings = self._holdings.get(client)
            if holdings is None:
                holdings = self._holdings[client] = _Holdings()
            elif holdings.calls >= self.limits.concurrent_calls:
                most = self.limits.concurrent_calls
                raise LimitReached(
                    TOO_MANY_CALLS, f"more than {most} calls at once from {client}; wait for some to end"
                )
            bucket.tokens -= 1
            holdings.calls += 1

    def _enter_stream(self, client: str, game: str) -> None:
        with self._lock:
            bucket = self._refilled(client)
            holdings = self._holdings.get(client) or _Holdings()
            most = self.limits.streams_per_client
            if holdings.streams >= most:
                raise LimitReached(
                    TOO_MANY_STREAMS, f"more than {most} open streams from {client}; close some"
                )
            on_game = self._streams_on_game.get(game, 0) if game else 0
            most = self.limits.streams_per_game
            if on_game >= most:
                raise LimitReached(TOO_MANY_STREAMS, f"more than {most} open streams on {game}; close some")
            bucket.tokens -= 1
            holdings.streams += 1
            self._holdings[client] = holdings
            if game:
                self._streams_on_game[game] = on_game + 1

    def _exit_call(self, client: str) -> None:
        with self._lock:
            self._release(client, calls=1)

    def _exit_stream(self, client: str, game: str) -> None:
        with self._lock:
            self._release(client, streams=1)
            if game:
                left = self._streams_on_game.pop(game, 1) - 1
                if left:
                    self._streams_on_game[game] = left

    def _refilled(self, client: str) -> _Bucket:
        """The client's bucket as of now, holding a token to take.

        :raises LimitReached: RATE_LIMITED, if it holds none.
        """
        now = self._clock()
        limits = self.limits
        buckets = self._buckets
        bucket = buckets.get(client)
        if bucket is None:
            bucket = buckets[client] = _Bucket(float(limits.call_burst), now)
        else:
            if now > bucket.updated:
                bucket.tokens += (now - bucket.updated) * limits.calls_per_second
                if bucket.tokens > limits.call_burst:
                    bucket.tokens = float(limits.call_burst)
                bucket.updated = now
            buckets.move_to_end(client)
        if len(buckets) > 1:
            self._forget_idle_buckets(now)
        if bucket.tokens < 1 - _ROUNDING:
            raise LimitReached(
                RATE_LIMITED,
                f"more than {limits.calls_per_second:g} calls a second from {client}"
                f" (bursts of {limits.call_burst}); slow down",
            )
        return bucket

    def _forget_idle_buckets(self, now: float) -> None:
        # The caller's bucket is the newest: it goes last, so never here (one bucket is always kept).
        for _ in range(_FORGET_PER_CALL):
            if len(self._buckets) <= 1:
                return
            oldest = next(iter(self._buckets.values()))
            too_many = len(self._buckets) > self.limits.clients_remembered
            if not too_many and now - oldest.updated < self._refill_seconds:
                return
            self._buckets.popitem(last=False)

    def _release(
        self,
        client: str,
        *,
        calls: int = 0,
        streams: int = 0,
        games: int = 0,
        bots: int = 0,
        analyses: int = 0,
    ) -> None:
        holdings = self._holdings.get(client)
        if holdings is None:
            return
        holdings.calls -= calls
        holdings.streams -= streams
        holdings.games -= games
        holdings.bots -= bots
        holdings.analyses -= analyses
        if holdings.empty():
            del self._holdings[client]


class _Held:
    """One admitted unary call or open stream, released on exit however it ends; see
    :meth:`Quotas.admit_call` and :meth:`Quotas.open_stream`."""

    __slots__ = ("_enter", "_exit", "_held", "_of", "_once")

    def __init__(
        self, enter: Callable[..., None], exit: Callable[..., None], of: tuple[str, ...], once: str
    ) -> None:
        self._enter = enter
        self._exit = exit
        self._of = of  # whose call or stream, and on what: what enter and exit are called with
        self._once = once  # what entering twice is told
        self._held = False

    def __enter__(self) -> None:
        if self._held:
            raise RuntimeError(self._once)
        self._enter(*self._of)
        self._held = True

    def __exit__(
        self,
        error_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._held:
            self._held = False
            self._exit(*self._of)
