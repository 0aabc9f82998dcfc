"""Bots for both variants behind one small interface (:class:`clients.bots.base.Bot`).

    from tavli.clients import bots
    bot = bots.create("heuristic", seed=7)

``random`` and ``heuristic`` play both variants; ``gnubg`` plays backgammon with GNU Backgammon's
net and needs the optional gnubg-nn package (``pip install 'tavli[gnubg]'``): it is listed in
:data:`NAMES` either way, and creating it without the package raises
:class:`~clients.bots.gnubg_bot.GnubgUnavailableError`.
"""

from __future__ import annotations

from collections.abc import Callable

from tavli.clients.bots.base import Bot, CubeAnswer, ResignLevel, Situation
from tavli.clients.bots.gnubg_bot import GnubgBot, GnubgUnavailableError
from tavli.clients.bots.heuristic import HeuristicBot
from tavli.clients.bots.random_bot import RandomBot

_MAKERS: dict[str, Callable[..., Bot]] = {
    RandomBot.name: RandomBot,
    HeuristicBot.name: HeuristicBot,
    GnubgBot.name: GnubgBot,
}

NAMES: tuple[str, ...] = tuple(_MAKERS)
"""Every bot :func:`create` knows, by name."""

BACKGAMMON_ONLY = frozenset({GnubgBot.name})
"""The bots that play backgammon only."""


def create(name: str, *, seed: int | None = None) -> Bot:
    """A new bot called ``name``; ``seed`` makes a bot that uses chance repeat itself.

    :raises ValueError: for a name not in :data:`NAMES`.
    :raises GnubgUnavailableError: for ``gnubg`` where gnubg-nn is not installed.
    """
    try:
        maker = _MAKERS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(NAMES)}") from None
    return maker(seed=seed)


__all__ = [
    "BACKGAMMON_ONLY",
    "NAMES",
    "Bot",
    "CubeAnswer",
    "GnubgUnavailableError",
    "ResignLevel",
    "Situation",
    "create",
]
