"""The answers of the tests' own oracles (Debian's gnubg, the brute-force enumerators written in
the tests), kept for one run of ``./run test`` and shared by its passes.

An oracle answers the same whichever engine the tests run on, so the pure engine's pass reads what
the compiled core's pass had it work out rather than working it out again: the same question, the
same answer, and the engine under test is still held to it. ``./run test`` names a folder of its own
in ``TAVLI_TEST_KEPT_ANSWERS`` and removes it at its end; without one (pytest run by hand), nothing is
kept and every answer is worked out.

A question is a tuple of plain values that says everything the answer depends on (the bytes of a
file, not its name; a position and a roll, not the game it came from).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

FOLDER = "TAVLI_TEST_KEPT_ANSWERS"
"""The variable naming the folder where the run keeps its answers."""

Answer = TypeVar("Answer")


def kept_or_worked_out(question: tuple[Any, ...], work_out: Callable[[], Answer]) -> Answer:
    """The answer kept for ``question`` in this run, or ``work_out()``'s, then kept."""
    kept = kept_answer(question)
    if kept is not None:
        return kept[0]  # type: ignore[no-any-return]
    answer = work_out()
    keep_answer(question, answer)
    return answer


@contextlib.contextmanager
def kept_answers(question: tuple[Any, ...]) -> Iterator[dict[Any, Any]]:
    """The answers to the parts of ``question`` kept in this run, as a dict for the block to look
    up and add to (each part's key says everything its answer depends on); what the dict holds at
    the end of the block is kept."""
    kept = kept_answer(question)
    answers: dict[Any, Any] = kept[0] if kept is not None else {}
    known = len(answers)
    yield answers
    if len(answers) != known:
        keep_answer(question, answers)


def kept_answer(question: tuple[Any, ...]) -> tuple[Any] | None:
    """The answer kept for ``question``, as a 1-tuple (the answer may itself be None), or None:
    none kept, or no folder to keep answers in."""
    path = _path(question)
    if path is None:
        return None
    try:
        return (pickle.loads(path.read_bytes()),)
    except FileNotFoundError:
        return None


def keep_answer(question: tuple[Any, ...], answer: object) -> None:
    """Keep ``answer`` to ``question`` for the rest of the run, written whole or not at all:
    parallel test processes may answer the same question at once."""
    path = _path(question)
    if path is None:
        return
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_bytes(pickle.dumps(answer))
    os.replace(partial, path)


def _path(question: tuple[Any, ...]) -> Path | None:
    folder = os.environ.get(FOLDER)
    if not folder:
        return None
    return Path(folder) / hashlib.sha256(repr(question).encode("utf-8", "surrogateescape")).hexdigest()
