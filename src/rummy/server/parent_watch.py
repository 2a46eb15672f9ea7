"""A child process that ends with its parent, however the parent ends.

A parent killed without clean-up (SIGKILL, the OOM killer) cannot stop its children: a server worker
would go on serving its port and holding its leases, a bot worker would wait on its task queue for
ever.  So each child watches its parent: once the parent is gone the child is re-parented and
``os.getppid()`` changes (POSIX, every platform the server runs on).  The child then asks itself to
stop with SIGTERM (a server worker shuts down gracefully: its tables are handed over and its clients
told; a process with the default handler simply ends) and, should that take longer than the grace
period, ends at once.
"""

from __future__ import annotations

import os
import signal
import threading
import time

POLL_SECONDS = 0.5


def _stop_when_orphaned(parent: int, grace_seconds: float) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(grace_seconds)
    os._exit(1)  # the graceful stop did not finish: nobody is left to wait for it


def watch_parent(parent: int, grace_seconds: float = 30.0) -> None:
    """End this process once process ``parent`` is gone: SIGTERM at once, ``os._exit`` after
    ``grace_seconds`` (a daemon thread does the watching)."""
    threading.Thread(target=_stop_when_orphaned, args=(parent, grace_seconds), name="rummy-parent-watch",
                     daemon=True).start()
