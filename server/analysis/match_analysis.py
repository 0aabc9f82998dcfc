"""Whole matches analysed on the evaluator pool, bounded per client and remembered.

A match's decision points are found (its log folded, every roll's legal plays listed) in the
processes of the server's heavy work (:mod:`tavli.server.fair_queue`), never on the event loop.
An analysis asks the pool one question per decision point (:mod:`.review`), as many at once as
the pool has evaluators, so that a match is spread over all of them while another client's
question waits for at most one point's answer (the pool serves questions in turn). Each
answer's CPU time is charged to the client's budget, which is checked before each point; a
client runs at most ``QuotaLimits.analyses_per_client`` analyses at once. An analysis whose
caller goes away cancels its questions, and the pool replaces the evaluators that were
answering them. A finished analysis is remembered by its match's key (a stored game's name and
version, or a record's digest) and plies, the most recently used :data:`REMEMBERED`.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable, Sequence
from dataclasses import dataclass

from tavli.engine.rules import RuleSet
from tavli.server.analysis import questions, review
from tavli.server.analysis.pool import EvaluatorPool
from tavli.server.errors import CannotDouble
from tavli.server.fair_queue import FairQueue
from tavli.server.quotas import Quotas

REMEMBERED = 64  # finished analyses kept


@dataclass(frozen=True, slots=True)
class MatchToAnalyse:
    """A match's rules, its log (as text: :mod:`tavli.server.log_text`) and its players' names,
    and what identifies this version of it."""

    key: Hashable
    rules: RuleSet
    log: Sequence[str]
    names: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Progress:
    analysed: int
    total: int


@dataclass(frozen=True, slots=True)
class Review:
    """A finished analysis: every decision in the match's order and both players' statistics."""

    decisions: tuple[review.Decision, ...]
    players: tuple[review.PlayerStatistics, ...]


class MatchAnalyses:
    """The server's analyses of whole matches (see the module)."""

    def __init__(self, evaluators: EvaluatorPool, quotas: Quotas, heavy_work: FairQueue) -> None:
        self.evaluators = evaluators
        self.quotas = quotas
        self.heavy_work = heavy_work
        self._remembered: OrderedDict[tuple[Hashable, int], Review] = OrderedDict()

    async def analyse(
        self, match: MatchToAnalyse, plies: int, client: str
    ) -> AsyncIterator[Progress | Review]:
        """Progress as the points are answered, then the review (the last item).

        :raises NoEvaluator: for a variant GNU Backgammon does not evaluate.
        :raises LimitReached: TOO_MANY_ANALYSES, or CPU_BUDGET_SPENT (before or during the work).
        :raises EvaluatorUnavailable: if an evaluator died or failed meanwhile.
        """
        questions.check_evaluated(match.rules.rules)
        key = (match.key, plies)
        remembered = self._remembered.get(key)
        if remembered is not None:
            self._remembered.move_to_end(key)
            yield remembered
            return
        with self.quotas.hold_analysis(client):
            self.quotas.check_cpu_left(client)
            points: list[review.DecisionPoint] = await self.heavy_work.run(
                client, "decision_points", match.rules, match.log, plies
            )
            answers: list[object] = [None] * len(points)
            async for analysed in self._answered(points, answers, client):
                yield Progress(analysed, len(points))
        decisions = tuple(
            decision for point, answer in zip(points, answers) for decision in review.reviewed(point, answer)
        )
        finished = Review(decisions, review.statistics(match.names, decisions))
        self._remembered[key] = finished
        while len(self._remembered) > REMEMBERED:
            self._remembered.popitem(last=False)
        yield finished

    async def _answered(
        self, points: Sequence[review.DecisionPoint], answers: list[object], client: str
    ) -> AsyncIterator[int]:
        """Fills ``answers`` with each point's answer, yielding how many are in after each."""
        waiting = iter(range(len(points)))
        finished: asyncio.Queue[BaseException | None] = asyncio.Queue()

        async def answer_in_turn() -> None:
            try:
                for index in waiting:
                    self.quotas.check_cpu_left(client)
                    answers[index] = await self._answer(points[index], client)
                    finished.put_nowait(None)
            except Exception as error:  # noqa: BLE001 - handed to the analysis, which raises it
                finished.put_nowait(error)

        at_once = min(self.evaluators.size, len(points))
        askers = [asyncio.create_task(answer_in_turn()) for _ in range(at_once)]
        try:
            for analysed in range(1, len(points) + 1):
                failure = await finished.get()
                if failure is not None:
                    raise failure
                yield analysed
        finally:
            for asker in askers:
                asker.cancel()
            await asyncio.gather(*askers, return_exceptions=True)

    async def _answer(self, point: review.DecisionPoint, client: str) -> object:
        def charged(seconds: float) -> None:
            self.quotas.charge_cpu(client, seconds)

        if isinstance(point, review.CubePoint):
            try:
                return await self.evaluators.ask("cube_decision", point.board, point.context, on_cpu=charged)
            except CannotDouble:  # gnubg's dead cube: no cube decision to review
                return None
        equities = await self.evaluators.ask(
            "reviewed_play_equities",
            point.board,
            point.context,
            point.dice,
            point.evaluator_plays(),
            point.played,
            on_cpu=charged,
        )
        luck = await self.evaluators.ask(
            "luck", point.board, point.context, point.dice, opening=point.opening, on_cpu=charged
        )
        return equities, luck
