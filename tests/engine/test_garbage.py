"""The engine frees what it makes as it returns: nothing of a search or a check is left in
reference cycles for Python's garbage collector to find.

A search written as a recursive closure holds itself, and with it everything it reached (the
positions and plays of a whole double); such a cycle is freed only when the collector runs, and a
process listing or checking plays by the thousand (a server, a bot, a test) then spends a good
share of its time in the collector. Random games of each variant, with and without their compiled
core's help, every play listed and checked (legal ones, and random moves that are mostly refused)."""

from __future__ import annotations

import contextlib
import gc
import random
from collections.abc import Callable
from typing import Any

from tavli.engine import BACKGAMMON, FEVGA, LONG_NARDI, PLAKOTO, TavliError, Variant
from tavli.engine.variants import variant_with
from tests.engine.test_compiled_core import random_moves, roll

VARIANTS = [
    BACKGAMMON,
    LONG_NARDI,
    PLAKOTO,
    FEVGA,
    # Options the compiled core does not play: the pure search even where the core is built.
    variant_with("plakoto", (("pinned_blocks_bear_off", False),)),
    variant_with("fevga", (("fevga_primes", "NONE"),)),
]


def engine_garbage(work: Callable[[], None]) -> list[str]:
    """The engine's objects that ``work`` left in reference cycles (its functions, positions,
    plays and steps; the plain tuples and cells around them are not named). With the collector
    off meanwhile, everything ``work`` made is in the youngest generation: only that is searched
    (a whole collection of a test process's heap takes a good part of a second)."""
    gc.collect(0)
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        work()
        gc.collect(0)
        found = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return sorted({_named(thing) for thing in found if _of_the_engine(thing)})


def _of_the_engine(thing: Any) -> bool:
    module = getattr(thing, "__module__", None) if callable(thing) else type(thing).__module__
    return isinstance(module, str) and module.startswith("tavli.engine")


def _named(thing: Any) -> str:
    return getattr(thing, "__qualname__", None) or type(thing).__qualname__


def play_and_check(variant: Variant, seed: int, turns: int) -> None:
    """``turns`` turns of random games: each roll's plays listed, one of them and random moves
    checked, the chosen play made."""
    rng = random.Random(seed)
    position = variant.start_position()
    for _ in range(turns):
        dice = roll(rng)
        play = rng.choice(list(variant.generate_plays(position, dice)))
        moves = [(step.start, step.end) for step in play.steps]
        for given in (moves, moves[::-1], random_moves(rng, dice), moves[:1]):
            with contextlib.suppress(TavliError):
                variant.check_play(position, dice, given)
        if variant.result(play.position) is not None:
            position = variant.start_position()
        else:
            position = play.position.swapped()


def test_listing_and_checking_plays_leaves_nothing_for_the_collector() -> None:
    left = {
        variant.name + repr(variant): engine_garbage(lambda variant=variant: play_and_check(variant, 5, 300))
        for variant in VARIANTS
    }
    assert not any(left.values()), {name: found for name, found in left.items() if found}
