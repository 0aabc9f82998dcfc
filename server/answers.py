"""Answers that list plays, built from the engine's data in bulk.

An answer that lists a position's plays is mostly their ``Play`` messages: the engine writes
them all at once, as the bytes of the answer's repeated field (``LegalPlays.plays_field``: in C
with the compiled core), and the answer is its other fields' bytes joined to those: serialized,
as the server sends it (:data:`tavli.server.handlers.Serialized`), never read into a message on
the way. A batch of validations is written the same way, each legal play by the engine's writer
of plays (:mod:`tavli.engine.wire`), and read once.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from tavli.engine import LegalPlays, Play, wire
from tavli.server.handlers import Serialized
from tavli.v1 import rules_service_pb2 as pb


def legal_plays_answer(legal: LegalPlays) -> Serialized:
    """The ListLegalPlays answer of ``legal``, serialized."""
    return with_plays(pb.ListLegalPlaysResponse(dice_used=legal.dice_used), legal)


def with_plays(answer: Message, legal: LegalPlays) -> Serialized:
    """``answer`` (a message with a ``repeated Play plays`` field and none in it yet) with the
    plays of ``legal`` in that field, serialized."""
    field = answer.DESCRIPTOR.fields_by_name["plays"].number
    return answer.SerializeToString() + legal.plays_field(field)


def batch_response(answers: Sequence[Play | pb.ValidatePlayResponse]) -> pb.BatchValidatePlaysResponse:
    """The BatchValidatePlays answer: for each request in turn, its legal play, or the answer
    that says why it is not one."""
    pieces: list[bytes] = []
    for answer in answers:
        if isinstance(answer, Play):
            play = wire.message_field(_PLAY, wire.play_message(answer.steps, answer.position.position_id()))
            pieces.append(wire.message_field(_RESPONSES, _LEGAL + play))
        else:
            pieces.append(pb.BatchValidatePlaysResponse(responses=[answer]).SerializeToString())
    return pb.BatchValidatePlaysResponse.FromString(b"".join(pieces))


_RESPONSES = pb.BatchValidatePlaysResponse.DESCRIPTOR.fields_by_name["responses"].number
_PLAY = pb.ValidatePlayResponse.DESCRIPTOR.fields_by_name["play"].number
_LEGAL = pb.ValidatePlayResponse(legal=True).SerializeToString()
