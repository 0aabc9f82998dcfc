"""``heuristic``: a one-ply player with a hand-written evaluation, for every variant.

Every legal play is scored by the position it leads to (the bot's checkers first, the opponent
to roll) and the best is played. Scores are in pips: a point made or a blot left is worth what
the same number of pips would be, so the terms add up.

Backgammon: in a race, the pip count, bearing off and bringing checkers home; with contact, the
pip count (a hit is the pips it costs the opponent), made points weighted towards the 4, 5 and 7
points and the home board, a prime in front of the opponent's back checkers, and each blot's risk
by the share of the opponent's 36 rolls that hit it directly or indirectly. The cube follows the
8-9-12 rule in races and a winning chance read from the score otherwise, with the match score
respected (no doubling in the Crawford game or with a dead cube, the trailer doubles at once after
Crawford, a take whenever a drop would lose the match).

Long nardi and Fevga (the same board, both sides moving the same way round): checkers off the
head early, blocks of points in front of the opponent's rearmost checker (the engine already keeps
out plays that break the six-in-a-row or the starting-quarter rule), no tall stacks, and once the
sides have passed each other, checkers home and off.

Plakoto: the race, opposing checkers pinned (the further from home the better, the mother above
all), our own pinned checkers and lone checkers within the opponent's reach counted against, by
the share of its rolls that could pin them; a play that wins at once by pinning the mother is
always made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import mul

from tavli.clients.bots.base import Bot, CubeAnswer, ResignLevel, Situation
from tavli.engine import GameResult, Play, Position, Variant
from tavli.engine.play import Dice
from tavli.engine.position import BAR, OFF, Checkers

_POINT_NUMBERS = tuple(range(26))


def pips(checkers: Checkers) -> int:
    """A side's pip count (the engine's, without the generator: this runs for every legal play)."""
    return sum(map(mul, checkers, _POINT_NUMBERS))


# --- backgammon ----------------------------------------------------------------------------------


def _rolls_moving(distance: int) -> int:
    """The ordered rolls (a 36-bit mask) that can carry one checker exactly ``distance`` pips,
    ignoring points blocked on the way: a blot's shots are counted the way players count them."""
    mask = 0
    for first in range(1, 7):
        for second in range(1, 7):
            if first == second:
                reaches = distance in (first, 2 * first, 3 * first, 4 * first)
            else:
                reaches = distance in (first, second, first + second)
            if reaches:
                mask |= 1 << ((first - 1) * 6 + second - 1)
    return mask


_SHOTS = tuple(_rolls_moving(distance) for distance in range(25))

# What owning a point is worth, in pips: the 5 and 4 points and the bar point most, then the rest
# of the home board; the 20 and 21 points are the best anchors in the opponent's board.
_POINT_VALUE = (
    0.0,
    0.5,
    1.0,
    1.5,
    3.5,
    4.5,
    3.5,
    3.0,
    1.5,
    1.0,
    0.5,
    0.5,
    0.5,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    1.5,
    1.5,
    2.5,
    2.5,
    1.0,
    1.0,
    0.5,
    0.0,
)
_PRIME_BONUS = (0.0, 0.0, 1.0, 3.0, 6.0, 10.0, 16.0)


def backgammon_score(position: Position) -> float:
    """How good ``position`` is for ``position.player`` with the opponent to roll, in pips."""
    me, opponent = position
    my_pips, their_pips = pips(me), pips(opponent)
    my_rear = _rearmost(me)
    their_rear = _rearmost(opponent)
    if my_rear + their_rear <= 25:  # every checker has passed every opposing one
        return _race_score(me, my_pips, their_pips)
    score = float(their_pips - my_pips)
    my_board = their_board = 0
    for point in range(1, 7):
        my_board += me[point] >= 2
        their_board += opponent[point] >= 2
    # Points made, stacks, and the longest prime with opposing checkers behind it.
    run = longest = longest_low = 0
    for point in range(1, 25):
        count = me[point]
        if count >= 2:
            score += _POINT_VALUE[point]
            if count > 3:
                score -= 0.7 * (count - 3)
            run += 1
            if run > longest:
                longest, longest_low = run, point - run + 1
        else:
            run = 0
    if longest >= 2 and 25 - their_rear < longest_low:
        score += _PRIME_BONUS[min(longest, 6)]
    # Blots: the opponent's checkers stand on its point q, our 25 - q (its bar is our 0).
    sources = [25 - point for point in range(1, 26) if opponent[point]]
    hit_cost = 6.0 + 2.0 * their_board
    for point in range(1, 25):
        if me[point] == 1:
            shots = 0
            for source in sources:
                if source < point:
                    shots |= _SHOTS[point - source]
            if shots:
                score -= shots.bit_count() / 36 * (25 - point + hit_cost)
    score += opponent[BAR] * (3.0 + 1.5 * my_board)
    score -= me[BAR] * 1.5 * their_board
    return score


