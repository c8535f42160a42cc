"""What the training loop sets up around its steps: the next batch drawn in a background thread while the current
step runs (:class:`Prefetcher`), and freed memory kept in the process (:func:`keep_freed_memory`). Neither changes
the numbers a run computes; both are measured by ``python -m lengen_utils.throughput``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

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


__all__ = ["Prefetcher", "keep_freed_memory"]
