"""Types of the compiled core, engine/_core.pyx (see engine/core.py)."""

from collections.abc import Sequence
from typing import Literal, TypeAlias

from tavli.engine.checking import Move
from tavli.engine.play import Play, Step
from tavli.engine.position import Position

BACKGAMMON: int
LONG_NARDI: int
PLAKOTO: int
FEVGA: int

class CompiledPlays:
    dice_used: int
    def __len__(self) -> int: ...
    def plays(self) -> list[Play]: ...
    def play(self, index: int) -> Play: ...
    def position_ids(self) -> list[str]: ...
    def notations(self) -> list[str]: ...
    def hits(self) -> list[bool]: ...
    def plays_field(self, field: int) -> bytes: ...

def legal_plays(rules: int, position: Position, high: int, low: int) -> CompiledPlays: ...
def check_play(rules: int, position: Position, high: int, low: int, moves: Sequence[Move]) -> Play | None: ...
def valid(rules: int, position: Position, in_play: bool = False) -> bool: ...
def encode_position_id(position: Position) -> str: ...
def decode_position_id(position_id: object) -> Position | None: ...
def format_steps(steps: Sequence[Step]) -> str | None: ...

CoreProblem: TypeAlias = tuple[
    Literal["unreadable", "cube", "resignation", "no loser", "match not won", "not your turn", "play"],
    int,
    int,
    int,
    int | None,
    Literal[0, 1] | None,
    tuple[int, int],
    tuple[int, int],
    tuple[int, int],
    tuple[tuple[int, ...], tuple[int, ...]] | None,
]
"""A problem :func:`check_mat_games` names: which, the game, the line index of its entry and of
the game's score line, the move number, the side, where the entry's dice or word and the text
after them stand in its line, the two numbers its words need, and a play's board before it."""

class MatText:
    def __init__(self, data: bytes) -> None: ...
    def __len__(self) -> int: ...

def check_mat_games(
    text: MatText,
    start: int,
    length: int,
    crawford: bool,
    jacoby: bool,
    uses_cube: bool,
    highest_cube: int,
) -> tuple[int, tuple[int, int], int, tuple[CoreProblem, ...]] | None: ...
def check_mat_game(
    text: MatText,
    start: int,
    end: int,
    next_score: tuple[int, int] | None | Literal[False],
    before: tuple[int | None, tuple[int, int] | None, bool],
    length: int,
    crawford: bool,
    jacoby: bool,
    uses_cube: bool,
    highest_cube: int,
) -> tuple[tuple[int, int], bool, bool] | int | None: ...
