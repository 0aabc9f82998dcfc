"""The facts a game is made of. A match is an append-only log of these; replaying it gives the state.

Every event names the side it is by (0 or 1). In a game with clocks every event also carries
``at``, the time it happened (seconds since the epoch), from which the clocks are worked out.
Dice are in the log, so replaying needs no dice source: the log alone is the match. A play is
in the log as data: its steps, and its notation as the engine writes it, so a replay reads no
text. Events turn into plain dicts and back for
storage; each event type registers itself by its ``kind``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias

from tavli.engine.errors import TavliError
from tavli.engine.play import Dice, Step

if TYPE_CHECKING:
    from tavli.engine.play import Play

Side: TypeAlias = Literal[0, 1]
ResignLevel = Literal["single", "gammon", "backgammon", "mars"]


class InvalidEventError(TavliError):
    """A stored event that cannot be read back."""


EVENT_TYPES: dict[str, type[Event]] = {}
"""Every event type by its ``kind``, as the types register themselves."""


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str]
    registered: ClassVar[bool] = True  # False: a form read from old logs, never written
    # When it happened, in a game with clocks (None in games without: no time is kept). Not part
    # of what the event is: two events that differ only in time are equal.
    at: float | None = field(default=None, kw_only=True, compare=False)

    def __init_subclass__(cls) -> None:
        # (No super() call: the dataclass rebuilds each class with slots, which breaks it; the
        # rebuilt class comes last and so is the one registered.)
        if cls.registered:
            EVENT_TYPES[cls.kind] = cls

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-ready dict with its ``kind``. An event's fields hold numbers, text
        and tuples of them, never another dataclass, so they are taken as they are (what
        :func:`dataclasses.asdict` would copy first, on every action stored)."""
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        data["kind"] = self.kind
        if data["at"] is None:
            del data["at"]
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
    """A play: its steps in an order in which they can be played (none when the roll cannot be
    played), and its notation as the engine writes it, from the mover's side."""

    kind: ClassVar[str] = "play"
    side: Side
    steps: tuple[Step, ...]
    notation: str
    forced: bool = False  # played by the engine because it was the only legal play


def played(side: Side, play: Play, *, forced: bool = False) -> Played:
    """The event of ``side`` making ``play``: its steps and its notation as the engine writes it."""
    return Played(side, play.steps, play.notation(), forced)


@dataclass(frozen=True, slots=True)
class WrittenPlay(Event):
    """A play in the form logs written before plays were stored as data: the player's own text.
    Read from storage only; replaying turns it into :class:`Played`."""

    kind: ClassVar[str] = "play"  # told apart from Played by its "play" field
    registered: ClassVar[bool] = False
    side: Side
    play: str
    forced: bool = False


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
class TimeRanOut(Event):
    """``side``'s clock ran out (``at`` is the moment it did): it loses, the match in match play,
    the game at the cube's value in money play. The server records it; no seat acts it.

    ``claimed``: ``side``'s player was gone (the server saw nothing of it for a grace period) and
    the other side claimed the match; it is scored as a loss on time, whatever its clock shows."""

    kind: ClassVar[str] = "time-ran-out"
    side: Side
    claimed: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = Event.to_dict(self)
        if not self.claimed:
            del data["claimed"]  # as time losses were always stored
        return data


@dataclass(frozen=True, slots=True)
class RematchOffered(Event):
    """After the match: ``side`` offers the other side another match of the same rules."""

    kind: ClassVar[str] = "rematch-offer"
    side: Side


@dataclass(frozen=True, slots=True)
class RematchAccepted(Event):
    """``side`` accepted the other side's offer of a rematch: ``game`` is the new match's name."""

    kind: ClassVar[str] = "rematch-accept"
    side: Side
    game: str


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


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event a dict from :meth:`Event.to_dict` stands for (or an older log's form of it).

    :raises InvalidEventError: for an unknown kind, missing fields or malformed values.
    """
    kind = data.get("kind", "")
    event_type = WrittenPlay if kind == WrittenPlay.kind and "play" in data else EVENT_TYPES.get(kind)
    if event_type is None:
        raise InvalidEventError(f"unknown event kind {data.get('kind')!r}")
    values = {}
    try:
        for field in fields(event_type):
            if field.name in data:
                value = data[field.name]
                if field.name == "dice":
                    value = tuple(value)
                elif field.name == "throws":
                    value = tuple(tuple(throw) for throw in value)
                elif field.name == "steps":
                    value = tuple(_step_of(step) for step in value)
                elif field.name == "at" and (isinstance(value, bool) or not isinstance(value, (int, float))):
                    raise ValueError(f"an event's time is a number of seconds, not {value!r}")
                values[field.name] = value
        return event_type(**values)
    except (TypeError, ValueError) as error:
        raise InvalidEventError(f"event {data!r} cannot be read: {error}") from None


def _step_of(data: Any) -> Step:
    start, end, die, hit = data
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (start, end, die)):
        raise ValueError(f"a step is three whole numbers and a hit, not {data!r}")
    return Step(start, end, die, bool(hit))
