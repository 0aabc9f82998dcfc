"""LadderService: each RPC proves the account its key names, then asks the ladder.

The ladder itself is :mod:`tavli.server.ladder`; accounts and keys :mod:`tavli.server.accounts`;
the event streams :mod:`tavli.server.ladder_events`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from tavli.server import convert
from tavli.server.accounts import AccountCreationClosed, Accounts, InvalidHandle, handle_of, key_in
from tavli.server.admission import client_of
from tavli.server.errors import BadRequest
from tavli.server.handlers import Context
from tavli.server.ladder import Ladder, NotABot, challenge_message
from tavli.server.ladder_records import AccountRecord, account_name
from tavli.server.quotas import Quotas
from tavli.v1 import ladder_service_pb2 as pb, ladder_service_pb2_grpc

_KINDS = {pb.ACCOUNT_KIND_UNSPECIFIED: "human", pb.ACCOUNT_KIND_HUMAN: "human", pb.ACCOUNT_KIND_BOT: "bot"}
_KIND_ENUMS = {"human": pb.ACCOUNT_KIND_HUMAN, "bot": pb.ACCOUNT_KIND_BOT}
_BAD_PAGE_TOKEN = "page_token is not one this server gave"


class LadderServicer(ladder_service_pb2_grpc.LadderServiceServicer):
    def __init__(self, ladder: Ladder, accounts: Accounts, quotas: Quotas) -> None:
        self.ladder = ladder
        self.accounts = accounts
        self.quotas = quotas

    async def _caller(self, context: Context) -> AccountRecord:
        """The account whose key the call carries.

        :raises MissingApiKey, UnknownApiKey: as their names say.
        """
        return await asyncio.to_thread(self.accounts.holder_of, key_in(context.invocation_metadata()))

    async def CreateAccount(
        self, request: pb.CreateAccountRequest, context: Context
    ) -> pb.CreateAccountResponse:
        if not self.ladder.settings.open_accounts:
            raise AccountCreationClosed(
                "this server's operator creates its accounts (tavli accounts create): ask there"
            )
        # Counted before the account is made (a handle refused counts too): a client cannot probe
        # handles, or fill the store with accounts, faster than its quota.
        self.quotas.count_account(client_of(context))
        account, api_key = await asyncio.to_thread(
            self.accounts.create, request.handle, request.display_name, _KINDS[request.kind]
        )
        return pb.CreateAccountResponse(account=account_message(account), api_key=api_key)

    async def GetAccount(self, request: pb.GetAccountRequest, context: Context) -> pb.GetAccountResponse:
        return pb.GetAccountResponse(account=account_message(await self._caller(context)))

    async def SetLadderMember(
        self, request: pb.SetLadderMemberRequest, context: Context
    ) -> pb.SetLadderMemberResponse:
        account = await self._caller(context)
        if account.kind != "bot":
            raise NotABot("the ladder pairs bots: a person's account challenges, or accepts a seek")
        await asyncio.to_thread(self.ladder.records.set_ladder_member, account.handle, request.member)
        account = await asyncio.to_thread(self.accounts.get, account.handle)
        return pb.SetLadderMemberResponse(account=account_message(account))

    async def StreamEvents(
        self, request: pb.StreamEventsRequest, context: Context
    ) -> AsyncIterator[pb.StreamEventsResponse]:
        api_key = key_in(context.invocation_metadata())
        account = await asyncio.to_thread(self.accounts.holder_of, api_key)
        in_progress = self.ladder.games_in_progress
        async for response in self.ladder.events.follow(
            account.handle,
            request.after_event_id,
            lambda: in_progress(account),
            lambda: self.accounts.holder_of(api_key),
        ):
            yield response

    async def CreateChallenge(
        self, request: pb.CreateChallengeRequest, context: Context
    ) -> pb.CreateChallengeResponse:
        account = await self._caller(context)
        if not request.HasField("rule_set"):
            raise BadRequest("a challenge needs a rule_set: the match it offers")
        rules = convert.rules_of(request.rule_set)
        seconds = self.ladder.settings.challenge_seconds
        if request.HasField("time_to_live"):
            if request.time_to_live.nanos >= 1_000_000_000 or request.time_to_live.nanos < 0:
                raise BadRequest("time_to_live's nanos are under one second")
            seconds = request.time_to_live.seconds + request.time_to_live.nanos / 1e9
        record = await self.ladder.challenge(
            account, request.opponent, rules, rated=request.rated, seconds=seconds
        )
        return pb.CreateChallengeResponse(challenge=challenge_message(record))

    async def ListChallenges(
        self, request: pb.ListChallengesRequest, context: Context
    ) -> pb.ListChallengesResponse:
        account = await self._caller(context)
        variant = convert.match_variant_of(request.variant) if request.variant else None
        listed = await self.ladder.open_challenges(account, variant)
        return pb.ListChallengesResponse(challenges=[challenge_message(record) for record in listed])

    async def AcceptChallenge(
        self, request: pb.AcceptChallengeRequest, context: Context
    ) -> pb.AcceptChallengeResponse:
        account = await self._caller(context)
        challenge, game = await self.ladder.accept(account, request.name)
        rules = (await self.ladder.tables.get(game.game)).state.rules
        seat = game.seat_of(account.handle)
        assert seat is not None
        return pb.AcceptChallengeResponse(
            challenge=challenge_message(challenge),
            game=self.ladder.game_message(game, seat, rules, with_token=True),
        )

    async def DeclineChallenge(
        self, request: pb.DeclineChallengeRequest, context: Context
    ) -> pb.DeclineChallengeResponse:
        account = await self._caller(context)
        declined = await self.ladder.decline(account, request.name, request.reason)
        return pb.DeclineChallengeResponse(challenge=challenge_message(declined))

    async def CancelChallenge(
        self, request: pb.CancelChallengeRequest, context: Context
    ) -> pb.CancelChallengeResponse:
        account = await self._caller(context)
        return pb.CancelChallengeResponse(
            challenge=challenge_message(await self.ladder.cancel(account, request.name))
        )

    async def AbortGame(self, request: pb.AbortGameRequest, context: Context) -> pb.AbortGameResponse:
        account = await self._caller(context)
        return pb.AbortGameResponse(game=(await self.ladder.abort(account, request.game)).message)

    async def ClaimGame(self, request: pb.ClaimGameRequest, context: Context) -> pb.ClaimGameResponse:
        account = await self._caller(context)
        return pb.ClaimGameResponse(game=(await self.ladder.claim(account, request.game)).message)

    async def ListLeaderboard(
        self, request: pb.ListLeaderboardRequest, context: Context
    ) -> pb.ListLeaderboardResponse:
        variant = convert.match_variant_of(request.variant)
        kind = "human" if request.kind == pb.ACCOUNT_KIND_HUMAN else "bot"
        page_size = _page_size(request.page_size, default=50, most=200)
        offset = _offset(request.page_token)
        standings = await asyncio.to_thread(
            self.ladder.records.leaderboard, variant, kind, page_size + 1, offset
        )
        response = pb.ListLeaderboardResponse()
        for rank, standing in enumerate(standings[:page_size], start=offset + 1):
            response.entries.add(
                handle=standing.handle,
                display_name=standing.display_name,
                rating=standing.rating,
                deviation=standing.deviation,
                games=standing.games,
                rank=rank,
            )
        if len(standings) > page_size:
            response.next_page_token = str(offset + page_size)
        return response

    async def ListOnlineAccounts(
        self, request: pb.ListOnlineAccountsRequest, context: Context
    ) -> pb.ListOnlineAccountsResponse:
        variant = convert.match_variant_of(request.variant)
        page_size = _page_size(request.page_size, default=50, most=200)
        after = _handle_after(request.page_token)
        online = await self.ladder.events.online_accounts(variant, after, page_size + 1)
        response = pb.ListOnlineAccountsResponse(
            accounts=[
                pb.OnlineAccount(
                    handle=account.handle,
                    display_name=account.display_name,
                    kind=_KIND_ENUMS[account.kind],
                    rating=account.rating.rating,
                    deviation=account.rating.deviation,
                    games=account.games,
                    ladder_member=account.ladder_member,
                )
                for account in online[:page_size]
            ]
        )
        if len(online) > page_size:
            response.next_page_token = online[page_size - 1].handle
        return response

    async def ListRatingHistory(
        self, request: pb.ListRatingHistoryRequest, context: Context
    ) -> pb.ListRatingHistoryResponse:
        variant = convert.match_variant_of(request.variant)
        account = await asyncio.to_thread(self.accounts.get, request.handle)
        page_size = _page_size(request.page_size, default=100, most=500)
        changes = await asyncio.to_thread(
            self.ladder.records.rating_history, account.handle, variant, page_size
        )
        return pb.ListRatingHistoryResponse(
            changes=[
                pb.RatingChange(
                    game=change.game,
                    rating=change.rating,
                    deviation=change.deviation,
                    time=convert.timestamp(change.at),
                    opponent=change.opponent,
                    won=change.won,
                )
                for change in changes
            ]
        )


def account_message(account: AccountRecord) -> pb.Account:
    return pb.Account(
        name=account_name(account.handle),
        handle=account.handle,
        display_name=account.display_name,
        kind=_KIND_ENUMS[account.kind],
        ladder_member=account.ladder_member,
        create_time=convert.timestamp(account.created),
    )


def _page_size(requested: int, *, default: int, most: int) -> int:
    if requested > most:
        raise BadRequest(f"page_size is at most {most}")
    return requested or default


def _handle_after(token: str) -> str:
    """The handle a page of accounts starts after: its token is the last handle of the page before."""
    if not token:
        return ""
    try:
        return handle_of(token)
    except InvalidHandle:
        raise BadRequest(_BAD_PAGE_TOKEN) from None


def _offset(token: str) -> int:
    if not token:
        return 0
    if not token.isdigit() or len(token) > 9:
        raise BadRequest(_BAD_PAGE_TOKEN)
    return int(token)
