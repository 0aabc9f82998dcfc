"""The checked single-play path, ``variant.check_play``, against the legal-play list.

``check_play`` judges one play step by step and lists the legal plays only for a play that uses
fewer dice than the roll has; ``legal_plays`` lists them all and is cross-checked elsewhere (the
perft files, GNU Backgammon, the rule vectors). The two must agree:

(a) no play that ``check_play`` accepts leads to a position outside ``legal_plays``, and it leads
    to the position its moves reach on the board;
(b) every legal play, given as its own steps (in the generator's order, as ``Step`` objects whose
    die and hit are wrong on purpose, and reversed, as bare moves), is accepted, with the same
    position and notation;
(c) near misses (a legal play with one step's end moved by one, a step dropped, a step added, a
    step's die swapped for the other die, a step moved to another of the mover's checkers) get
    the reference verdict: accepted exactly when the moves reach a legal position and can be
    played in some order, each step allowed by ``variant.step``; refused with a reason otherwise;
    never refused when they are some legal play's own moves.

The corpora are every position of tests/data/perft-*.txt, of the rule vectors
(../shared/vectors/*.jsonl) and of the seeded games that tests/engine/test_gnubg_crosscheck.py compares
with GNU Backgammon (the first 300 of each of its two game styles), each with any of the 21
rolls. The full product (over 40,000 position-rolls a variant, near a million legal plays) would
take many minutes, so 2,000 position-rolls a variant are checked: every vector row with its own
roll (120 in backgammon, 421 in long nardi) and the rest a fixed-seed sample of the product:

- backgammon: 2,000 position-rolls of 1,444 positions, 35,724 legal plays (each given in two or
  three orders), 10,124 near misses (1,273 of them legal plays too);
- long nardi: 2,000 position-rolls of 1,382 positions, 27,465 legal plays, 10,907 near misses
  (1,278 legal);
- a hypothesis test, 200 examples, on positions reached by seeded random games in both variants:
  12 legal plays and 10 near misses (of one or two perturbations, or random moves) an example.

The whole file runs in about 30 s. Which of two checkers landing on a blot hits it depends on
the order the steps are given in; the play is written alike either way (test_a_play_is_written_alike_...).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache

import pytest
from hypothesis import given, settings, strategies as st

from tavli.engine import (
    BACKGAMMON,
    BAR,
    LONG_NARDI,
    OFF,
    IllegalPlayError,
    InvalidPlayError,
    LegalPlays,
    Play,
    Position,
    Step,
    Variant,
)
from tavli.engine.play import Dice
from tests.conftest import DATA, SHARED_VECTORS
from tests.games import positions_from_games

Move = tuple[int, int]

ROLLS: tuple[Dice, ...] = tuple((high, low) for high in range(6, 0, -1) for low in range(high, 0, -1))
PAIRS = 2_000  # position-rolls a variant: the vector rows, the rest sampled from the product
NEAR_MISS_PLAYS = 2  # legal plays perturbed, a position-roll
NEAR_MISSES_PER_PLAY = 3  # perturbations of each, sampled from all of them
HYPOTHESIS_TURNS = 100  # random plays from the start, at most
HYPOTHESIS_PLAYS = 12  # legal plays given as their own steps, an example
HYPOTHESIS_NEAR_MISSES = 10  # near misses, an example
GAME_POSITIONS = 300  # of each of the cross-check's two styles of game (backgammon)
SEED = 20261215

VECTOR_FILES = {
    "backgammon": ["backgammon-rules.jsonl"],
    "long-nardi": ["long-nardi.jsonl", "long-nardi-six-in-a-row.jsonl"],
}
PERFT_FILES = {"backgammon": "perft-backgammon.txt", "long-nardi": "perft-long-nardi.txt"}
VARIANTS = [BACKGAMMON, LONG_NARDI]


# The corpora


def _perft_ids(name: str) -> list[str]:
    with open(DATA / name, encoding="utf-8") as lines:
        return [line.split()[0] for line in lines if line.strip() and not line.startswith("#")]


def _vector_rows(name: str) -> list[tuple[str, Dice]]:
    with open(SHARED_VECTORS / name, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return [(str(row["position_id"]), (int(row["dice"][0]), int(row["dice"][1]))) for row in rows]


def _game_ids() -> list[str]:
    # The same seeded games as tests/engine/test_gnubg_crosscheck.py, their first positions.
    games = [
        positions_from_games(BACKGAMMON, seed=20261130, count=GAME_POSITIONS),
        positions_from_games(BACKGAMMON, seed=20261201, count=GAME_POSITIONS, style="blitz"),
    ]
    return [position.position_id() for game in games for position, _ in game]


@cache
def corpus(variant: Variant) -> tuple[tuple[Position, Dice], ...]:
    """The position-rolls checked for ``variant``: a seeded sample of every corpus position with
    every roll, then every vector row with its own roll."""
    if not SHARED_VECTORS.is_dir():
        pytest.fail(f"the rule vectors are missing: expected them in {SHARED_VECTORS}")
    rows = [row for name in VECTOR_FILES[variant.name] for row in _vector_rows(name)]
    ids = _perft_ids(PERFT_FILES[variant.name]) + [position_id for position_id, _ in rows]
    if variant is BACKGAMMON:
        ids += _game_ids()
    positions = [Position.from_id(position_id) for position_id in dict.fromkeys(ids)]
    positions = [position for position in positions if variant.result(position) is None]
    product = [(position, roll) for position in positions for roll in ROLLS]
    sample = random.Random(f"{SEED}-{variant.name}").sample(product, PAIRS - len(rows))
    return tuple(sample) + tuple((Position.from_id(position_id), dice) for position_id, dice in rows)


# The reference: what the moves reach on the board, and whether some order of them can be played


def moves_of(steps: Sequence[Step | Move]) -> list[Move]:
    """The (start, end) of each step, or of each move."""
    return [(step[0], step[1]) for step in steps]


def highest_first(moves: Sequence[Move]) -> list[Move]:
    return sorted(moves, key=lambda move: (-move[0], -move[1]))


def impossible_on_any_board(move: Move) -> bool:
    """A move no checker makes on any board: check_play's InvalidPlayError, not IllegalPlayError."""
    start, end = move
    return not (1 <= start <= BAR and OFF <= end < start) or (start == BAR and end == OFF)


