"""Shared test fixtures (where the rule book's vectors live, a PostgreSQL server), the markers each
test carries by its folder and fixtures, which tests each of ./run test's passes runs, and how the
parallel passes hand them out."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from hypothesis import settings

from tavli.engine import core

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED_VECTORS = REPO.parent / "shared" / "vectors"
DATA = TESTS / "data"

# No deadline on hypothesis's examples: on a machine busy with other work, an example's time says
# nothing of the code (speed belongs in benchmarks/), and a test must fail only for what it finds.
settings.register_profile("tavli", deadline=None)
settings.load_profile("tavli")


# The tests' processes keep a large heap for the whole run (the engine's caches of plays and
# positions, the test items, what the oracles answered) while they make and drop millions of plays:
# with CPython's default thresholds (700, 10, 10) the collector went over that heap again and again,
# 14.5 of the 43 CPU seconds of tests/engine's quicker tests in one process. Collected less often,
# 6.3 of 34.5. The servers the tests start as processes of their own keep the defaults.
GC_THRESHOLDS = (5_000, 20, 10)


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    if not SHARED_VECTORS.is_dir():
        pytest.fail(f"the rule vectors are missing: expected them in {SHARED_VECTORS}")
    return SHARED_VECTORS


@pytest.fixture(autouse=True)
def structlog_as_a_new_process_has_it() -> Iterator[None]:
    """Each test starts with structlog as a new process has it, unconfigured: parallel processes
    run tests in any order, and one that configured structlog or captured its lines must leave
    nothing to the next (a command run in the test's process, say, that prints JSON)."""
    yield
    structlog.reset_defaults()


@pytest.fixture(autouse=True)
def no_core_means_no_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test marked no_core fails if it reaches the engine's compiled core: the pure engine's
    pass leaves it out on the word of that mark, which must therefore stay true. The mark is
    given to tests of rules the core does not play (options off their defaults) and to whole
    modules of tests/engine whose every test runs the same code on either implementation (no
    board: ratings, Match IDs, who opens a game; the engine's source read), so that those run once."""
    compiled = core.compiled
    if compiled is None or request.node.get_closest_marker("no_core") is None:
        yield
        return
    reached: set[str] = set()

    class WatchedCore:
        """The compiled core, noting what is asked of it."""

        def __getattr__(self, name: str) -> object:
            reached.add(name)
            return getattr(compiled, name)

    monkeypatch.setattr(core, "compiled", WatchedCore())
    yield
    assert not reached, f"marked no_core, this test reached the compiled core's {', '.join(sorted(reached))}"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server for the whole run (tests/postgres.py), stopped at its end."""
    from tests.postgres import postgres_available, postgres_server

    if not postgres_available():
        pytest.fail(
            "PostgreSQL 15 is needed: set TAVLI_TEST_POSTGRES to a server's URL or install postgresql-15"
        )
    with postgres_server() as url:
        yield url


FOLDER_MARKERS: dict[str, tuple[str, ...]] = {
    "engine": ("engine",),
    "hostile": ("hostile", "slow"),
}
"""The markers every test in a folder of tests/ carries."""

FIXTURE_MARKERS: dict[str, tuple[str, ...]] = {
    "postgres_url": ("postgres", "slow"),
    "browser": ("browser", "slow"),
}
"""The markers a test carries for a fixture it uses."""


ONE_PROCESS: dict[str, str] = {
    "tests/clients/test_install.py": "the project built and installed into a fresh venv",
    "tests/clients/test_gnubg_bridge.py": "a gnubg process",
    "tests/engine/test_realmat.py": "the real files checked, gnubg's readings of them, gnubg's own matches",
    "tests/test_gnubg_mat.py": "a match gnubg plays",
    "tests/engine/test_gnubg_nackgammon.py": "the nackgammon matches gnubg plays",
    "tests/server/test_analyze_match.py": "a server's two evaluator processes, and a match reviewed",
    "tests/server/test_analysis.py": "a server's evaluator processes",
    "tests/server/test_server_heavy_work.py": "a record of 400 games played by bots",
    "tests/engine/test_record_summary.py": "every record's verdict by the Python checker",
    **{
        f"tests/web/test_web_{name}.py": "Chromium (tests/browser.py): 1.5-2 CPU seconds to start"
        for name in (
            "analysis",
            "backgammons",
            "board",
            "browser",
            "computer_games",
            "computer_seat",
            "home",
            "lobby",
            "record",
            "tables",
            "watch_size",
        )
    },
}
"""The test modules whose tests share what a module-scoped fixture makes at some cost (the
reason): parallel runs hand each of them to one process whole, so that it is made once rather
than once in every process that runs one of its tests. Every module whose tests drive the
browser is one of them (the collection refuses one that is not)."""


@pytest.hookimpl(optionalhook=True)  # xdist's hook: a run with -p no:xdist has no such hook
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """xdist's ``load`` distribution, but with the modules of ONE_PROCESS each kept to one process
    (xdist's own loadgroup groups by a marker through the tests' node ids, which it can no longer
    rename under pytest 9: its groups come apart)."""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    if config.getoption("dist") != "load":
        return None

    class OneProcessModules(LoadScopeScheduling):  # type: ignore[misc]
        """Each test is a unit of its own but for the modules of ONE_PROCESS, a unit each, handed
        out in the order of the collection (the slow tests first), not the largest unit first."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in ONE_PROCESS else nodeid

    config.option.loadscopereorder = False
    return OneProcessModules(config, log)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tavli", "which of tavli's tests run (./run test's passes)")
    group.addoption(
        "--engine-only",
        action="store_true",
        help="the engine's own tests (tests/engine) but those marked no_core: the pass on the pure engine",
    )
    group.addoption(
        "--together",
        action="store_true",
        help="leave out the tests marked alone: the pass that runs tests in parallel processes",
    )
    group.addoption(
        "--alone",
        action="store_true",
        help="only the tests marked alone, which measure how the server answers under a load of their own",
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With --engine-only, the files outside tests/engine are not even imported: each of the pass's
    processes would otherwise read (and rewrite the asserts of) every test module only to leave its
    tests out."""
    if not config.getoption("--engine-only") or not collection_path.is_relative_to(TESTS):
        return None
    engine = TESTS / "engine"
    if collection_path.is_relative_to(engine) or engine.is_relative_to(collection_path):
        return None
    return True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) and item.nodeid.split("::")[0] not in ONE_PROCESS:
            raise pytest.UsageError(
                f"{item.nodeid} drives the browser: add its module to ONE_PROCESS (tests/conftest.py), so"
                " that parallel runs start the browser once for it"
            )
        folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else ""
        for name in FOLDER_MARKERS.get(folder, ()):
            item.add_marker(name)
        for fixture, names in FIXTURE_MARKERS.items():
            if fixture in getattr(item, "fixturenames", ()):
                for name in names:
                    item.add_marker(name)
    wanted = [
        lambda item: (
            not config.getoption("--engine-only")
            or (item.get_closest_marker("engine") and not item.get_closest_marker("no_core"))
        ),
        lambda item: not config.getoption("--together") or not item.get_closest_marker("alone"),
        lambda item: not config.getoption("--alone") or item.get_closest_marker("alone"),
    ]
    kept = [item for item in items if all(test(item) for test in wanted)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    # The slow tests first, so that parallel processes end together rather than one of them
    # starting a campaign when the others are done (sorted is stable: the rest keep their order).
    items[:] = sorted(kept, key=lambda item: item.get_closest_marker("slow") is None)


def pytest_sessionfinish() -> None:
    """Collect the tests' garbage before the summary: the summary imports hypothesis's plugin,
    which pytest rewrites, and CPython 3.11's AST builder fails (SystemError, "recursion depth
    mismatch") when a collection in the middle of that parse runs finalizers of the servers'
    leftover objects."""
    gc.collect()
