"""Match records as the API takes them (.mat or GNU Backgammon's SGF, told by their content): read
from a request, checked off the event loop, reported, and refused with every problem.

RulesService.ValidateMatch reports what :func:`check` finds (:func:`report`); GamesService's
ImportMatch stores a clean record and refuses one with problems (:func:`refusal`). Both read the
record the same way, so a record ValidateMatch finds clean is one ImportMatch takes.

Checking a long record takes a while (seconds of CPU for a megabyte of real games), so it
runs in processes of its own (:mod:`tavli.server.heavy_work`), shared fairly between clients
(:mod:`tavli.server.fair_queue`), and the event loop and the store's threads go on serving everyone
else meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tavli.engine.matfile import MatchCheck, MatFileError, Problem, check_match_record
from tavli.engine.matfile.reading import RecordFormat, decode
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.errors import BadRequest, InvalidMatchRecord, UnreadableMatchRecord, cut, packed
from tavli.server.fair_queue import FairQueue
from tavli.server.snapshots import Played
from tavli.v1 import match_record_pb2, rules_service_pb2

FORMATS: dict[RecordFormat, match_record_pb2.MatchRecordFormat] = {
    "mat": match_record_pb2.MATCH_RECORD_FORMAT_MAT,
    "sgf": match_record_pb2.MATCH_RECORD_FORMAT_SGF,
}
"""The API's word for each format."""

MOST_PROBLEMS_LISTED = 1000
"""The most problems ValidateMatch lists (it counts them all)."""

PROBLEM_DETAILS_BYTES = 4096
"""The most bytes of problems a refusal's status carries: a status travels in trailers, and
clients accept about 8 KiB of them."""


SMALL_RECORD_CHARACTERS = 8192
"""The most characters of a small record, checked in the server's own process (:func:`small`)."""

SMALL_RECORD_LINES = 200
"""The most lines of a small record."""


@dataclass(frozen=True)
class ImportedRecord:
    """What ImportMatch stores of a clean record: its rules, its players' names (if it gives
    them) and its log, folded."""

    rules: RuleSet
    players: tuple[str, str] | None
    played: Played


async def validated(
    record: match_record_pb2.MatchRecord, checks: FairQueue, client: str
) -> rules_service_pb2.ValidateMatchResponse:
    """ValidateMatch's answer: the record checked against its header's rules (every game, the
    score and every problem), in ``client``'s turn among the ``checks`` of every client.

    :raises BadRequest: for a record with neither its text nor its data.
    :raises UnreadableMatchRecord: for a record that holds no match the server can read.
    :raises LimitReached: for a client that has spent its CPU, or has too many records waiting.
    :raises HeavyWorkUnavailable: if the process checking it stopped.
    """
    answer = await in_turn(checks, client, "validated", record)
    return rules_service_pb2.ValidateMatchResponse.FromString(answer)


async def imported(record: match_record_pb2.MatchRecord, checks: FairQueue, client: str) -> ImportedRecord:
    """What ImportMatch stores of ``record``: checked and folded in ``client``'s turn among the
    ``checks`` of every client.

    :raises BadRequest: for a record with neither its text nor its data.
    :raises InvalidMatchRecord, UnreadableMatchRecord: for a record with problems, or no match.
    :raises LimitReached: for a client that has spent its CPU, or has too many records waiting.
    :raises HeavyWorkUnavailable: if the process reading it stopped.
    """
    answer: ImportedRecord = await in_turn(checks, client, "imported", record)
    return answer


async def in_turn(checks: FairQueue, client: str, function: str, record: match_record_pb2.MatchRecord) -> Any:
    """``function`` (of :mod:`tavli.server.heavy_work`) of the record's text, worked out in
    ``client``'s turn among the ``checks`` of every client, or at once if the record is small.

    :raises BadRequest: for a record with neither its text nor its data.
    :raises LimitReached: for a client that has spent its CPU, or has too many records waiting.
    :raises HeavyWorkUnavailable: if the process working on it stopped.
    """
    text = text_of(record)
    return await checks.run(client, function, text, small=small(text))


def small(text: str) -> bool:
    """Whether ``text`` is a small record (:data:`SMALL_RECORD_CHARACTERS`, :data:`SMALL_RECORD_LINES`):
    one whose check and fold cost less in the server than its hand-off to a heavy process
    (``python -m benchmarks.small_records``), so that it waits for no process and no queue."""
    return (
        len(text) <= SMALL_RECORD_CHARACTERS
        and text.count("\n", 0, SMALL_RECORD_CHARACTERS) < SMALL_RECORD_LINES
    )


def text_of(record: match_record_pb2.MatchRecord) -> str:
    """The record's text: given as text, or decoded from the file's bytes as the engine decodes
    them (UTF-8, else Windows-1252, an undefined byte read as U+FFFD).

    :raises BadRequest: for a record with neither.
    """
    form = record.WhichOneof("form")
    if form == "text":
        return record.text
    if form == "data":
        return decode(record.data)
    raise BadRequest("give the match record: its text, or its data (the file's bytes)")


def checked_text(text: str) -> MatchCheck:
    """A record's text, in either format, checked by the engine (whose numbers have at most nine
    digits: every one fits the API's 32 bits).

    :raises UnreadableMatchRecord: for a text that holds no match the engine can read.
    """
    try:
        return check_match_record(text)
    except MatFileError as error:
        raise unreadable(error.problems[0]) from None


def report(checked: MatchCheck) -> rules_service_pb2.ValidateMatchResponse:
    """What ValidateMatch answers for a checked record."""
    problems = checked.problems
    return rules_service_pb2.ValidateMatchResponse(
        variant=convert.variant_message(checked.rules.variant),
        match_length=checked.rules.match_length,
        games=len(checked.games),
        score=list(checked.score),
        players=[cut(name) for name in checked.record.players or ()],
        problems=[problem_message(problem) for problem in problems[:MOST_PROBLEMS_LISTED]],
        problem_count=len(problems),
        format=FORMATS[checked.record.format],
    )


def refusal(checked: MatchCheck) -> InvalidMatchRecord:
    """The refusal of a record with problems: the count and the first in words, and the problems
    as details, all of them while they fit a status (:data:`PROBLEM_DETAILS_BYTES`)."""
    problems = checked.problems
    listed = list(_fitting(problem_message(problem) for problem in problems))
    count = len(problems)
    if count == 1:
        words = f"the record has 1 problem: {problems[0]}"
    else:
        words = f"the record has {count:,} problems; the first: {problems[0]}"
    return InvalidMatchRecord(
        words,
        details=listed,
        metadata={"problemCount": str(count), "problemsInDetails": str(len(listed))},
    )


def unreadable(problem: Problem) -> UnreadableMatchRecord:
    """The refusal of a text that holds no match the server can read, and why."""
    return UnreadableMatchRecord(str(problem), details=[problem_message(problem)])


def problem_message(problem: Problem) -> match_record_pb2.MatchProblem:
    """A problem as the API writes it: where it stands (unset where nowhere) and why."""
    return match_record_pb2.MatchProblem(
        game=problem.game,
        move=problem.move,
        line=problem.line,
        side=problem.side,
        action=cut(problem.action),
        reason=cut(problem.reason),
    )


def _fitting(problems: Iterable[match_record_pb2.MatchProblem]) -> Iterator[match_record_pb2.MatchProblem]:
    """The first ``problems`` whose details together stay within :data:`PROBLEM_DETAILS_BYTES`."""
    size = 0
    for problem in problems:
        size += packed(problem).ByteSize() + 3  # the detail's tag and length in the status
        if size > PROBLEM_DETAILS_BYTES:
            return
        yield problem
