"""``tavli check-match``: read match records (.mat in any program's dialect, or GNU Backgammon's SGF)
and report every problem."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from itertools import repeat
from pathlib import Path
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
        type=int,
        default=0,
        metavar="N",
        help="check files in N processes at once (default: one a CPU, once there are a few dozen files)",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    started = time.perf_counter()
    names = arguments.files
    jobs = arguments.jobs or min(os.cpu_count() or 1, max(1, len(names) // _FILES_A_JOB_AT_LEAST))
    if jobs > 1 and "-" not in names:
        from concurrent.futures import ProcessPoolExecutor  # only here: its import costs a one-file run

        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(_outcome, names, repeat(arguments.json), chunksize=8))
    else:
        outcomes = [_outcome(name, arguments.json) for name in names]
    for _, text in outcomes:
        print(text)
    statuses = [status for status, _ in outcomes]
    summary = _summary(statuses, time.perf_counter() - started)
    if len(statuses) > 1 or not arguments.json:
        print(summary, file=sys.stderr if arguments.json else sys.stdout)
    return max(statuses)


_FILES_A_JOB_AT_LEAST = 16  # unless --jobs says, fewer files a CPU are checked here: a worker costs its start


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
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
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
