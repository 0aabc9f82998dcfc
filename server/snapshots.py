"""Which snapshot a game keeps, and whether one read back may stand for the start of its log.

A game keeps the folded state at the start of its latest game (:mod:`tavli.engine.snapshot`), written
with the action that ended the game before it; a process that loads the game folds the log from
there. A snapshot is taken on trust only if the event it says it follows is the log's event at
that place; otherwise (or if it does not read) the whole log is folded, and the log decides.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from tavli.engine.events import Event
from tavli.engine.game import MatchState
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.engine.snapshot import snapshot_of, state_of_snapshot
from tavli.server.log_text import log_as_text
from tavli.server.store import Snapshot

log = structlog.get_logger("tavli.server")


def snapshot_to_keep(match: Match, stored: int) -> Snapshot | None:
    """The snapshot to write with ``match``'s events after the first ``stored``: the start of its
    game in play if that game started among them; else None (the kept one still stands)."""
    at, state = match.game_started
    if at <= stored:
        return None
    written = snapshot_of(state)
    if written is None:
        return None
    return Snapshot(at, json.dumps({"state": written, "after": match.events[at - 1].to_dict()}))


@dataclass(frozen=True)
class Played:
    """A log played elsewhere (an imported record's) that a new game goes on from: its events
    as text (:mod:`tavli.server.log_text`), and the snapshot of its game in play's start (None if
    that is its first), so that the server folds that game alone (:func:`start_of`)."""

    events: list[str]
    snapshot: Snapshot | None


NOTHING_PLAYED = Played([], None)


def played_log(rules: RuleSet, events: Sequence[Event]) -> Played:
    """``events`` as a new game goes on from them, folded to find its game in play's start: the
    whole log is folded, which takes seconds for a long record (the heavy work's processes do it).

    :raises ActionError: for events the rules do not allow.
    """
    return Played(log_as_text(events), start_in_play(rules, events))


def start_in_play(rules: RuleSet, events: Sequence[Event]) -> Snapshot | None:
    """The snapshot of where the game in play of the match ``events`` log starts (None if it is
    its first): the whole log folded.

    :raises ActionError: for events the rules do not allow.
    """
    return snapshot_to_keep(Match.replay(rules, events), 0)


def start_of(
    name: str, rules: RuleSet, snapshot: Snapshot | None, log_read: list[dict[str, Any]]
) -> tuple[int, MatchState] | None:
    """Where folding game ``name``'s stored log ``log_read`` may start: after the events
    ``snapshot`` stands for, in the state it holds; None to fold it from its first event."""
    if snapshot is None or snapshot.at > len(log_read):  # a version before it is asked for
        return None
    try:
        kept = json.loads(snapshot.state)
        if snapshot.at <= 0 or kept["after"] != _as_read(log_read[snapshot.at - 1]):
            raise ValueError(f"it does not follow event {snapshot.at - 1} of the log")
        return snapshot.at, state_of_snapshot(rules, kept["state"])
    except (ValueError, KeyError, TypeError) as error:
        log.warning("snapshot not used: the log is folded whole", game=name, error=str(error))
        return None


def _as_read(event: dict[str, Any]) -> Any:
    """An event as it reads back from JSON (a store in memory keeps the dict it was given)."""
    return json.loads(json.dumps(event))
