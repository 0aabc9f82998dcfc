"""The web port's process: the web port (:mod:`tavli.server.web`) served by a process of its own.

Hypercorn, connectrpc and the JSON mapping run on an event loop. On the server's own loop, a
thousand slow request bodies (each accepted, read and answered there) or one watch read from
event 0 as JSON made the native port's health checks wait up to a second. In a process of its
own, the web port's work waits for its own loop and takes no turn of the native port's: it passes
each call on to the native services over the server's own socket, as it did from inside the
server, and the native interceptors (limits, quotas, the errors in words, the log line) meet the
call there, with the browser's address in its metadata, believed only from that socket.

The server binds the web port's socket itself (so that a port taken is said as the server starts,
and port 0 is known at once) and hands it to the process with one end of a private socket pair,
the control channel. Over it the process says, one JSON line each:

- that it serves (the server's start waits for it);
- each request it refused itself (a body too slow, too many requests open), which the server
  counts as a call of that client in its quotas and acknowledges before the refusal is answered,
  so that the client's next call finds it counted;
- every second, the CPU its JSON mapping took for each client (:mod:`tavli.server.web_cost`),
  which the server charges to the client's CPU budget;
- each line it logs, which the server logs as its own (the same fields, in the same place).

The server restarts a web process that exits without being told to (after a pause that grows
while it keeps exiting), holding the port's socket meanwhile: connections wait in its queue
rather than being refused. The web process stops gracefully on SIGTERM (the server's stop sends
it) and when the control channel closes, which it does when the server dies, even by SIGKILL. With
``--workers N`` each worker has a web process of its own, on the port the workers share.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import structlog

from tavli.server.startup import StartupError
from tavli.server.web_cost import CHARGED_EVERY, JsonCost
from tavli.server.web_limits import WebLimits
from tavli.server.workers import STOP_MARGIN_SECONDS, RestartPolicy

log = structlog.get_logger("tavli.server")

SEND_BUFFER_BYTES = 128 * 1024
"""The kernel's send buffer of each web connection (Linux doubles it for its own bookkeeping)."""

_LONGEST_LINE = 1 << 20  # bytes of one control message (a log line with its traceback)
_LONGEST_LOG_TEXT = 64 * 1024  # characters of one log line passed on; the rest is cut
_MOST_UNSENT_BYTES = 4 << 20  # log lines the server has not read yet; more are dropped
_START_SECONDS = 60.0  # for the web process to serve; it takes about a second on a loaded machine
_RESTARTS = RestartPolicy()  # how soon a web process that exited is started again


@dataclass(frozen=True)
class WebSettings:
    """What the web process needs to know of the server's configuration."""

    host: str  # the address the port listens on (loopback-only Host checks follow from it)
    native: str  # the server's own socket, a ``unix:`` address
    read_max_bytes: int
    limits: WebLimits
    grace_seconds: float
    tls: tuple[str, str] | None = None  # the certificate's and the key's files
    log_level: int = logging.INFO

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> WebSettings:
        fields = json.loads(text)
        tls = fields.pop("tls")
        return cls(
            **{**fields, "limits": WebLimits(**fields["limits"]), "tls": None if tls is None else tuple(tls)}
        )


def listen(host: str, port: int, *, reuse_port: bool) -> socket.socket:
    """The web port's listening socket on ``host:port`` (0 picks a free port).

    :raises OSError: if it cannot listen there.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Each connection's send buffer inherits this fixed size, rather than growing to the
        # kernel's most (4 MiB) under a reader that does not read: what waits for a reader is bounded
        # by the process and the kernel alike.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        if reuse_port:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind((host.strip("[]"), port))
        listener.listen(512)
    except OSError:
        listener.close()
        raise
    return listener


# --- the server's side ---------------------------------------------------------------------------


@dataclass
class _Child:
    """One web process, and the task hearing its control channel until it closes."""

    process: asyncio.subprocess.Process
    ready: asyncio.Future[None]
    hearing: asyncio.Task[None]
    exited: asyncio.Task[int] = field(init=False)

    def __post_init__(self) -> None:
        self.exited = asyncio.ensure_future(self._exit_code())

    async def _exit_code(self) -> int:
        await asyncio.wait([self.hearing])  # the channel closes as the process exits
        return await self.process.wait()

    async def end(self, grace: float) -> None:
        """Stop it (SIGTERM: its calls in flight have ``grace`` seconds), and kill it if it has
        not exited a margin later."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(grace + STOP_MARGIN_SECONDS):
                await asyncio.shield(self.exited)
        except TimeoutError:
            self.process.kill()
            await self.exited


