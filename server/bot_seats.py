"""BotsService: the computer opponents the server hosts, each playing one seat as any client does.

A front end with no bot of its own (the web table) creates a game and hands one seat's token to
SeatBot. The server checks what it can answer at once (the game, the token, the bot, the variant,
the match not over), then stores the seat as the bot's (:class:`~tavli.server.store.BotSeat`: which bot,
since when) and seats it: a thread of its own holding the seat on a PlaySeat stream to this same
server, driven by :func:`~tavli.clients.seat_driver.play_seat`. So a hosted bot is held to exactly the
rules, refusals, etags and clocks of every other client; the server does not make its moves for it.

The seat is the game's, not the process's. The process whose bot plays it holds a lease on it in
the store (:data:`LEASE_SECONDS`), renewed every :data:`RENEW_SECONDS` by a conditional write; a
process that started, or has room, takes up every bot seat whose lease ran out, so that a seat
whose server was killed is played on by whichever process (worker, replica, or the server started
again) claims it first, within a few seconds. A holder that cannot renew its lease stops its bot
before the lease can run out; and each action carries the etag of the state it was decided on, so
that of two bots that both believe they hold the seat only one action per decision is stored.

Bots are shared by every client, so each client may have :attr:`QuotaLimits.bots_per_client`
playing for it at once (counted from its SeatBot until the bot leaves its seat, in this process),
and the CPU time of each one's thread (choosing its actions, and its side of the stream) is
charged to that client's CPU budget, every :data:`RENEW_SECONDS`
(:mod:`tavli.server.quotas`); a bot is seated at a match of at most ``match_points`` points, and at one
game's two seats only where the operator allows bots to play each other.

A bot stays at its seat until its match is over (in money play, for :data:`MONEY_GAMES` games);
the seat then stays named as the bot's, and nobody takes it up again. A bot its opponent keeps
waiting :attr:`BotSeats.patience` seconds goes off the table meanwhile (its thread and its place
among the :attr:`BotSeats.most` that play at once) and is taken up again, by whichever process
sees it first, once the opponent has acted.
"""

from __future__ import annotations

import asyncio
import functools
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc
import structlog

from tavli.clients import bots
from tavli.clients.client import SeatStream, TavliClient, TavliServerError
from tavli.clients.seat_driver import finished, play_seat
from tavli.engine import Variant
from tavli.engine.game import ActionError
from tavli.server import convert
from tavli.server.admission import client_of
from tavli.server.errors import LimitReached, SeatAlreadyStreaming, ServiceError, StaleEtag, StoreUnavailable
from tavli.server.handlers import Context
from tavli.server.keys import ServerKey
from tavli.server.quotas import Quotas
from tavli.server.seat_stream import SeatStreams
from tavli.server.store import NOT_WAITING, BotSeat, BotSeatTaken, Store, StoreConflict
from tavli.server.tables import Tables
from tavli.v1 import bots_service_pb2 as pb, bots_service_pb2_grpc

log = structlog.get_logger("tavli.server")

MONEY_GAMES = 100
"""The games a bot plays at one money table before it leaves."""

BOT_MATCH_POINTS = 25
"""The longest match a bot is seated at, unless the operator says otherwise."""

LEASE_SECONDS = 5.0
"""How long a claim on a bot seat holds it: a killed holder's seats are played on after this."""

RENEW_SECONDS = 1.0
"""How often a process renews its leases and looks for bot seats nobody holds."""

PATIENCE_SECONDS = 600.0
"""How long a bot waits for its opponent at the table before it goes off it until they act."""

# Times the game moving on under a SeatBot is checked again before the call gives up (ABORTED).
_ATTEMPTS = 5

# A seated bot joins the game through GamesService; these are the seat's refusals it counts as
# "the seat is gone" (tried again by no one), rather than a fault tried again after the lease.
_SEAT_GONE = frozenset({"GAME_NOT_FOUND", "WRONG_SEAT_TOKEN"})


class UnknownBot(ServiceError):
    """A bot this server does not have, or one that does not play the game's variant."""

    reason = "UNKNOWN_BOT"


