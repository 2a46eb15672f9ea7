"""Bot moves for the tables: the random bot inline, the search bots in worker processes.

A bot sees only its seat's view (:func:`rummy.bots.decide` semantics).  A level whose module is not
installed, a bot that raises, returns something illegal or thinks past the timeout falls back to a
random legal move, so a table never stalls on a bot.

A worker dies with the server, however the server ends: a killed server (SIGKILL, the OOM killer)
runs no clean-up, and its workers would wait on their task queue for ever, holding their memory and
the multiprocessing resource tracker (which ends once no worker holds its pipe).  So each worker
watches its parent (:func:`rummy.server.parent_watch.watch_parent`) and exits as soon as it is gone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache

from rummy.bots import LEVELS, bot_view, make_bot
from rummy.engine import Action, Game, PlayerView, parse_action
from rummy.search.playout import random_choice
from rummy.server.parent_watch import watch_parent

log = logging.getLogger("rummy.server")

INLINE_BOTS = frozenset({"random"})


@cache
def playable_level(level: str) -> str:
    """``level`` if its bot can be made here, else ``"random"`` (logged once)."""
    try:
        make_bot(level, seed=0)
    except (ImportError, ValueError, TypeError) as error:
        log.warning("bot %r is not available (%s); the random bot plays instead", level, error)
        return "random"
    return level


def bot_name(level: str) -> str:
    """The bot behind a level (``easy`` → ``random``)."""
    return LEVELS.get(level, level)


def _choose_text(level: str, seed: int, view: PlayerView) -> str:
    """Worker entry point: the bot's move in record notation."""
    return str(make_bot(level, seed=seed).choose(view))


class BotRunner:
    """Chooses moves for bot-controlled seats; :meth:`close` it when the server stops."""

    def __init__(self, processes: int = 1, timeout: float = 30.0) -> None:
        self.processes = processes
        self.timeout = timeout
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes > 0:
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(max_workers=self.processes, mp_context=context,
                                                     initializer=watch_parent, initargs=(os.getpid(),))
            else:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummy-bot")
        return self._executor

    def is_inline(self, level: str) -> bool:
        return bot_name(playable_level(level)) in INLINE_BOTS

    def choose_inline(self, game: Game, seat: int, level: str, seed: int) -> Action:
        """A move of a bot cheap enough to run on the event loop (the random bot)."""
        bot = make_bot(playable_level(level), seed=seed)
        return bot.choose(bot_view(game, seat, bot))

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Action:
        """A move for ``seat``; search bots think in a worker while the table goes on."""
        level = playable_level(level)
        if self.is_inline(level):
            return self.choose_inline(game, seat, level, seed)
        bot = make_bot(level, seed=seed)
        view = bot_view(game, seat, bot)
        loop = asyncio.get_running_loop()
        try:
            text = await asyncio.wait_for(
                loop.run_in_executor(self._pool(), _choose_text, level, seed, view), self.timeout
            )
            return parse_action(text, game.n)
        except Exception as error:  # noqa: BLE001 - any bot failure falls back to a random move
            log.warning("bot %r failed for seat %d (%s: %s); playing a random move", level, seat,
                        type(error).__name__, error)
            return self.fallback(game, seat, seed)

    @staticmethod
    def fallback(game: Game, seat: int, seed: int) -> Action:
        """A random legal move for ``seat``."""
        return random_choice(game.legal_actions(seat), random.Random(seed))

    def close(self) -> None:
        """Stop the workers now, even one in the middle of a long search (its move is not needed)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        workers = list(executor._processes.values()) if isinstance(executor, ProcessPoolExecutor) else []
        executor.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(timeout=5)
