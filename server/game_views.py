"""A game as stored at one version, and the messages that show it, each built once.

A version's Game message is built the first time it is asked for (at the latest when the version
is stored: its serialized form is the listing's summary, written with it) and kept with the
version; the action's response, the listing, every watcher and both seat streams of this process
share it, as they share each seat's legal actions at that version. The messages kept are never
changed: a response that holds one holds a copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from tavli.engine.events import Event, Side
from tavli.engine.game import MatchState, legal_actions, rolled_plays
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.server import answers, convert
from tavli.server.players import NOBODY, Players
from tavli.v1 import games_service_pb2 as pb

DiceMode = Literal["system", "seeded", "verifiable"]


@dataclass(frozen=True)
class GameView:
    """A game as stored at one version: what every reader is shown.

    ``match`` is never acted on once it is part of a view (actions work on a fork of it).
    """

    name: str
    rules: RuleSet
    dice_mode: DiceMode
    match: Match
    created: float
    updated: float
    players: Players = NOBODY
    hints_allowed: bool = False

    @property
    def state(self) -> MatchState:
        return self.match.state

    @property
    def events(self) -> list[Event]:
        return self.match.events

    @property
    def version(self) -> int:
        return self.match.version

    @property
    def etag(self) -> str:
        return str(self.match.version)

    @cached_property
    def message(self) -> pb.Game:
        """The Game resource of this version, built once; shared, so never changed."""
        return convert.game_message(
            self.name,
            self.rules,
            self.state,
            event_count=self.version,
            dice_commitment=self.match.dice_commitment,
            dice_mode=self.dice_mode,
            created=self.created,
            updated=self.updated,
            players=self.players,
            hints_allowed=self.hints_allowed,
        )

    @cached_property
    def summary(self) -> bytes:
        """What a listing shows of this version: its Game resource, serialized (stored with it)."""
        return self.message.SerializeToString()

    def legal_actions(self, seat: Side) -> pb.ListLegalActionsResponse:
        """What ``seat`` may do at this version, with the legal plays when it is on turn: built
        once for each seat; shared, so never changed."""
        answer = self._legal_actions.get(seat)
        if answer is None:
            answer = self._legal_actions[seat] = _legal_actions_message(self, seat)
        return answer

    def seat_view(self, seat: Side) -> pb.PlaySeatResponse:
        """What a seat stream shows ``seat`` of this version: the game and the seat's legal
        actions (a new message, which its stream may add an answer to)."""
        return pb.PlaySeatResponse(
            seat=convert.seat_message(seat), game=self.message, legal_actions=self.legal_actions(seat)
        )

    @cached_property
    def _legal_actions(self) -> dict[Side, pb.ListLegalActionsResponse]:
        return {}


def _legal_actions_message(view: GameView, seat: Side) -> pb.ListLegalActionsResponse:
    state = view.state
    actions = convert.actions_message(legal_actions(state, seat))
    response = pb.ListLegalActionsResponse(actions=actions, etag=view.etag, seat=convert.seat_message(seat))
    rolled = rolled_plays(state) if seat == state.game.turn else None
    return response if rolled is None else answers.with_plays(response, rolled)
