"""Write the fixed position corpora: ``position_id dice count`` a line, counts from outside the engine.

The positions come from seeded games of random plays, half of them hitting and closing the board
as often as they can, so the corpus holds bar entries, closed boards, bear-offs and doubles. The
counts of distinct legal plays come from GNU Backgammon's move generator (``gnubg-nn``) for
backgammon and from the tests' independent brute-force generator for long nardi. The files are
checked in; the perft tests assert the counts and the benchmarks time the same positions.

    python -m benchmarks.make_corpus
"""

from __future__ import annotations

from pathlib import Path

from tavli.engine import BACKGAMMON, LONG_NARDI, Position
from tests.games import positions_from_games

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data"
SIZE = 2000


def backgammon_count(position: Position, dice: tuple[int, int]) -> int:
    import gnubg_nn

    board = [list(position.opponent[1:26]), list(position.player[1:26])]
    return len(gnubg_nn.moves(board, dice[0], dice[1])) or 1


def long_nardi_count(position: Position, dice: tuple[int, int]) -> int:
    from tests.reference.long_nardi_reference import legal_results

    return len(legal_results(list(position.player), list(position.opponent), dice))


def write(path: Path, rows: list[tuple[Position, tuple[int, int], int]]) -> None:
    with open(path, "w", encoding="utf-8") as corpus:
        corpus.write("# position_id dice distinct_plays\n")
        corpus.writelines(
            f"{position.position_id()} {dice[0]}{dice[1]} {count}\n" for position, dice, count in rows
        )


def main() -> None:
    for variant, count, name in (
        (BACKGAMMON, backgammon_count, "perft-backgammon.txt"),
        (LONG_NARDI, long_nardi_count, "perft-long-nardi.txt"),
    ):
        games = [
            positions_from_games(variant, seed=7, count=SIZE // 2),
            positions_from_games(variant, seed=8, count=SIZE // 2, style="blitz"),
        ]
        rows = [(position, dice, count(position, dice)) for game in games for position, dice in game]
        write(CORPUS / name, rows)
        print(f"{name}: {len(rows)} positions")


if __name__ == "__main__":
    main()
