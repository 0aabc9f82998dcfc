"""A match reviewed as GNU Backgammon's analysis reviews it: every decision each player made,
what it cost against the best, the luck of each roll, and each player's statistics.

:func:`decision_points` folds a match's events into the points at which a player decided (a
roll played, a chance to double, a double, its take or pass); :func:`reviewed` turns the
evaluator's answers for one point into decisions; :func:`statistics` sums them per player as
gnubg's analysis does (``analysis.c``):

- a chequer play's error is the best play's cubeful equity minus the played one's, counted
  only on an unforced move (one with two or more different resulting positions);
- a chance to double that was not taken counts as a cube decision only when it was close (the
  best action's equity minus the smaller of the double-take equity and 1 is below 0.16); every
  double, take and pass counts; its error is counted either way;
- a beaver (money play: the doubled side takes and redoubles at once, keeping the cube) is not
  judged: gnubg records it as the doubled side's redouble, which it cannot analyse and does not
  count, and the doubler's acceptance of it as the doubler's take, which it counts as a take of
  the double, judged from the double's cube decision as the doubled side's take would be;
- error rates are in thousandths of an equivalent money game (mEMG), the error normalised to a
  cube of 1: chequer play's per unforced move, the cube's per cube decision, overall per both;
  the Snowie error rate divides a player's whole error by every move of both players, and XG's
  PR (Performance Rating) is 500 times the whole error per unforced move or cube decision;
- luck is the roll's 0-ply equity against the mean of every roll's, its rate per move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Literal

from tavli.engine import Play
from tavli.engine.events import Beavered, Doubled, Dropped, Event, OpeningThrown, Played, Rolled, Side, Took
from tavli.engine.game import MatchState, apply, cube_refusal, new_match, other, read_play
from tavli.engine.rules import RuleSet
from tavli.server.analysis.questions import board_of
from tavli.server.analysis.values import Context, CubeDecision, CubeOwnerName, GnubgBoard

CLOSE_CUBE = 0.16  # gnubg's bound on a close cube decision, in equity
# gnubg's rating words, from its thresholds on the error per decision (EMG), best first.
RATINGS = (
    (0.002, "Supernatural"),
    (0.005, "World class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual player"),
    (0.035, "Beginner"),
)
WORST_RATING = "Awful!"

CubeAction = Literal["no double", "double"]
Answer = Literal["take", "pass", "beaver"]
_ANSWERS: dict[type[Event], Answer] = {Took: "take", Dropped: "pass", Beavered: "beaver"}
DecisionKind = Literal["chequer", "cube"]


@dataclasses.dataclass(frozen=True, slots=True)
class ChequerPoint:
    """A roll a player played: every legal play (each resulting position once) and which it was."""

    game: int
    move: int
    side: Side
    board: GnubgBoard
    context: Context
    dice: tuple[int, int]
    plays: tuple[Play, ...]
    played: int
    opening: bool  # the game's first roll, thrown by both sides

    def evaluator_plays(self) -> list[tuple[tuple[tuple[int, int], ...], GnubgBoard]]:
        """The plays as the evaluator ranks them: their steps and the boards they lead to."""
        return [
            (tuple((step.start, step.end) for step in play.steps), board_of(play.position))
            for play in self.plays
        ]


@dataclasses.dataclass(frozen=True, slots=True)
class CubePoint:
    """A player's chance to double before its roll, taken or not, and the answer to a double."""

    game: int
    move: int
    side: Side  # the side that could double
    board: GnubgBoard
    context: Context
    action: CubeAction
    answer: Answer | None = None  # the other side's, after a double


