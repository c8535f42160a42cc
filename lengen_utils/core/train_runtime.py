"""What the training loop sets up around its steps: the next batches drawn while the current step runs, in a worker
process (:class:`WorkerPrefetcher`) or a background thread (:class:`Prefetcher`), chosen by :func:`prefetcher`, and
freed memory kept in the process (:func:`keep_freed_memory`). None of them changes the numbers a run computes; all
are measured by ``python -m lengen_utils.lab.throughput``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import multiprocessing
import os
import pickle
import queue
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

import torch

Item = TypeVar("Item")


@functools.cache
def keep_freed_memory() -> bool:
    """Ask glibc's malloc to keep freed memory for the next allocation (no ``mmap`` below 256 MB, no trimming
    below 512 MB), once per process; returns whether it could (False off glibc).

    A training step allocates and frees the same multi-megabyte tensors (the ``[B, H, T, T]`` scores, their
    gradients) every time. By default glibc hands such blocks back to the system when they are freed, and the
    next step faults every page in again: for the flagship about 8,500 page faults and 10 ms of system time in a
    40 ms step. The numbers computed are the same."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return False
    if not (hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt")):   # glibc only
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(libc.mallopt(m_mmap_threshold, 256 << 20)) & bool(libc.mallopt(m_trim_threshold, 512 << 20))


class Prefetcher:
    """``draw(start), ..., draw(stop - 1)``, in that order, each computed in a background thread while the
    caller works on the one before; :meth:`take` returns the next. One draw at a time, so draws that share a
    random generator see the same sequence as in series; an error in a draw is raised by :meth:`take`.

    A draw after the first waits for :meth:`release` (or :meth:`take`): the caller releases it where the main
    thread leaves the interpreter for long, as when the backward pass starts, so that the draw's Python does
    not compete with the forward pass's for the GIL. Until :meth:`close` the interpreter switches threads every
    0.1 ms instead of 5: the main thread, when it needs the GIL back, waits that long at most."""

    def __init__(self, draw: Callable[[int], Item], start: int, stop: int):
        self._draw, self._next, self._stop = draw, start, stop
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-4)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lengen-batches")
        self._gate = threading.Event()
        self._pending = self._submit()
        self.release()

    def _submit(self):
        if self._next >= self._stop:
            return None
        gate, index = self._gate, self._next
        self._next += 1

        def run():
            gate.wait()
            return self._draw(index)
        return self._pool.submit(run)

    def release(self) -> None:
        """Let the next draw start now."""
        self._gate.set()

    def take(self) -> Item:
        """The next item (drawing it now if it was not released)."""
        if self._pending is None:
            raise StopIteration("every item was taken")
        self.release()
        item = self._pending.result()
        self._gate = threading.Event()
        self._pending = self._submit()
        return item

    def settle(self) -> None:
        """Wait until a released draw has finished (a timer that stops here counts all of its cost)."""
        if self._pending is not None and self._gate.is_set():
            self._pending.exception()

    def close(self) -> None:
        self.release()
        self._pool.shutdown(wait=True, cancel_futures=True)
        sys.setswitchinterval(self._switch_interval)


class WorkerPrefetcher:
    """The items of :class:`Prefetcher` (``draw(start), ..., draw(stop - 1)``, in order, an error raised by
    :meth:`take`), drawn by a forked worker process that runs up to ``depth`` items ahead.

    The worker is a copy of this process, random generators included, so its draws are the draws made in series
    here (``draw`` must return what the caller needs, e.g. the generator's state after each draw, since the
    caller's own generator does not move). Its Python runs on another core and does not compete with the training
    step for the GIL; what the step pays is unpickling each item (a batch without its examples: about 0.2 ms).
    ``release`` and ``settle`` exist for the same interface and do nothing."""

    def __init__(self, draw: Callable[[int], Item], start: int, stop: int, depth: int = 2, every: int = 1):
        context = multiprocessing.get_context("fork")
        self._left = len(range(start, stop, every))
        self._items = context.Queue(maxsize=depth)
        self._worker = context.Process(target=_produce, args=(draw, start, stop, self._items, every), daemon=True,
                                       name="lengen-batches")
        self._worker.start()

    def take(self) -> Item:
        """The next item; the worker's error if its draw failed, or a clear error if the worker died."""
        if self._left == 0:
            raise StopIteration("every item was taken")
        while True:
            try:
                kind, value = self._items.get(timeout=1.0)
                break
            except queue.Empty:
                if not self._worker.is_alive():
                    raise RuntimeError(f"the batch worker process stopped (exit code {self._worker.exitcode}) "
                                       f"before drawing every batch; train with data_worker='thread' to draw in "
                                       f"this process") from None
        self._left -= 1
        if kind == "error":
            self._left = 0
            raise pickle.loads(value)
        return pickle.loads(value)

    def release(self) -> None:
        """Nothing to release: the worker draws ahead on its own."""

    def settle(self) -> None:
        """Nothing to wait for here: the worker's draws run on another core."""

    def close(self) -> None:
        if self._worker.is_alive():
            self._worker.terminate()
        self._worker.join()
        self._items.close()
        self._items.join_thread()


