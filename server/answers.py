"""Answers that list plays, built from the engine's data in bulk.

Protobuf writes every byte of them. For each play's steps it writes one piece, once (cached):
the serialized answer that holds that play alone, its Position ID a placeholder of the same
length (every Position ID of a position without pins is 14 characters). An answer is its plays'
pieces, each with its play's Position ID in place of the placeholder, joined: protobuf reads a
repeated field sent in pieces as one list, so the joined bytes are the answer, read once into the
message returned. The engine fills the pieces in for all the plays at once
(``LegalPlays.position_ids_within``: in C with the compiled core), against a message built field
by field for each play. A Plakoto play that leaves a checker pinned has a longer Position ID (its
pins after a colon): an answer with one is built field by field.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, TypeVar

from google.protobuf.message import Message

from tavli.engine import LegalPlays, Play
from tavli.engine.play import steps_code, steps_of_code
from tavli.server import convert
from tavli.v1 import rules_service_pb2 as pb

_PLACEHOLDER = "\0" * 14  # never in a notation, and as long as a Position ID

Listing = TypeVar("Listing", bound=Message)


def legal_plays_response(legal: LegalPlays) -> pb.ListLegalPlaysResponse:
    """The ListLegalPlays answer of ``legal``."""
    return with_plays(pb.ListLegalPlaysResponse(dice_used=legal.dice_used), legal)


def with_plays(answer: Listing, legal: LegalPlays) -> Listing:
    """``answer`` (a message with a ``repeated Play plays`` field and none in it yet) with the
    plays of ``legal`` in that field."""
    listing = type(answer)
    if any(len(position_id) != len(_PLACEHOLDER) for position_id in legal.position_ids()):
        built: Any = listing.FromString(answer.SerializeToString())  # a message with a plays field
        built.plays.extend(convert.play_message(play) for play in legal)
        return built  # type: ignore[no-any-return]
    known = _pieces(listing)
    try:
        plays = legal.position_ids_within(known)
    except KeyError:  # steps not seen before: their pieces are made, once, all of them at once
        for code in legal.step_codes():
            if code not in known:
                _piece(listing, known, code)
        plays = legal.position_ids_within(known)
    return listing.FromString(answer.SerializeToString() + plays)


def batch_response(answers: Sequence[Play | pb.ValidatePlayResponse]) -> pb.BatchValidatePlaysResponse:
    """The BatchValidatePlays answer: for each request in turn, its legal play, or the answer
    that says why it is not one."""
    known = _pieces(pb.BatchValidatePlaysResponse)
    pieces: list[bytes] = []
    for answer in answers:
        if isinstance(answer, Play) and len(position_id := answer.position.position_id()) == len(
            _PLACEHOLDER
        ):
            before, after = _piece(pb.BatchValidatePlaysResponse, known, steps_code(answer.steps))
            pieces += (before, position_id.encode("ascii"), after)
        else:
            if isinstance(answer, Play):
                answer = pb.ValidatePlayResponse(legal=True, play=convert.play_message(answer))
            pieces.append(pb.BatchValidatePlaysResponse(responses=[answer]).SerializeToString())
    return pb.BatchValidatePlaysResponse.FromString(b"".join(pieces))


# For each kind of answer, the pieces of the plays' steps seen, about 200 bytes each: plays of the
# same roll share their steps across many positions. The older half goes when they are more than
# the most kept (only before an answer: an answer's own pieces stay until it is made).
_LISTED: dict[type[Message], dict[int, tuple[bytes, bytes]]] = {}
_MOST_LISTED = 65536


def _pieces(kind: type[Message]) -> dict[int, tuple[bytes, bytes]]:
    """The pieces kept for answers of ``kind``, the older half gone if they are the most kept."""
    known = _LISTED.setdefault(kind, {})
    if len(known) >= _MOST_LISTED:
        for older in list(itertools.islice(known, len(known) // 2)):
            del known[older]
    return known


def _piece(kind: type[Message], known: dict[int, tuple[bytes, bytes]], code: int) -> tuple[bytes, bytes]:
    """The piece of an answer of ``kind`` for the play whose steps are ``code``: made once, kept in
    ``known``."""
    piece = known.get(code)
    if piece is None:
        play = convert.steps_play_message(steps_of_code(code), _PLACEHOLDER)
        alone: Message
        if kind is pb.BatchValidatePlaysResponse:
            alone = pb.BatchValidatePlaysResponse(responses=[pb.ValidatePlayResponse(legal=True, play=play)])
        else:
            listing: Any = kind  # a message with a repeated Play plays field
            alone = listing(plays=[play])
        piece = known[code] = _around_placeholder(alone)
    return piece


def _around_placeholder(message: Message) -> tuple[bytes, bytes]:
    before, placeholder, after = message.SerializeToString().partition(_PLACEHOLDER.encode("ascii"))
    assert placeholder, "the placeholder Position ID is serialized as it is"
    return before, after
