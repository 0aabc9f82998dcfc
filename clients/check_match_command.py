"""``tavli check-match``: read match records (.mat in any program's dialect, or GNU Backgammon's SGF)
and report every problem."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Iterable
from typing import Any

from tavli.engine.matfile.problems import MatFileError, Problem
from tavli.engine.matfile.summary import RecordSummary, summarize_record

CLEAN, PROBLEMS, UNREADABLE = 0, 1, 2  # the exit statuses, the worst file's


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "check-match",
        help="check match records (.mat or GNU Backgammon's SGF) against the rules",
        description=(
            "Read match records as any program writes them: .mat files (GNU Backgammon, eXtreme"
            " Gammon, Snowie, Backgammon Galaxy and Studio, FIBS and others) and GNU Backgammon's"
            " SGF, each told by its content; check every play, cube action and result against the"
            " rules, and report every problem with its game, move, line and side. Exit status: 0"
            " when every file is clean, 1 when some file has problems, 2 when some file could not"
            " be read."
        ),
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="a .mat or SGF file ('-' for standard input)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object a file, on one line, instead of a report"
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=0,
        metavar="N",
        help="check files in N processes at once (default: one a CPU, once each has 128 files or more)",
    )
    parser.set_defaults(run=run)


def _jobs(text: str) -> int:
    """``--jobs``'s value: a number of processes, 0 for the default."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"a number of processes, 1 or more (0: one a CPU), not {text!r}")
    return jobs


