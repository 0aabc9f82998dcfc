"""The web port's listening socket closes a connection past an address's share as soon as it is
accepted, before anything of it is read, and counts each address's connections until they close."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from tavli.server.web_guard import BoundedListener

SHARE = 2


@pytest.fixture
def listener() -> Iterator[BoundedListener]:
    listening = BoundedListener(socket.AF_INET, socket.SOCK_STREAM)
    listening.bind(("127.0.0.1", 0))
    listening.listen(16)
    listening.settimeout(10)
    listening.most_per_address = SHARE
    yield listening
    listening.close()


def connect(listener: BoundedListener) -> socket.socket:
    return socket.create_connection(listener.getsockname(), timeout=10)


def test_an_addresss_connections_past_its_share_are_closed_at_once(listener: BoundedListener) -> None:
    clients = [connect(listener) for _ in range(SHARE + 1)]
    accepted = [listener.accept()[0] for _ in range(SHARE)]
    with pytest.raises(ConnectionAbortedError):
        listener.accept()
    assert clients[SHARE].recv(1) == b""  # closed by the server, nothing read of it
    assert listener.open_by_address == {"127.0.0.1": SHARE}

    accepted[0].close()  # a place comes free: the address's next connection is taken
    later = connect(listener)
    accepted.append(listener.accept()[0])
    assert listener.open_by_address == {"127.0.0.1": SHARE}
    for connection in accepted + clients + [later]:
        connection.close()
    assert listener.open_by_address == {} and listener.open_connections == 0
