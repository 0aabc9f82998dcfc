""".mat match records: the text format GNU Backgammon writes and reads, and every other program
writes in its own dialect.

A .mat file is a header (tag lines ``; [Key "value"]`` and ``N point match``, 0 for money play)
and then each game: `` Game n``, a score line, and numbered lines of two columns, player 0 on the
left. A column holds a roll and its play (``31: 8/5 6/5``), a cube action (`` Doubles => 2``,
`` Takes``, `` Drops``) or a result (``Wins 2 points``). Each play is written from its own mover's
side, the bar as 25 and off as 0.

- :func:`export_mat` writes a match exactly as GNU Backgammon does (:mod:`.export`).
- :func:`check_mat` reads any program's dialect leniently (:mod:`.reading`) and checks every game
  strictly against the rules (:mod:`.checking`), reporting every problem where it stands.
- :func:`import_mat` gives the match a clean record describes, or refuses it with every problem.
- :func:`export_sgf`, :func:`check_sgf` and :func:`import_sgf` do the same with GNU Backgammon's
  own SGF match format (:mod:`.sgf`).
- :func:`check_match_record` and :func:`import_match_record` take a record in either format, which
  they tell by its content (:func:`record_format`), as every surface that reads records does.
- :func:`.summary.summarize_record` gives a record's verdict alone (``tavli check-match``'s), with
  the compiled core checking in one pass every game it finds plainly clean.

What the format cannot say: the ties of an opening throw, rejected resignations (gnubg does not
record them either) and which plays the engine made by itself. Long nardi is written in the same
layout with a ``; [Variation "Long Nardi"]`` header and, because its opening throw is not played,
an ``; [Opening "6-2"]`` line in each game: tavli reads these files back; other programs do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tavli.engine.events import Event, Side
from tavli.engine.match import Match
from tavli.engine.matfile.checking import (
    CheckedGame,
    MatchCheck,
    MatFileError,
    Problem,
    RulesUnknown,
    check_record,
)
from tavli.engine.matfile.export import export_mat
from tavli.engine.matfile.reading import RecordFormat, UnreadableFile, decode, read_record
from tavli.engine.matfile.sgf import SgfFormatError, check_sgf, export_sgf
from tavli.engine.rules import RuleSet

# An SGF file begins with its first game tree, "(;"; a .mat file never does (its first line is a
# tag, a banner, a blank or the match line).
_SGF_START = re.compile(r"\A\ufeff?\s*\(\s*;")


def record_format(text: str) -> RecordFormat:
    """The format a match record is written in, told by its content: SGF where it begins with a
    game tree (``(;``, after any byte-order mark and white space), else .mat."""
    return "sgf" if _SGF_START.match(text) else "mat"


def check_match_record(text: str | bytes, *, rules: RuleSet | None = None) -> MatchCheck:
    """A match record in either format (:func:`record_format`) checked as :func:`check_mat` or
    :func:`check_sgf` checks it.

    :raises MatFileError: for a text that holds no match record in its format, or names rules
        tavli does not play.
    """
    if isinstance(text, bytes):
        text = decode(text)
    check = check_sgf if record_format(text) == "sgf" else check_mat
    return check(text, rules=rules)


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
    "CheckedGame",
    "ImportedMatch",
    "MatFileError",
    "MatchCheck",
    "Problem",
    "RecordFormat",
    "SgfFormatError",
    "check_mat",
    "check_match_record",
    "check_sgf",
    "export_mat",
    "export_sgf",
    "import_mat",
    "import_match_record",
    "import_sgf",
    "record_format",
]