def board_after(variant: Variant, position: Position, moves: Sequence[Move]) -> Position | None:
    """The position ``moves`` lead to, worked out on the board alone (a checker landing on a lone
    opposing checker hits it, where the variant hits), or ``None`` when the mover lacks a checker
    some move needs. Highest start first, every checker a move needs is there if it ever is."""
    player = list(position.player)
    opponent = list(position.opponent)
    for start, end in highest_first(moves):
        if player[start] == 0:
            return None
        player[start] -= 1
        player[end] += 1
        if variant.hits and 1 <= end <= 24 and opponent[variant.opponent_point(end)] == 1:
            opponent[variant.opponent_point(end)] = 0
            opponent[BAR] += 1
    return Position.trusted(tuple(player), tuple(opponent))


def _dice_of(dice: Dice) -> list[int]:
    """The dice a roll gives to play, the higher first: four of a double."""
    high, low = max(dice), min(dice)
    return [high] * 4 if high == low else [high, low]


def playable_in_some_order(variant: Variant, position: Position, dice: Dice, moves: Sequence[Move]) -> bool:
    """Whether ``moves`` can be played in some order, each a step of one die that
    ``variant.step`` allows then (every order and every way to give the dice out is tried)."""
    ordered: Dice = (max(dice), min(dice))
    dice_left = _dice_of(dice)
    if len(moves) > len(dice_left):
        return False

    # Every order, one move at a time (a stack of boards still to go on from).
    to_search: list[tuple[Position, list[Move], list[int], tuple[Step, ...]]] = [
        (position, list(moves), dice_left, ())
    ]
    while to_search:
        board, left, dice_left, taken = to_search.pop()
        if not left:
            return True
        for index, (start, end) in enumerate(left):
            if (start, end) in left[:index]:
                continue
            for die_index, die in enumerate(dice_left):
                if die in dice_left[:die_index]:
                    continue
                if not (start - die == end or (end == OFF and die > start)):
                    continue
                outcome = variant.step(board, start, die, taken=taken, dice=ordered)
                if isinstance(outcome, str) or outcome.end != end:
                    continue
                to_search.append(
                    (
                        variant.position_after(board, (outcome,)),
                        left[:index] + left[index + 1 :],
                        dice_left[:die_index] + dice_left[die_index + 1 :],
                        taken + (outcome,),
                    )
                )
    return False


