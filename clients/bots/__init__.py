"""Bots for both variants behind one small interface (:class:`tavli.clients.bots.base.Bot`).

    from tavli.clients import bots
    bot = bots.create("heuristic", seed=7)

``random`` and ``heuristic`` play every variant; ``gnubg`` plays those GNU Backgammon plays
(backgammon) with its net (:func:`plays` says which a bot plays). It needs the optional gnubg-nn
package (``pip install 'tavli[gnubg]'``): it is listed in
:data:`NAMES` either way, and creating it without the package raises
:class:`~tavli.clients.bots.gnubg_bot.GnubgUnavailableError`.
"""

from __future__ import annotations

from collections.abc import Callable

from tavli.clients.bots.base import Bot, CubeAnswer, ResignLevel, Situation
from tavli.clients.bots.gnubg_bot import GnubgBot, GnubgUnavailableError
from tavli.clients.bots.heuristic import HeuristicBot
from tavli.clients.bots.random_bot import RandomBot
from tavli.engine import VARIANTS, Variant

_MAKERS: dict[str, type[Bot]] = {
    RandomBot.name: RandomBot,
    HeuristicBot.name: HeuristicBot,
    GnubgBot.name: GnubgBot,
}

NAMES: tuple[str, ...] = tuple(_MAKERS)
"""Every bot :func:`create` knows, by name."""


def plays(name: str, variant: Variant) -> bool:
    """Whether the bot called ``name`` can play ``variant`` (without creating it).

    :raises ValueError: for a name not in :data:`NAMES`.
    """
    return _maker(name).plays(variant)


def refusal(name: str, variant: Variant) -> str | None:
    """Why the bot called ``name`` cannot play ``variant``, in words ("the gnubg bot plays
    backgammon only"); ``None`` when it can.

    :raises ValueError: for a name not in :data:`NAMES`.
    """
    if plays(name, variant):
        return None
    titles = [other.title for other in VARIANTS.values() if plays(name, other)]
    return f"the {name} bot plays {' and '.join(titles) or 'no variant'} only"


def create(name: str, *, seed: int | None = None) -> Bot:
    """A new bot called ``name``; ``seed`` makes a bot that uses chance repeat itself.

    :raises ValueError: for a name not in :data:`NAMES`.
    :raises GnubgUnavailableError: for ``gnubg`` where gnubg-nn is not installed.
    """
    maker: Callable[..., Bot] = _maker(name)
    return maker(seed=seed)


def _maker(name: str) -> type[Bot]:
    try:
        return _MAKERS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(NAMES)}") from None


__all__ = [
    "NAMES",
    "Bot",
    "CubeAnswer",
    "GnubgUnavailableError",
    "ResignLevel",
    "Situation",
    "create",
    "plays",
    "refusal",
]
