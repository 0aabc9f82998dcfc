"""The project as a user installs it: a wheel built from a copy of the source, in a fresh venv.

SLOW (about half a minute, most of it pip): this module builds and installs the project, so it
needs the package index pip is configured with (pip's cache makes it quick). It runs in the
normal suite on purpose: it is the only test that sees the package as installed rather than as
the editable checkout, where a module left out of ``[tool.setuptools] packages``, a data file
left out of the package data or a runtime import of a test-only tool goes unnoticed.

1. The source a checkout has (pyproject.toml, README.md, proto/, engine/, server/, clients/) is
   copied to a temporary folder, so the build leaves nothing in the repository.
2. A fresh venv (no system site packages) gets ``pip install <copy>``: not editable, the runtime
   dependencies only, no extras.
3. Its site-packages hold the one package ``tavli`` (with ``tavli/engine/py.typed`` and the
   ``.proto`` files) and none of the checkout's folder names, and no test or bench tool.
4. The installed ``tavli serve`` answers the health check and a RulesService call.
5. The installed ``tavli play`` plays a 1-point match against the random bot to its end, its
   person driven through stdin by this test, and exits with status 0; ``tavli --help`` lists
   the subcommands.

Every subprocess runs from a working directory outside the source, with a timeout; every process
started here is stopped here; the servers listen on 127.0.0.1 only.
"""

from __future__ import annotations

import codecs
import http.client
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavli.v1 import board_pb2, rules_service_pb2 as rules_pb2, rules_service_pb2_grpc
from tests.server_play import REPO, RPC_TIMEOUT, free_port, stop_process, wait_until_serving

pytestmark = pytest.mark.slow  # the install: pip and the core's compilation

# What a source checkout has that the build needs (the rest: tests, benchmarks, the run script).
SOURCE = ("pyproject.toml", "README.md", "proto", "engine", "server", "clients")
# (clients/web/dist is not skipped: it is the web table as built, committed and installed)
SKIPPED = shutil.ignore_patterns("node_modules", "__pycache__", "*.pyc", ".venv", "*.egg-info", "build")
VENV_TIMEOUT = 120.0
INSTALL_TIMEOUT = 600.0
COMMAND_TIMEOUT = 60.0
PLAY_TIMEOUT = 120.0
# The checkout's folder names, and the tools only the test and bench extras may bring.
NOT_INSTALLED = ("engine", "server", "clients", "proto", "tests", "benchmarks")
NOT_AT_RUNTIME = ("pytest", "pytest_benchmark", "_pytest", "hypothesis", "mypy", "gnubg_nn", "grpc_tools")
BG_START = "4HPwATDgc/ABMA"


@dataclass(frozen=True)
class Installed:
    """The venv the project was installed into, and a scratch folder outside the source."""

    venv: Path
    site_packages: Path
    outside: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def tavli(self) -> Path:
        return self.venv / "bin" / "tavli"


def _environment() -> dict[str, str]:
    """This process's environment without what would make a child import from elsewhere, or
    write the install's compiled modules elsewhere (``./run test``'s cache of them, which pip
    would then record as files of the distribution)."""
    left_out = (
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONSTARTUP",
        "VIRTUAL_ENV",
        "PYTHONUSERBASE",
        "PYTHONPYCACHEPREFIX",
    )
    environment = {name: value for name, value in os.environ.items() if name not in left_out}
    environment.update(PYTHONNOUSERSITE="1", PYTHONUNBUFFERED="1", PIP_NO_INPUT="1")
    return environment


