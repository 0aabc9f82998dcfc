"""Shared test fixtures: where the rule book's vectors live."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_VECTORS = REPO.parent / "shared" / "vectors"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    if not SHARED_VECTORS.is_dir():
        pytest.fail(f"the rule vectors are missing: expected them in {SHARED_VECTORS}")
    return SHARED_VECTORS
