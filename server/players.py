"""Who sits at a game's seats: a name to show and an id the caller keeps, checked as a request
brings them, stored with the game, shown in Game and written in exports.

A player is for people to read, never to authenticate: a seat's token is what lets a player act.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from tavli.server.errors import BadRequest
from tavli.v1 import games_service_pb2 as games_pb2

MOST_CHARACTERS = 64
"""The longest display name or player id (also the request bound of both fields)."""


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """The player at one seat; empty fields where nobody is named."""

    display_name: str = ""
    player_id: str = ""

    def as_dict(self) -> dict[str, str]:
        return {
            key: value
            for key, value in (("display_name", self.display_name), ("player_id", self.player_id))
            if value
        }

    @classmethod
    def from_dict(cls, fields: dict[str, Any]) -> SeatPlayer:
        return cls(str(fields.get("display_name", "")), str(fields.get("player_id", "")))


Players = tuple[SeatPlayer, SeatPlayer]
NOBODY: Players = (SeatPlayer(), SeatPlayer())


def players_of(request: Any) -> Players:
    """The players a CreateGame or ImportMatch request seats (its ``seat0_player`` and
    ``seat1_player``).

    :raises BadRequest: for a name or id with a control character, or a name with a ':'.
    """
    return (
        _player(request.seat0_player, "seat0_player") if request.HasField("seat0_player") else SeatPlayer(),
        _player(request.seat1_player, "seat1_player") if request.HasField("seat1_player") else SeatPlayer(),
    )


def _player(message: games_pb2.Player, field: str) -> SeatPlayer:
    for name, value in (("display_name", message.display_name), ("player_id", message.player_id)):
        control = next((character for character in value if _is_control(character)), None)
        if control is not None:
            raise BadRequest(
                f"{field}.{name} holds a control character ({ord(control):#06x}): write it without"
            )
    if ":" in message.display_name:
        raise BadRequest(
            f"{field}.display_name holds ':', which match records use to part a name from its score"
        )
    return SeatPlayer(message.display_name.strip(), message.player_id)


def from_record(names: tuple[str, str] | None, given: Players) -> Players:
    """The players of an imported record: those the request gives, else the record's names as
    far as they make display names (cut, control characters and ':' left out)."""
    if names is None:
        return given
    return (
        given[0] if given[0] != SeatPlayer() else SeatPlayer(_display_name(names[0])),
        given[1] if given[1] != SeatPlayer() else SeatPlayer(_display_name(names[1])),
    )


def _display_name(written: str) -> str:
    kept = "".join(character for character in written if not _is_control(character) and character != ":")
    return kept.strip()[:MOST_CHARACTERS].strip()


def _is_control(character: str) -> bool:
    return unicodedata.category(character) in ("Cc", "Zl", "Zp")


def player_message(player: SeatPlayer) -> games_pb2.Player | None:
    """The API's Player, or ``None`` for a seat nobody is named at."""
    if player == SeatPlayer():
        return None
    return games_pb2.Player(display_name=player.display_name, player_id=player.player_id)


def record_names(players: Players) -> tuple[str, str]:
    """The names an export writes for the seats: their display names, else "Player 0"/"Player 1"."""
    return (players[0].display_name or "Player 0", players[1].display_name or "Player 1")


__all__ = [
    "MOST_CHARACTERS",
    "NOBODY",
    "Players",
    "SeatPlayer",
    "from_record",
    "player_message",
    "players_of",
    "record_names",
]
