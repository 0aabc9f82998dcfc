"""The heavy work the server does in processes of its own (:mod:`tavli.server.fair_queue`):
reading and checking match records, folding the logs of imported and analysed matches, writing
a long game's record. Each function takes and returns plain values (they cross a process
boundary pickled), and refuses in the service's words (:class:`~tavli.server.errors.ServiceError`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from tavli.engine.matfile import SgfFormatError, export_mat, export_sgf
from tavli.engine.matfile.reading import RecordFormat
from tavli.engine.rules import RuleSet
from tavli.server import match_records
from tavli.server.analysis import review
from tavli.server.analysis.match_analysis import MatchToAnalyse
from tavli.server.errors import FormatCannotRecord
from tavli.server.log_text import log_as_text, log_of_text
from tavli.server.match_records import ImportedRecord
from tavli.server.snapshots import played_log
from tavli.server.tables import game_in_play_start

__all__ = ["decision_points", "exported", "game_in_play_start", "imported", "record_match", "validated"]
"""The functions the processes run."""


def validated(text: str) -> bytes:
    """ValidateMatch's answer for a record's ``text``, serialized.

    :raises UnreadableMatchRecord: for a text that holds no match the server can read.
    """
    return match_records.report(match_records.checked_text(text)).SerializeToString()


def imported(text: str) -> ImportedRecord:
    """What ImportMatch stores of a record's ``text``: its rules, its players and its log, folded.

    :raises InvalidMatchRecord, UnreadableMatchRecord: for a record with problems, or no match.
    """
    checked = match_records.checked_text(text)
    if not checked.clean:
        raise match_records.refusal(checked)
    return ImportedRecord(checked.rules, checked.record.players, played_log(checked.rules, checked.events))


def record_match(text: str) -> MatchToAnalyse:
    """The match a record holds, checked, as AnalyzeMatch analyses it.

    :raises InvalidMatchRecord, UnreadableMatchRecord: for a record with problems, or no match.
    """
    checked = match_records.checked_text(text)
    if checked.problems:
        raise match_records.refusal(checked)
    names = checked.record.players or ("Player 0", "Player 1")
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return MatchToAnalyse(digest, checked.rules, log_as_text(checked.match().events), names)


def decision_points(rules: RuleSet, log: Sequence[str], plies: int) -> list[review.DecisionPoint]:
    """Every point of the match whose ``log`` is given at which a player decided
    (:func:`.review.decision_points`).

    :raises ActionError: for a log the rules do not allow.
    """
    return review.decision_points(rules, log_of_text(log), plies)


def exported(rules: RuleSet, log: Sequence[str], players: tuple[str, str], form: RecordFormat) -> str:
    """ExportMatch's record of the match whose ``log`` is given, as a .mat file or as GNU
    Backgammon's SGF (``form``).

    :raises FormatCannotRecord: for rules the SGF cannot say.
    """
    match = (rules, log_of_text(log))
    if form == "mat":
        return export_mat(match, players=players)
    try:
        return export_sgf(match, players=players)
    except SgfFormatError as error:
        raise FormatCannotRecord(str(error)) from None