class WebProcess:
    """The web port, served by a process of its own that is restarted when it exits, until
    :meth:`stop`. ``refused(client)`` counts a request the web process refused itself as a call of
    that client, and ``spent(client, seconds)`` charges the CPU the process spent on its calls (both
    raise nothing)."""

    def __init__(
        self,
        listener: socket.socket,
        settings: WebSettings,
        *,
        refused: Callable[[str], None],
        spent: Callable[[str, float], None],
    ) -> None:
        self.port: int = listener.getsockname()[1]
        self._listener = listener
        self._settings = settings
        self._refused = refused
        self._spent = spent
        self._restarts: deque[float] = deque()
        self._stopping = asyncio.Event()
        self._child: _Child | None = None
        self._keeping: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        """The process serving the web port now."""
        assert self._child is not None
        return self._child.process.pid

    async def start(self) -> None:
        """Start the web process and wait until it serves.

        :raises StartupError: if it exits first.
        """
        child = self._child = await self._spawn()
        await asyncio.wait(
            [child.ready, child.hearing], timeout=_START_SECONDS, return_when=asyncio.FIRST_COMPLETED
        )
        if not child.ready.done():
            if child.hearing.done():
                code = await child.exited
                raise StartupError(f"the web port's process exited as it started ({_exit_in_words(code)})")
            await child.end(0.0)
            raise StartupError(f"the web port's process did not start within {_START_SECONDS:g} seconds")
        self._keeping = asyncio.ensure_future(self._keep_serving())

    async def stop(self, grace: float | None) -> None:
        """Stop the web process: it stops taking connections, and calls in flight get ``grace``
        seconds before they are ended (see :meth:`tavli.server.web.WebPort.stop`)."""
        self._stopping.set()
        if self._child is not None:
            await self._child.end(grace or 0.0)
        if self._keeping is not None:
            await self._keeping
        self._listener.close()

    async def _keep_serving(self) -> None:
        while True:
            assert self._child is not None
            code = await self._child.exited
            if self._stopping.is_set():
                return
            log.warning("web process exited", pid=self._child.process.pid, how=_exit_in_words(code))
            now = time.monotonic()
            while self._restarts and now - self._restarts[0] > _RESTARTS.window_seconds:
                self._restarts.popleft()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(_RESTARTS.delay(len(self._restarts))):
                    await self._stopping.wait()
                return  # stopped while pausing
            self._restarts.append(now)
            try:
                self._child = await self._spawn()
            except OSError as error:  # no process to be had now (out of memory or processes): later
                log.error("web process not restarted", error=str(error))
                continue
            log.info("web process restarted", pid=self._child.process.pid, restarts=len(self._restarts))
            if self._stopping.is_set():  # stopped while it was being started: stop() ended the last one
                await self._child.end(0.0)
                return

    async def _spawn(self) -> _Child:
        ours, theirs = socket.socketpair()
        settings = {"listener": self._listener.fileno(), "control": theirs.fileno()}
        try:
            process = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", __name__, self._settings.to_json(), json.dumps(settings)),
                pass_fds=(self._listener.fileno(), theirs.fileno()),
                stdin=asyncio.subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours, limit=_LONGEST_LINE)
        ready = asyncio.get_running_loop().create_future()
        return _Child(process, ready, asyncio.ensure_future(self._hear(reader, writer, ready)))

    async def _hear(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, ready: asyncio.Future[None]
    ) -> None:
        """Do what the web process says, until it closes the channel (it exits)."""
        try:
            while line := await reader.readline():
                message = json.loads(line)
                if "refused" in message:
                    self._refused(str(message["refused"]))
                    writer.write(b"\n")
                elif "spent" in message:
                    for client, seconds in dict(message["spent"]).items():
                        self._spent(str(client), float(seconds))
                elif "log" in message:
                    _log_as_ours(message["log"])
                elif "ready" in message and not ready.done():
                    ready.set_result(None)
        except (ValueError, ConnectionError) as error:
            log.error("the web process's control channel broke", error=str(error))
        finally:
            writer.close()


def _log_as_ours(line: dict[str, Any]) -> None:
    """Log a line the web process logged, as the server logs its own."""
    level = int(line["levelno"])
    logger = logging.getLogger(str(line["name"]))
    if logger.isEnabledFor(level):
        logger.handle(
            logging.makeLogRecord(
                {
                    "name": logger.name,
                    "levelno": level,
                    "levelname": logging.getLevelName(level),
                    "msg": line["msg"],
                }
            )
        )


