"""BotsService: the computer opponents the server hosts, each playing one seat as any client does.

A front end with no bot of its own (the web table) creates a game and hands one seat's token to
SeatBot. The server checks what it can answer at once (the game, the token, the bot, the variant,
the match not over), then seats the bot: a thread of its own holding the seat on a PlaySeat stream
to this same server, driven by :func:`~clients.seat_driver.play_seat`. So a hosted bot is held to
exactly the rules, refusals, etags and clocks of every other client; the server does not make its
moves for it.

A bot leaves its seat when the match is over (in money play, after :data:`MONEY_GAMES` games),
when its opponent has kept it waiting :attr:`BotSeats.patience` seconds, or when the server stops.
At most :attr:`BotSeats.most` play at once.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from dataclasses import dataclass

import grpc
import structlog

from tavli.clients import bots
from tavli.clients.client import SeatStream, TavliClient, TavliServerError
from tavli.clients.seat_driver import play_seat
from tavli.engine import VARIANTS, Variant
from tavli.engine.game import ActionError
from tavli.server import convert
from tavli.server.errors import LimitReached, SeatAlreadyStreaming, ServiceError
from tavli.server.tables import Tables
from tavli.v1 import bots_service_pb2 as pb, bots_service_pb2_grpc

log = structlog.get_logger("tavli.server")

MONEY_GAMES = 1_000
"""The games a bot plays at one money table before it leaves."""


class UnknownBot(ServiceError):
    """A bot this server does not have, or one that does not play the game's variant."""

    reason = "UNKNOWN_BOT"


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
                name, bot.description or name, tuple(v for v in VARIANTS.values() if bots.plays(name, v))
            )
        )
    found.sort(key=lambda hosted: (hosted.name != "heuristic", hosted.name))
    return found


class BotSeats:
    """The bots playing at this server, each in a thread of its own, on a client of ``address``
    (this server's own, reached without the network)."""

    def __init__(self, address: str, *, most: int = 64, patience: float = 3600.0) -> None:
        self.address = address
        self.most = most
        self.patience = patience
        self._playing: dict[tuple[str, int], threading.Thread] = {}
        self._streams: set[SeatStream] = set()
        self._lock = threading.Lock()
        self._client: TavliClient | None = None
        self._closed = False

    @functools.cached_property
    def hosted(self) -> list[HostedBot]:
        """The bots this server can seat: found on the first call that needs them (creating
        gnubg's loads its net), not at every start."""
        return hosted_bots()

    def default_for(self, variant: Variant) -> HostedBot | None:
        return next((hosted for hosted in self.hosted if variant in hosted.variants), None)

    def seat(self, name: str, token: str, seat: int, bot_name: str) -> None:
        """Start ``bot_name`` playing ``seat`` of game ``name`` in a thread of its own.

        :raises SeatAlreadyStreaming: if a bot of this server plays that seat already.
        :raises LimitReached: if :attr:`most` bots play already.
        """
        with self._lock:
            if self._closed:
                raise LimitReached("TOO_MANY_BOTS", "the server is stopping and seats no more bots")
            self._forget_finished()
            if (name, seat) in self._playing:
                raise SeatAlreadyStreaming("a bot of this server plays that seat already")
            if len(self._playing) >= self.most:
                raise LimitReached(
                    "TOO_MANY_BOTS", f"all {self.most} of this server's bots are playing; try again later"
                )
            if self._client is None:
                self._client = TavliClient.connect(self.address)
            thread = threading.Thread(
                target=self._play,
                args=(self._client, name, token, bot_name),
                name=f"bot-{name}-{seat}",
                daemon=True,
            )
            self._playing[(name, seat)] = thread
            thread.start()

    def _forget_finished(self) -> None:
        for key in [key for key, thread in self._playing.items() if not thread.is_alive()]:
            del self._playing[key]

    def _play(self, client: TavliClient, name: str, token: str, bot_name: str) -> None:
        try:
            stream = client.stream_seat(name, token, resume=True)
            with self._lock:
                self._streams.add(stream)
                if self._closed:
                    stream.close()
            try:
                play_seat(stream, bots.create(bot_name), games=MONEY_GAMES, wait=self.patience)
            finally:
                stream.close()
                with self._lock:
                    self._streams.discard(stream)
        except TimeoutError:
            log.info("bot left a game that waited too long", game=name, bot=bot_name)
        except TavliServerError as refusal:
            if not self._closed:
                log.warning(
                    "bot stopped", game=name, bot=bot_name, code=refusal.code.name, reason=refusal.reason
                )
        except Exception:  # a bot's thread ends with a line in the log, never with a traceback on stderr
            if not self._closed:
                log.exception("bot failed", game=name, bot=bot_name)

    def close(self) -> None:
        """Stop every bot: each lets go of its seat, then its thread ends."""
        with self._lock:
            self._closed = True
            threads = list(self._playing.values())
            for stream in self._streams:
                stream.close()
        for thread in threads:
            thread.join(timeout=5)
        if self._client is not None:
            self._client.close()


class BotsServicer(bots_service_pb2_grpc.BotsServiceServicer):
    def __init__(self, tables: Tables, seats: BotSeats) -> None:
        self.tables = tables
        self.seats = seats

    async def ListBots(
        self, request: pb.ListBotsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListBotsResponse:
        hosted_bots = await asyncio.to_thread(lambda: self.seats.hosted)  # the first time, gnubg's net loads
        return pb.ListBotsResponse(
            bots=[
                pb.BotInfo(
                    name=hosted.name,
                    description=hosted.description,
                    variants=[convert.variant_message(variant) for variant in hosted.variants],
                )
                for hosted in hosted_bots
            ]
        )

    async def SeatBot(
        self, request: pb.SeatBotRequest, context: grpc.aio.ServicerContext
    ) -> pb.SeatBotResponse:
        view = await self.tables.get(request.name)
        side = await self.tables.seat(request.name, request.seat_token)
        variant = view.rules.rules
        await asyncio.to_thread(lambda: self.seats.hosted)  # the first time, gnubg's net loads
        hosted = self._bot(request.bot, variant)
        if view.state.over:
            raise ActionError("MATCH_OVER", "the match is over")
        seat = convert.seat_message(side)
        await asyncio.to_thread(self.seats.seat, request.name, request.seat_token, seat, hosted.name)
        return pb.SeatBotResponse(seat=seat, bot=hosted.name)

    def _bot(self, name: str, variant: Variant) -> HostedBot:
        if not name:
            default = self.seats.default_for(variant)
            if default is None:
                raise UnknownBot(f"this server has no bot that plays {variant.title}")
            return default
        for hosted in self.seats.hosted:
            if hosted.name == name:
                if variant not in hosted.variants:
                    raise UnknownBot(
                        bots.refusal(name, variant) or f"the {name} bot does not play {variant.title}"
                    )
                return hosted
        names = ", ".join(hosted.name for hosted in self.seats.hosted)
        raise UnknownBot(f"this server has no bot called {name!r}: it has {names}")
