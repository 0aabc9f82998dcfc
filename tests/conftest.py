"""Shared test fixtures: where the rule book's vectors live, a PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
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


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server for the whole run (tests/postgres.py), stopped at its end."""
    from tests.postgres import postgres_available, postgres_server

    if not postgres_available():
        pytest.fail("PostgreSQL 15 is needed: set TAVLI_TEST_POSTGRES to a server's URL or install postgresql-15")
    with postgres_server() as url:
        yield url
