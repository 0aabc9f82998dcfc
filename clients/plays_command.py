"""``tavli plays``: the legal plays of a position and roll, one query or a batch of them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from tavli.clients.rule_options import add_home_hit_and_run_option, add_variant_option, game_options
from tavli.engine import Position, TavliError, Variant
from tavli.engine.play import check_dice
from tavli.engine.rules import InvalidRuleSetError, RuleSet

_START_ID = "4HPwATDgc/ABMA"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "plays",
        help="list the legal plays of a position and roll",
        description=(
            "List the legal plays of the side on roll, one a line in standard notation, or as JSON."
            " With --batch, read one query a line ('<position-id> <die><die>', e.g. '4HPwATDgc/ABMA 31')"
            " and write one JSON line per query."
        ),
    )
    add_variant_option(parser, what="the game whose rules apply")
    add_home_hit_and_run_option(parser)
    parser.add_argument("--position-id", metavar="ID", help="GNU Backgammon Position ID (default: the start)")
    parser.add_argument("--dice", nargs=2, type=int, metavar=("DIE", "DIE"))
    parser.add_argument("--json", action="store_true", help="print a JSON array instead of one play a line")
    parser.add_argument("--batch", metavar="FILE", help="read queries from FILE ('-' for standard input)")
    parser.set_defaults(run=run)


_MOVE_OPTIONS = ("variant", "start", "home_hit_and_run")  # the options that decide the legal plays


def run(arguments: argparse.Namespace) -> int:
    options = game_options(arguments)
    try:
        variant = RuleSet(**{name: options[name] for name in _MOVE_OPTIONS if name in options}).rules
    except InvalidRuleSetError as error:
        return _fail(str(error))
    if arguments.batch is not None:
        if arguments.dice or arguments.position_id:
            return _fail(
                "--batch takes its positions and dice from the file, not from --position-id or --dice"
            )
        if arguments.batch == "-":
            return _run_batch(variant, sys.stdin, sys.stdout)
        try:
            with open(arguments.batch, encoding="utf-8") as queries:
                return _run_batch(variant, queries, sys.stdout)
        except OSError as error:
            return _fail(f"cannot read {arguments.batch}: {error.strerror}")
    if arguments.dice is None:
        return _fail("give the roll with --dice, e.g. --dice 6 5")
    position_id = arguments.position_id or _start_id(variant)
    try:
        plays = list_plays(variant, position_id, tuple(arguments.dice))
    except TavliError as error:
        return _fail(str(error))
    if arguments.json:
        print(json.dumps(plays))
    else:
        for play in plays:
            print(play["play"] or "(no play)")
    return 0


def list_plays(variant: Variant, position_id: str, dice: tuple[int, ...]) -> list[dict[str, str]]:
    """The legal plays as ``{"play": notation, "position_id": resulting Position ID}``.

    The resulting position keeps the same side first, as GNU Backgammon's move generator reports
    it. A roll that cannot be played gives one entry with an empty play and the unchanged position.
    The Position ID is read with the variant's checkers a side (hypergammon's 1-3).

    :raises TavliError: for a malformed Position ID, impossible position or dice.
    """
    position = Position.from_id(position_id, checkers=variant.checkers)
    legal = variant.legal_plays(position, check_dice(dice))
    return [
        {"play": notation, "position_id": position_id}
        for notation, position_id in zip(legal.notations(), legal.position_ids(), strict=True)
    ]


def _run_batch(variant: Variant, queries: IO[str], out: IO[str]) -> int:
    for line in queries:
        if not line.strip():
            continue
        out.write(json.dumps(_answer(variant, line)) + "\n")
    out.flush()
    return 0


def _answer(variant: Variant, line: str) -> dict[str, Any]:
    fields = line.split()
    answer: dict[str, Any] = {"position_id": fields[0]}
    if len(fields) != 2 or not fields[1].isdigit() or len(fields[1]) != 2:
        answer["error"] = f"expected '<position-id> <die><die>', like '{_START_ID} 31', not {line.strip()!r}"
        return answer
    dice = (int(fields[1][0]), int(fields[1][1]))
    answer["dice"] = list(dice)
    try:
        answer["plays"] = list_plays(variant, fields[0], dice)
    except TavliError as error:
        answer["error"] = str(error)
    return answer


def _start_id(variant: Variant) -> str:
    return variant.start_position().position_id()


def _fail(message: str) -> int:
    print(f"tavli plays: {message}", file=sys.stderr)
    return 2