def verdict_problem(
    variant: Variant, position: Position, dice: Dice, legal: LegalPlays, given: Sequence[Move]
) -> str | None:
    """What is wrong with check_play's verdict on ``given``, or ``None`` if it is the reference's.

    Sound: a correct engine never fails it. Strong: it fails if check_play accepts moves that do
    not reach a legal position, or that are not what it returns; or refuses moves that are some
    legal play's own, or that reach a legal position in an order it can play.
    """
    moves = list(given)
    target = board_after(variant, position, moves) if not any(map(impossible_on_any_board, moves)) else None
    reference = legal.leading_to(target) if target is not None else None
    try:
        play = variant.check_play(position, dice, moves)
    except InvalidPlayError as error:
        if not any(map(impossible_on_any_board, moves)):
            return f"InvalidPlayError for moves possible on some board: {error}"
        if not str(error):
            return "InvalidPlayError without a message"
        return None
    except IllegalPlayError as error:
        if any(map(impossible_on_any_board, moves)):
            return f"IllegalPlayError, not InvalidPlayError, for a move impossible on any board: {error}"
        if not isinstance(error.why, str) or not error.why.strip():
            return f"IllegalPlayError without a reason: {error!r}"
        if reference is None:
            return None  # the moves do not reach a legal position: refused rightly
        if sorted(moves) == sorted(moves_of(reference.steps)):
            return f"refused a legal play's own moves ({reference.notation()}): {error.why}"
        if playable_in_some_order(variant, position, dice, moves):
            return f"refused moves that reach the legal {reference.notation()} in some order: {error.why}"
        return None  # another route to a legal position, blocked on the way
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return f"raised {type(error).__name__}: {error}"
    if any(map(impossible_on_any_board, moves)):
        return f"accepted a move impossible on any board as {play.notation()!r}"
    accepted = f"accepted as {play.notation()!r}, leading to {play.position.position_id()}"
    if play.position != target:
        return f"{accepted}, not where the moves lead"
    if reference is None:
        return f"{accepted}, not a legal position"
    # Moves of every die are the play's steps; fewer may stand for a legal play of more steps
    # that leads to the same position (6/off with one die, written for 6/1/off with two).
    if len(moves) == len(_dice_of(dice)) and sorted(moves_of(play.steps)) != sorted(moves):
        return f"accepted as {play.notation()!r}, whose steps are not the moves given"
    if play.dice_used != legal.dice_used:
        return f"accepted as {play.notation()!r}, using {play.dice_used} dice, not {legal.dice_used}"
    if not playable_in_some_order(variant, position, dice, moves):
        return f"accepted as {play.notation()!r} moves that variant.step does not allow in any order"
    return None


def acceptance_problems(
    variant: Variant, position: Position, dice: Dice, play: Play
) -> Iterator[tuple[str, str]]:
    """What is wrong with check_play's answer to ``play``'s own steps, as (kind, description):
    given in the generator's order (as Step objects whose die and hit check_play must not read),
    reversed (as moves, the dice given the other way round) and highest start first."""
    own = moves_of(play.steps)
    wrong_die_and_hit = [step._replace(die=7 - step.die, hit=not step.hit) for step in play.steps]
    tries: list[tuple[str, Sequence[Step | Move], Dice]] = [("generator's order", wrong_die_and_hit, dice)]
    for how, order in (("reversed", own[::-1]), ("highest start first", highest_first(own))):
        if all(order != moves_of(tried) for _, tried, _ in tries):
            tries.append((how, order, (dice[1], dice[0])))
    for how, tried, roll in tries:
        about = f"{play.notation()!r} {how} {moves_of(tried)}"
        try:
            answer = variant.check_play(position, roll, tried)
        except Exception as error:  # noqa: BLE001 - refusing a legal play is the finding
            yield "refused", f"{about}: {type(error).__name__}: {error}"
            continue
        if answer.position != play.position:
            yield "position", f"{about}: leads to {answer.position.position_id()}"
        elif Counter(moves_of(answer.steps)) != Counter(own):
            yield "steps", f"{about}: steps {answer.steps}"
        elif how == "generator's order" and moves_of(answer.steps) != own:
            yield "order", f"{about}: steps reordered to {moves_of(answer.steps)}"
        elif {s.end for s in answer.steps if s.hit} != {s.end for s in play.steps if s.hit}:
            # Which of two checkers landing on a blot hits it follows the order given; the
            # points hit do not, nor does the notation.
            yield "hits", f"{about}: written {answer.notation()!r}"
        elif answer.notation() != play.notation():
            yield "notation", f"{about}: written {answer.notation()!r}"


# Near misses


