"""A ladder bot: an account's bot that stays connected, is told of its games and plays them.

It joins the ladder, follows its account's event stream (resuming after the last event it saw
when the connection drops), plays every game it is told of, or that is in progress when it
connects, on a PlaySeat stream of its own (one thread a game), accepts challenges whose variant
its bot plays and declines the others (DECLINE_REASON_VARIANT).
"""

from __future__ import annotations

import threading
from typing import Any

import grpc
import structlog

from tavli.clients import bots
from tavli.clients.client import TavliClient, TavliServerError
from tavli.clients.seat_driver import play_seat
from tavli.engine import VARIANTS
from tavli.engine.rules import TAVLI
from tavli.v1 import board_pb2, ladder_service_pb2 as ladder_pb2

log = structlog.get_logger("tavli.bot")

_RECONNECT_SECONDS = 1.0  # the pause before following the events again after the stream dropped


class LadderBot:
    """Plays an account's games with the bot ``bot_name`` (see the module's words).

    ``games``: stop once this many games of it have ended (None: run until :meth:`stop`).
    """

    def __init__(
        self, address: str, api_key: str, bot_name: str = "heuristic", *, games: int | None = None
    ) -> None:
        self.client = TavliClient.connect(address, api_key=api_key)
        self.bot_name = bot_name
        self.games = games
        self.ended = 0
        self.after = 0  # the last event seen
        self._playing: dict[str, threading.Thread] = {}
        self._stopping = threading.Event()
        self._events: Any = None  # the event stream open now (a grpc call)

    def run(self) -> int:
        """Join the ladder and play until stopped (or ``games`` have ended); returns an exit status."""
        joined = False
        try:
            while not self._stopping.is_set():
                try:
                    if not joined:
                        self.client.join_ladder()
                        joined = True
                    self._follow()
                except grpc.RpcError as error:
                    if not self._stopping.is_set():
                        self._wait_for_the_server(TavliServerError.from_rpc_error(error))
                except TavliServerError as error:
                    self._wait_for_the_server(error)
            for thread in list(self._playing.values()):
                thread.join()
        finally:
            self.client.close()
        return 0

    def _wait_for_the_server(self, error: TavliServerError) -> None:
        """Wait a moment before trying again if the server is out of reach (restarting, say).

        :raises TavliServerError: ``error``, for any other refusal.
        """
        if not error.worth_trying_again:
            raise error
        log.info("the server is out of reach; trying again", error=error.message)
        self._stopping.wait(_RECONNECT_SECONDS)

    def stop(self) -> None:
        """Stop following the events; the games under way are played to their end."""
        self._stopping.set()
        if self._events is not None:
            self._events.cancel()

    def _follow(self) -> None:
        request = ladder_pb2.StreamEventsRequest(after_event_id=self.after)
        self._events = self.client.ladder.StreamEvents(request)
        if self._stopping.is_set():
            self._events.cancel()
        for response in self._events:
            for game in response.games_in_progress:
                self._play(game)
            if response.HasField("event"):
                self._heard(response.event)
            if self._stopping.is_set():
                self._events.cancel()
                return

    def _heard(self, event: ladder_pb2.LadderEvent) -> None:
        self.after = event.event_id
        kind = event.WhichOneof("kind")
        if kind == "game_started":
            self._play(event.game_started)
        elif kind == "challenge_received":
            self._answer(event.challenge_received)
        elif kind == "game_ended":
            self.ended += 1
            log.info("game ended", game=event.game_ended.game, winner=event.game_ended.winner)
            if self.games is not None and self.ended >= self.games:
                self.stop()
        elif kind == "notice":
            log.warning("the server says", reason=event.notice.reason, message=event.notice.message)

    def _answer(self, challenge: ladder_pb2.Challenge) -> None:
        variant = challenge.rule_set.variant
        if variant != board_pb2.VARIANT_TAVLI and _plays(self.bot_name, variant):
            try:
                self._play(self.client.accept_challenge(challenge.name))
            except TavliServerError as error:  # withdrawn or expired meanwhile
                log.info("challenge not accepted", challenge=challenge.name, reason=error.reason)
        else:
            self.client.decline_challenge(challenge.name, ladder_pb2.DECLINE_REASON_VARIANT)

    def _play(self, game: ladder_pb2.LadderGame) -> None:
        running = self._playing.get(game.game)
        if running is not None and running.is_alive():
            return
        thread = threading.Thread(
            target=self._play_game, args=(game,), name=f"tavli-{game.game}", daemon=True
        )
        self._playing[game.game] = thread
        thread.start()

    def _play_game(self, game: ladder_pb2.LadderGame) -> None:
        bot = bots.create(self.bot_name)
        try:
            with self.client.stream_seat(game.game, game.seat_token, resume=True) as stream:
                play_seat(stream, bot)
        except (TavliServerError, RuntimeError) as error:
            log.warning("a game stopped", game=game.game, error=str(error))


def _plays(bot_name: str, variant: int) -> bool:
    names = {number: name for name, number in board_pb2.Variant.items()}
    name = names.get(variant, "").removeprefix("VARIANT_").lower()
    return name in VARIANTS and name != TAVLI and bots.plays(bot_name, VARIANTS[name])
