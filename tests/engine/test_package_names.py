"""The engine's packages give every public name from where it always came, each loaded when first
asked for: importing ``tavli.engine`` or ``tavli.engine.matfile`` builds no variant."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

PACKAGES = ("tavli.engine", "tavli.engine.matfile")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_the_one_its_module_defines(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        home = importlib.import_module(f"{package}.{module._MODULES[name]}")
        assert value is getattr(home, name), name
        assert name in dir(module)


@pytest.mark.parametrize("package", PACKAGES)
def test_a_name_the_package_does_not_have_is_an_attribute_error(package: str) -> None:
    module = importlib.import_module(package)
    with pytest.raises(AttributeError, match="has no attribute 'Chess'"):
        module.Chess  # noqa: B018


def test_importing_the_packages_builds_no_variant() -> None:
    script = (
        "import sys\n"
        "import tavli.engine, tavli.engine.matfile\n"
        "print(sorted(name for name in sys.modules if name.startswith('tavli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip()
    assert loaded == "['tavli.engine', 'tavli.engine.lazy_names', 'tavli.engine.matfile']"