def _race_score(me: Checkers, my_pips: int, their_pips: int) -> float:
    outside = sum(me[7:25])
    stacked = sum(max(0, me[point] - 3) for point in range(1, 7))
    return float(their_pips - my_pips) + 6.0 * me[OFF] - 1.5 * outside - 0.5 * stacked


def _rearmost(checkers: Checkers) -> int:
    """The side's highest occupied point (the bar is 25), 0 when all are off."""
    for point in range(BAR, 0, -1):
        if checkers[point]:
            return point
    return 0


def _logistic(score: float) -> float:
    return 1.0 / (1.0 + math.exp(-score / 16.0))


_ON_ROLL = 8.0  # what being on roll is worth, in the score's pips


def backgammon_chance(position: Position) -> float:
    """A rough chance that ``position.player``, on roll, wins."""
    me, opponent = position
    if _rearmost(me) + _rearmost(opponent) <= 25:
        return _race_chance(pips(me), pips(opponent))
    return _logistic(backgammon_score(position) + _ON_ROLL)


def _race_chance(mine: int, theirs: int) -> float:
    """The chance of the side on roll in a race, from the pip counts: even at about 61% for 100
    pips each, and the spread of a race's outcome grows with the square root of its length."""
    lead = theirs - mine + 4.0
    spread = math.sqrt(max(mine + theirs, 2)) * 1.1
    return 0.5 * (1.0 + math.erf(lead / spread / math.sqrt(2.0)))


def _gammon_threat(position: Position) -> bool:
    """Whether ``position.player`` is playing for a gammon: the opponent has none off and several
    checkers back or on the bar while ours are well ahead."""
    opponent = position.opponent
    return opponent[OFF] == 0 and sum(opponent[19:26]) >= 3


# --- the cube, shared with the gnubg bot ---------------------------------------------------------


def may_double(situation: Situation) -> bool:
    """Whether doubling can make sense at this score (the server enforces the rest)."""
    if situation.match_length == 0:
        return True
    if situation.crawford or situation.match_length == 1:
        return False
    # A side whose cube already wins the match can only lose by doubling.
    return situation.score[0] + situation.cube_value < situation.match_length


def post_crawford_trailer(situation: Situation) -> bool:
    """After the Crawford game, the side behind doubles at once: the leader gains nothing from the cube."""
    length = situation.match_length
    return (
        length > 1
        and not situation.crawford
        and situation.score[1] == length - 1
        and situation.score[0] < length - 1
    )


def drop_loses_match(situation: Situation) -> bool:
    length = situation.match_length
    return length > 0 and situation.score[1] + situation.cube_value >= length


def double_decision(situation: Situation, chance: float, *, too_good: bool) -> bool:
    """Double with ``chance`` (of winning, on roll) at the cube thresholds of a one-ply player."""
    if not may_double(situation):
        return False
    if post_crawford_trailer(situation):
        return True
    threshold = 0.70 if situation.cube_owner == "centre" else 0.72
    return chance >= threshold and not too_good


def take_decision(situation: Situation, chance: float, *, take_point: float = 0.25) -> CubeAnswer:
    """Take with ``chance`` (of winning, the doubler on roll) above the take point."""
    if drop_loses_match(situation):
        return "take"
    if chance < take_point:
        return "drop"
    if situation.beavers_allowed and chance > 0.55:
        return "beaver"
    return "take"


# --- long nardi ---------------------------------------------------------------------------------

_HEAD = 24
# Our point for each of the opponent's points 1-24 (index 0 unused): its p is our p ± 12.
_OURS_FOR_THEIRS = (0,) + tuple(point + 12 if point <= 12 else point - 12 for point in range(1, 25))
_BLOCK_BONUS = (0.0, 0.0, 1.5, 4.0, 8.0, 13.0, 18.0)


def nardi_score(position: Position) -> float:
    """How good ``position`` is for ``position.player`` with the opponent to roll, in pips."""
    me, opponent = position
    score = 2.0 * me[OFF] - pips(me)  # only bearing off with a higher die wastes pips
    head = me[_HEAD]
    if head > 1:
        score -= 3.0 * (head - 1)
    for count in me[1:_HEAD]:
        if count:
            score += 1.0  # a point held: more ways to play, more blocks
            if count > 3:
                score -= 1.5 * (count - 3)
    # Blocks: runs of our points on the opponent's path, in front of its rearmost checker.
    rearmost = 0
    for theirs in range(24, 0, -1):
        if opponent[theirs]:
            rearmost = theirs
            break
    run = 0
    for theirs in range(1, rearmost):
        if me[_OURS_FOR_THEIRS[theirs]]:
            run += 1
        else:
            if run >= 2:
                score += _BLOCK_BONUS[min(run, 6)]
            run = 0
    if run >= 2:
        score += _BLOCK_BONUS[min(run, 6)]
    # Past each other (ours all in our first half, theirs in theirs): a race home.
    if not any(me[13:25]) and not any(opponent[13:25]):
        score += 1.5 * sum(me[1:7])
    return score


