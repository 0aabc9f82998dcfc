"""Where dice come from: the operating system, a seed, or a seed committed to in advance.

Every source answers ``roll(index)`` for the ``index``-th throw (0, 1, 2, ...); a throw is two
dice (an opening throw uses the first for player 0 and the second for player 1). A seeded match
numbers its throws through the whole match; a verifiable one numbers each game's throws from 0,
since each game has a seed of its own.

The verifiable source lets two bots that do not trust the server check every roll afterwards.
Before a game the server publishes ``commitment``, the SHA-256 of the game's seed; when the game
ends it reveals the seed. Each throw is derived from the seed and the throw's index in the game:

1. ``digest = SHA-256(seed + b":" + str(index).encode("ascii"))``, the seed as bytes;
2. read ``digest`` byte by byte, skipping bytes of 252 or more (so that every die value is
   equally likely); the first two bytes kept give the dice, ``byte % 6 + 1`` each;
3. if fewer than two bytes are kept (a chance below 10^-60), take ``digest = SHA-256(digest)``
   and go on reading.

So anyone holding the seed recomputes every throw with a few lines of code in any language; and
before the seed is revealed nobody can predict a throw from the commitment.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

from tavli.engine.play import Dice


class DiceSource(Protocol):
    """A supply of throws."""

    def roll(self, index: int) -> Dice:
        """The ``index``-th throw: two dice from 1 to 6."""
        ...


class SystemDice:
    """Dice from the operating system's randomness (the default)."""

    def roll(self, index: int) -> Dice:
        return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1


class SeededDice:
    """Dice derived from a seed (see the module's documentation): the same seed, the same throws."""

    def __init__(self, seed: bytes | str) -> None:
        self.seed = seed.encode("utf-8") if isinstance(seed, str) else bytes(seed)

    def roll(self, index: int) -> Dice:
        return derive_throw(self.seed, index)

    @property
    def commitment(self) -> str:
        """The SHA-256 of the seed, in hex: published before the game, checked after."""
        return hashlib.sha256(self.seed).hexdigest()

    @classmethod
    def fresh(cls) -> SeededDice:
        """A source with a new secret seed of 32 random bytes, for a verifiable game."""
        return cls(secrets.token_bytes(32))


def derive_throw(seed: bytes, index: int) -> Dice:
    """The ``index``-th throw of ``seed``, as the module's documentation defines it."""
    digest = hashlib.sha256(seed + b":" + str(index).encode("ascii")).digest()
    dice: list[int] = []
    while True:
        for byte in digest:
            if byte < 252:
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    return dice[0], dice[1]
        digest = hashlib.sha256(digest).digest()


def verify_throws(seed: bytes, commitment: str, throws: list[Dice], *, first_index: int = 0) -> bool:
    """Whether ``seed`` matches ``commitment`` and gives exactly ``throws`` from ``first_index`` on."""
    if hashlib.sha256(seed).hexdigest() != commitment:
        return False
    return all(derive_throw(seed, first_index + offset) == throw for offset, throw in enumerate(throws))
