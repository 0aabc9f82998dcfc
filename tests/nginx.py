"""nginx in front of tavli replicas for the tests: server/deploy/nginx.conf, run as it stands with
its markers filled in, on a free loopback port; stopped at the end."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from tests.server_play import REPO, free_port

CONFIG = REPO / "server" / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_available() -> bool:
    return Path(NGINX).exists()


def nginx_config(folder: Path, listen: str, replicas: Sequence[str]) -> str:
    """The project's nginx configuration for ``replicas`` (HOST:PORT each), listening on ``listen``."""
    servers = "\n".join(f"        server {replica} max_fails=1 fail_timeout=5s;" for replica in replicas)
    text = CONFIG.read_text()
    return (
        text.replace("{{FOLDER}}", str(folder)).replace("{{LISTEN}}", listen).replace("{{REPLICAS}}", servers)
    )


@contextlib.contextmanager
def nginx_in_front(replicas: Sequence[str]) -> Iterator[str]:
    """The address of nginx passing gRPC to ``replicas``, while the block runs."""
    folder = Path(tempfile.mkdtemp(prefix="tavli-nginx-"))
    port = free_port()
    address = f"127.0.0.1:{port}"
    (folder / "nginx.conf").write_text(nginx_config(folder, address, replicas))
    command = [NGINX, "-c", str(folder / "nginx.conf"), "-g", "daemon off; user root;"]
    with open(folder / "stderr", "wb") as error_file:  # the child keeps its own copy
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=error_file)
    try:
        _wait_until_listening(port, process, folder)
        yield address
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_listening(
    port: int, process: subprocess.Popen[bytes], folder: Path, within: float = 15.0
) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"nginx exited: {(folder / 'stderr').read_text()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("nginx did not start listening")