def near_misses(variant: Variant, position: Position, dice: Dice, moves: Sequence[Move]) -> list[list[Move]]:
    """Every perturbation of ``moves`` (a legal play's, or a near miss's) that the module
    docstring lists, each once: one move's end one point off, a move dropped, the other die for
    one move, a move from another of the mover's points by the same die, a move added."""
    moves = list(moves)
    faces = sorted(set(dice), reverse=True)
    held_before = [point for point in range(BAR, 0, -1) if position.player[point]]
    after = board_after(variant, position, moves)
    held_after = [point for point in range(BAR, 0, -1) if after is not None and after.player[point]]
    found: dict[tuple[Move, ...], None] = {}

    def add(candidate: list[Move]) -> None:
        if candidate != moves:
            found.setdefault(tuple(candidate), None)

    def by(start: int, die: int) -> Move:
        return (start, max(start - die, OFF))

    for index, (start, end) in enumerate(moves):
        # The die of the move: its length, or for a bear-off the least die that reaches off.
        die = next((face for face in sorted(faces) if face >= start - end), faces[0])
        if end != OFF:
            die = start - end
        for shifted in (end - 1, end + 1):
            if 0 <= shifted <= 24 and shifted < start:
                add(moves[:index] + [(start, shifted)] + moves[index + 1 :])
        add(moves[:index] + moves[index + 1 :])
        for face in faces:
            if face != die:
                add(moves[:index] + [by(start, face)] + moves[index + 1 :])
        for other in held_before:
            if other != start:
                add(moves[:index] + [by(other, die)] + moves[index + 1 :])
    for point in dict.fromkeys(held_after + held_before):
        for face in faces:
            add(moves + [by(point, face)])
    return [list(candidate) for candidate in found]


def random_moves(rng: random.Random, variant: Variant, position: Position, dice: Dice) -> list[Move]:
    """Moves of checkers the mover has, by dice of the roll, in no particular relation to a legal play."""
    held = [point for point in range(BAR, 0, -1) if position.player[point]]
    count = rng.randint(0, 4 if dice[0] == dice[1] else 3)
    return [(point, max(point - rng.choice(dice), OFF)) for point in (rng.choice(held) for _ in range(count))]


# The tests


def _acceptance_problems_of(
    variant: Variant, pairs: Sequence[tuple[Position, Dice]]
) -> tuple[int, list[tuple[str, Dice, str, str]]]:
    """How many legal plays the position-rolls have, and what is wrong with check_play's
    answers to them: (position ID, dice, kind, description)."""
    plays = 0
    problems = []
    for position, dice in pairs:
        for play in variant.legal_plays(position, dice):
            plays += 1
            problems += [
                (position.position_id(), dice, kind, about)
                for kind, about in acceptance_problems(variant, position, dice, play)
            ]
    return plays, problems


@cache
def _corpus_acceptance(variant: Variant) -> tuple[int, tuple[tuple[str, Dice, str, str], ...]]:
    plays, problems = _acceptance_problems_of(variant, corpus(variant))
    return plays, tuple(problems)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_every_legal_play_is_accepted_as_its_own_steps(variant: Variant) -> None:
    assert len(corpus(variant)) >= 2_000
    plays, problems = _corpus_acceptance(variant)
    assert plays >= 20_000
    assert problems == ()


def test_a_play_is_written_alike_whatever_order_its_steps_come_in() -> None:
    position, dice = Position.from_id("+xYgIQyDI+aQAw"), (5, 2)
    legal = BACKGAMMON.legal_plays(position, dice)
    given = BACKGAMMON.check_play(position, dice, [(9, 7), (12, 7)])
    assert legal.leading_to(given.position) is not None
    assert given.notation() == legal.leading_to(given.position).notation() == "12/7* 9/7"
    assert BACKGAMMON.parse_play(position, dice, "9/7* 12/7").notation() == "12/7* 9/7"


def test_a_play_read_with_its_steps_in_another_order_is_among_the_legal_plays() -> None:
    # "6/2(2)" with 2-2 is read as 6/4 4/2 6/4 4/2; the list has the same play as 6/4 6/4 4/2 4/2.
    position, dice = Position.from_id("4HPwATDgc/ABMA"), (2, 2)
    legal = BACKGAMMON.legal_plays(position, dice)
    read = BACKGAMMON.parse_play(position, dice, "6/2(2)")
    listed = legal.leading_to(read.position)
    assert listed is not None and listed.steps != read.steps
    assert read in legal and listed in legal
    moved_otherwise = Play(read.steps[:2] + (Step(6, 4, 2, False), Step(4, 2, 2, True)), read.position)
    assert moved_otherwise not in legal  # the same board, but a hit the play does not make


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_near_misses_of_legal_plays_get_the_reference_verdict(variant: Variant) -> None:
    rng = random.Random(f"{SEED}-near-{variant.name}")
    problems = []
    verdicts: Counter[str] = Counter()
    for position, dice in corpus(variant):
        legal = variant.legal_plays(position, dice)
        for play in rng.sample(list(legal), min(NEAR_MISS_PLAYS, len(legal))):
            candidates = near_misses(variant, position, dice, moves_of(play.steps))
            for moves in rng.sample(candidates, min(NEAR_MISSES_PER_PLAY, len(candidates))):
                problem = verdict_problem(variant, position, dice, legal, moves)
                if problem is not None:
                    problems.append((position.position_id(), dice, moves, problem))
                target = board_after(variant, position, moves)
                verdicts["legal" if target is not None and target in legal else "illegal"] += 1
    assert problems == []
    # The near misses are near: many are legal plays too, and most are not.
    assert verdicts["legal"] >= 1_000 and verdicts["illegal"] >= 8_000, verdicts


