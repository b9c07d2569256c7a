"""A server worker dies with the process that started it.

``croupier serve --workers N`` runs uvicorn's supervisor, which starts N
worker processes sharing one socket. If the supervisor is killed alone
(``kill -9`` of its pid), its workers would go on serving as orphans
that nobody stops or restarts. Each worker therefore, when it builds
its application (:func:`croupier.server.app.app_from_env`), calls
:func:`die_with_parent`:

- on Linux the kernel is asked to send it ``SIGTERM`` when its parent
  dies (``prctl(PR_SET_PDEATHSIG)``, through :mod:`ctypes`);
- everywhere a daemon thread watches the parent's pid (the worker is
  re-parented when its parent dies) and sends the same ``SIGTERM``.

``SIGTERM`` makes uvicorn finish the requests in flight and stop; if
the worker is still alive a few seconds later it exits at once.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent"]

log = logging.getLogger("croupier.server")

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal sent when the parent dies (linux/prctl.h)."""

GRACE_SECONDS = 5.0
"""How long a worker whose parent died may take to stop by itself."""


def _pdeathsig(sig: int) -> bool:
    """Ask Linux for ``sig`` when the parent dies; whether it worked."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c") or "libc.so.6"
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int, interval: float) -> None:
    while os.getppid() == parent:
        time.sleep(interval)
    log.warning("worker %s: parent %s is gone; stopping", os.getpid(), parent)
    with contextlib.suppress(OSError):
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(GRACE_SECONDS)
    os._exit(1)


def die_with_parent(parent: int | None = None, interval: float = 0.5) -> None:
    """Stop this process when ``parent`` (the current parent) dies."""
    expected = os.getppid() if parent is None else parent
    _pdeathsig(signal.SIGTERM)
    if os.getppid() != expected:  # it died before the request above
        os.kill(os.getpid(), signal.SIGTERM)
        return
    threading.Thread(
        target=_watch,
        args=(expected, interval),
        name="croupier-lifeline",
        daemon=True,
    ).start()
