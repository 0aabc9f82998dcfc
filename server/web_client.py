"""Who a call passed on by the web port (:mod:`tavli.server.web`) came from, and which client an
address is.

The web port's process passes each browser's call on to the native services over a Unix socket
of the server's own, naming the browser's address in :data:`WEB_CLIENT_HEADER`. The native
services believe that name only from that socket, which nothing but the server and the web process
it started reaches (it lies in a folder only the server's user may open); from anywhere else it is
ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

WEB_CLIENT_HEADER = "tavli-web-client"
"""The metadata that tells the native services which browser a web call came from."""


def client_behind_web(peer: str, metadata: Mapping[str, str]) -> str | None:
    """The browser a call passed on by the web port came from, when it came over the process's
    own socket (``peer`` a ``unix:`` address); None for any other call."""
    if not peer.startswith("unix:"):
        return None
    return metadata.get(WEB_CLIENT_HEADER) or None


def client_at(host: str) -> str:
    """The client a host address (without its port) is: an IPv4 address itself, an IPv6
    address its /64 network."""
    if ":" not in host:
        return host
    try:
        return str(ipaddress.IPv6Network(f"{host.partition('%')[0]}/64", strict=False))
    except ValueError:
        return host
