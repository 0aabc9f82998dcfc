"""GNU Backgammon's move generator answering ``tavli plays --batch`` queries: the baseline process
of ``benchmarks.batch``.

    .venv/bin/python benchmarks/gnubg_plays.py FILE > answers.jsonl

Reads one query a line (``<position-id> <die><die>``, as ``tavli plays --batch`` does) and writes
one JSON line a query: ``{"position_id": ..., "dice": [d1, d2], "plays": [{"position_id": ...}]}``,
a resulting Position ID a legal play, the mover's side first as gnubg-nn keeps it (so as tavli's
command writes it). ``gnubg_nn.moves`` gives the resulting positions only, as position keys, and
no notation: each key becomes a board (``board_from_position_key``) and the board a Position ID
(``position_id``), both gnubg-nn's own C functions; there is no ``"play"`` field. A roll that
cannot be played gives the unchanged position, as tavli's command does.

Run as a script, not ``-m benchmarks...``: it imports only the standard library and gnubg-nn, so
that its process start is the least a Python baseline can have.
"""

from __future__ import annotations

import json
import sys

import gnubg_nn


def answer(line: str) -> dict[str, object]:
    position_id, roll = line.split()
    dice = [int(roll[0]), int(roll[1])]
    board = gnubg_nn.board_from_position_id(position_id)
    keys = gnubg_nn.moves(board, dice[0], dice[1])
    # position_id wants lists; a key decodes to tuples.
    after = [
        gnubg_nn.position_id([list(side) for side in gnubg_nn.board_from_position_key(key)]) for key in keys
    ]
    return {
        "position_id": position_id,
        "dice": dice,
        "plays": [{"position_id": id_} for id_ in after or [position_id]],
    }


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as queries:
        out = sys.stdout
        for line in queries:
            if line.strip():
                out.write(json.dumps(answer(line)) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
