"""The fixtures of the web table's tests: the browser (tests/browser.py), a server with its web
port, and a native client of it. A test module that needs another server defines its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tavli.clients.client import TavliClient
from tavli.server.app import Running
from tests.browser import (  # noqa: F401 (fixtures, found by pytest by their names)
    browser_fixture,
    page_fixture,
    phone_page_fixture,
    playwright_driver_fixture,
)
from tests.server_play import connected, running_server


@pytest.fixture()
def server() -> Iterator[Running]:
    with running_server(web_port=0, log_rpcs=False) as running:
        yield running


@pytest.fixture()
def client(server: Running) -> Iterator[TavliClient]:
    with connected(server.port) as native:
        yield native
