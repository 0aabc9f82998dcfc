"""Answers built in bulk (server/answers.py) are the very messages built field by field."""

from __future__ import annotations

import random

import pytest

from tavli.engine import BACKGAMMON, LONG_NARDI, Play, Variant
from tavli.server import answers
from tavli.v1 import board_pb2, games_service_pb2 as games_pb, rules_service_pb2 as pb
from tests.engine.test_compiled_core import reached_positions


def play_message(play: Play) -> board_pb2.Play:
    return board_pb2.Play(
        notation=play.notation(),
        steps=[board_pb2.Step(from_point=s, to_point=e, die=d, hit=h) for s, e, d, h in play.steps],
        position_id=play.position.position_id(),
        hits=play.hits,
    )


@pytest.mark.slow
def test_listed_plays_are_the_messages_built_one_by_one() -> None:
    for variant, seed in ((BACKGAMMON, 1), (LONG_NARDI, 2)):
        for position, dice in reached_positions(variant, 3_000, seed):
            legal = variant.legal_plays(position, dice)
            built = pb.ListLegalPlaysResponse(
                dice_used=legal.dice_used, plays=[play_message(p) for p in legal]
            )
            listed = answers.legal_plays_response(legal)
            assert listed == built
            assert listed.SerializeToString() == built.SerializeToString()
            actions = answers.with_plays(games_pb.ListLegalActionsResponse(etag="e1", actions=[1]), legal)
            assert list(actions.plays) == list(built.plays) and actions.etag == "e1"


def test_a_batch_answer_keeps_each_request_in_its_place() -> None:
    rng = random.Random(3)
    variant: Variant = BACKGAMMON
    expected, given = [], []
    for position, dice in reached_positions(variant, 2_000, 4):
        if rng.random() < 0.3:
            refusal = pb.ValidatePlayResponse(legal=False, reason=f"no {len(given)}")
            given.append(refusal)
            expected.append(refusal)
        else:
            play = rng.choice(list(variant.legal_plays(position, dice)))
            given.append(play)
            expected.append(pb.ValidatePlayResponse(legal=True, play=play_message(play)))
    assert answers.batch_response(given) == pb.BatchValidatePlaysResponse(responses=expected)
    assert answers.batch_response([]) == pb.BatchValidatePlaysResponse()


@pytest.mark.slow
def test_answers_stay_right_when_the_pieces_kept_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers, "_MOST_LISTED", 8)
    monkeypatch.setattr(answers, "_LISTED", {})
    most_plays = 0
    for position, dice in reached_positions(BACKGAMMON, 300, 6):
        legal = BACKGAMMON.legal_plays(position, dice)
        most_plays = max(most_plays, len(legal))
        built = pb.ListLegalPlaysResponse(dice_used=legal.dice_used, plays=[play_message(p) for p in legal])
        assert answers.legal_plays_response(legal) == built
        # Past the bound, the older half goes before an answer; an answer's own pieces stay.
        assert len(answers._LISTED[pb.ListLegalPlaysResponse]) <= 8 + 2 * most_plays