class WorkerPool:
    """``draw(start), ..., draw(stop - 1)``, in order, from ``workers`` forked worker processes: worker w draws
    ``start + w``, ``start + w + workers``, ... Only for draws that do not depend on the ones before (each batch its
    own generator: ``TrainConfig(data_seeding="per_step")``); then the items are those drawn in series."""

    def __init__(self, draw: Callable[[int], Item], start: int, stop: int, workers: int):
        self._workers = [WorkerPrefetcher(draw, start + w, stop, every=workers) for w in range(workers)]
        self._next = 0

    def take(self) -> Item:
        """The next item, from the worker whose turn it is."""
        item = self._workers[self._next].take()
        self._next = (self._next + 1) % len(self._workers)
        return item

    def release(self) -> None:
        """Nothing to release: the workers draw ahead on their own."""

    def settle(self) -> None:
        """Nothing to wait for here: the draws run on other cores."""

    def close(self) -> None:
        for worker in self._workers:
            worker.close()


def _produce(draw: Callable[[int], Item], start: int, stop: int, items, every: int = 1) -> None:
    """The worker's loop: every ``every``-th draw from ``start``, in order, pickled here (so that a failure is this
    loop's, not the queue's feeder thread's), or the first error: the exception itself, or its text where it does
    not pickle."""
    try:
        torch.set_num_threads(1)
        for index in range(start, stop, every):
            items.put(("item", pickle.dumps(draw(index), protocol=pickle.HIGHEST_PROTOCOL)))
    except BaseException as err:   # noqa: BLE001  -- handed to the caller's take()
        try:
            payload = pickle.dumps(err)
            pickle.loads(payload)   # some exceptions pickle but do not rebuild (a custom __init__)
        except Exception:           # noqa: BLE001  -- e.g. a class defined inside a function
            payload = pickle.dumps(RuntimeError(f"{type(err).__name__} in the batch worker: {err}"))
        items.put(("error", payload))
    items.close()
    items.join_thread()


#: How batches are drawn during training (``fit(data_worker=...)``): "process" (a forked worker), "thread" (a
#: background thread of this process), or "auto": the worker where ``fork`` exists and more than one core is free.
DATA_WORKERS = ("auto", "process", "thread")


def data_worker_mode(data_worker: str = "auto") -> str:
    """``"process"`` or ``"thread"`` for ``data_worker``; the environment variable ``LENGEN_DATA_WORKER`` (one of
    :data:`DATA_WORKERS`) overrides ``"auto"``."""
    if data_worker not in DATA_WORKERS:
        raise ValueError(f"data_worker must be one of {DATA_WORKERS}, got {data_worker!r}")
    if data_worker == "auto":
        data_worker = os.environ.get("LENGEN_DATA_WORKER", "auto")
        if data_worker not in DATA_WORKERS:
            raise ValueError(f"LENGEN_DATA_WORKER must be one of {DATA_WORKERS}, got {data_worker!r}")
    if data_worker == "auto":
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        forks = "fork" in multiprocessing.get_all_start_methods()
        data_worker = "process" if forks and cores > 1 else "thread"
    return data_worker


def data_worker_count(workers: int | None, per_step: bool) -> int:
    """How many worker processes draw a run's batches: ``workers``, else ``LENGEN_DATA_WORKERS`` for a run whose
    batches do not depend on each other (``per_step``), else 1. More than one for a run drawn from one stream is
    refused: its batches must be drawn in series."""
    if workers is None:
        text = os.environ.get("LENGEN_DATA_WORKERS", "1") if per_step else "1"
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"LENGEN_DATA_WORKERS must be a whole number >= 1, got {text!r}")
        workers = int(text)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"data_workers must be a whole number >= 1, got {workers!r}")
    if workers > 1 and not per_step:
        raise ValueError(f"data_workers={workers} needs TrainConfig(data_seeding='per_step'): with one random "
                         f"stream each batch depends on the ones before and must be drawn in series")
    return workers


def prefetcher(draw: Callable[[int], Item], start: int, stop: int, data_worker: str = "auto", workers: int = 1):
    """A :class:`WorkerPool` of ``workers`` processes, or one :class:`WorkerPrefetcher`, or a :class:`Prefetcher`
    over ``draw(start..stop-1)`` (:func:`data_worker_mode`)."""
    if workers > 1:
        return WorkerPool(draw, start, stop, workers)
    if data_worker_mode(data_worker) == "process":
        return WorkerPrefetcher(draw, start, stop)
    return Prefetcher(draw, start, stop)


__all__ = ["DATA_WORKERS", "Prefetcher", "WorkerPool", "WorkerPrefetcher", "data_worker_count", "data_worker_mode",
           "keep_freed_memory", "prefetcher"]
