"""Games on a Ray cluster (``rummy sim --ray ADDRESS``, ``rummy eval --ray ADDRESS``): each run of games is a
Ray task calling the same function a local worker calls (:func:`rummy.sim.run.play_chunk` for ``rummy sim`` and
``rummy eval``), so a game plays exactly as it does there.

This is the only module that touches Ray, and it imports Ray when a pool is opened, never at import time.
Ray's calls are untyped to us (it is reached through :func:`importlib.import_module`, so mypy sees ``Any``
and needs no Ray installed); every value that leaves this module is given its type here.
"""

from __future__ import annotations

import importlib
import logging
import socket
import warnings
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from rummy.sim.args import SimError
from rummy.sim.run import ChunkDone, ChunkTask, GameFailed, default_workers

INSTALL_HINT = "pip install 'rummy[ray]'"
CONNECT_SECONDS = 5.0  # for the probe of a host:port address (Ray itself waits 30 s to minutes)


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SimError(f"--ray needs Ray, which is not installed ({INSTALL_HINT})") from None


def _endpoint(address: str) -> tuple[str, int] | None:
    """The host and port of ``ray://host:port`` or ``host:port`` (None for ``auto``, ``local`` …)."""
    parts = urlsplit(address if "://" in address else f"//{address}")
    try:
        port = parts.port
    except ValueError:
        raise SimError(f"--ray {address!r}: not a port number") from None
    if parts.hostname is None or port is None:
        return None
    return parts.hostname, port


def _probe(address: str) -> None:
    """Fail in seconds, with one line, when the head node of ``address`` does not answer at all."""
    endpoint = _endpoint(address)
    if endpoint is None:
        return
    try:
        socket.create_connection(endpoint, timeout=CONNECT_SECONDS).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise SimError(f"--ray {address}: cannot reach the Ray cluster ({reason})") from None


class RayPool:
    """A Ray cluster as a :class:`rummy.sim.run.GamePool`.

    ``address`` is what :func:`ray.init` takes: ``auto`` (the cluster this machine belongs to, as ``ray start``
    left it), ``local`` (a fresh Ray on this machine with ``workers`` CPUs, every core by default, stopped by
    :meth:`close`), ``ray://host:port`` (Ray Client, to a head node's client port) or a head node's
    ``host:port``.  Every node must have the same versions of Python, Ray and rummy installed.
    """

    def __init__(self, address: str, workers: int | None = None) -> None:
        if workers is not None and address != "local":
            raise SimError("--workers sets the processes of a local run (or of --ray local); a Ray cluster "
                           "runs games on every CPU it has")
        ray = _import_ray()
        _probe(address)
        options: dict[str, Any] = {"address": address, "logging_level": logging.ERROR}
        if address == "local":
            options["num_cpus"] = workers or default_workers()
            options["include_dashboard"] = False
        try:
            with warnings.catch_warnings():  # Ray Client warns before it raises; the error says it once
                warnings.simplefilter("ignore")
                ray.init(**options)
        except Exception as error:  # ConnectionError, ValueError on a bad address, RuntimeError …
            text = " ".join(str(error).split()) or type(error).__name__
            raise SimError(f"--ray {address}: cannot connect to Ray: {text}") from None
        self._ray = ray
        self._address = address
        self._tasks: dict[ChunkTask, Any] = {}
        self._cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    @property
    def workers(self) -> int:
        return self._cpus

    @property
    def label(self) -> str:
        return f"Ray at {self._address} ({self._cpus} CPU{'s' if self._cpus != 1 else ''})"

    def run(self, task: ChunkTask, config: Any, chunks: Sequence[Sequence[int]]) -> Iterator[ChunkDone]:
        ray = self._ray
        remote = self._tasks.setdefault(task, ray.remote(task))
        shared = ray.put(config)
        pending: dict[Any, list[int]] = {remote.remote(shared, list(chunk)): list(chunk) for chunk in chunks}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    yield pending.pop(ref), self._results(ray, ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    @staticmethod
    def _results(ray: Any, ref: Any) -> list[Any]:
        try:
            result = ray.get(ref)
        except ray.exceptions.RayTaskError as error:  # a game that failed: its own error, not Ray's wrapper
            cause = getattr(error, "cause", None)
            if isinstance(cause, GameFailed):
                raise GameFailed(str(cause)) from None
            raise
        if not isinstance(result, list):
            raise TypeError(f"a Ray task returned {type(result).__name__}, not a list of game results")
        return result

    def close(self) -> None:
        self._ray.shutdown()
