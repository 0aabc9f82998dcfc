"""The facts a game is made of. A match is an append-only log of these; replaying it gives the state.

Every event names the side it is by (0 or 1). Dice are in the log, so replaying needs no dice
source: the log alone is the match. Events turn into plain dicts and back for storage.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Literal, TypeAlias

from tavli.engine.errors import TavliError
from tavli.engine.play import Dice

Side: TypeAlias = Literal[0, 1]
ResignLevel = Literal["single", "gammon", "backgammon", "mars"]


class InvalidEventError(TavliError):
    """A stored event that cannot be read back."""


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-ready dict with its ``kind``."""
        data = asdict(self)
        data["kind"] = self.kind
        return data


@dataclass(frozen=True, slots=True)
class OpeningThrown(Event):
    """The throw for who starts: each pair is (player 0's die, player 1's die); all but the last tie."""

    kind: ClassVar[str] = "opening"
    throws: tuple[Dice, ...]
    side: Side | None = None  # who asked for the throw (either side may)


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "roll"
    side: Side
    dice: Dice


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A play, in standard notation from the mover's side ("" when the roll cannot be played)."""

    kind: ClassVar[str] = "play"
    side: Side
    play: str
    forced: bool = False  # played by the engine because it was the only legal play


@dataclass(frozen=True, slots=True)
class Doubled(Event):
    kind: ClassVar[str] = "double"
    side: Side


@dataclass(frozen=True, slots=True)
class Took(Event):
    kind: ClassVar[str] = "take"
    side: Side


@dataclass(frozen=True, slots=True)
class Dropped(Event):
    kind: ClassVar[str] = "drop"
    side: Side


@dataclass(frozen=True, slots=True)
class Beavered(Event):
    kind: ClassVar[str] = "beaver"
    side: Side


@dataclass(frozen=True, slots=True)
class ResignationOffered(Event):
    """An offer to resign; ``level`` is what was asked, capped to what can still be lost."""

    kind: ClassVar[str] = "resign"
    side: Side
    level: ResignLevel


@dataclass(frozen=True, slots=True)
class ResignationAccepted(Event):
    kind: ClassVar[str] = "accept"
    side: Side


@dataclass(frozen=True, slots=True)
class ResignationRejected(Event):
    kind: ClassVar[str] = "reject"
    side: Side


@dataclass(frozen=True, slots=True)
class DiceCommitted(Event):
    """Before a game of verifiable dice: the SHA-256 (hex) of the seed its throws come from."""

    kind: ClassVar[str] = "dice-commitment"
    game: int
    commitment: str
    first_throw: int  # the index of the game's first throw


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """After a game of verifiable dice: the seed (hex), so that every throw can be checked."""

    kind: ClassVar[str] = "dice-seed"
    game: int
    seed: str


EVENT_TYPES: dict[str, type[Event]] = {
    event_type.kind: event_type
    for event_type in (
        OpeningThrown,
        Rolled,
        Played,
        Doubled,
        Took,
        Dropped,
        Beavered,
        ResignationOffered,
        ResignationAccepted,
        ResignationRejected,
        DiceCommitted,
        SeedRevealed,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event a dict from :meth:`Event.to_dict` stands for.

    :raises InvalidEventError: for an unknown kind or missing fields.
    """
    event_type = EVENT_TYPES.get(data.get("kind", ""))
    if event_type is None:
        raise InvalidEventError(f"unknown event kind {data.get('kind')!r}")
    values = {}
    for field in fields(event_type):
        if field.name in data:
            value = data[field.name]
            if field.name == "dice":
                value = tuple(value)
            elif field.name == "throws":
                value = tuple(tuple(throw) for throw in value)
            values[field.name] = value
    try:
        return event_type(**values)
    except TypeError as error:
        raise InvalidEventError(f"event {data!r} is incomplete: {error}") from None