def _reachable_position(variant: Variant, rng: random.Random, turns: int) -> Position:
    """The position after ``turns`` random legal plays from the start (or the last before the game ended)."""
    position = variant.start_position()
    for _ in range(turns):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        after = rng.choice(list(variant.legal_plays(position, roll))).position.swapped()
        if variant.result(after) is not None:
            break
        position = after
    return position


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    turns=st.integers(0, HYPOTHESIS_TURNS),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_check_play_agrees_with_the_legal_plays_in_random_games(
    variant: Variant, seed: int, turns: int, dice: Dice
) -> None:
    rng = random.Random(seed)
    position = _reachable_position(variant, rng, turns)
    legal = variant.legal_plays(position, dice)
    plays = list(legal)
    # (b), for a sample of the legal plays (a double may have hundreds).
    checked = rng.sample(plays, min(HYPOTHESIS_PLAYS, len(plays)))
    problems = [about for _, about in _acceptance_problems_of_plays(variant, position, dice, checked)]
    # (a) and the verdict, for near misses of one or two perturbations, and random moves.
    for _ in range(HYPOTHESIS_NEAR_MISSES):
        if rng.random() < 0.2:
            moves = random_moves(rng, variant, position, dice)
        else:
            moves = moves_of(rng.choice(plays).steps)
            for _ in range(rng.randint(1, 2)):
                candidates = near_misses(variant, position, dice, moves)
                if candidates:
                    moves = rng.choice(candidates)
            if rng.random() < 0.5:
                rng.shuffle(moves)
        problem = verdict_problem(variant, position, dice, legal, moves)
        if problem is not None:
            problems.append(f"{moves}: {problem}")
    assert problems == [], (position.position_id(), dice)


def _acceptance_problems_of_plays(
    variant: Variant, position: Position, dice: Dice, plays: Sequence[Play]
) -> Iterator[tuple[str, str]]:
    for play in plays:
        yield from acceptance_problems(variant, position, dice, play)


def test_the_reference_verdict_itself() -> None:
    start = BACKGAMMON.start_position()
    legal = BACKGAMMON.legal_plays(start, (3, 1))
    assert verdict_problem(BACKGAMMON, start, (3, 1), legal, [(8, 5), (6, 5)]) is None
    assert verdict_problem(BACKGAMMON, start, (3, 1), legal, [(6, 5), (8, 5)]) is None
    assert board_after(BACKGAMMON, start, [(24, 21), (6, 5)]) in legal
    assert board_after(BACKGAMMON, start, [(24, 20)]) in legal  # 24/21/20 (or 24/23/20)
    assert board_after(BACKGAMMON, start, [(24, 21)]) not in legal
    assert board_after(BACKGAMMON, start, [(5, 4)]) is None  # no checker on the 5-point
    assert not playable_in_some_order(BACKGAMMON, start, (6, 6), [(13, 7), (7, 1)])  # the 1-point is held
    assert playable_in_some_order(BACKGAMMON, start, (6, 6), [(24, 18), (24, 18), (13, 7), (13, 7)])
    assert not playable_in_some_order(BACKGAMMON, start, (3, 1), [(8, 5), (6, 5), (6, 5)])  # too many
    assert verdict_problem(BACKGAMMON, start, (3, 1), legal, [(8, 5)]) is None  # refused: too few dice
    assert verdict_problem(BACKGAMMON, start, (3, 1), legal, [(8, 9)]) is None  # InvalidPlayError
    assert verdict_problem(BACKGAMMON, start, (3, 1), legal, [(25, 22), (6, 5)]) is None  # nothing on the bar
    first = LONG_NARDI.start_position()
    legal = LONG_NARDI.legal_plays(first, (6, 5))
    assert verdict_problem(LONG_NARDI, first, (6, 5), legal, [(24, 18), (24, 19)]) is None  # the head rule
    assert board_after(LONG_NARDI, first, [(24, 18), (24, 19)]) not in legal
    assert verdict_problem(LONG_NARDI, first, (6, 5), legal, [(24, 18), (18, 13)]) is None
