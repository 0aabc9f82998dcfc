"""``tavli analyze``: match records reviewed by GNU Backgammon's evaluator, through AnalysisService.

Each file is sent to a server's AnalyzeMatch (an in-memory server of the command's own unless
``--server`` names one) and reported as a table like GNU Backgammon's statistics, or with
``--json`` as one object a file:
``{"file", "players": [...], "decisions": [...]}`` (or ``{"file", "error"}``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tavli.clients.client import MatchAnalysis, TavliClient, TavliServerError
from tavli.v1 import analysis_service_pb2 as pb

ANALYSED, FAILED = 0, 1  # the exit statuses, the worst file's
PLAYER_FIELDS = (
    "name",
    "unforced_moves",
    "cube_decisions",
    "chequer_error_rate",
    "cube_error_rate",
    "error_rate",
    "snowie_error_rate",
    "pr",
    "luck_rate",
)
# The table's rows: its words and the statistic each shows.
TABLE_ROWS = (
    ("Moves", "moves"),
    ("Unforced moves", "unforced_moves"),
    ("Close or actual cube decisions", "cube_decisions"),
    ("Chequer play error rate (mEMG)", "chequer_error_rate"),
    ("Cube error rate (mEMG)", "cube_error_rate"),
    ("Error rate (mEMG)", "error_rate"),
    ("Snowie error rate (mEMG)", "snowie_error_rate"),
    ("PR (XG-style: 500 x error per decision)", "pr"),
    ("Luck rate (mEMG a move)", "luck_rate"),
    ("Rating", "rating"),
)
_KINDS = {pb.DECISION_KIND_CHEQUER: "chequer", pb.DECISION_KIND_CUBE: "cube"}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "analyze",
        help="review match records with GNU Backgammon's evaluator",
        description=(
            "Review .mat (or GNU Backgammon SGF) match records as GNU Backgammon's analysis does: every"
            " decision's loss against the best play or cube action, the luck of each roll, and each"
            " player's error rates (mEMG), Snowie error rate, PR and rating. Exit status: 0 when every"
            " file was analysed, 1 otherwise."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a match record ('-' for standard input)")
    parser.add_argument(
        "--plies", type=int, default=0, choices=(0, 1, 2), help="how far to look ahead (default: %(default)s)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object a file, on one line, instead of a table"
    )
    parser.add_argument(
        "--server", metavar="HOST:PORT", help="a tavli server to ask (default: one of the command's own)"
    )
    parser.add_argument(
        "--evaluators",
        type=int,
        default=1,
        metavar="N",
        help="evaluator processes of the command's own server (default: %(default)s)",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    statuses = []
    with _server(arguments.server, arguments.evaluators) as address, TavliClient.connect(address) as client:
        for name in arguments.files:
            status, text = _outcome(client, name, arguments.plies, arguments.json)
            print(text, flush=True)
            statuses.append(status)
    return max(statuses)


def report(name: str, analysis: MatchAnalysis) -> dict[str, Any]:
    """A file's analysis as ``--json`` prints it."""
    return {
        "file": name,
        "players": [
            {field: getattr(player, field) for field in PLAYER_FIELDS} for player in analysis.players
        ],
        "decisions": [
            {
                "game": decision.game,
                "move": decision.move,
                "player": decision.player,
                "kind": _KINDS[decision.kind],
                "unforced": decision.unforced,
                "dice": list(decision.dice),
                "played": decision.played,
                "best": decision.best,
                "loss": decision.loss,
                "equity": decision.equity,
                "luck": decision.luck,
            }
            for decision in analysis.decisions
        ],
    }


def table(name: str, analysis: MatchAnalysis) -> str:
    """A file's statistics as a person reads them, one column a player."""
    width = max(len(words) for words, _ in TABLE_ROWS) + 2
    columns = [max(12, len(player.name) + 2) for player in analysis.players]
    lines = [
        name,
        "",
        "Player".ljust(width) + "".join(p.name.rjust(c) for p, c in zip(analysis.players, columns)),
    ]
    for words, statistic in TABLE_ROWS:
        values = [_shown(getattr(player, statistic)) for player in analysis.players]
        lines.append(words.ljust(width) + "".join(value.rjust(c) for value, c in zip(values, columns)))
    return "\n".join(lines) + "\n"


def _outcome(client: TavliClient, name: str, plies: int, as_json: bool) -> tuple[int, str]:
    """One file's exit status and what is printed for it."""
    try:
        record = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        analysis = client.analyze_match(record=record, plies=plies)
    except OSError as error:
        return FAILED, _failure(name, f"cannot read it: {error.strerror or error}", as_json)
    except TavliServerError as error:
        return FAILED, _failure(name, error.message, as_json)
    if as_json:
        return ANALYSED, json.dumps(report(name, analysis), ensure_ascii=False)
    return ANALYSED, table(name, analysis)


def _failure(name: str, why: str, as_json: bool) -> str:
    if as_json:
        return json.dumps({"file": name, "error": why}, ensure_ascii=False)
    return f"{name}: {why}"


def _shown(value: object) -> str:
    return f"{value:.1f}" if isinstance(value, float) else str(value)


@contextlib.contextmanager
def _server(address: str | None, evaluators: int) -> Iterator[str]:
    if address is not None:
        yield address
        return
    from tavli.server.app import embedded_server

    with embedded_server(evaluators=evaluators) as embedded:
        yield embedded
