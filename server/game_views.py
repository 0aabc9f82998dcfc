"""A game as stored at one version, and the messages that show it, each built once.

A version's Game is written serialized the first time it is asked for (at the latest when the
version is stored: it is the listing's summary, written with it) and kept with the version: the
action's answer, GetGame and both seat streams of this process send those bytes as they are, and
every watcher shares the message read once from them, as the seat streams share each seat's legal
actions at that version. The messages kept are never changed: a response that holds one holds a
copy.

A stream's messages after its first show a Game without the finished games the stream has sent
already (:meth:`GameView.stream_message`), so that their size does not grow with the games played;
that Game too is built once a version for each number of games sent (in practice one: those
finished before the version's last event).

What a seat is shown (its legal actions, its stream's messages) is kept and joined serialized
(:data:`~tavli.server.handlers.Serialized`): a seat stream's message is the version's serialized
Game and the seat's serialized legal actions side by side, sent as they are, with no message
copied or written again for each seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

from tavli.engine import wire
from tavli.engine.events import Event, Side
from tavli.engine.game import Action, MatchState, legal_actions, rolled_plays
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.handlers import Serialized
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
        """The Game resource of this version, read once from its :attr:`summary`; shared, so
        never changed."""
        return pb.Game.FromString(self.summary)

    def built(self) -> GameView:
        """This version, its :attr:`summary` and :attr:`message` built now by the calling thread:
        a thread that has read and folded a game builds them too, for a long match's finished
        games take the event loop milliseconds to convert."""
        _ = self.message
        return self

    def stream_message(self, sent: int) -> pb.Game:
        """The Game of this version as a stream shows it after its first message, the stream
        having sent the match's first ``sent`` finished games: only those after them (the whole
        :attr:`message` when it has sent none). Built once for each ``sent``; shared, so never
        changed."""
        sent = min(sent, len(self.state.finished))
        if sent == 0:
            return self.message
        game = self._stream_messages.get(sent)
        if game is None:
            game = self._stream_messages[sent] = pb.Game.FromString(self._stream_game(sent))
        return game

    def whole(self, game: pb.Game) -> pb.Game:
        """``game``, a stream's Game of this version or an earlier one, with the finished games
        it leaves out (this version's first ones) put back: what a stream's first message shows."""
        omitted = game.omitted_finished_game_count
        if omitted == 0:
            return game
        whole = pb.Game()
        whole.CopyFrom(game)
        del whole.finished_games[:]
        whole.finished_games.extend(self.message.finished_games[:omitted])
        whole.finished_games.extend(game.finished_games)
        whole.ClearField("omitted_finished_game_count")
        return whole

    @cached_property
    def summary(self) -> bytes:
        """What a listing shows of this version: its Game resource, serialized (stored with it);
        what an action's answer carries, as it is."""
        return self._serialized_game(0)

    def legal_actions(self, seat: Side) -> Serialized:
        """What ``seat`` may do at this version, with the legal plays when it is on turn: the
        ListLegalActions answer, serialized once for each seat."""
        answer = self._legal_actions.get(seat)
        if answer is None:
            answer = self._legal_actions[seat] = _legal_actions_answer(self, seat)
        return answer

    def seat_view(
        self, seat: Side, *, sent: int = 0, answer: pb.SeatActionAnswer | None = None
    ) -> Serialized:
        """What a seat stream shows ``seat`` of this version, serialized: the PlaySeatResponse of
        the game (as :meth:`stream_message` shows it to a stream that has sent ``sent`` finished
        games), the seat's legal actions and ``answer``, if the message answers an action."""
        shown = _SEAT_FIELDS[seat] + wire.message_field(_GAME, self._stream_game(sent))
        shown += wire.message_field(_LEGAL_ACTIONS, self.legal_actions(seat))
        if answer is not None:
            shown += wire.message_field(_ANSWER, answer.SerializeToString())
        return shown

    def _stream_game(self, sent: int) -> Serialized:
        """:meth:`stream_message`, serialized once for each ``sent`` (the whole game's is the
        :attr:`summary`)."""
        sent = min(sent, len(self.state.finished))
        if sent == 0:
            return self.summary
        game = self._stream_games.get(sent)
        if game is None:
            game = self._stream_games[sent] = self._serialized_game(sent)
        return game

    @cached_property
    def _legal_actions(self) -> dict[Side, Serialized]:
        return {}

    @cached_property
    def _stream_games(self) -> dict[int, Serialized]:
        return {}

    @cached_property
    def _stream_messages(self) -> dict[int, pb.Game]:
        return {}

    def _serialized_game(self, finished_from: int) -> Serialized:
        return self.game_at(self.state, self.version, self.match.dice_commitment, finished_from)

    def game_at(
        self, state: MatchState, event_count: int, dice_commitment: str, finished_from: int
    ) -> Serialized:
        """The Game message, serialized, of this game's ``state`` after its first ``event_count``
        events with ``dice_commitment`` in force, showing its finished games from
        ``finished_from`` on: this version's, or an earlier one's a watcher replays."""
        return convert.serialized_game(
            self.name,
            self.rules,
            state,
            event_count=event_count,
            dice_commitment=dice_commitment,
            dice_mode=self.dice_mode,
            created=self.created,
            updated=self.updated,
            players=self.players,
            hints_allowed=self.hints_allowed,
            finished_from=finished_from,
        )


def _legal_actions_answer(view: GameView, seat: Side) -> Serialized:
    state = view.state
    answer = _actions_field(tuple(legal_actions(state, seat))) + _ANSWER_SEAT_FIELDS[seat]
    answer += wire.message_field(_ANSWER_ETAG, view.etag.encode())
    rolled = rolled_plays(state) if seat == state.game.turn else None
    return answer if rolled is None else answer + rolled.plays_field(_ANSWER_PLAYS)


# A seat's actions are one of a few lists (roll or double; play; take, drop or beaver; ...).
@lru_cache(maxsize=256)
def _actions_field(actions: tuple[Action, ...]) -> Serialized:
    return pb.ListLegalActionsResponse(actions=convert.actions_message(actions)).SerializeToString()


_ANSWER_SEAT_FIELDS = {
    seat: pb.ListLegalActionsResponse(seat=convert.seat_message(seat)).SerializeToString() for seat in (0, 1)
}
_ANSWER_ETAG, _ANSWER_PLAYS = (
    pb.ListLegalActionsResponse.DESCRIPTOR.fields_by_name[name].number for name in ("etag", "plays")
)


_SEAT_FIELDS = {
    seat: pb.PlaySeatResponse(seat=convert.seat_message(seat)).SerializeToString() for seat in (0, 1)
}
_GAME, _LEGAL_ACTIONS, _ANSWER = (
    pb.PlaySeatResponse.DESCRIPTOR.fields_by_name[name].number for name in ("game", "legal_actions", "answer")
)
