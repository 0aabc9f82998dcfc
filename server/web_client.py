"""Who a call passed on by the web port (:mod:`tavli.server.web`) came from.

The web port passes each browser's call on to the native services over a Unix socket of the
server process's own, naming the browser's address in :data:`WEB_CLIENT_HEADER`. The native
services believe that name only from that socket, which nothing outside the process reaches
(it lies in a folder only the server's user may open); from anywhere else it is ignored.
"""

from __future__ import annotations

from collections.abc import Mapping

WEB_CLIENT_HEADER = "tavli-web-client"
"""The metadata that tells the native services which browser a web call came from."""


def client_behind_web(peer: str, metadata: Mapping[str, str]) -> str | None:
    """The browser a call passed on by the web port came from, when it came over the process's
    own socket (``peer`` a ``unix:`` address); None for any other call."""
    if not peer.startswith("unix:"):
        return None
    return metadata.get(WEB_CLIENT_HEADER) or None