class BotsMayNotPlayEachOther(ServiceError):
    """The other seat of the game is a bot's already, and this server's bots do not play each other."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "BOTS_MAY_NOT_PLAY_EACH_OTHER"


class MatchTooLongForBots(ServiceError):
    """The game's match is longer than the server seats its bots at."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "MATCH_TOO_LONG_FOR_BOTS"


@dataclass(frozen=True)
class HostedBot:
    """A bot this server can seat: its name, what it is, and the variants it plays."""

    name: str
    description: str
    variants: tuple[Variant, ...]


def hosted_bots() -> list[HostedBot]:
    """Every bot this process can create (gnubg only where its net is installed), the default
    first: the strongest that plays most variants."""
    found = []
    for name in bots.NAMES:
        try:
            bot = bots.create(name)
        except bots.GnubgUnavailableError:
            continue
        found.append(
            HostedBot(
                name,
                bot.description or name,
                tuple(v for v in convert.SERVED_VARIANTS if bots.plays(name, v)),
            )
        )
    found.sort(key=lambda hosted: (hosted.name != "heuristic", hosted.name))
    return found


@dataclass
class _Playing:
    """A bot seat this process plays: its thread, its stream once joined, and its lease."""

    seat: BotSeat
    thread: threading.Thread | None = None
    stream: SeatStream | None = None
    renewed: float = field(default_factory=time.monotonic)  # when the lease was last claimed
    done: bool = False  # it left its seat, or lost it (to another process, or unrenewed in time)
    cpu_charged: float = 0.0  # the CPU time of its thread charged to its client so far


