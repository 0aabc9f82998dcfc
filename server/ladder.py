"""The ladder's game layer: challenges and seeks, the games they start, their ends and ratings.

Every change is made in the store first, in one transaction with the events it tells
(:mod:`tavli.server.ladder_records`); the streams of the accounts told are woken after it
(:mod:`tavli.server.ladder_events`). A challenge is closed once: the accept, decline, cancel or
expiry that closes it first wins, and the others are told CHALLENGE_CLOSED. A game's end is
recorded once, rated at the same time, whichever process sees it first: the one whose action
ended the match (the tables' ``on_over``), or any process's sweep over the games in progress,
which also ends the games whose player is gone (:meth:`Ladder.sweep`).

A game started by the ladder is an ordinary game of the tables, its seats named after the
accounts that play them; each seat wants its account's key as well as its token
(:meth:`Ladder.check_seat`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

import grpc
import structlog

from tavli.engine import TavliError
from tavli.engine.clock import ClockRules
from tavli.engine.events import SeedRevealed, Side, TimeRanOut
from tavli.engine.game import ActionError, other
from tavli.engine.glicko2 import Rating
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.accounts import (
    SERVER_BOT_PREFIX,
    Accounts,
    MissingApiKey,
    NotYourSeat,
    UnknownApiKey,
    key_in,
)
from tavli.server.errors import BadRequest, LimitReached, ServiceError, StoreUnavailable
from tavli.server.game_views import GameView
from tavli.server.ladder_events import HEARTBEAT_SECONDS, AccountEvents
from tavli.server.ladder_records import OPEN, AccountRecord, ChallengeRecord, LadderGameRecord
from tavli.server.players import SeatPlayer
from tavli.server.sql_store import SqlStore
from tavli.server.tables import Tables, rules_from_dict, rules_to_dict
from tavli.v1 import ladder_service_pb2 as pb

log = structlog.get_logger("tavli.server")
T = TypeVar("T")

TOO_MANY_CHALLENGES = "TOO_MANY_CHALLENGES"
LONGEST_CHALLENGE_SECONDS = 24 * 3600.0
_SWEEP_SECONDS = 1.0  # how often the sweep looks for challenges expired and games ended or abandoned
_LISTED = 200  # the most open challenges ListChallenges answers
_NOT_LADDER_GAMES_KEPT = 100_000


def server_bot_handle(bot: str) -> str:
    """The handle of the account the server's own bot ``bot`` plays the ladder as."""
    return f"{SERVER_BOT_PREFIX}{bot}"


def _default_rule_sets() -> tuple[RuleSet, ...]:
    return (RuleSet(match_length=3, clock=ClockRules(reserve=120.0, delay=8.0)),)


@dataclass(frozen=True)
class LadderSettings:
    """How the ladder runs: who may make accounts, its quotas per account and its clocks.

    ``grace_seconds``: how long a player may be gone (no stream open, no action) before its
    opponent may claim the game; at least three heartbeats (``heartbeat_seconds``: how often an
    open stream is noted in the store), so that a stream open on another replica is always seen.
    ``pairing``: whether the ladder pairs its online members by itself
    (``tavli serve --ladder``), with ``rule_sets`` in turn, each member in at most
    ``games_at_once`` games at a time and ``games_per_day`` a day (``pair_seconds`` apart).
    """

    open_accounts: bool = False
    challenges_per_account: int = 20
    streams_per_account: int = 4
    grace_seconds: float = 60.0
    heartbeat_seconds: float = HEARTBEAT_SECONDS
    challenge_seconds: float = 300.0  # how long a challenge stays open unless it says
    shortest_challenge_seconds: float = 10.0
    pairing: bool = False
    rule_sets: tuple[RuleSet, ...] = field(default_factory=_default_rule_sets)
    games_at_once: int = 1
    games_per_day: int = 500
    pair_seconds: float = 2.0
    house_bots: tuple[str, ...] = ()  # the server's own bots on the ladder (``--ladder-bots``)

    def __post_init__(self) -> None:
        for name in ("challenges_per_account", "streams_per_account", "games_at_once", "games_per_day"):
            if getattr(self, name) < 1:
                raise ValueError(f"the ladder's {name.replace('_', ' ')} is at least 1")
        if not self.heartbeat_seconds > 0:
            raise ValueError("the ladder's heartbeat is a number of seconds above 0")
        if not self.grace_seconds >= 3 * self.heartbeat_seconds:
            raise ValueError(
                "the ladder's grace period is at least three heartbeats,"
                f" {3 * self.heartbeat_seconds:g} seconds"
            )
        if not self.rule_sets:
            raise ValueError("the ladder needs a rule set to pair its members with")