DecisionPoint = ChequerPoint | CubePoint


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One decision reviewed: the play or cube action made and the best, in words."""

    game: int  # from 1
    move: int  # the turn of the game it was made in, from 1
    side: Side
    kind: DecisionKind
    counted: bool  # an unforced move, or a close or actual cube decision
    dice: tuple[int, ...]
    played: str
    best: str
    loss: float  # in EMG, never negative
    equity: float  # the decider's cubeful equity after the decision as made, in EMG
    luck: float = 0.0


@dataclasses.dataclass(slots=True)
class PlayerStatistics:
    """One player's sums over a match, and gnubg's rates of them."""

    name: str
    moves: int = 0
    unforced_moves: int = 0
    cube_decisions: int = 0  # close or actual
    chequer_error: float = 0.0
    cube_error: float = 0.0
    luck: float = 0.0
    both_sides_moves: int = dataclasses.field(default=0, repr=False)  # the Snowie error rate's divisor

    @property
    def chequer_error_rate(self) -> float:
        return _per_thousand(self.chequer_error, self.unforced_moves)

    @property
    def cube_error_rate(self) -> float:
        return _per_thousand(self.cube_error, self.cube_decisions)

    @property
    def error_rate(self) -> float:
        return _per_thousand(self.chequer_error + self.cube_error, self.unforced_moves + self.cube_decisions)

    @property
    def snowie_error_rate(self) -> float:
        return _per_thousand(self.chequer_error + self.cube_error, self.both_sides_moves)

    @property
    def pr(self) -> float:
        """XG's Performance Rating: 500 x the whole error per unforced move or cube decision."""
        return self.error_rate / 2

    @property
    def luck_rate(self) -> float:
        return _per_thousand(self.luck, self.moves)

    @property
    def rating(self) -> str:
        """gnubg's word for the error per decision; "N/A" without a decision."""
        if not self.unforced_moves + self.cube_decisions:
            return "N/A"
        per_decision = self.error_rate / 1000
        return next((words for bound, words in RATINGS if per_decision < bound), WORST_RATING)


def decision_points(rules: RuleSet, events: Iterable[Event], plies: int) -> list[DecisionPoint]:
    """Every point of the match at which a player decided, in order.

    :raises ActionError: for an event the rules do not allow (a log not made by the rules).
    """
    points: list[DecisionPoint] = []
    state = new_match(rules)
    game_number, turns, opening = 0, 0, False
    for event in events:
        game = state.game
        if game.number != game_number:
            game_number, turns = game.number, 0
        if isinstance(event, OpeningThrown):
            opening = True
        elif isinstance(event, Rolled) and cube_refusal(state, event.side) is None:
            points.append(_cube_point(state, plies, turns + 1, "no double"))
        elif isinstance(event, Doubled):
            points.append(_cube_point(state, plies, turns + 1, "double"))
        elif type(event) in _ANSWERS and points and isinstance(points[-1], CubePoint):
            points[-1] = dataclasses.replace(points[-1], answer=_ANSWERS[type(event)])
        elif isinstance(event, Played):
            turns += 1
            points.append(_chequer_point(state, plies, event, turns, opening))
            opening = False
        state = apply(state, event)
    return points


def reviewed(point: DecisionPoint, answer: object) -> list[Decision]:
    """The decisions of ``point`` given the evaluator's answer for it: for a chequer play its
    plays' equities (in the order of ``point.plays``) and the roll's luck; for a cube point the
    cube decision of the side that could double (or None where gnubg says it cannot: a dead cube)."""
    if isinstance(point, ChequerPoint):
        assert isinstance(answer, tuple)
        equities, luck = answer
        best = max(range(len(point.plays)), key=lambda index: equities[index])
        return [
            Decision(
                point.game,
                point.move,
                point.side,
                "chequer",
                len(point.plays) > 1,
                point.dice,
                point.plays[point.played].notation(),
                point.plays[best].notation(),
                max(0.0, equities[best] - equities[point.played]),
                equities[point.played],
                luck,
            )
        ]
    if answer is None:
        return []
    assert isinstance(answer, CubeDecision)
    return _cube_decisions(point, answer)


