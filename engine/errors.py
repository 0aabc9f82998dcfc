"""The engine's errors, split by cause. All are :class:`ValueError`\\ s carrying a player's reason."""

from __future__ import annotations


class TavliError(ValueError):
    """Base of every error the engine raises for bad input or a forbidden action."""


class InvalidPositionError(TavliError):
    """A position, or a position's written form, that cannot exist."""


class InvalidPlayError(TavliError):
    """A play written in a way that cannot be read (a syntax error)."""


class IllegalPlayError(TavliError):
    """A readable play that the rules do not allow in this position with these dice.

    ``why`` says why not in a player's words ("you must play the higher die: 24/18 does").
    """

    def __init__(self, text: str, position_id: str, dice: tuple[int, int], why: str) -> None:
        self.text = text
        self.position_id = position_id
        self.dice = dice
        self.why = why
        super().__init__(f"illegal play {text!r} with {dice[0]}-{dice[1]} in {position_id}: {why}")


class AmbiguousPlayError(TavliError):
    """A play written so that it names more than one legal play ("24/13" with 6-5 when both routes
    hit a different blot): malformed input, since no single play was asked for. The message lists
    the plays it could mean."""

    def __init__(self, text: str, plays: list[str]) -> None:
        self.text = text
        self.plays = plays
        super().__init__(f"{text!r} could mean {' or '.join(plays)}: say which you mean")


class GameOverError(TavliError):
    """A play asked for in a position whose game is over: a side has borne off all its checkers."""


class InvalidDiceError(TavliError):
    """Dice that no pair of six-sided dice can show."""


class InvalidMatchIdError(InvalidPositionError):
    """A GNU Backgammon Match ID or an XGID, or the match state it stands for, that cannot exist."""


NOT_YOUR_TURN = "it is not your turn"
"""What a side acting out of turn is told (by the game, and by a record's checker)."""


def refusal_of_play(error: InvalidPlayError | IllegalPlayError | AmbiguousPlayError) -> str:
    """What a player whose play is refused is told: an illegal play's reason, else the error's words."""
    return error.why if isinstance(error, IllegalPlayError) else str(error)
