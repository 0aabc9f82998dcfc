"""Answers built in bulk (server/answers.py) are the very bytes of the messages built field by field:
the plays written by the engine (the compiled core's writer and the pure one alike), a batch's, and
every other play and step the server sends."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from tavli.engine import BACKGAMMON, LONG_NARDI, PLAKOTO, VARIANTS, LegalPlays, Play, Position, Variant
from tavli.engine.backgammon import START_VALUES
from tavli.engine.checking import higher_first
from tavli.engine.events import Played
from tavli.engine.variants import variant_with
from tavli.server import answers, convert
from tavli.v1 import board_pb2, games_service_pb2 as games_pb, rules_service_pb2 as pb
from tests.engine.test_compiled_core import pure, reached_positions


def play_message(play: Play) -> board_pb2.Play:
    return board_pb2.Play(
        notation=play.notation(),
        steps=[board_pb2.Step(from_point=s, to_point=e, die=d, hit=h) for s, e, d, h in play.steps],
        position_id=play.position.position_id(),
        hits=play.hits,
    )


# Every way of moving checkers the engine has: the variants, and backgammon's other starts and rule
# of the hitter (the compiled core plays some of these, the pure engine the others).
VARIANTS_LISTED = [
    *VARIANTS.values(),
    *(variant_with("backgammon", (("start", start),)) for start in START_VALUES if start != "STANDARD"),
    variant_with("backgammon", (("home_hit_and_run", "FORBIDDEN"),)),
]
POSITIONS_A_VARIANT = 2_000


def random_positions(variant: Variant, count: int, seed: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """``count`` positions of seeded games of random legal plays, each with the roll then played
    (the higher die first, as the engine takes it)."""
    rng = random.Random(seed)
    made = 0
    while True:
        position = variant.start_position()
        while variant.result(position) is None:
            dice = higher_first((rng.randint(1, 6), rng.randint(1, 6)))
            yield position, dice
            made += 1
            if made == count:
                return
            position = rng.choice(list(variant.legal_plays(position, dice))).position.swapped()


def built_one_by_one(legal: LegalPlays) -> pb.ListLegalPlaysResponse:
    return pb.ListLegalPlaysResponse(dice_used=legal.dice_used, plays=[play_message(p) for p in legal])


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS_LISTED, ids=repr)
def test_listed_plays_are_the_bytes_of_the_messages_built_one_by_one(variant: Variant) -> None:
    """With the compiled core where it plays the variant, and with the pure engine."""
    for index, (position, dice) in enumerate(
        random_positions(variant, POSITIONS_A_VARIANT, seed=len(repr(variant)))
    ):
        for engine in (contextlib.nullcontext, pure):
            with engine():
                legal = variant.generate_plays(position, dice)
            built = built_one_by_one(legal)
            where = f"{variant!r} {position.position_id()} {dice}"
            listed = pb.ListLegalPlaysResponse.FromString(answers.legal_plays_answer(legal))
            assert listed.SerializeToString() == built.SerializeToString(), where
            actions = answers.with_plays(
                games_pb.ListLegalActionsResponse(etag=f"e{index}", actions=[1]), legal
            )
            expected = games_pb.ListLegalActionsResponse(etag=f"e{index}", actions=[1], plays=built.plays)
            read = games_pb.ListLegalActionsResponse.FromString(actions)
            assert read.SerializeToString() == expected.SerializeToString(), where


def test_the_engines_write_the_same_plays() -> None:
    compared = 0
    for variant in (BACKGAMMON, LONG_NARDI):
        for position, dice in random_positions(variant, 500, seed=9):
            compiled = variant.generate_plays(position, dice)
            with pure():
                reference = variant.generate_plays(position, dice)
            assert compiled.plays_field(2) == reference.plays_field(2)
            compared += 1
    assert compared == 1_000


def test_a_roll_that_cannot_be_played_lists_one_play_without_steps() -> None:
    closed = Position.from_points({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    for engine in (contextlib.nullcontext, pure):
        with engine():
            legal = BACKGAMMON.generate_plays(closed, (6, 5))
        answer = pb.ListLegalPlaysResponse.FromString(answers.legal_plays_answer(legal))
        assert answer.dice_used == 0
        assert [(play.notation, list(play.steps), play.position_id) for play in answer.plays] == [
            ("", [], closed.position_id())
        ]


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


def test_a_batch_answers_plakoto_plays_that_pin_with_their_longer_position_ids() -> None:
    """A Plakoto play that leaves a checker pinned has its pins after a colon in its Position ID."""
    plays, pinning = [], 0
    for position, dice in random_positions(PLAKOTO, 600, seed=5):
        for play in PLAKOTO.legal_plays(position, dice):
            plays.append(play)
            pinning += ":" in play.position.position_id()
    assert pinning > 100
    expected = [pb.ValidatePlayResponse(legal=True, play=play_message(play)) for play in plays]
    answer = answers.batch_response(plays)
    assert answer.SerializeToString() == pb.BatchValidatePlaysResponse(responses=expected).SerializeToString()


def test_a_play_and_its_steps_are_written_as_protobuf_writes_them_wherever_they_are_sent() -> None:
    """The validation's play, a game's last play and an event's steps come from one writer."""
    rng = random.Random(8)
    for position, dice in reached_positions(BACKGAMMON, 300, 8):
        play = rng.choice(list(BACKGAMMON.legal_plays(position, dice)))
        assert convert.play_message(play).SerializeToString() == play_message(play).SerializeToString()
        event = convert.event_message(3, Played(side=0, steps=play.steps, notation=play.notation()))
        assert list(event.steps) == list(play_message(play).steps) and event.notation == play.notation()
