"""The web port's bounds on slow and numerous requests (held by :mod:`tavli.server.web_guard`)."""

from __future__ import annotations

import resource
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WebLimits:
    """The web port's bounds on slow and numerous requests.

    :raises ValueError: for a bound that is not positive.
    """

    body_seconds: float = 10.0
    """How long a request's whole body may take to arrive, from its headers."""
    requests_per_address: int = 64
    """Requests one client address may have open at once (each holds a connection)."""
    reserved_descriptors: int = 256
    """Descriptors the web process keeps back from connections, for passing calls on and its files."""

    def __post_init__(self) -> None:
        if not self.body_seconds > 0 or self.requests_per_address < 1 or self.reserved_descriptors < 0:
            raise ValueError(f"the web port's limits are positive: {self}")

    def most_requests(self) -> int:
        """Requests all addresses together may have open: the descriptors the process may open,
        less those reserved (and at least 16)."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return 1 << 20
        return max(16, soft - self.reserved_descriptors)
