"""The compiled core (engine/_core.pyx) against the pure-Python engine it stands for.

On 100,000 positions of each variant (backgammon, long nardi, Plakoto and Fevga with their default
options), reached by seeded games of random legal plays, each with a roll: the same legal plays in
the same order (steps, hits, pins and resulting positions), the same notation, Position ID and API
message (in protobuf's wire format) for every play, the same answer for a given play (legal ones,
and random moves that are mostly not), the same position read back from every Position ID, and the
same verdict on whether a position can occur. The pure side runs with the core switched off in this
process, so both answer the same question from the same objects. A quicker corpus picks, from many
positions of random games, those in each situation Plakoto's and Fevga's own rules decide (pins, a
mother at stake, bearing off; the first checker, the starting quarter, the unblocking duty) and
compares them with every roll.

The core must be built here: the project's install builds it, and a machine that cannot (no C
compiler) runs the pure engine, which the whole suite also covers (``TAVLI_PURE=1``).
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

import pytest

from tavli.engine import (
    BACKGAMMON,
    FEVGA,
    LONG_NARDI,
    PLAKOTO,
    IllegalPlayError,
    Play,
    Position,
    TavliError,
    Variant,
    core,
    wire,
)
from tavli.engine.fevga import START_QUARTER
from tavli.engine.plakoto import MOTHER_POINT
from tavli.engine.play import format_steps, steps_code, steps_of_code
from tavli.engine.position import OFF, Pins, decode_position_id, encode_position_id

POSITIONS_PER_VARIANT = 100_000
GIVEN_PLAY_SHARE = 0.2  # of the positions, those where given plays are compared too
GAMES_MOST_TURNS = 2_000


def compiled_core() -> ModuleType:
    try:
        return importlib.import_module("tavli.engine._core")
    except ImportError as error:
        pytest.fail(
            f"the compiled core was not built (it needs a C compiler and the Python headers): {error}"
        )


@contextmanager
def pure() -> Iterator[None]:
    """The engine with its compiled core switched off."""
    compiled = core.compiled
    core.compiled = None
    try:
        yield
    finally:
        core.compiled = compiled


def roll(rng: random.Random) -> tuple[int, int]:
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    return max(first, second), min(first, second)


def reached_positions(variant: Variant, count: int, seed: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """``count`` positions of seeded random games, each with the roll its mover then plays."""
    rng = random.Random(seed)
    _core = compiled_core()
    rules = variant.compiled_rules
    assert rules is not None
    made = 0
    while made < count:
        position = variant.start_position()
        for _ in range(GAMES_MOST_TURNS):
            dice = roll(rng)
            yield position, dice
            made += 1
            if made == count:
                return
            after = rng.choice(_core.legal_plays(rules, position, *dice).plays()).position
            if variant.result(after) is not None:
                break
            position = after.swapped()


def random_moves(rng: random.Random, dice: tuple[int, int]) -> list[tuple[int, int]]:
    """Moves of one die each, from anywhere: a few are legal, most are not."""
    moves = []
    for die in [dice[0]] * 4 if dice[0] == dice[1] else list(dice):
        start = rng.randint(1, 25)
        moves.append((start, max(start - die, 0)))
    rng.shuffle(moves)
    return moves


def pure_check(
    variant: Variant, position: Position, dice: tuple[int, int], moves: list[tuple[int, int]]
) -> Play | None:
    with pure():
        try:
            return variant.check_play(position, dice, moves)
        except TavliError:
            return None


ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]

# What each of Plakoto's and Fevga's own rules needs in a position to decide anything.
SITUATIONS: dict[str, dict[str, Callable[[Position], bool]]] = {
    "plakoto": {
        "pins": lambda position: bool(position.pins),
        "a mother at stake": lambda position: position.opponent[MOTHER_POINT] == 1,
        "bearing off": lambda position: not any(position.player[7:26]),
    },
    "fevga": {
        "the first checker": lambda position: not any(position.player[OFF:12]) and position.player[24] < 15,
        "the starting quarter": lambda position: (
            sum(bool(position.player[point]) for point in START_QUARTER) >= 5
        ),
        "the unblocking duty": lambda position: FEVGA.prime_to_open(position) is not None,
    },
}


def compare(
    _core: ModuleType, variant: Variant, position: Position, dice: tuple[int, int], rng: random.Random
) -> tuple[int, int, int]:
    """Hold the core to the pure engine on ``position`` and ``dice``: the legal plays and what is
    read from them, then (for :data:`GIVEN_PLAY_SHARE` of the calls) given plays. Returns how
    many plays were compared, given plays compared and given plays the core found legal."""
    rules = variant.compiled_rules
    compiled = _core.legal_plays(rules, position, *dice)
    with pure():
        reference = variant.generate_plays(position, dice)
        reference_plays = list(reference)
        notations = [format_steps(play.steps) for play in reference_plays]
        position_ids = [play.position.position_id() for play in reference_plays]
        # The Play messages the pure engine writes, from the Position IDs just read (what
        # LegalPlays.plays_field does, each ID worked out once here).
        plays_field = wire.plays_field(1, zip([play.steps for play in reference_plays], position_ids))
        last_bare_id = encode_position_id(reference_plays[-1].position)
        assert decode_position_id.__wrapped__(position_ids[0]) == reference_plays[0].position
    where = f"{variant.name} {position.position_id()} {dice[0]}-{dice[1]}"
    compiled_plays = compiled.plays()
    assert compiled_plays == reference_plays, where
    assert [play.position.pins for play in compiled_plays] == [play.position.pins for play in reference_plays]
    compiled_last = compiled.play(-1)
    assert compiled_last == reference_plays[-1] == reference[-1], where
    assert compiled_last.position.pins == reference_plays[-1].position.pins, where
    assert compiled.notations() == notations, where
    assert compiled.position_ids() == position_ids, where
    assert compiled.plays_field(1) == plays_field, where
    assert compiled.dice_used == reference.dice_used, where
    last = reference_plays[-1].position
    assert _core.decode_position_id(last_bare_id) == Position.trusted(last.player, last.opponent), where
    assert _core.format_steps(reference_plays[-1].steps) == notations[-1], where
    # Pins are the pure check's to judge; every other position reached is valid in the core.
    assert _core.valid(rules, position, in_play=True) == (not position.pins), where

    if rng.random() >= GIVEN_PLAY_SHARE:
        return len(reference_plays), 0, 0
    # A given play: a legal one, in its order and shuffled, and random moves.
    given_compared = given_legal = 0
    play = rng.choice(reference_plays)
    moves = [(step.start, step.end) for step in play.steps]
    shuffled = rng.sample(moves, len(moves))
    for given in (moves, shuffled, random_moves(rng, dice)):
        answer = _core.check_play(rules, position, dice[0], dice[1], given)
        expected = pure_check(variant, position, dice, given)
        if answer is not None:
            given_legal += 1
            assert answer == expected, f"{where}: {given}"
            assert answer.position.pins == expected.position.pins, f"{where}: {given}"
        elif expected is not None:
            # Only plays of fewer dice than the roll has are left to the pure code.
            assert len(given) < (4 if dice[0] == dice[1] else 2), f"{where}: {given}"
        given_compared += 1
    return len(reference_plays), given_compared, given_legal


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "seed"),
    [(BACKGAMMON, 13), (LONG_NARDI, 31), (PLAKOTO, 43), (FEVGA, 59)],
    ids=["backgammon", "long-nardi", "plakoto", "fevga"],
)
def test_the_core_and_the_pure_engine_agree(variant: Variant, seed: int) -> None:
    _core = compiled_core()
    rng = random.Random(seed + 1)
    plays_compared = given_compared = given_legal = 0
    situations: Counter[str] = Counter()
    rolls: Counter[tuple[int, int]] = Counter()
    for position, dice in reached_positions(variant, POSITIONS_PER_VARIANT, seed):
        plays, given, legal = compare(_core, variant, position, dice, rng)
        plays_compared += plays
        given_compared += given
        given_legal += legal
        rolls[dice] += 1
        situations.update(name for name, holds in SITUATIONS.get(variant.name, {}).items() if holds(position))
    if variant is FEVGA:  # random play almost never meets the unblocking duty: boards made for it
        for _ in range(200):
            position = prime_to_open(rng)
            for dice in ROLLS:
                compare(_core, variant, position, dice, rng)
            situations["the unblocking duty"] += 1
    assert plays_compared > POSITIONS_PER_VARIANT
    assert given_legal > POSITIONS_PER_VARIANT * GIVEN_PLAY_SHARE  # most legal plays given are decided in C
    assert min(rolls[roll] for roll in ROLLS) > POSITIONS_PER_VARIANT // 50  # every roll, many times
    for name in SITUATIONS.get(variant.name, {}):
        assert situations[name] > 100, f"{name}: {situations[name]} positions"


def prime_to_open(rng: random.Random) -> Position:
    """A Fevga board where the unblocking duty holds: every opposing checker on the board on one
    point, the opponent's 7-point or higher, the mover on the six points in front of it and on a
    few others."""
    point = rng.randint(7, 24)
    opponent = [0] * 26
    opponent[point] = rng.randint(1, 15)
    opponent[OFF] = 15 - opponent[point]
    held = FEVGA.opponent_point(point)
    prime = [FEVGA.opponent_point(point - step) for step in range(1, 7)]
    player = [0] * 26
    for prime_point in prime:
        player[prime_point] = 1
    for _ in range(9):
        player[rng.choice([other for other in range(25) if other != held])] += 1
    position = Position(tuple(player), tuple(opponent))
    assert FEVGA.prime_to_open(position) is not None
    FEVGA.check_position(position)
    return position


@pytest.mark.parametrize("variant", [PLAKOTO, FEVGA], ids=["plakoto", "fevga"])
def test_each_situation_of_plakoto_and_fevga_agrees_with_every_roll(variant: Variant) -> None:
    """From 20,000 positions of random games (the core plays them: cheap), 12 of each situation
    its rules decide, and 12 others, each compared with all 21 rolls."""
    _core = compiled_core()
    rng = random.Random(71)
    picked: dict[str, list[Position]] = {name: [] for name in [*SITUATIONS[variant.name], "any other"]}
    candidates = [position for position, _dice in reached_positions(variant, 20_000, 67)]
    if variant is FEVGA:  # random play almost never meets the duty: boards made for it
        candidates += [prime_to_open(rng) for _ in range(12)]
    for position in candidates:
        names = [name for name, holds in SITUATIONS[variant.name].items() if holds(position)] or ["any other"]
        for name in names:
            if len(picked[name]) < 12 and position not in picked[name]:
                picked[name].append(position)
    for name, positions in picked.items():
        assert len(positions) == 12, f"only {len(positions)} positions with {name}"
        for position in positions:
            for dice in ROLLS:
                compare(_core, variant, position, (dice[0], dice[1]), rng)


def test_a_mother_pinned_in_the_middle_of_a_double_ends_the_play_in_the_core_too() -> None:
    """The opponent's mother pinned on its 24-point (the mover's 1-point), kept in the game by the
    mover's last checker on its own 24-point: 24/21 takes the exception away and ends the game
    there, however many 3s were played before it, and no play of four 3s is left."""
    player = [0] * 26
    player[24], player[4], player[1], player[OFF] = 1, 2, 1, 11
    opponent = [0] * 26
    opponent[24], opponent[20], opponent[OFF] = 1, 3, 11
    position = Position.with_pins(tuple(player), tuple(opponent), Pins((), (24,)))
    PLAKOTO.check_position(position)
    _core = compiled_core()
    compiled = _core.legal_plays(PLAKOTO.compiled_rules, position, 3, 3)
    with pure():
        reference = list(PLAKOTO.generate_plays(position, (3, 3)))
    assert compiled.plays() == reference
    assert compiled.notations() == ["24/21", "24/21 4/1", "24/21 4/1(2)"]
    assert all(PLAKOTO.result(play.position) is not None for play in reference)


def test_a_steps_code_stands_for_its_steps() -> None:
    _core = compiled_core()
    for position, dice in reached_positions(BACKGAMMON, 2_000, 5):
        legal = _core.legal_plays(BACKGAMMON.compiled_rules, position, *dice)
        assert [steps_of_code(steps_code(play.steps)) for play in legal.plays()] == [
            play.steps for play in legal.plays()
        ]


def test_positions_that_cannot_occur_are_left_to_the_pure_check() -> None:
    """``valid`` says no exactly where ``validate`` raises, and with ``in_play`` exactly where
    ``check_position`` raises, on random boards."""
    _core = compiled_core()
    rng = random.Random(7)
    refused = 0
    for index in range(20_000):
        sides = []
        for _side in range(2):
            counts = [0] * 26
            for _checker in range(15):
                counts[rng.choice((0, 25, *range(1, 25)))] += 1
            if index % 50 == 0:  # now and then a side with all its checkers borne off
                counts = [15] + [0] * 25
            sides.append(tuple(counts))
        position = Position(sides[0], sides[1])
        for variant in (BACKGAMMON, LONG_NARDI, PLAKOTO, FEVGA):
            with pure():
                try:
                    variant.validate(position)
                    valid = True
                except TavliError:
                    valid = False
                try:
                    variant.check_position(position)
                    can_occur = True
                except TavliError:
                    can_occur = False
            assert _core.valid(variant.compiled_rules, position) == valid, position
            assert _core.valid(variant.compiled_rules, position, in_play=True) == can_occur, position
            refused += not can_occur
    assert refused > 2_000


def test_position_ids_read_alike() -> None:
    """Every 14-letter string a client may send: the same position, or ``None`` where the pure
    reading refuses it (and then says why)."""
    _core = compiled_core()
    rng = random.Random(11)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    valid = 0
    reached = [position.position_id() for position, _ in reached_positions(BACKGAMMON, 5_000, 3)]
    samples = list(reached)
    for _ in range(20_000):
        changed = list(rng.choice(reached))
        changed[rng.randrange(14)] = rng.choice(letters + "=-é ")
        samples.append(
            "".join(changed) if rng.random() < 0.8 else "".join(rng.choice(letters) for _ in range(14))
        )
    for text in samples + ["", "A" * 13, "A" * 15, "////////////AA", "AAAAAAAAAAAAA="]:
        with pure():
            try:
                expected: Position | None = decode_position_id.__wrapped__(text)
            except TavliError:
                expected = None
        assert _core.decode_position_id(text) == expected, text
        valid += expected is not None
    assert valid > 10_000


def test_a_play_of_fewer_dice_or_a_refused_one_is_decided_by_the_pure_code() -> None:
    _core = compiled_core()
    position = Position.from_id("4HPwATDgc/ABMA")  # the backgammon start
    assert _core.check_play(BACKGAMMON.compiled_rules, position, 3, 1, [(8, 5)]) is None
    assert _core.check_play(BACKGAMMON.compiled_rules, position, 6, 5, [(24, 18), (24, 13)]) is None
    with pytest.raises(IllegalPlayError, match="both dice"):
        BACKGAMMON.check_play(position, (3, 1), [(8, 5)])


def test_plakoto_and_fevga_use_the_core_only_with_their_default_options() -> None:
    assert PLAKOTO.compiled_rules == core.PLAKOTO_RULES
    assert FEVGA.compiled_rules == core.FEVGA_RULES
    assert type(PLAKOTO)(mother_exception=False).compiled_rules is None
    assert type(PLAKOTO)(pinned_blocks_bear_off=False).compiled_rules is None
    assert type(FEVGA)(first_checker="INTO_START_QUARTER").compiled_rules is None
    assert type(FEVGA)(fevga_primes="NONE").compiled_rules is None
    assert type(FEVGA)(fevga_quarter_test="STEP").compiled_rules is None
    _core = compiled_core()
    assert (_core.PLAKOTO, _core.FEVGA) == (core.PLAKOTO_RULES, core.FEVGA_RULES)


def test_variants_whose_moves_differ_do_not_use_the_core() -> None:
    class Hypermoves(type(BACKGAMMON)):  # type: ignore[misc]
        def refusal_of_play(self, position: Position) -> str | None:
            return "every play is refused"

    class StartsElsewhere(type(BACKGAMMON)):  # type: ignore[misc]
        name = "starts-elsewhere"  # type: ignore[assignment]

    assert Hypermoves.compiled_rules is None
    assert StartsElsewhere.compiled_rules == BACKGAMMON.compiled_rules == core.BACKGAMMON_RULES
    assert LONG_NARDI.compiled_rules == core.LONG_NARDI_RULES
    _core = compiled_core()
    assert (_core.BACKGAMMON, _core.LONG_NARDI) == (core.BACKGAMMON_RULES, core.LONG_NARDI_RULES)


def test_the_plays_field_writes_plakotos_pins_as_the_pure_engine_does() -> None:
    """Every play's Play message in the server's answers: each Position ID with its pins after it."""
    _core = compiled_core()
    checked = 0
    for position, dice in reached_positions(PLAKOTO, 400, 83):
        compiled = _core.legal_plays(PLAKOTO.compiled_rules, position, *dice)
        with pure():
            expected = PLAKOTO.generate_plays(position, dice).plays_field(1)
        assert compiled.plays_field(1) == expected, position
        checked += b":" in expected
    assert checked > 200  # most of them with pins
