""".mat and SGF match records checked, and a clean one imported as the match it records, each
record's format told by its content."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tavli.engine.events import Event, Side
from tavli.engine.matfile.checking import (
    CheckedGame,
    MatchCheck,
    MatFileError,
    Problem,
    RulesUnknown,
    check_record,
)
from tavli.engine.matfile.reading import UnreadableFile, decode, read_record, record_format
from tavli.engine.rules import RuleSet

if TYPE_CHECKING:
    from tavli.engine.match import Match

# The SGF reader (and the engine's Match, for an imported record) are imported when first needed:
# a program checking .mat records, such as check-match, does not load them.


def check_match_record(text: str | bytes, *, rules: RuleSet | None = None) -> MatchCheck:
    """A match record in either format (:func:`record_format`) checked as :func:`check_mat` or
    :func:`check_sgf` checks it.

    :raises MatFileError: for a text that holds no match record in its format, or names rules
        tavli does not play.
    """
    if isinstance(text, bytes):
        text = decode(text)
    if record_format(text) == "sgf":
        from tavli.engine.matfile.sgf import check_sgf

        return check_sgf(text, rules=rules)
    return check_mat(text, rules=rules)


def check_mat(text: str | bytes, *, rules: RuleSet | None = None) -> MatchCheck:
    """A .mat file read in whatever dialect it is written and checked: every game, the score
    after the last one and every problem.

    The rules come from the file (its match length and tags such as ``; [Variation "Long
    Nardi"]``, ``; [Jacoby "On"]``) unless ``rules`` is given. Bytes are decoded as UTF-8, else as
    a Western European code page.

    :raises MatFileError: for a file that holds no match record (no match line, no game) or names
        rules tavli does not play.
    """
    if isinstance(text, bytes):
        text = decode(text)
    try:
        return check_record(read_record(text), rules)
    except (UnreadableFile, RulesUnknown) as error:
        raise MatFileError([Problem(str(error))]) from None


@dataclass(frozen=True)
class ImportedMatch:
    """A clean .mat file read back: the rules, the players, every game and the engine's match."""

    rules: RuleSet
    players: tuple[str, str]
    games: tuple[CheckedGame, ...]
    match: Match = field(compare=False, repr=False)
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def match_length(self) -> int:
        """The points the match is played to; 0 for money play."""
        return self.rules.match_length

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last game recorded."""
        return self.match.state.score

    @property
    def winner(self) -> Side | None:
        """Who won the match, if it is over."""
        return self.match.state.winner

    @property
    def events(self) -> list[Event]:
        """The whole match's log, every game in turn."""
        return self.match.events


def import_mat(text: str | bytes, *, rules: RuleSet | None = None) -> ImportedMatch:
    """The match a clean .mat file records, every game replayed by the engine.

    :raises MatFileError: for a file that cannot be read, or that records anything the rules do
        not allow; it holds every problem (:func:`check_mat`'s), the first one in its message.
    """
    return _imported(check_mat(text, rules=rules))


def import_sgf(text: str | bytes, *, rules: RuleSet | None = None) -> ImportedMatch:
    """The match a clean GNU Backgammon SGF file records, every game replayed by the engine.

    :raises MatFileError: as :func:`import_mat` does (:func:`check_sgf`'s problems).
    """
    from tavli.engine.matfile.sgf import check_sgf

    return _imported(check_sgf(text, rules=rules))


def import_match_record(text: str | bytes, *, rules: RuleSet | None = None) -> ImportedMatch:
    """The match a clean record in either format records (:func:`check_match_record`).

    :raises MatFileError: as :func:`import_mat` does.
    """
    return _imported(check_match_record(text, rules=rules))


def _imported(checked: MatchCheck) -> ImportedMatch:
    if checked.problems:
        raise MatFileError(checked.problems)
    return ImportedMatch(
        rules=checked.rules,
        players=checked.record.players or ("", ""),
        games=checked.games,
        match=checked.match(),
        headers=checked.record.tags,
    )


__all__ = [
    "ImportedMatch",
    "check_mat",
    "check_match_record",
    "import_mat",
    "import_match_record",
    "import_sgf",
]
