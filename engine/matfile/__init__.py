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

from typing import TYPE_CHECKING

from tavli.engine.lazy_names import lazy_names

if TYPE_CHECKING:
    from tavli.engine.matfile.checking import CheckedGame, MatchCheck
    from tavli.engine.matfile.export import export_mat
    from tavli.engine.matfile.problems import MatFileError, Problem
    from tavli.engine.matfile.reading import RecordFormat, record_format
    from tavli.engine.matfile.records import (
        ImportedMatch,
        check_mat,
        check_match_record,
        import_mat,
        import_match_record,
        import_sgf,
    )
    from tavli.engine.matfile.sgf import SgfFormatError, check_sgf, export_sgf

# Each public name and the module it comes from, loaded when first asked for: reading a record
# with the compiled core (``summary``) needs neither the engine's game nor the exports.
_MODULES = {
    "CheckedGame": "checking",
    "MatchCheck": "checking",
    "export_mat": "export",
    "MatFileError": "problems",
    "Problem": "problems",
    "RecordFormat": "reading",
    "record_format": "reading",
    "ImportedMatch": "records",
    "check_mat": "records",
    "check_match_record": "records",
    "import_mat": "records",
    "import_match_record": "records",
    "import_sgf": "records",
    "SgfFormatError": "sgf",
    "check_sgf": "sgf",
    "export_sgf": "sgf",
}


__getattr__, __dir__ = lazy_names(__name__, _MODULES, globals())


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
