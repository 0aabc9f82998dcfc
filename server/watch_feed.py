"""What the watchers of one game are sent, folded and built once for all of them in this process.

A game's feed follows its stored versions. Each event stored after the feed's last is applied
once to the feed's state, as stored (:func:`~tavli.engine.game.apply_stored`: the rules checked
it when it was stored), and its WatchGameResponse is built once; every watcher of the game in
this process is sent that same message. Each message's Game carries only the finished games its
event finished (:meth:`~tavli.server.game_views.GameView.stream_message`): a watch's first message
is made whole for its watcher alone (:meth:`~tavli.server.game_views.GameView.whole`). The event
that ends a version is shown with the version's own stream Game message, built once with it.

The feed starts when its first watcher comes, where that watcher starts (at the latest at the
start of the game in play), and keeps the newest :data:`MOST_KEPT` messages. Where it starts may
take a fold of the log up to there and up to :data:`MOST_KEPT` messages built: the caller works
that out on a thread (:func:`beginning`) and starts the feed with it (:meth:`Feed.begin`). A watcher that asks
for events before the feed's first is sent them folded for it alone, from the start of the log,
as it reads them.
"""

from __future__ import annotations

from collections.abc import Iterator

from tavli.engine.events import Event
from tavli.engine.game import MatchState, apply_stored, new_match
from tavli.engine.match import open_commitment
from tavli.server import convert
from tavli.server.game_views import GameView
from tavli.v1 import games_service_pb2 as pb

MOST_KEPT = 4096
"""The messages a feed keeps: a few games' worth, for watchers that join or fall a little behind."""


class Feed:
    """The watch messages of one game in this process, from its :attr:`first` event on."""

    def __init__(self) -> None:
        self.first = 0
        self._messages: list[pb.WatchGameResponse] = []
        self._state: MatchState | None = None  # after the last message's event; None until watched

    @property
    def started(self) -> bool:
        return self._state is not None

    def begin(self, start: Beginning) -> None:
        """Start the feed as :func:`beginning` worked out, unless it has started meanwhile."""
        if self._state is None:
            self.first, self._state, self._messages = start
            self._keep_the_newest()

    def since(self, sequence: int, view: GameView) -> Iterator[pb.WatchGameResponse]:
        """The messages of ``view``'s events from ``sequence`` on: the shared ones, or, before
        the feed's first, those up to it (folded for this caller alone; ask again for the rest).
        The feed has started (:meth:`begin`: where it starts may take a fold of most of the log,
        which its caller does on a thread)."""
        assert self._state is not None, "a feed is begun before it is read"
        self.follow(view)
        if sequence >= self.first:
            return iter(self._messages[sequence - self.first :])
        return _folded(view, 0, new_match(view.rules), sequence, self.first)

    def follow(self, view: GameView) -> None:
        """Fold and build what ``view``, the version just stored, holds after the feed's last
        event (at once, so that each version's last event is shown with the version's own Game
        message); nothing before the game's first watcher."""
        end = self.first + len(self._messages)
        if self._state is None or end >= view.version:
            return
        for message, state in _built(view, end, self._state, view.version):
            self._messages.append(message)
            self._state = state
        self._keep_the_newest()

    def _keep_the_newest(self) -> None:
        if len(self._messages) > MOST_KEPT:
            dropped = len(self._messages) - MOST_KEPT // 2
            del self._messages[:dropped]
            self.first += dropped


Beginning = tuple[int, MatchState, list[pb.WatchGameResponse]]
"""Where a feed starts, the state after its last message's event, and its messages."""


def beginning(view: GameView, sequence: int) -> Beginning:
    """Where a feed whose first watcher asks for ``sequence`` starts (:func:`_start`), with the
    messages of ``view``'s events from there: a fold of much of a long log, for a watcher
    before the game in play, and up to :data:`MOST_KEPT` messages (its caller makes it on a
    thread)."""
    first, at_first = _start(view, sequence)
    state, messages = at_first, []
    for message, state in _built(view, first, at_first, view.version):
        messages.append(message)
    return first, state, messages


def _start(view: GameView, sequence: int) -> tuple[int, MatchState]:
    """Where a feed whose first watcher asks for ``sequence`` starts, and the state there: at the
    game in play, or, for a watcher not far behind it, where that watcher starts."""
    if sequence == view.version:  # from now on: from the game as stored
        return sequence, view.state
    at, state = view.match.game_started
    if sequence >= at or view.version - sequence > MOST_KEPT:
        return at, state
    state = new_match(view.rules)
    for event in view.events[:sequence]:
        state = apply_stored(state, event)
    return sequence, state


def _folded(
    view: GameView, start: int, state: MatchState, sequence: int, end: int
) -> Iterator[pb.WatchGameResponse]:
    """The messages of ``view``'s events from ``sequence`` up to ``end``, folded from event
    ``start`` (whose state before it is ``state``)."""
    for event in view.events[start:sequence]:
        state = apply_stored(state, event)
    for message, _ in _built(view, sequence, state, end):
        yield message


def _built(
    view: GameView, start: int, state: MatchState, end: int
) -> Iterator[tuple[pb.WatchGameResponse, MatchState]]:
    """Each of ``view``'s events from ``start`` up to ``end`` applied to ``state``, the state
    before ``start``: its message and the state after it."""
    for sequence in range(start, end):
        event = view.events[sequence]
        sent = len(state.finished)
        state = apply_stored(state, event)
        message = pb.WatchGameResponse(
            event=convert.event_message(sequence, event), game=_game_after(view, sequence, state, sent)
        )
        yield message, state


def _game_after(view: GameView, sequence: int, state: MatchState, sent: int) -> pb.Game:
    """The Game message just after event ``sequence``, without the ``sent`` finished games
    finished before it: the version's own for its last event."""
    if sequence + 1 == view.version:
        return view.stream_message(sent)
    commitment = _commitment_after(view.events, sequence) if view.dice_mode == "verifiable" else ""
    return pb.Game.FromString(view.game_at(state, sequence + 1, commitment, sent))


def _commitment_after(events: list[Event], sequence: int) -> str:
    """The dice commitment in force just after event ``sequence``."""
    commitment = open_commitment(events, sequence + 1)
    return "" if commitment is None else commitment.commitment