def _exit_in_words(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


# --- the web process's side ----------------------------------------------------------------------


class _Control:
    """The web process's end of the control channel."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._counted: deque[asyncio.Future[None]] = deque()  # refusals awaiting the server's word
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()  # the loop's
        self.closed = asyncio.Event()
        self._hearing = asyncio.ensure_future(self._hear(reader))

    def say(self, message: dict[str, Any]) -> None:
        if not self.closed.is_set():
            self._writer.write(json.dumps(message).encode() + b"\n")

    async def refused(self, client: str) -> None:
        """Have the server count a refused request of ``client`` as its call; returns once it has
        (or once the server is gone)."""
        if self.closed.is_set():
            return
        counted = self._loop.create_future()
        self._counted.append(counted)
        self.say({"refused": client})
        await counted

    def log(self, line: dict[str, Any]) -> None:
        """Pass a log line on, from any thread; dropped while the server has not read as much."""
        if threading.get_ident() != self._thread:
            self._loop.call_soon_threadsafe(self.log, line)
        elif self._writer.transport.get_write_buffer_size() < _MOST_UNSENT_BYTES:
            self.say({"log": line})

    async def _hear(self, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(ConnectionError):
            while await reader.readline():
                if self._counted:
                    self._counted.popleft().set_result(None)
        self.closed.set()
        while self._counted:
            self._counted.popleft().set_result(None)


class _LogToServer(logging.Handler):
    """Each line logged here, with its traceback, passed on to the server's log."""

    def __init__(self, control: _Control) -> None:
        super().__init__()
        self.control = control
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)[:_LONGEST_LOG_TEXT]
            self.control.log({"name": record.name, "levelno": record.levelno, "msg": text})
        except (ValueError, TypeError, RuntimeError):  # a message its arguments do not fit; a loop closed
            self.handleError(record)


async def _serve(settings: WebSettings, listener_fd: int, control_fd: int) -> None:
    from tavli.server.services import WEB_SERVICES
    from tavli.server.web import PAGES, start_web_port
    from tavli.server.web_guard import BoundedListener

    reader, writer = await asyncio.open_unix_connection(sock=socket.socket(fileno=control_fd))
    control = _Control(reader, writer)
    logging.getLogger().handlers[:] = [_LogToServer(control)]
    logging.getLogger().setLevel(settings.log_level)
    listener = BoundedListener(fileno=listener_fd)
    json_cost = JsonCost()
    web = await start_web_port(
        listener=listener,
        host=settings.host,
        native=settings.native,
        services=list(WEB_SERVICES),
        pages=PAGES,
        read_max_bytes=settings.read_max_bytes,
        tls=settings.tls,
        grace_seconds=settings.grace_seconds,
        limits=settings.limits,
        refused=control.refused,
        json_cost=json_cost,
    )
    charging = asyncio.ensure_future(_charge(control, json_cost))
    stopping = asyncio.ensure_future(control.closed.wait())
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.cancel)
    control.say({"ready": True})
    with contextlib.suppress(asyncio.CancelledError):
        await stopping
    # The server's word (SIGTERM) gives calls in flight their grace; with the server gone, they
    # cannot be answered anyway.
    await web.stop(0.0 if control.closed.is_set() else settings.grace_seconds)
    charging.cancel()
    _owed(control, json_cost)
    with contextlib.suppress(ConnectionError):  # the last lines logged, unless the server is gone
        await writer.drain()


async def _charge(control: _Control, json_cost: JsonCost) -> None:
    """Tell the server what the clients owe for the JSON mapping, every
    :data:`~tavli.server.web_cost.CHARGED_EVERY` seconds."""
    while not control.closed.is_set():
        await asyncio.sleep(CHARGED_EVERY)
        _owed(control, json_cost)


def _owed(control: _Control, json_cost: JsonCost) -> None:
    owed = json_cost.taken()
    if owed:
        control.say({"spent": owed})


def main() -> None:
    """The web process: ``python -m tavli.server.web_process SETTINGS DESCRIPTORS`` (both JSON)."""
    # Ctrl-C on a terminal reaches the whole process group: the server stops its web process.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    descriptors = json.loads(sys.argv[2])
    asyncio.run(_serve(WebSettings.from_json(sys.argv[1]), descriptors["listener"], descriptors["control"]))


if __name__ == "__main__":
    main()