class ChallengeNotFound(ServiceError):
    status = grpc.StatusCode.NOT_FOUND
    reason = "CHALLENGE_NOT_FOUND"


class ChallengeClosed(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "CHALLENGE_CLOSED"


class NotYourChallenge(ServiceError):
    status = grpc.StatusCode.PERMISSION_DENIED
    reason = "NOT_YOUR_CHALLENGE"


class ChallengeToSelf(ServiceError):
    reason = "CHALLENGE_TO_SELF"


class ChallengeToSelfAccepted(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "CHALLENGE_TO_SELF"


class GameStarted(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "GAME_STARTED"


class GameAborted(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "GAME_ABORTED"


class OpponentPresent(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "OPPONENT_PRESENT"


class MatchOver(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "MATCH_OVER"


class NotABot(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "NOT_A_BOT"


class Ladder:
    """Challenges, the games they start and how those end (see the module's words)."""

    def __init__(
        self,
        records: SqlStore,
        tables: Tables,
        accounts: Accounts,
        events: AccountEvents,
        settings: LadderSettings,
        *,
        streaming: Callable[[str, Side], bool] = lambda name, seat: False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``streaming(game, seat)``: whether a PlaySeat stream of this process holds the seat."""
        self.records = records
        self.tables = tables
        self.accounts = accounts
        self.events = events
        self.settings = settings
        self.streaming = streaming
        self.clock = clock
        self._tasks: set[asyncio.Future[Any]] = set()
        self.server_bots = {server_bot_handle(bot) for bot in settings.house_bots}
        # Games known not to be the ladder's: a game is the ladder's from its creation or never.
        self._not_ladder_games: set[str] = set()

    async def _in_store(self, call: Callable[..., T], *arguments: Any) -> T:
        return await asyncio.to_thread(call, *arguments)

    # --- challenges ----------------------------------------------------------------------------

    async def challenge(
        self, challenger: AccountRecord, opponent: str, rules: RuleSet, *, rated: bool, seconds: float
    ) -> ChallengeRecord:
        """Challenge ``opponent`` (a handle; "" for an open seek) to a match of ``rules``.

        :raises ChallengeToSelf, AccountNotFound, BadRequest: as their names say.
        :raises LimitReached: TOO_MANY_CHALLENGES past the challenger's open challenges.
        """
        if opponent:
            opponent = (await self._in_store(self.accounts.get, opponent)).handle
            if opponent == challenger.handle:
                raise ChallengeToSelf("an account cannot challenge itself")
        shortest = self.settings.shortest_challenge_seconds
        if not shortest <= seconds <= LONGEST_CHALLENGE_SECONDS:
            raise BadRequest(f"a challenge stays open {shortest:g} seconds to a day, not {seconds:g}")
        now = self.clock()
        record = ChallengeRecord(
            f"challenges/{secrets.token_hex(8)}",
            challenger.handle,
            opponent,
            _rules_text(rules),
            rated,
            OPEN,
            0,
            now,
            now + seconds,
        )
        tells = [(opponent, _event(challenge_received=challenge_message(record)))] if opponent else []
        most = self.settings.challenges_per_account
        if not await self._in_store(lambda: self.records.add_challenge(record, tells, most_open=most)):
            raise LimitReached(
                TOO_MANY_CHALLENGES,
                f"account {challenger.handle} has {most} challenges and seeks open, the most it may:"
                " cancel one, or wait for an answer",
            )
        self.events.told(handle for handle, _ in tells)
        return record

    async def open_challenges(self, account: AccountRecord, variant: str | None) -> list[ChallengeRecord]:
        listed = await self._in_store(self.records.open_challenges, account.handle, self.clock(), _LISTED)
        return [record for record in listed if variant is None or _variant(record) == variant]

    async def accept(self, account: AccountRecord, name: str) -> tuple[ChallengeRecord, LadderGameRecord]:
        """Accept the challenge ``name`` for ``account``: its game starts, both accounts are told.

        :raises ChallengeNotFound, ChallengeClosed, NotYourChallenge, ChallengeToSelfAccepted:
            as their names say.
        """
        record = await self._open_challenge(name)
        if record.challenger == account.handle:
            raise ChallengeToSelfAccepted("that is your own challenge: another account accepts it")
        if record.opponent not in ("", account.handle):
            raise NotYourChallenge("that challenge was made to another account")
        seats = (record.challenger, account.handle)
        if secrets.randbelow(2):
            seats = (account.handle, record.challenger)
        game = await self.start_game(
            seats, rules_from_dict(_rules_dict(record)), rated=record.rated, challenge=record
        )
        assert game is not None  # (a challenge's game is started whatever its accounts play)
        return await self._in_store(self._challenge, name), game

    async def decline(self, account: AccountRecord, name: str, reason: int) -> ChallengeRecord:
        """:raises ChallengeNotFound, ChallengeClosed, NotYourChallenge: as their names say."""
        record = await self._open_challenge(name)
        if record.opponent != account.handle:
            raise NotYourChallenge(
                "only the account challenged declines a challenge (an open seek is left to others)"
            )
        return await self._close(record, "declined", decline_reason=reason or pb.DECLINE_REASON_GENERIC)

    async def cancel(self, account: AccountRecord, name: str) -> ChallengeRecord:
        """:raises ChallengeNotFound, ChallengeClosed, NotYourChallenge: as their names say."""
        record = await self._open_challenge(name)
        if record.challenger != account.handle:
            raise NotYourChallenge("only the account that made a challenge cancels it")
        return await self._close(record, "cancelled")

    async def _close(
        self, record: ChallengeRecord, state: str, *, decline_reason: int = 0
    ) -> ChallengeRecord:
        closed = replace(record, state=state, decline_reason=decline_reason)
        event = _event(challenge_closed=challenge_message(closed))
        tells = [(handle, event) for handle in (record.challenger, record.opponent) if handle]
        done = await self._in_store(
            lambda: self.records.close_challenge(
                record.name, state, tells, self.clock(), decline_reason=decline_reason
            )
        )
        if not done:
            raise ChallengeClosed("that challenge is no longer open: it was answered, cancelled or expired")
        self.events.told(handle for handle, _ in tells)
        return closed

    async def _open_challenge(self, name: str) -> ChallengeRecord:
        record = await self._in_store(self._challenge, name)
        if record.state != OPEN or record.expires <= self.clock():
            raise ChallengeClosed("that challenge is no longer open: it was answered, cancelled or expired")
        return record

    def _challenge(self, name: str) -> ChallengeRecord:
        record = self.records.challenge(name)
        if record is None:
            raise ChallengeNotFound(f"there is no challenge {name[:64]!r}")
        return record

    # --- games ---------------------------------------------------------------------------------

    async def start_game(
        self,
        seats: tuple[str, str],
        rules: RuleSet,
        *,
        rated: bool,
        challenge: ChallengeRecord | None = None,
        most_at_once: int | None = None,
    ) -> LadderGameRecord | None:
        """Start a game of ``rules`` between the accounts ``seats`` (seat 0's, seat 1's) and tell
        both (each its own seat's token), closing ``challenge`` by it if one is given; with
        ``most_at_once``, only if neither account plays that many games already (None if one does).

        :raises ChallengeClosed: if ``challenge`` was closed first.
        """
        name = f"games/{secrets.token_hex(8)}"
        accounts = [await self._in_store(self.accounts.get, handle) for handle in seats]
        # Bots and people are rated on ladders of their own: a match between the two is not rated.
        rated = rated and accounts[0].kind == accounts[1].kind
        game = LadderGameRecord(
            name, seats, rules.variant, rated, "" if challenge is None else challenge.name, self.clock()
        )
        if challenge is None:
            added = await self._in_store(
                lambda: self.records.add_ladder_game(game, most_at_once=most_at_once)
            )
            if not added:
                return None
        else:
            accepted = replace(challenge, state="accepted", game=name)
            event = _event(challenge_closed=challenge_message(accepted))
            tells = [(challenge.challenger, event)]
            closed = await self._in_store(
                lambda: self.records.close_challenge(
                    challenge.name, "accepted", tells, self.clock(), game=game
                )
            )
            if not closed:
                raise ChallengeClosed(
                    "that challenge is no longer open: it was answered, cancelled or expired"
                )
            self.events.told([challenge.challenger])
        players = (
            SeatPlayer(accounts[0].display_name, f"accounts/{seats[0]}"),
            SeatPlayer(accounts[1].display_name, f"accounts/{seats[1]}"),
        )
        try:
            await self.tables.create(
                rules, dice_mode="verifiable", dice_seed="", request=None, players=players, name=name
            )
        except BaseException:
            await self._end(game, "aborted", -1)
            raise
        await self.events.tell(
            (seats[seat], _event(game_started=self.game_message(game, seat, rules))) for seat in (0, 1)
        )
        log.info("ladder game started", game=name, seats=list(seats), rated=rated)
        return game

    def game_message(
        self, game: LadderGameRecord, seat: int, rules: RuleSet, *, with_token: bool = False
    ) -> pb.LadderGame:
        """``game`` of ``rules`` as the account at ``seat`` is told of it (its token only if
        ``with_token``: the log keeps none)."""
        message = pb.LadderGame(
            game=game.game,
            seat=convert.seat_message(seat),  # type: ignore[arg-type]
            opponent=game.seats[1 - seat],
            rule_set=convert.rules_message(rules),
            rated=game.rated,
            challenge=game.challenge,
        )
        if with_token:
            self.events.fill_token(message)
        return message

    async def games_in_progress(self, account: AccountRecord) -> list[pb.LadderGame]:
        """Every game of ``account``'s in progress, each with its seat's token."""
        messages = []
        for game in await self._in_store(self.records.games_in_progress, account.handle):
            with contextlib.suppress(ServiceError):  # a game whose start failed midway: not played
                rules = (await self.tables.get(game.game)).state.rules
                seat = game.seats.index(account.handle)  # (its games are those it holds a seat of)
                messages.append(self.game_message(game, seat, rules, with_token=True))
        return messages

    async def check_seat(self, name: str, seat: Side, metadata: Any) -> None:
        """Refuse an action on ``seat`` of the ladder game ``name`` without the key of the account
        that plays it (a game the ladder did not start: anyone with the token).

        :raises NotYourSeat: for no key, a key not in force or another account's.
        :raises GameAborted: for an aborted game.
        """
        if name in self._not_ladder_games:
            return
        game = await self._in_store(self.records.ladder_game, name)
        if game is None:
            if len(self._not_ladder_games) >= _NOT_LADDER_GAMES_KEPT:
                self._not_ladder_games.clear()
            self._not_ladder_games.add(name)
            return
        if game.how == "aborted":
            raise GameAborted("this game was aborted before its first roll")
        if game.seats[seat] in self.server_bots:
            return  # the server's own bot: its token never leaves the server
        try:
            account = await self._in_store(self.accounts.holder_of, key_in(metadata))
        except (MissingApiKey, UnknownApiKey):
            raise NotYourSeat(
                f"seat {seat} of {name} is played by account {game.seats[seat]}: send its API key in force"
            ) from None
        if account.handle != game.seats[seat]:
            raise NotYourSeat(f"seat {seat} of {name} is played by another account, not {account.handle}")

    async def abort(self, account: AccountRecord, name: str) -> GameView:
        """End ``account``'s game ``name`` before its first roll: nobody wins, nothing is rated.

        :raises NotYourSeat, GameStarted, MatchOver: as their names say.
        """
        game, _ = await self._own_game(account, name)
        view = await self.tables.get(name)
        if view.state.throws or view.state.over:
            raise GameStarted("the dice have been thrown in this game: it is played to its end now")
        await self._end(game, "aborted", -1)
        return view

    async def claim(self, account: AccountRecord, name: str) -> GameView:
        """Win ``account``'s game ``name`` whose opponent is gone past the grace period: the
        opponent loses as on time.

        :raises NotYourSeat, OpponentPresent, MatchOver: as their names say.
        """
        game, seat = await self._own_game(account, name)
        view = await self.tables.get(name)
        if view.state.over:
            raise MatchOver("this match is over")
        left = await self._gone_for_less(game, 1 - seat, view)
        if left > 0:
            raise OpponentPresent(
                "your opponent has been gone for less than the grace period: claim again in"
                f" {math.ceil(left)} seconds, unless it comes back"
            )
        return await self._claim(game, seat)

    async def _claim(self, game: LadderGameRecord, seat: int) -> GameView:
        token = self.events.key.seat_token(game.game, seat)
        view = await self.tables.act(game.game, token, "", None, lambda match, side: match.claim(other(side)))
        await self.game_over(game.game)
        why = pb.LadderNotice(
            reason="GONE_PAST_GRACE",
            message=f"you were gone from {game.game} for over {self.settings.grace_seconds:g} seconds (no"
            " stream of yours open, no action of your seat): your opponent claimed the match",
            game=game.game,
        )
        await self.events.tell([(game.seats[1 - seat], _event(notice=why))])
        return view

    async def _own_game(self, account: AccountRecord, name: str) -> tuple[LadderGameRecord, int]:
        game = await self._in_store(self.records.ladder_game, name)
        seat = None if game is None else game.seat_of(account.handle)
        if game is None or seat is None:
            raise NotYourSeat(f"{name[:64]} is not a ladder game of {account.handle}'s")
        if game.ended is not None:
            raise MatchOver("this ladder game has ended")
        return game, seat

    async def _gone_for_less(self, game: LadderGameRecord, seat: int, view: GameView) -> float:
        """How much longer the player at ``seat`` must stay gone before the game may be claimed
        (0 or less: it has been gone long enough)."""
        if self.streaming(game.game, cast(Side, seat)) or game.seats[seat] in self.events.online():
            return self.settings.grace_seconds
        account = await self._in_store(self.accounts.get, game.seats[seat])
        last_seen = max(account.seen, view.updated, game.started)
        return last_seen + self.settings.grace_seconds - self.clock()

    async def rematch_offered(self, name: str, seat: Side) -> None:
        """The seat ``seat`` of game ``name`` offered a rematch: if it is a ladder game, tell the
        other account. (A rematch is an unrated game of GamesService: both accounts take their
        seats' tokens from AcceptRematch.)"""
        game = await self._in_store(self.records.ladder_game, name)
        if game is not None:
            offered = pb.RematchOffered(game=name, offered_by=game.seats[seat])
            await self.events.tell([(game.seats[other(seat)], _event(rematch_offered=offered))])

    # --- ends ----------------------------------------------------------------------------------

    def heard_over(self, name: str) -> None:
        """The tables' ``on_over``: a match of this process's ended; score it if it is the ladder's."""
        task = asyncio.ensure_future(self._score_quietly(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _score_quietly(self, name: str) -> None:
        with contextlib.suppress(ServiceError):  # the sweep scores it later
            await self.game_over(name)

    async def game_over(self, name: str) -> None:
        """Record the end of the ladder game ``name`` if its match is over (once, by whichever
        process comes first), rated if it is."""
        game = await self._in_store(self.records.ladder_game, name)
        if game is None or game.ended is not None:
            return
        view = await self.tables.get(name)
        winner = view.state.winner
        if winner is None:
            return
        # The match's last action: what ended it (the seed of verifiable dice is revealed after it).
        last = next((event for event in reversed(view.events) if not isinstance(event, SeedRevealed)), None)
        how = "claimed" if isinstance(last, TimeRanOut) and last.claimed else "played"
        await self._end(game, how, winner)

    async def _end(self, game: LadderGameRecord, how: str, winner: int) -> None:
        def ended(seat: int, rating: Rating | None) -> bytes:
            message = pb.GameEnded(
                game=game.game,
                how=_HOWS[how],
                winner="" if winner < 0 else game.seats[winner],
                rated=rating is not None,
            )
            if rating is not None:
                message.rating, message.deviation = rating.rating, rating.deviation
            return _event(game_ended=message)

        if await self._in_store(self.records.end_ladder_game, game, how, winner, self.clock(), ended):
            self.events.told(game.seats)
            log.info("ladder game ended", game=game.game, how=how, winner=winner)

    # --- the sweep -----------------------------------------------------------------------------

    async def run(self, pairing: Callable[[], Any] | None = None) -> None:
        """Sweep every second until cancelled: expire challenges, score and claim games, note the
        accounts streaming here as seen, and pair (``pairing``) when it is time."""
        last_heartbeat = last_pairing = 0.0
        while True:
            try:
                now = time.monotonic()
                if now - last_heartbeat >= self.settings.heartbeat_seconds:
                    await self.events.heartbeat()
                    last_heartbeat = now
                await self.sweep()
                if pairing is not None and now - last_pairing >= self.settings.pair_seconds:
                    await pairing()
                    last_pairing = now
            except (StoreUnavailable, ServiceError) as error:
                log.warning("the ladder's sweep failed; trying again", error=str(error))
            except Exception:  # a bug must not stop the ladder: logged, and the next sweep goes on
                log.exception("the ladder's sweep failed")
            await asyncio.sleep(min(_SWEEP_SECONDS, self.settings.heartbeat_seconds))

    async def sweep(self) -> None:
        """Expire the challenges past their time, score the games whose match is over, and end
        those one of whose players is gone past the grace period while the other is here: claimed
        for the one here, or aborted if nobody has thrown yet."""
        for record in await self._in_store(self.records.expired_challenges, self.clock(), 100):
            with contextlib.suppress(ChallengeClosed):
                await self._close(record, "expired")
        for game in await self._in_store(self.records.games_in_progress, None, 200):
            try:
                view = await self.tables.get(game.game)
                if view.state.over:
                    await self.game_over(game.game)
                    continue
                gone = [seat for seat in (0, 1) if await self._gone_for_less(game, seat, view) <= 0]
                if len(gone) == 1 and view.state.throws:
                    await self._claim(game, 1 - gone[0])
                elif len(gone) == 1:  # gone before the first throw: nothing to lose yet
                    await self._end(game, "aborted", -1)
            except ServiceError as error:
                log.warning("a ladder game could not be swept", game=game.game, error=str(error))
            except (ActionError, TavliError) as error:  # the rules refuse it now (a race with a move)
                log.info("a ladder game's claim waits", game=game.game, error=str(error))

    async def stop(self) -> None:
        if self._tasks:
            await asyncio.wait(list(self._tasks))


_HOWS = {
    "played": pb.GAME_ENDED_HOW_PLAYED,
    "aborted": pb.GAME_ENDED_HOW_ABORTED,
    "claimed": pb.GAME_ENDED_HOW_CLAIMED,
}
_STATES = {
    OPEN: pb.CHALLENGE_STATE_OPEN,
    "accepted": pb.CHALLENGE_STATE_ACCEPTED,
    "declined": pb.CHALLENGE_STATE_DECLINED,
    "cancelled": pb.CHALLENGE_STATE_CANCELLED,
    "expired": pb.CHALLENGE_STATE_EXPIRED,
}


def challenge_message(record: ChallengeRecord) -> pb.Challenge:
    return pb.Challenge(
        name=record.name,
        challenger=record.challenger,
        opponent=record.opponent,
        rule_set=convert.rules_message(rules_from_dict(_rules_dict(record))),
        rated=record.rated,
        state=_STATES[record.state],
        decline_reason=record.decline_reason,  # type: ignore[arg-type]
        create_time=convert.timestamp(record.created),
        expire_time=convert.timestamp(record.expires),
        game=record.game,
    )


def _event(**kind: Any) -> bytes:
    return pb.LadderEvent(**kind).SerializeToString()


def _rules_text(rules: RuleSet) -> str:
    return json.dumps(rules_to_dict(rules))


def _rules_dict(record: ChallengeRecord) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(record.rules)
    return loaded


def _variant(record: ChallengeRecord) -> str:
    return rules_from_dict(_rules_dict(record)).variant