# --- Plakoto ------------------------------------------------------------------------------------

_MOTHER = 24


def _pin_value(point: int) -> float:
    """What a checker pinned on its own ``point`` costs its side, in pips: it cannot move, it keeps
    its side from bearing off, and a pinned mother (on the 24-point) can lose the game."""
    return 6.0 + point / 2 + (40.0 if point == _MOTHER else 0.0)


def plakoto_score(position: Position) -> float:
    """How good ``position`` is for ``position.player`` with the opponent to roll, in pips."""
    me, opponent = position
    pins = position.pins
    score = 2.0 * me[OFF] - pips(me) + pips(opponent)
    score += sum(map(_pin_value, pins.opponent)) - sum(map(_pin_value, pins.player))
    # The opponent's free checkers, on our numbering: they move from our 1-point up to our 24.
    chasers = [
        25 - theirs for theirs in range(1, 25) if opponent[theirs] > (1 if theirs in pins.opponent else 0)
    ]
    for point in range(1, 25):
        if me[point] != 1 or point in pins.player or opponent[25 - point]:
            continue
        shots = 0
        for chaser in chasers:
            if chaser < point:
                shots |= _SHOTS[point - chaser]
        score -= shots.bit_count() / 36 * _pin_value(point)
    return score


def _wins_at_once(variant: Variant, position: Position) -> bool:
    """Whether the play that led to ``position`` ended the game in the mover's favour."""
    return variant.result(position) is not None and variant.player_won(position)


# --- the bot ------------------------------------------------------------------------------------


class HeuristicBot(Bot):
    name = "heuristic"
    description = (
        "A quick player of rules of thumb: it weighs points made, blots and the race, and doubles "
        "and takes by its chances."
    )

    def __init__(self, *, seed: int | None = None) -> None:
        # Deterministic: ties go to the first play listed. The seed is accepted for a uniform registry.
        self.seed = seed

    def choose_play(self, variant: Variant, position: Position, dice: Dice, plays: Sequence[Play]) -> Play:
        if len(plays) == 1:
            return plays[0]
        if variant.pins:
            winning = [play for play in plays if _wins_at_once(variant, play.position)]
            return max(winning or plays, key=lambda play: plakoto_score(play.position))
        score = backgammon_score if variant.hits else nardi_score  # blots and primes, or blocks and the head
        return max(plays, key=lambda play: score(play.position))

    def offer_double(self, situation: Situation) -> bool:
        if not situation.variant.cube:
            return False
        position = situation.position
        me, opponent = position
        if _rearmost(me) + _rearmost(opponent) <= 25 and not post_crawford_trailer(situation):
            # 8-9-12: double with a lead of 8% of our count, redouble with 9%.
            lead = (pips(opponent) - pips(me)) / max(pips(me), 1)
            needed = 0.08 if situation.cube_owner == "centre" else 0.09
            return may_double(situation) and lead >= needed
        chance = backgammon_chance(position)
        too_good = situation.match_length == 0 and chance > 0.9 and _gammon_threat(position)
        return double_decision(situation, chance, too_good=too_good)

    def answer_double(self, situation: Situation) -> CubeAnswer:
        theirs = situation.position.swapped()  # the doubler is on roll
        doubler, taker = theirs
        if _rearmost(doubler) + _rearmost(taker) <= 25:
            # 8-9-12: take while the doubler leads by at most 12% of its count.
            lead = (pips(taker) - pips(doubler)) / max(pips(doubler), 1)
            chance = 0.5 if lead <= 0.12 else 0.0
        else:
            chance = 1.0 - backgammon_chance(theirs)
        return take_decision(situation, chance)

    def accept_resignation(self, situation: Situation, offered: ResignLevel) -> bool:
        # Accept unless playing on is likely to win more than is offered.
        if GameResult(offered).multiplier > 1:  # more than a single game
            return True
        position = situation.position
        if situation.variant.hits:
            chance = 1.0 - backgammon_chance(position.swapped())  # the resigner is about to roll
            return not (_gammon_threat(position) and chance > 0.7)
        # Long nardi: a mars is out of reach once the opponent has borne one off or is close.
        return bool(position.opponent[OFF]) or pips(position.opponent) - pips(position.player) < 40
