"""The ladder that runs by itself (``tavli serve --ladder``): online members paired by rating.

Every few seconds the ladder takes its members that are online (a stream of theirs seen within
three heartbeats, on any replica; the server's own bots always), leaves out those playing as many
games as they may at once or that have played their games of the day, orders the rest by their
rating in the variant of the next rule set (the rule sets are taken in turn), and pairs
neighbours: the closest ratings meet. Each pair plays a rated match, seats drawn at random. A
seat of the server's own bots (``--ladder-bots``, accounts ``server-{bot}``) is given to that
bot, which plays it as it plays any seat given to it (:mod:`tavli.server.bot_seats`); two of the
server's bots are not paired with each other.

With workers or replicas, each pairs on its own sweep; a game is stored only if neither member
plays as many games already, checked with both accounts' rows locked, so that processes pairing
at once never give a member more games at a time than it may have.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable

import structlog

from tavli.server.accounts import HandleTakenError
from tavli.server.bot_seats import BotSeats
from tavli.server.errors import ServiceError
from tavli.server.ladder import Ladder, server_bot_handle
from tavli.server.ladder_records import AccountRecord

log = structlog.get_logger("tavli.server")

DAY_SECONDS = 24 * 3600.0


class Pairing:
    """Pairs the ladder's online members, once a call (see the module's words)."""

    def __init__(
        self, ladder: Ladder, bot_seats: BotSeats, *, clock: Callable[[], float] | None = None
    ) -> None:
        self.ladder = ladder
        self.bot_seats = bot_seats
        self.clock = clock or ladder.clock
        self._turn = 0  # the rule set of the next pairing
        self._server_bots = {server_bot_handle(bot): bot for bot in ladder.settings.house_bots}

    async def enrol_server_bots(self) -> None:
        """Make the accounts of the server's own ladder bots (once) and put them on the ladder."""
        for handle in self._server_bots:
            records = self.ladder.records
            if await asyncio.to_thread(records.account, handle) is None:
                # Its key is kept nowhere: the server plays the account itself. (Another replica
                # may make it meanwhile.)
                with contextlib.suppress(HandleTakenError):
                    await asyncio.to_thread(self.ladder.accounts.create, handle, "", "bot", server_bot=True)
            await asyncio.to_thread(records.set_ladder_member, handle, True)

    async def __call__(self) -> None:
        settings = self.ladder.settings
        rules = settings.rule_sets[self._turn % len(settings.rule_sets)]
        self._turn += 1
        ready = await asyncio.to_thread(self._ready)
        rated = []
        for account in ready:
            rating, _ = await asyncio.to_thread(self.ladder.records.rating, account.handle, rules.variant)
            rated.append((rating.rating, secrets.randbelow(1 << 30), account.handle))
        rated.sort()
        handles = [handle for _, _, handle in rated]
        while len(handles) >= 2:
            first = handles.pop()
            partner = next((other for other in reversed(handles) if self._may_meet(first, other)), None)
            if partner is None:
                continue
            handles.remove(partner)
            seats = (first, partner) if secrets.randbelow(2) else (partner, first)
            try:
                game = await self.ladder.start_game(
                    seats, rules, rated=True, most_at_once=self.ladder.settings.games_at_once
                )
                if game is not None:  # (None: another process paired one of them meanwhile)
                    await self._seat_server_bots(game.game, seats)
            except ServiceError as error:
                log.warning("the ladder could not start a game", seats=list(seats), error=str(error))

    def _ready(self) -> list[AccountRecord]:
        """The members online and free to play another game now."""
        settings = self.ladder.settings
        now = self.clock()
        online_since = now - 3 * settings.heartbeat_seconds
        ready = []
        for account in self.ladder.records.ladder_members():
            if account.kind != "bot":
                continue
            if account.handle not in self._server_bots and account.seen < online_since:
                continue
            playing = len(self.ladder.records.games_in_progress(account.handle))
            if playing >= settings.games_at_once:
                continue
            if self.ladder.records.games_since(account.handle, now - DAY_SECONDS) >= settings.games_per_day:
                continue
            ready.append(account)
        return ready

    def _may_meet(self, first: str, second: str) -> bool:
        return not (first in self._server_bots and second in self._server_bots)

    async def _seat_server_bots(self, name: str, seats: tuple[str, str]) -> None:
        for seat, handle in enumerate(seats):
            bot = self._server_bots.get(handle)
            if bot is not None:
                view = await self.ladder.tables.get(name)
                await asyncio.to_thread(self.bot_seats.seat, name, seat, bot, view.version, handle)
