"""The legal plays agree with GNU Backgammon's own move generator (the gnubg-nn package)."""

from __future__ import annotations

from collections import Counter

import gnubg_nn
import pytest

from tavli.engine import BACKGAMMON, BAR, OFF, IllegalPlayError, Position
from tests.games import positions_from_games

POSITIONS = 24_000


def _gnubg_board(position: Position) -> list[list[int]]:
    # gnubg's board: [side not on roll, side on roll], each points 1-24 then the bar.
    return [list(position.opponent[1:26]), list(position.player[1:26])]


def _from_gnubg_key(key: str) -> Position:
    opponent, player = gnubg_nn.board_from_position_key(key)
    return Position((15 - sum(player),) + tuple(player), (15 - sum(opponent),) + tuple(opponent))


def _gnubg_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    keys = gnubg_nn.moves(_gnubg_board(position), dice[0], dice[1])
    return {_from_gnubg_key(key) for key in keys} or {position}


def _kind(position: Position, dice: tuple[int, int], plays: int) -> str:
    player, opponent = position
    if player[BAR]:
        entries_open = [opponent[die] < 2 for die in range(1, 7)]
        return "closed board" if not any(entries_open) else "bar entry"
    if not any(player[7:26]):
        return "bear-off"
    if dice[0] == dice[1]:
        return "double"
    return "field" if plays > 1 else "forced"


def test_the_last_checker_borne_off_with_one_die_gives_way_to_a_play_of_both_dice() -> None:
    """With the last checker on the 2-point and 2-1 to play, gnubg's generator, like backgammon's
    maximum-use rule, leaves one play: 2/1*/off, both dice (hitting on the way, which makes the
    game a backgammon); bearing the checker off with the 2 alone is refused."""
    player, opponent = [0] * 26, [0] * 26
    player[2], player[OFF] = 1, 14
    opponent[24], opponent[6] = 1, 14  # a blot on the mover's 1-point
    position = Position(tuple(player), tuple(opponent))
    plays = BACKGAMMON.legal_plays(position, (2, 1))
    assert [play.notation() for play in plays] == ["2/1*/off"]
    assert {play.position for play in plays} == _gnubg_results(position, (2, 1))
    with pytest.raises(IllegalPlayError, match=r"you must play both dice: 2/1\*/off does"):
        BACKGAMMON.check_play(position, (2, 1), [(2, OFF)])


@pytest.mark.slow
def test_legal_plays_agree_with_gnubg_on_positions_from_random_games() -> None:
    disagreements = []
    kinds: Counter[str] = Counter()
    games = [
        positions_from_games(BACKGAMMON, seed=20261130, count=POSITIONS // 2),
        positions_from_games(BACKGAMMON, seed=20261201, count=POSITIONS // 2, style="blitz"),
    ]
    for position, dice in (pair for game in games for pair in game):
        ours = {play.position for play in BACKGAMMON.legal_plays(position, dice)}
        theirs = _gnubg_results(position, dice)
        kinds[_kind(position, dice, len(ours))] += 1
        if ours != theirs:
            disagreements.append((position.position_id(), dice, len(ours), len(theirs)))
    assert disagreements == []
    assert sum(kinds.values()) == POSITIONS
    # The games must reach the cases the rules make hard, in numbers.
    for kind, at_least in {"closed board": 20, "bar entry": 1000, "bear-off": 1000, "double": 2000}.items():
        assert kinds[kind] >= at_least, (kind, kinds)


def test_gnubg_and_the_engine_read_the_start_position_alike() -> None:
    start = BACKGAMMON.start_position()
    assert gnubg_nn.position_id(_gnubg_board(start)) == start.position_id() == "4HPwATDgc/ABMA"
    assert len(_gnubg_results(start, (3, 1))) == len(BACKGAMMON.legal_plays(start, (3, 1))) == 16
