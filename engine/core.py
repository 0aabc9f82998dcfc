"""Which code runs the engine's hot paths: the compiled core, or the pure-Python reference.

The compiled core (``engine/_core.pyx``, built by Cython when the project is installed) lists
legal plays of every variant (Plakoto and Fevga with their default options), checks a given
play, reads and writes Position IDs and writes notation; the pure modules do all of it too and
remain the reference the core is tested against. The core is used when it was built and
``TAVLI_PURE`` is not set to ``1`` in the environment at start.
"""

from __future__ import annotations

import os
from types import ModuleType

# The compiled rules of each variant, as engine/_core.pyx numbers them (``Variant.compiled_rules``).
BACKGAMMON_RULES = 0
LONG_NARDI_RULES = 1
PLAKOTO_RULES = 2  # with Plakoto's default options
FEVGA_RULES = 3  # with Fevga's default options


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("TAVLI_PURE") == "1":
        return None, "pure Python (TAVLI_PURE=1)"
    try:
        from tavli.engine import _core
    except ImportError:
        return None, "pure Python (the compiled core is not built)"
    return _core, "compiled core (Cython)"


compiled, IMPLEMENTATION = _load()
"""The compiled core module (``None`` when the pure code runs), and which runs, in words."""
