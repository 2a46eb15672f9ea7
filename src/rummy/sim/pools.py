"""Where a command's games run: :func:`open_pool` gives this machine's processes or a Ray cluster."""

from __future__ import annotations

from rummy.sim.run import GamePool, LocalPool, default_workers


def open_pool(workers: int | None = None, ray: str | None = None, games: int | None = None) -> GamePool:
    """Where the games of a command run: ``workers`` local processes (None: every core; no more than ``games``),
    or the Ray cluster at ``ray`` (``auto``, ``local``, ``ray://host:port``; Ray is imported only then, and
    ``workers`` is then only for ``local``).  Raises :class:`rummy.sim.args.SimError` when Ray is not installed
    or the cluster cannot be reached."""
    if ray is None:
        count = workers or default_workers()
        return LocalPool(min(count, games) if games else count)
    from rummy.sim.ray_pool import RayPool

    return RayPool(ray, workers)
