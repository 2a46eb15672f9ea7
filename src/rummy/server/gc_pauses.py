"""Short garbage-collector pauses for a server holding many long games.

Every table keeps its game's whole action log, so a busy server holds a million long-lived objects,
and a full pass of Python's cyclic garbage collector over them stops the event loop for a few
hundred milliseconds whenever the heap has grown by a quarter.  Game state holds no reference
cycles (it is freed by reference counting alone), so every ``freeze_seconds`` the objects alive are
moved to the permanent generation (:func:`gc.freeze`), which the collector skips: its passes stay
short.  Once every ``full_seconds`` everything is unfrozen and collected, so a rare cycle that died
frozen is reclaimed after all.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("rummy.server")


async def keep_collector_pauses_short(freeze_seconds: float, full_seconds: float) -> None:
    """Run for ever (cancel it to stop); does nothing when ``freeze_seconds`` is 0."""
    if freeze_seconds <= 0:
        return
    last_full = time.monotonic()
    gc.freeze()
    try:
        while True:
            await asyncio.sleep(freeze_seconds)
            if time.monotonic() - last_full >= full_seconds:
                started = time.perf_counter()
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
                log.info("full garbage collection: %.0f ms", (time.perf_counter() - started) * 1000)
            gc.collect(1)  # the young generations first: what dies young is not frozen
            gc.freeze()
    finally:
        gc.unfreeze()