class BotSeats:
    """The bot seats this process plays, each bot in a thread of its own, on a client of
    ``address`` (this server's own, reached without the network); the seats' leases in ``store``
    are renewed, and seats nobody holds taken up, by a thread of its own once :meth:`start` ran.
    Each seat given by :meth:`seat` counts against its client's ``quotas``; with ``each_other``,
    both seats of one game may be bots'."""

    def __init__(
        self,
        address: str,
        store: Store,
        key: ServerKey,
        quotas: Quotas,
        *,
        most: int = 64,
        patience: float = PATIENCE_SECONDS,
        each_other: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.address = address
        self.store = store
        self.key = key
        self.quotas = quotas
        self.most = most
        self.each_other = each_other
        self.patience = patience
        self.clock = clock
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._playing: dict[tuple[str, int], _Playing] = {}
        self._lock = threading.Lock()
        self._client: TavliClient | None = None
        self._closed = threading.Event()
        self._keeper: threading.Thread | None = None

    @functools.cached_property
    def hosted(self) -> list[HostedBot]:
        """The bots this server can seat: found on the first call that needs them (creating
        gnubg's loads its net), not at every start."""
        return hosted_bots()

    def default_for(self, *variants: Variant) -> HostedBot | None:
        """The first bot hosted that plays every one of ``variants`` (a tavli match's three)."""
        return next(
            (hosted for hosted in self.hosted if all(bots.plays(hosted.name, v) for v in variants)), None
        )

    def description_of(self, name: str) -> str:
        return next((hosted.description for hosted in self.hosted if hosted.name == name), name)

    def start(self) -> None:
        """Take up the bot seats nobody holds (those of a server that stopped or died), now and
        from then on, and keep this process's leases."""
        self._keeper = threading.Thread(target=self._keep, name="tavli-bot-seats", daemon=True)
        self._keeper.start()

    def seat(self, name: str, seat: int, bot_name: str, version: int, client: str) -> None:
        """Give ``seat`` of game ``name``, still at ``version``, to ``bot_name``, and start it,
        playing for ``client``.

        :raises SeatAlreadyStreaming: if a bot plays that seat already.
        :raises BotsMayNotPlayEachOther: if the other seat is a bot's and bots do not play each other.
        :raises LimitReached: if :attr:`most` bots play already, or as many for ``client`` as it may have.
        :raises StoreConflict: if the game has moved on from ``version``.
        :raises StoreUnavailable: if the store cannot take the write now.
        """
        with self._lock:
            if self._closed.is_set():
                raise LimitReached("TOO_MANY_BOTS", "the server is stopping and seats no more bots")
            self._forget_finished()
            if (name, seat) in self._playing:
                raise SeatAlreadyStreaming("a bot of this server plays that seat already")
            if not self.each_other:
                for other in self.store.bot_seats(name):
                    if other.seat != seat:
                        raise BotsMayNotPlayEachOther(
                            f"the other seat of this game is the {other.bot} bot's already, and this"
                            " server's bots do not play each other; seat a person there"
                        )
            if len(self._playing) >= self.most:
                raise LimitReached(
                    "TOO_MANY_BOTS", f"all {self.most} of this server's bots are playing; try again later"
                )
            self._count_for(client, (name, seat))
            now = self.clock()
            given = BotSeat(name, seat, bot_name, now, client)
            try:
                self.store.seat_bot(given, version, self.holder, now + LEASE_SECONDS)
            except BotSeatTaken:
                self.quotas.release_bot((name, seat))
                raise SeatAlreadyStreaming("a bot of this server plays that seat already") from None
            except BaseException:
                self.quotas.release_bot((name, seat))
                raise
            log.info("bot seated", game=name, seat=seat, bot=bot_name, client=client)
            self._start(given)

    def seated(self, name: str) -> list[BotSeat]:
        """The seats of game ``name`` given to bots.

        :raises StoreUnavailable: if the store cannot be read now.
        """
        return self.store.bot_seats(name)

    def close(self) -> None:
        """Stop every bot: each lets go of its seat (for the next process to take up at once),
        then its thread ends."""
        with self._lock:
            self._closed.set()
            playing = list(self._playing.values())
            for each in playing:
                if each.stream is not None:
                    each.stream.close()
        if self._keeper is not None:
            self._keeper.join(timeout=5)
        for each in playing:
            if each.thread is not None:
                each.thread.join(timeout=5)
            if not each.done:
                self._let_go(each.seat)
        if self._client is not None:
            self._client.close()

    # --- a client's place for one more bot ------------------------------------------------

    def waiting_for_people(self, client: str) -> list[BotSeat]:
        """The seats of the bots playing for ``client`` that wait for a person to act, the one
        that has waited longest first: the bots a new one of the client's takes the place of."""
        with self._lock:
            return [playing.seat for playing, _ in self._waiting_for_people(client)]

    def _count_for(self, client: str, seat: tuple[str, int]) -> None:
        """Count the bot at ``seat`` against ``client`` (with the lock held); at the client's cap,
        first send off the table the client's bot that has waited longest for a person (its game
        stays, and the bot comes back once that person acts), so that a game left unfinished does
        not keep a new one from starting.

        :raises LimitReached: TOO_MANY_BOTS, when every bot of the client is playing.
        """
        try:
            self.quotas.count_bot(client, seat)
        except LimitReached:
            waiting = self._waiting_for_people(client)
            if not waiting:
                raise
            self._send_off(client, *waiting[0])
            self.quotas.count_bot(client, seat)

    def _waiting_for_people(self, client: str) -> list[tuple[_Playing, SeatStream]]:
        """The bots playing for ``client`` that wait for a person to act, with their streams, the
        one that has waited longest first (with the lock held); a bot waiting for a bot is playing."""
        waiting = []
        for key, each in self._playing.items():
            if each.done or each.stream is None or self.quotas.bot_client(key) != client:
                continue
            view = each.stream.latest
            if not view.game.name or view.seat in view.game.to_act:
                continue  # not joined yet, or to act
            if any(other.seat != each.seat.seat for other in self.store.bot_seats(each.seat.name)):
                continue
            waiting.append((view.game.update_time.ToNanoseconds(), each, each.stream))
        waiting.sort(key=lambda found: found[0])
        return [(each, stream) for _, each, stream in waiting]

    def _send_off(self, client: str, playing: _Playing, stream: SeatStream) -> None:
        """Send ``playing``'s bot, on ``stream``, off the table until its opponent acts (with the
        lock held), as :attr:`patience` does, and stop counting it against ``client`` meanwhile."""
        seat = playing.seat
        playing.done = True
        self._let_go(seat, waiting_at=int(stream.last_seen.etag or 0))
        stream.close()
        self.quotas.release_bot((seat.name, seat.seat))
        log.info("bot sent off the table to make room", game=seat.name, seat=seat.seat, bot=seat.bot)

    def _count_again(self, client: str, seat: tuple[str, int]) -> None:
        """Count a bot taken up at ``seat`` against ``client``, the client that seated it (with the
        lock held): in the place of another of its bots that waits for a person if it is at its
        cap, and past the cap if none waits (the game needs its bot: the client's next one is
        refused instead)."""
        try:
            self._count_for(client, seat)
        except LimitReached:
            self.quotas.count_bot(client, seat, seated_already=True)

    # --- leases ----------------------------------------------------------------------------

    def _keep(self) -> None:
        while not self._closed.is_set():
            try:
                self._renew()
                self._take_up()
            except StoreUnavailable as error:
                log.warning("bot seats cannot be kept now", error=str(error))
            except Exception:  # a bad turn of the keeper is logged; the next one comes all the same
                log.exception("bot seats could not be kept")
            self._closed.wait(RENEW_SECONDS)

    def _renew(self) -> None:
        """Renew this process's leases, in one write; stop each bot whose lease went to another
        process, or that could not be renewed for so long that another may take it up soon."""
        with self._lock:  # held throughout: a bot that has just left its seat is not claimed back
            self._charge_cpu()
            self._forget_finished()
            playing = {(each.seat.name, each.seat.seat): each for each in self._playing.values()}
            playing = {key: each for key, each in playing.items() if not each.done}
            if not playing:
                return
            now = self.clock()
            try:
                held = self.store.claim_bot_seats(list(playing), self.holder, now, now + LEASE_SECONDS)
            except StoreUnavailable:
                for each in playing.values():
                    if time.monotonic() - each.renewed > LEASE_SECONDS - 2 * RENEW_SECONDS:
                        self._lose(each)
                raise
            renewed = time.monotonic()
            for key, each in playing.items():
                if key in held:
                    each.renewed = renewed
                else:
                    self._lose(each)

    def _take_up(self) -> None:
        """Start a bot at each seat nobody holds, as many as there is room for."""
        with self._lock:
            room = self.most - len(self._playing)
        if room <= 0:
            return
        free = self.store.bot_seats_to_take(self.clock(), room)
        with self._lock:
            if self._closed.is_set():
                return
            room = self.most - len(self._playing)
            free = [seat for seat in free if (seat.name, seat.seat) not in self._playing][:room]
            if not free:
                return
            now = self.clock()
            held = self.store.claim_bot_seats(
                [(seat.name, seat.seat) for seat in free], self.holder, now, now + LEASE_SECONDS
            )
            for seat in free:
                key = (seat.name, seat.seat)
                if key in held:  # else another process claimed it first
                    if seat.client:  # "": seated before seats kept their client
                        self._count_again(seat.client, key)
                    log.info("bot taken up", game=seat.name, seat=seat.seat, bot=seat.bot, client=seat.client)
                    self._start(seat)

    def _let_go(self, seat: BotSeat, waiting_at: int = NOT_WAITING) -> None:
        try:
            self.store.let_go_of_bot_seat(seat.name, seat.seat, self.holder, waiting_at)
        except StoreUnavailable:
            pass  # its lease runs out by itself, and another process takes it up then

    # --- the bots --------------------------------------------------------------------------

    def _start(self, seat: BotSeat) -> None:
        """Start the bot of ``seat`` (with the lock held)."""
        if self._client is None:
            self._client = TavliClient.connect(self.address)
        playing = _Playing(seat)
        playing.thread = threading.Thread(
            target=self._play, args=(self._client, playing), name=f"bot-{seat.name}-{seat.seat}", daemon=True
        )
        self._playing[(seat.name, seat.seat)] = playing
        playing.thread.start()

    def _lose(self, playing: _Playing) -> None:
        """Stop a bot that no longer holds its seat (with the lock held)."""
        seat = playing.seat
        log.warning("bot lost its seat's lease", game=seat.name, seat=seat.seat, bot=seat.bot)
        playing.done = True
        if playing.stream is not None:
            playing.stream.close()

    def _forget_finished(self) -> None:
        ended = [key for key, each in self._playing.items() if each.thread and not each.thread.is_alive()]
        for key in ended:
            del self._playing[key]

    def _play(self, client: TavliClient, playing: _Playing) -> None:
        try:
            self._play_seat(client, playing)
        finally:
            with self._lock:
                self._charge(playing, time.thread_time())
            self.quotas.release_bot((playing.seat.name, playing.seat.seat))

    def _charge_cpu(self) -> None:
        """Charge each bot's CPU time since the last charge to the client it plays for (with
        the lock held)."""
        for each in self._playing.values():
            if each.thread is None or each.thread.ident is None or not each.thread.is_alive():
                continue
            try:
                used = time.clock_gettime(time.pthread_getcpuclockid(each.thread.ident))
            except OSError:  # it has just ended, and charged itself
                continue
            self._charge(each, used)

    def _charge(self, playing: _Playing, used: float) -> None:
        """Charge ``playing``'s bot, whose thread has used ``used`` seconds of CPU, for what it
        used since the last charge (with the lock held)."""
        client = self.quotas.bot_client((playing.seat.name, playing.seat.seat))
        if client is not None and used > playing.cpu_charged:
            self.quotas.charge_cpu(client, used - playing.cpu_charged)
        playing.cpu_charged = max(playing.cpu_charged, used)

    def _play_seat(self, client: TavliClient, playing: _Playing) -> None:
        seat = playing.seat
        try:
            stream = client.stream_seat(seat.name, self.key.seat_token(seat.name, seat.seat), resume=True)
            with self._lock:
                playing.stream = stream
                if self._closed.is_set() or playing.done:
                    stream.close()
            try:
                last = play_seat(stream, bots.create(seat.bot), games=MONEY_GAMES, wait=self.patience)
            except TimeoutError:
                self._leave(playing, waiting_at=int(stream.last_seen.etag or 0))
                log.info("bot waits for its opponent off the table", game=seat.name, bot=seat.bot)
                return
            finally:
                stream.close()
            if finished(last, MONEY_GAMES):
                self._leave(playing)
                log.info("bot finished its match", game=seat.name, bot=seat.bot)
        except TavliServerError as refusal:
            if refusal.reason in _SEAT_GONE:
                self._leave(playing)
            if not (self._closed.is_set() or playing.done):
                log.warning(
                    "bot stopped",
                    game=seat.name,
                    bot=seat.bot,
                    status=refusal.status.name,
                    reason=refusal.reason,
                )
        except Exception:  # a bot's thread ends with a line in the log, never with a traceback on stderr
            if not (self._closed.is_set() or playing.done):
                log.exception("bot failed", game=seat.name, bot=seat.bot)

    def _leave(self, playing: _Playing, *, waiting_at: int | None = None) -> None:
        """The bot of ``playing`` leaves the table: with ``waiting_at``, until the game moves on
        from that version; without, for good (its match is over, or its game gone)."""
        seat = playing.seat
        with self._lock:
            if playing.done:
                return  # it lost its seat to another process, which now decides
            playing.done = True
            try:
                if waiting_at is None:
                    self.store.retire_bot_seat(seat.name, seat.seat, self.holder)
                else:
                    self.store.let_go_of_bot_seat(seat.name, seat.seat, self.holder, waiting_at)
            except StoreUnavailable:
                pass  # its lease runs out, and the next holder finds the match over or the opponent's turn


class BotsServicer(bots_service_pb2_grpc.BotsServiceServicer):
    def __init__(
        self, tables: Tables, seats: BotSeats, streams: SeatStreams, *, match_points: int = BOT_MATCH_POINTS
    ) -> None:
        """``streams`` are the seat streams of this process: a bot takes no seat one of them holds.
        Bots are seated at matches of at most ``match_points`` points (money play has its own
        bound, :data:`MONEY_GAMES`)."""
        self.tables = tables
        self.seats = seats
        self.streams = streams
        self.match_points = match_points

    async def ListBots(self, request: pb.ListBotsRequest, context: Context) -> pb.ListBotsResponse:
        hosted_bots = await asyncio.to_thread(lambda: self.seats.hosted)  # the first time, gnubg's net loads
        return pb.ListBotsResponse(
            bots=[
                pb.BotInfo(
                    name=hosted.name,
                    description=hosted.description,
                    variants=[convert.variant_message(variant) for variant in hosted.variants],
                )
                for hosted in hosted_bots
            ],
            max_match_length=self.match_points,
        )

    async def SeatBot(self, request: pb.SeatBotRequest, context: Context) -> pb.SeatBotResponse:
        side = await self.tables.seat(request.name, request.seat_token)
        if self.streams.holds(request.name, side):
            raise SeatAlreadyStreaming(
                f"seat {side} of {request.name} is played on a seat stream now: a bot takes a seat that"
                " no stream holds; end that stream first"
            )
        client = client_of(context)
        self.seats.quotas.check_cpu_left(client)
        await asyncio.to_thread(lambda: self.seats.hosted)  # the first time, gnubg's net loads
        for _ in range(_ATTEMPTS):
            view = await self.tables.get(request.name)
            hosted = self._bot(request.bot, view.rules.variants_played)
            if view.state.over:
                raise ActionError("MATCH_OVER", "the match is over")
            points = view.rules.match_length
            if points > self.match_points:
                raise MatchTooLongForBots(
                    f"this server's bots play matches of up to {self.match_points} points (and money"
                    f" play, up to {MONEY_GAMES} games), not of {points}"
                )
            try:
                await asyncio.to_thread(
                    self.seats.seat, request.name, side, hosted.name, view.version, client
                )
            except StoreConflict:
                continue  # the game moved on meanwhile: checked again on what it is now
            return pb.SeatBotResponse(seat=convert.seat_message(side), bot=hosted.name)
        raise StaleEtag("the game kept moving on while the bot was being seated; seat it again")

    async def GetSeatBot(self, request: pb.GetSeatBotRequest, context: Context) -> pb.GetSeatBotResponse:
        side = convert.seat_of(request.seat)
        await self.tables.get(request.name)  # a game that is not there is NOT_FOUND
        answer = pb.GetSeatBotResponse(seat=request.seat)
        for seated in await asyncio.to_thread(self.seats.seated, request.name):
            if seated.seat == side:
                description = await asyncio.to_thread(self.seats.description_of, seated.bot)
                answer.bot, answer.description = seated.bot, description
                answer.seat_time.CopyFrom(convert.timestamp(seated.since))
        return answer

    def _bot(self, name: str, variants: tuple[Variant, ...]) -> HostedBot:
        """The bot called ``name`` (the default bot without one) if it plays every variant of the
        game's rule set (a tavli match's three), with the rules' options.

        :raises UnknownBot: in words, for a bot not hosted or one that does not play them.
        """
        if not name:
            default = self.seats.default_for(*variants)
            if default is None:
                titles = " and ".join(variant.title for variant in variants)
                raise UnknownBot(f"this server has no bot that plays {titles}")
            return default
        for hosted in self.seats.hosted:
            if hosted.name == name:
                for variant in variants:
                    if not bots.plays(hosted.name, variant):  # the game's rules: a start or a table too
                        raise UnknownBot(
                            bots.refusal(name, variant) or f"the {name} bot does not play {variant.title}"
                        )
                return hosted
        names = ", ".join(hosted.name for hosted in self.seats.hosted)
        raise UnknownBot(f"this server has no bot called {name!r}: it has {names}")