def statistics(names: tuple[str, str], decisions: Sequence[Decision]) -> tuple[PlayerStatistics, ...]:
    """Both players' statistics over ``decisions``."""
    players = (PlayerStatistics(names[0]), PlayerStatistics(names[1]))
    for decision in decisions:
        player = players[decision.side]
        if decision.kind == "chequer":
            player.moves += 1
            player.luck += decision.luck
            if decision.counted:
                player.unforced_moves += 1
                player.chequer_error += decision.loss
        else:
            player.cube_decisions += decision.counted
            player.cube_error += decision.loss
    for player in players:
        player.both_sides_moves = players[0].moves + players[1].moves
    return players


def _cube_decisions(point: CubePoint, decision: CubeDecision) -> list[Decision]:
    doubled = min(decision.double_take, decision.double_pass)
    optimal = decision.optimal
    if doubled > decision.no_double:
        best = "Double"
    else:
        best = "Too good" if decision.double_pass < decision.no_double else "No double"
    if point.action == "no double":
        close = optimal - min(decision.double_take, 1.0) < CLOSE_CUBE
        return [_cube(point, point.side, close, "No double", best, optimal, decision.no_double)]
    decisions = [_cube(point, point.side, True, "Double", best, optimal, doubled)]
    best_answer = "Take" if decision.double_take <= decision.double_pass else "Pass"
    if point.answer in ("take", "pass"):
        # The doubled side's equity is the doubler's after its answer, negated.
        answered = decision.double_take if point.answer == "take" else decision.double_pass
        answer = _cube(
            point, other(point.side), True, point.answer.capitalize(), best_answer, -doubled, -answered
        )
        decisions.append(answer)
    elif point.answer == "beaver":
        # gnubg's take of the beaver by the doubler: a take's loss; its equity the doubler's own at
        # the beavered cube, twice what double/take leaves it.
        loss = max(0.0, decision.double_take - doubled)
        decisions.append(
            Decision(
                point.game,
                point.move,
                point.side,
                "cube",
                True,
                (),
                "Take",
                best_answer,
                loss,
                2 * decision.double_take,
            )
        )
    return decisions


def _cube(
    point: CubePoint, side: Side, counted: bool, played: str, best: str, best_equity: float, equity: float
) -> Decision:
    """A cube decision of ``side`` whose action taken leaves it ``equity`` against the best's."""
    loss = max(0.0, best_equity - equity)
    return Decision(point.game, point.move, side, "cube", counted, (), played, best, loss, equity)


def _cube_point(state: MatchState, plies: int, move: int, action: CubeAction) -> CubePoint:
    game = state.game
    return CubePoint(game.number, move, game.turn, board_of(game.position), _context(state, plies), action)


def _chequer_point(state: MatchState, plies: int, event: Played, move: int, opening: bool) -> ChequerPoint:
    game = state.game
    assert game.dice is not None
    plays = tuple(state.rules.rules.legal_plays(game.position, game.dice))
    after = read_play(state, event.side, event.steps).position
    played = next(index for index, play in enumerate(plays) if play.position == after)
    high, low = sorted(game.dice, reverse=True)
    return ChequerPoint(
        game.number,
        move,
        event.side,
        board_of(game.position),
        _context(state, plies),
        (high, low),
        plays,
        played,
        opening,
    )


def _context(state: MatchState, plies: int) -> Context:
    """The game's context from the side on turn's view, with its money play's rules."""
    game, side, rules = state.game, state.game.turn, state.game_rules
    owner: CubeOwnerName = "centre"
    if game.cube_owner is not None:
        owner = "player" if game.cube_owner == side else "opponent"
    return Context(
        state.rules.match_length,
        (state.score[side], state.score[other(side)]),
        game.crawford,
        game.cube_value,
        owner,
        plies,
        jacoby=rules.jacoby and not rules.is_match,
        beavers=rules.beavers and not rules.is_match,
    )


def _per_thousand(error: float, decisions: int) -> float:
    return 1000 * error / decisions if decisions else 0.0