def run(arguments: argparse.Namespace) -> int:
    started = time.perf_counter()
    names = arguments.files
    jobs = arguments.jobs or min(os.cpu_count() or 1, max(1, len(names) // _FILES_A_JOB_AT_LEAST))
    jobs = min(jobs, len(names))
    if jobs > 1 and "-" not in names:
        outcomes = _outcomes_in_processes(names, arguments.json, jobs)
    else:
        outcomes = [_outcome(name, arguments.json) for name in names]
    for _, text in outcomes:
        print(text)
    statuses = [status for status, _ in outcomes]
    summary = _summary(statuses, time.perf_counter() - started)
    if len(statuses) > 1 or not arguments.json:
        print(summary, file=sys.stderr if arguments.json else sys.stdout)
    return max(statuses)


def _outcomes_in_processes(names: list[str], as_json: bool, jobs: int) -> list[tuple[int, str]]:
    """Each file's outcome, in order, from ``jobs`` forked worker processes. The files are dealt in
    chunks: each worker takes the next chunk when it is done with one, so that a worker whose core
    is busy with other work takes fewer, and sends back its outcomes at once when none is left. A
    forked worker starts with the reader imported (the command has started no thread); the pure
    checker, which a record the compiled core leaves to it needs, is imported by a worker that meets
    one. Where the system cannot fork, the files are checked here, one after another.

    :raises RuntimeError: if a worker fails.
    """
    if not hasattr(os, "fork"):
        return [_outcome(name, as_json) for name in names]
    size = max(
        1,
        min(_MOST_FILES_A_CHUNK, len(names) // (jobs * _CHUNKS_A_JOB_AT_LEAST)),
        -(-len(names) // _MOST_CHUNKS),
    )
    # Every chunk's first file is written to the pipe the workers deal from before they start, a
    # fixed-size number each, at once (it fits the smallest pipe's buffer), so that each read takes
    # one whole chunk (reads of a pipe do not interleave) and the pipe's end is the deal's end.
    dealing, writing = os.pipe()
    os.write(
        writing, b"".join(first.to_bytes(_CHUNK_BYTES, "little") for first in range(0, len(names), size))
    )
    os.close(writing)
    gc.freeze()  # the workers' collections leave what they share with this process alone: no copies
    workers = [_start_worker(names, as_json, size, dealing) for _ in range(jobs)]
    os.close(dealing)
    outcomes: list[tuple[int, str]] = [(UNREADABLE, "")] * len(names)
    failed = []
    for process, pipe in workers:
        with os.fdopen(pipe, encoding="utf-8") as reading:
            sent = reading.read()
        _, ended = os.waitpid(process, 0)
        if ended == 0:
            for index, status, text in json.loads(sent):
                outcomes[index] = status, text
        else:
            failed.append(ended)
    if failed:
        raise RuntimeError(f"{len(failed)} of the workers checking files failed (wait statuses {failed})")
    return outcomes


def _start_worker(names: list[str], as_json: bool, size: int, dealing: int) -> tuple[int, int]:
    """A forked process that checks the chunks of ``size`` files of ``names`` it reads from the
    pipe ``dealing`` and writes their outcomes (each with its file's index) to a pipe as one JSON
    array: its process id and that pipe's end to read."""
    reading, writing = os.pipe()
    process = os.fork()
    if process:
        os.close(writing)
        return process, reading
    os.close(reading)
    status = 1
    try:
        outcomes = []
        while dealt := os.read(dealing, _CHUNK_BYTES):
            first = int.from_bytes(dealt, "little")
            for index in range(first, min(first + size, len(names))):
                outcomes.append((index, *_outcome(names[index], as_json)))
        with os.fdopen(writing, "w", encoding="utf-8") as pipe:
            json.dump(outcomes, pipe, ensure_ascii=False)
        status = 0
    except Exception:  # noqa: BLE001 - said here: the parent sees only the worker's exit status
        import traceback

        traceback.print_exc()
    finally:
        os._exit(status)  # the worker leaves without the parent's exit handlers or buffered output


_CHUNK_BYTES = 8  # a chunk's first file's index, as written to the pipe the workers deal from
_MOST_CHUNKS = 4096 // _CHUNK_BYTES  # the chunks' numbers fit a pipe's smallest buffer (one page)
_MOST_FILES_A_CHUNK = 32  # a chunk is a few milliseconds' work, unless there are too many chunks
_CHUNKS_A_JOB_AT_LEAST = 8  # a few hundred files are dealt in at least this many chunks a worker
# Unless --jobs says, fewer files a CPU are checked here: a worker costs its fork and the pages it
# copies, about the time of a hundred files (a clean record takes the core a tenth of a millisecond).
_FILES_A_JOB_AT_LEAST = 128


def _outcome(name: str, as_json: bool) -> tuple[int, str]:
    """One file's exit status and what is printed for it."""
    checked = _check(name)
    status = UNREADABLE if isinstance(checked, str) else PROBLEMS if checked.problems else CLEAN
    if not as_json:
        return status, _readable(name, checked)
    found = {"file": name, "error": checked} if isinstance(checked, str) else report(name, checked)
    return status, json.dumps(found, ensure_ascii=False)


def _check(name: str) -> RecordSummary | str:
    """The file checked, or why it cannot be read."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as file:  # (not a Path: over an archive, one costs more than the read)
                data = file.read()
    except OSError as error:
        return f"cannot open it: {error.strerror or error}"
    try:
        return summarize_record(data)
    except MatFileError as error:
        return str(error)


def report(name: str, checked: RecordSummary) -> dict[str, Any]:
    """A checked file as the JSON object ``--json`` prints."""
    return {
        "file": name,
        "match_length": checked.rules.match_length,
        "games": checked.games,
        "score": list(checked.score),
        "problems": [_problem(problem) for problem in checked.problems],
    }


def _problem(problem: Problem) -> dict[str, Any]:
    return {
        "game": problem.game,
        "move": problem.move,
        "line": problem.line,
        "side": problem.side,
        "message": problem.message,
    }


def _readable(name: str, checked: RecordSummary | str) -> str:
    if isinstance(checked, str):
        return f"{name}: cannot be read: {checked}"
    length = checked.rules.match_length
    match = f"{length} point match" if length else "money session"
    players = " - ".join(checked.players or ("?", "?"))
    games = f"{checked.games} game" + ("" if checked.games == 1 else "s")
    problems = checked.problems
    verdict = "clean" if not problems else f"{len(problems)} problem" + ("" if len(problems) == 1 else "s")
    lines = [f"{name}: {match}, {players}, {games}, score {checked.score[0]}-{checked.score[1]}: {verdict}"]
    lines.extend(f"  {problem}" for problem in problems)
    return "\n".join(lines)


def _summary(statuses: Iterable[int], seconds: float) -> str:
    statuses = list(statuses)
    counts = [statuses.count(status) for status in (CLEAN, PROBLEMS, UNREADABLE)]
    rate = len(statuses) / seconds if seconds > 0 else float("inf")
    return (
        f"{len(statuses)} file{'s' if len(statuses) != 1 else ''}: {counts[0]} clean, {counts[1]} with "
        "problems,"
        f" {counts[2]} unreadable ({rate:,.0f} files a second)"
    )
