"""A game's log as text: each event as the JSON the store keeps, the form in which a long log
crosses between the server and its heavy work's processes (:mod:`tavli.server.fair_queue`).

A log crosses pickled, and the side that reads it unpickles it all at once, holding the
interpreter's lock: tens of thousands of event objects (or dicts) take a large part of a second
to unpickle, as many strings a few milliseconds. So a log crosses as strings, and each side
turns them into events one at a time, on a thread or in the process that works on them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from tavli.engine.events import Event, event_from_dict


def log_as_text(events: Iterable[Event]) -> list[str]:
    """Each of ``events`` as its JSON text."""
    return [json.dumps(event.to_dict()) for event in events]


def log_of_text(text: Sequence[str]) -> list[Event]:
    """The events ``text`` holds (:func:`log_as_text`)."""
    return [event_from_dict(json.loads(event)) for event in text]


def stored_as_text(events: Iterable[dict[str, Any]]) -> list[str]:
    """Each of ``events``, as the store gives them, as its JSON text."""
    return [json.dumps(event) for event in events]
