"""``gnubg``: backgammon played by GNU Backgammon's neural net (the optional gnubg-nn package).

The legal plays come from the engine, as for every bot; the net only scores where each leads.
For each play the resulting position is evaluated at 0-ply from the opponent's side (it rolls
next) and the play leaving the opponent the least cubeless equity is chosen. The cube uses the
net's probabilities with the usual money thresholds and the match-score rules the heuristic bot
follows. (gnubg-nn's ``evaluate_cube_decision`` is not used: it refuses money play and, at a match
score, returned the same answer for the opening position and for a hopeless race.)

Install with ``pip install 'tavli[gnubg]'``. Importing this module works without it; creating the
bot raises :class:`GnubgUnavailableError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from tavli.clients.bots.base import Bot, CubeAnswer, ResignLevel, Situation
from tavli.clients.bots.heuristic import double_decision, drop_loses_match, take_decision
from tavli.engine import GameResult, Play, Position, Variant
from tavli.engine.play import Dice
from tavli.engine.position import CHECKERS_PER_SIDE, OFF

Probabilities = tuple[float, float, float, float, float]


class GnubgUnavailableError(RuntimeError):
    """The gnubg bot was asked for where the gnubg-nn package is not installed."""


def _load_gnubg() -> ModuleType:
    try:
        import gnubg_nn
    except ImportError as error:
        raise GnubgUnavailableError(
            "the gnubg bot needs the gnubg-nn package: pip install 'tavli[gnubg]' (or gnubg-nn)"
        ) from error
    module: ModuleType = gnubg_nn
    return module


def equity(probabilities: Probabilities) -> float:
    """Cubeless money equity of the side the probabilities are for (gnubg's own formula:
    its gammon figures include backgammons)."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probabilities
    return 2.0 * win - 1.0 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


class GnubgBot(Bot):
    name = "gnubg"
    description = "GNU Backgammon's neural net: a strong player, backgammon only."

    def __init__(self, *, seed: int | None = None) -> None:
        """:raises GnubgUnavailableError: where gnubg-nn is not installed."""
        self._nn: Any = _load_gnubg()
        self.seed = seed  # the net is deterministic; kept for a uniform registry

    @classmethod
    def plays(cls, variant: Variant) -> bool:
        """Only the variants GNU Backgammon plays with its net: 15 checkers a side (its hypergammon
        needs databases the net does not have)."""
        return variant.gnubg_variant is not None and variant.checkers == CHECKERS_PER_SIDE

    def probabilities(self, position: Position) -> Probabilities:
        """The net's 0-ply (win, win gammon, win backgammon, lose gammon, lose backgammon) of
        ``position.player``, on roll."""
        board = [list(position.opponent[1:26]), list(position.player[1:26])]
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = self._nn.probabilities(board, 0)
        return win, win_gammon, win_backgammon, lose_gammon, lose_backgammon

    def choose_play(self, variant: Variant, position: Position, dice: Dice, plays: Sequence[Play]) -> Play:
        if not self.plays(variant):
            raise ValueError(f"the gnubg bot does not play {variant.title}: GNU Backgammon does not")
        if len(plays) == 1:
            return plays[0]
        return max(plays, key=self._equity_after)

    def _equity_after(self, play: Play) -> float:
        if play.position.player[OFF] == play.position.checkers:
            return 10.0  # the play wins the game: nothing is better
        return -equity(self.probabilities(play.position.swapped()))

    def offer_double(self, situation: Situation) -> bool:
        if not self.plays(situation.variant):
            return False
        chances = self.probabilities(situation.position)
        # Too good: playing on wins more than the opponent's drop would give.
        too_good = situation.match_length == 0 and equity(chances) > 1.0
        return double_decision(situation, chances[0], too_good=too_good)

    def answer_double(self, situation: Situation) -> CubeAnswer:
        doubler = self.probabilities(situation.position.swapped())
        if situation.match_length == 0 and not drop_loses_match(situation):
            # Money: taking doubles the stake, so take while the game is worth more than -1/2 of it
            # (a little less, for owning the cube afterwards).
            mine = -equity(doubler)
            if mine < -0.55:
                return "drop"
            return "beaver" if situation.beavers_allowed and mine > 0.1 else "take"
        return take_decision(situation, 1.0 - doubler[0])

    def accept_resignation(self, situation: Situation, offered: ResignLevel) -> bool:
        mine = -equity(self.probabilities(situation.position.swapped()))
        worth = float(GameResult(offered).multiplier)
        return worth >= mine
