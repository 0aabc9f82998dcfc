"""The server's evaluator processes (:mod:`tavli.server.processes`): a fixed number of them, each
answering one question of GNU Backgammon's at a time.

gnubg crashes a process that evaluates anywhere but in its main thread, and an evaluation is
bound by the CPU: so each evaluator is a process of its own. A question whose caller goes away
has its evaluator killed and replaced (gnubg cannot be interrupted); a question whose evaluator
died, or that it fails to answer, fails with :class:`~tavli.server.errors.EvaluatorUnavailable`;
a cube decision gnubg says the side on roll cannot make fails with
:class:`~tavli.server.errors.CannotDouble`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from tavli.server.errors import EvaluatorUnavailable
from tavli.server.processes import ProcessPool

Question = Literal["evaluate", "play_equities", "reviewed_play_equities", "cube_decision", "luck"]


class EvaluatorPool(ProcessPool):
    """``size`` evaluator processes; :meth:`ask` puts one question to the first free one."""

    def __init__(self, size: int) -> None:
        super().__init__(
            size, "tavli.server.analysis.gnubg_evaluator", name="evaluator", unavailable=EvaluatorUnavailable
        )

    async def ask(
        self,
        question: Question,
        *arguments: Any,
        on_cpu: Callable[[float], None] | None = None,
        **options: Any,
    ) -> Any:
        """``question(*arguments, **options)`` answered in a free evaluator process: ``question``
        names a function of :mod:`~tavli.server.analysis.gnubg_evaluator` (which only the evaluator
        processes import), ``arguments`` and ``options`` are plain values. ``on_cpu`` is told the
        CPU seconds the process spent answering (whether or not it could).

        :raises EvaluatorUnavailable: if the process died meanwhile (it is replaced), or the
            question raised an error there.
        :raises CannotDouble: for a cube decision the side on roll cannot make.
        """
        return await self.call(question, *arguments, on_cpu=on_cpu, **options)