def _run(command: list[str | Path], *, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``command`` to its end (or fail after ``timeout`` s); fail with its output if it fails."""
    try:
        done = subprocess.run(
            [str(part) for part in command],
            cwd=cwd,
            env=_environment(),
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"{command[:4]} took more than {timeout} s: {expired.stderr!r}") from None
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))} exited with {done.returncode}\n"
        f"--- stdout\n{done.stdout[-5000:]}\n--- stderr\n{done.stderr[-5000:]}"
    )
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("install")
    copy = root / "tavli-source"
    copy.mkdir()
    for name in SOURCE:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=SKIPPED)
        else:
            shutil.copy2(source, copy / name)
    if (REPO / "MANIFEST.in").is_file():
        shutil.copy2(REPO / "MANIFEST.in", copy / "MANIFEST.in")
    outside = root / "elsewhere"
    outside.mkdir()
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", venv], cwd=outside, timeout=VENV_TIMEOUT)
    python = venv / "bin" / "python"
    _run([python, "-m", "pip", "install", "--quiet", copy], cwd=outside, timeout=INSTALL_TIMEOUT)
    purelib = _run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        cwd=outside,
        timeout=COMMAND_TIMEOUT,
    ).stdout.strip()
    return Installed(venv=venv, site_packages=Path(purelib), outside=outside)


# --- what is installed ------------------------------------------------------------------------------


def test_the_wheel_installs_the_one_package_tavli(installed: Installed) -> None:
    site = installed.site_packages
    top = {path.name for path in site.iterdir()}
    assert "tavli" in top
    assert not set(NOT_INSTALLED) & top, (
        f"checkout folders installed at the top level: {set(NOT_INSTALLED) & top}"
    )
    # Every file the distribution installed is in tavli/, its dist-info or the script.
    record = next(site.glob("tavli-*.dist-info")) / "RECORD"
    installed_files = [line.split(",")[0] for line in record.read_text().splitlines() if line]
    outside_tavli = {
        path
        for path in installed_files
        if path.split("/")[0] != "tavli" and not path.startswith("tavli-") and not path.endswith("/bin/tavli")
    }
    assert not outside_tavli, f"the distribution installs files outside tavli/: {sorted(outside_tavli)}"
    for package in (
        "tavli",
        "tavli/v1",
        "tavli/engine",
        "tavli/server",
        "tavli/clients",
        "tavli/clients/bots",
    ):
        assert (site / package / "__init__.py").is_file(), f"{package} is not installed"
    assert (site / "tavli/engine/py.typed").is_file()
    protos = {path.name for path in (site / "tavli/v1").glob("*.proto")}
    assert protos == {path.name for path in (REPO / "proto/tavli/v1").glob("*.proto")}
    assert protos >= {"board.proto", "games_service.proto", "rules_service.proto"}
    assert {path.name for path in (site / "tavli/v1").glob("*_pb2.pyi")} >= {
        "board_pb2.pyi",
        "rules_service_pb2.pyi",
    }
    # Every module of the checkout's packages is installed.
    for folder, package in (
        ("engine", "tavli/engine"),
        ("server", "tavli/server"),
        ("clients", "tavli/clients"),
        ("clients/bots", "tavli/clients/bots"),
        ("proto/tavli/v1", "tavli/v1"),
    ):
        missing = {path.name for path in (REPO / folder).glob("*.py")} - {
            path.name for path in (site / package).glob("*.py")
        }
        assert not missing, f"modules of {folder}/ not installed in {package}/: {sorted(missing)}"


def test_no_test_or_bench_tool_is_installed_at_runtime(installed: Installed) -> None:
    top = {path.name.lower() for path in installed.site_packages.iterdir()}
    assert not set(NOT_AT_RUNTIME) & top, f"test or bench tools installed: {set(NOT_AT_RUNTIME) & top}"
    found = _run(
        [
            installed.python,
            "-c",
            (
                "import importlib.util, sys; print(' '.join(n for n in sys.argv[1:] if "
                "importlib.util.find_spec(n)))"
            ),
            *NOT_AT_RUNTIME,
        ],
        cwd=installed.outside,
        timeout=COMMAND_TIMEOUT,
    ).stdout.split()
    assert not found, f"importable in the runtime venv: {found}"
    _run([installed.python, "-m", "pip", "check"], cwd=installed.outside, timeout=COMMAND_TIMEOUT)


def test_tavli_is_imported_from_the_venv_not_the_checkout(installed: Installed) -> None:
    script = (
        "import importlib.util, tavli, tavli.engine, tavli.server.app, tavli.clients.cli, "
        "tavli.v1.board_pb2\n"
        "print(tavli.__file__)\n"
        "print(' '.join(n for n in ('engine', 'server', 'clients', 'proto') if "
        "importlib.util.find_spec(n)))\n"
    )
    lines = _run(
        [installed.python, "-c", script], cwd=installed.outside, timeout=COMMAND_TIMEOUT
    ).stdout.splitlines()
    assert Path(lines[0]).resolve().is_relative_to(installed.site_packages.resolve())
    assert lines[1:] == [""], f"checkout folders importable as top-level packages: {lines[1:]}"


def test_tavli_help_lists_the_subcommands(installed: Installed) -> None:
    shown = _run([installed.tavli, "--help"], cwd=installed.outside, timeout=COMMAND_TIMEOUT).stdout
    assert shown.startswith("usage: tavli ")
    for command in ("arena", "play", "plays", "serve"):
        assert re.search(rf"^\s+{command}\s+\S", shown, re.MULTILINE), f"{command} not listed in:\n{shown}"


# --- tavli serve ----------------------------------------------------------------------------------


def _stop_gracefully(process: subprocess.Popen[bytes]) -> int | None:
    """SIGTERM, then SIGKILL if it has not exited within 15 s; returns the exit status after SIGTERM
    (``None`` if it had to be killed)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            stop_process(process)
            return None
    return process.returncode


def test_the_installed_server_serves(installed: Installed, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "games.sqlite3"
    log = tmp_path / "serve.log"
    web_port = free_port()
    command = [
        installed.tavli,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        "--web-port",
        str(web_port),
    ]
    with open(log, "wb") as log_file:
        process = subprocess.Popen(
            [str(part) for part in command],
            cwd=installed.outside,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    status: int | None = None
    try:
        address = f"127.0.0.1:{port}"
        try:
            wait_until_serving(address, process, within=30.0)
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n--- its output\n{log.read_text(errors='replace')}") from None
        with grpc.insecure_channel(address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            deadline = time.monotonic() + 15.0
            while True:
                answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=RPC_TIMEOUT)
                if answer.status == health_pb2.HealthCheckResponse.SERVING or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
            rules = rules_service_pb2_grpc.RulesServiceStub(channel)
            response = rules.ListLegalPlays(
                rules_pb2.ListLegalPlaysRequest(
                    variant=board_pb2.VARIANT_BACKGAMMON,
                    position=board_pb2.Position(position_id=BG_START),
                    dice=[3, 1],
                ),
                timeout=RPC_TIMEOUT,
            )
            assert len(response.plays) == 16
            assert response.dice_used == 2
            assert "8/5 6/5" in {play.notation for play in response.plays}
        # the installed package carries the web table's built files, and the web port serves them
        page = http.client.HTTPConnection("127.0.0.1", web_port, timeout=RPC_TIMEOUT)
        page.request("GET", "/")
        answer = page.getresponse()
        body = answer.read()
        page.close()
        assert answer.status == 200 and b'<script type="module"' in body
    finally:
        status = _stop_gracefully(process)
    output = log.read_text(errors="replace")
    assert status == 0, f"tavli serve exited with {status} after SIGTERM\n--- its output\n{output}"
    assert db.is_file(), "the server made its SQLite store where --db said"
    assert "ListLegalPlays" in output, "the server logs its RPCs"


# --- tavli play -----------------------------------------------------------------------------------


class Terminal:
    """A person at ``tavli play``'s terminal: everything the program wrote, read from its stdout
    by a thread, and answers written to its stdin once it waits at a prompt."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None and process.stdin is not None
        self.process = process
        self.text = ""
        self._answered = 0  # the length of self.text when the last answer was given
        self._chunks: queue.Queue[bytes | None] = queue.Queue()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        threading.Thread(target=self._pump, args=(process.stdout.fileno(),), daemon=True).start()

    def _pump(self, descriptor: int) -> None:
        try:
            while chunk := os.read(descriptor, 65536):
                self._chunks.put(chunk)
        finally:
            self._chunks.put(None)

    def prompt(self, deadline: float) -> str | None:
        """What the program shows since the last answer, once it waits at a prompt (a line ending
        in "> "); ``None`` once its output ends."""
        while True:
            shown = self.text[self._answered :]
            if shown.endswith("> "):
                return shown
            remaining = deadline - time.monotonic()
            try:
                chunk = self._chunks.get(timeout=max(remaining, 0.01))
            except queue.Empty:
                raise AssertionError(
                    f"tavli play showed no prompt in time; it showed:\n{self.text[-3000:]}"
                ) from None
            if chunk is None:
                self.text += self._decoder.decode(b"", final=True)
                return None
            self.text += self._decoder.decode(chunk)

    def answer(self, line: str) -> None:
        assert self.process.stdin is not None
        self._answered = len(self.text)
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()


ANSWERS = (
    ("press Enter to roll", ""),
    ("Roll or double?", ""),
    ("press Enter to pass", ""),
    ("Press Enter to start game", ""),
    ("Take or drop", "take"),
    ("Take, drop or beaver", "take"),
    ("Accept or reject", "accept"),
    ("Play another game?", "n"),
)


def _answer(shown: str) -> str:
    """The person's answer to what was shown: a play is the one the built-in hint suggests."""
    prompt = shown.rsplit("\n", 1)[-1]
    if prompt.startswith("Your play with"):
        hint = re.search(
            r"^(?:GNU Backgammon's best play: (.+?) \(equity"
            r"|.*The heuristic bot would play (.+) \(\d+ other legal plays?\)\.$"
            r"|The roll cannot be played\.$)",
            shown,
            re.MULTILINE,
        )
        if hint is None:
            return "hint"
        play = hint.group(1) or hint.group(2) or ""
        return "" if play == "(no move)" else play
    for start, answer in ANSWERS:
        if start in prompt:
            return answer
    raise AssertionError(f"tavli play asks what this test does not answer: {prompt!r}")


def test_the_installed_tavli_play_plays_a_match_to_its_end(installed: Installed, tmp_path: Path) -> None:
    errors = tmp_path / "play.stderr"
    command = [installed.tavli, "play", "--bot", "random", "--match", "1", "--seed", "7"]
    with open(errors, "wb") as error_file:
        process = subprocess.Popen(
            [str(part) for part in command],
            cwd=installed.outside,
            env=_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=error_file,
        )
    terminal = Terminal(process)
    plays_typed = 0
    try:
        deadline = time.monotonic() + PLAY_TIMEOUT
        for _ in range(2000):
            shown = terminal.prompt(deadline)
            if shown is None:
                break
            assert "Not allowed" not in shown, f"the server refused the hinted play:\n{shown}"
            answer = _answer(shown)
            plays_typed += shown.rsplit("\n", 1)[-1].startswith("Your play with") and answer != "hint"
            terminal.answer(answer)
        else:
            raise AssertionError("tavli play asked more than 2000 times")
        status = process.wait(timeout=COMMAND_TIMEOUT)
    finally:
        if process.stdin is not None:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass
        stop_process(process)
        if process.stdout is not None:
            process.stdout.close()
    text = terminal.text
    stderr = errors.read_text(errors="replace")
    assert status == 0, f"tavli play exited with {status}\n--- stderr\n{stderr}\n--- stdout\n{text[-3000:]}"
    assert text.startswith("tavli: you play backgammon against the random bot: a 1-point match")
    assert re.search(r"^Game games/\S+\.$", text, re.MULTILINE)
    assert re.search(r"^ Backgammon +Position ID: \S+", text, re.MULTILINE), "the board is drawn"
    assert " +13-14-15-16-17-18------19-20-21-22-23-24-+" in text
    assert re.search(r"^ Pip counts: O \d+, X \d+$", text, re.MULTILINE)
    assert re.search(r"^Throw for who starts: you \d, the random bot \d", text, re.MULTILINE)
    assert re.search(r"^The random bot plays \d-\d: \S+", text, re.MULTILINE), "the bot's plays are told"
    assert plays_typed >= 1 and re.search(r"^You play \S+", text, re.MULTILINE), (
        "the person's plays are accepted"
    )
    assert re.search(r"^\*\*\* (You win|The random bot wins) game 1: ", text, re.MULTILINE)
    assert re.search(r"^(You win|The random bot wins) the match [1-3]-0", text, re.MULTILINE), text[-2000:]
    assert "Traceback" not in stderr, stderr
