"""A package's public names loaded when first asked for, each from its own module (PEP 562), so
that a program needing part of a package does not pay for importing all of it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, modules: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose ``namespace`` (its globals) gains
    each name of ``modules`` (a name to the submodule that defines it) when first asked for."""

    def getattr_(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value  # asked once
        return value

    def dir_() -> list[str]:
        return sorted([*namespace, *modules])

    return getattr_, dir_
