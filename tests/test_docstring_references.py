"""Every cross-reference in the package's docstrings (``:class:`~tavli.server.tables.Tables```
and the like) names, by its import path, something that exists."""

from __future__ import annotations

import importlib
import re

from tests.conftest import REPO

ROLE = re.compile(r":(?:mod|class|func|data|meth|attr|exc):`~?([A-Za-z_][\w.]*)`")
FOLDERS = ("engine", "server", "clients")


def resolves(target: str) -> bool:
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def test_every_docstring_reference_names_what_it_means_by_its_import_path() -> None:
    references = [
        (path.relative_to(REPO), target)
        for folder in FOLDERS
        for path in sorted((REPO / folder).rglob("*.py"))
        if "node_modules" not in path.parts
        for target in ROLE.findall(path.read_text())
    ]
    by_folder = [(path, target) for path, target in references if target.split(".")[0] in FOLDERS]
    assert not by_folder, f"references by folder, not by import path (tavli.server...): {by_folder}"
    by_import_path = [(path, target) for path, target in references if target.startswith("tavli.")]
    assert len(by_import_path) > 20
    dangling = [(path, target) for path, target in by_import_path if not resolves(target)]
    assert not dangling, f"references to nothing: {dangling}"
