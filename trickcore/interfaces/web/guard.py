"""Limits on connections for `trickcore serve`: how many at once, how many per client
address, and how long one may stay open without sending a request.

uvicorn closes a kept-alive connection after `timeout_keep_alive`, but waits for ever for
the first request of a connection and accepts connections until the process runs out of
file descriptors (then logs every failed accept). The protocol here is uvicorn's h11
protocol with a header timeout (a connection that has not sent a whole request head within
`idle_timeout` seconds is closed) and a cap on connections, in all and per address, below
the process's file limit: a connection over the cap is closed at once, without a log line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_CONNECTIONS = 256
DEFAULT_PER_CLIENT = 32
DEFAULT_IDLE_TIMEOUT = 10.0
FD_MARGIN = 64  # file descriptors kept free of connections (files, the listening socket)


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; the soft limit now."""
    try:
        import resource
    except ImportError:  # not on this system: nothing to raise
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def connection_cap(wanted: int, file_limit: int) -> int:
    """The connections allowed at once: as many as wanted, but FD_MARGIN below the file
    limit (at least 1)."""
    return max(1, min(wanted, file_limit - FD_MARGIN))


def guarded_protocol(
    connections: int = DEFAULT_CONNECTIONS,
    per_client: int = DEFAULT_PER_CLIENT,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
) -> type[H11Protocol]:
    """uvicorn's h11 protocol with these limits (a class of its own: the counts are shared
    by the connections of one server)."""
    counts: dict[str, int] = {}
    total = [0]

    class GuardedH11Protocol(H11Protocol):
        """An h11 connection counted against the limits, closed when idle too long."""

        _guard_host: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else "?"
            if total[0] >= connections or counts.get(host, 0) >= per_client:
                transport.abort()  # over a cap: closed at once, quietly
                return
            self._guard_host = host
            counts[host] = counts.get(host, 0) + 1
            total[0] += 1
            # the keep-alive timer, armed until the first request head is complete (uvicorn
            # disarms it when a request arrives and arms it again after each response)
            self.timeout_keep_alive_task = self.loop.call_later(
                idle_timeout, self.timeout_keep_alive_handler
            )

        def connection_lost(self, exc: Exception | None) -> None:
            host = self._guard_host
            if host is not None:
                self._guard_host = None
                total[0] -= 1
                left = counts.get(host, 1) - 1
                if left > 0:
                    counts[host] = left
                else:
                    counts.pop(host, None)
            super().connection_lost(exc)

        def timeout_keep_alive_handler(self) -> None:
            try:
                super().timeout_keep_alive_handler()
            except Exception:  # noqa: BLE001 - a half-sent request head: just close
                self.transport.abort()

    GuardedH11Protocol.__name__ = "GuardedH11Protocol"
    return GuardedH11Protocol


class OncePerMinute(logging.Filter):
    """Let a repeated log message through at most once a minute (a storm of failed accepts
    must not fill the log)."""

    def __init__(self) -> None:
        super().__init__()
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = time.monotonic()
        if now - self._last.get(key, -1e9) < 60.0:
            return False
        self._last[key] = now
        return True


def quiet_storms() -> None:
    """Rate-limit asyncio's and uvicorn's repeated error messages."""
    for name in ("asyncio", "uvicorn.error"):
        logging.getLogger(name).addFilter(OncePerMinute())


def uvicorn_options(
    connections: int = DEFAULT_CONNECTIONS,
    per_client: int = DEFAULT_PER_CLIENT,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
) -> dict[str, Any]:
    """The uvicorn.Config options of a guarded server (file limit raised first)."""
    cap = connection_cap(connections, raise_file_limit())
    return {
        "http": guarded_protocol(cap, min(per_client, cap), idle_timeout),
        "timeout_keep_alive": max(1, int(min(idle_timeout, 5.0))),
        "timeout_graceful_shutdown": 3,
        "backlog": 128,
        "h11_max_incomplete_event_size": 16 * 1024,
    }
