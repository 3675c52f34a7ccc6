"""Signals and child processes: clean-up that an interrupt cannot skip.

``sigterm_as_interrupt``: SIGTERM and SIGHUP raise KeyboardInterrupt, so ``finally`` blocks run
for them as for Ctrl-C. ``interrupts_kept``: the same,
and a signal whose KeyboardInterrupt a finalizer swallowed is raised at the end of the block.
``deferred_signals``: SIGINT/SIGTERM/SIGHUP wait until the block ends
(used while a server is created and recorded, while it is probed, and while it is torn down),
then are re-raised. ``poll``: ``Popen.poll`` that an interrupt cannot break. ``stop_process``: a
child process ycsbctl started (iperf3, test and bench servers) stopped for sure.
The first two are no-ops outside the main thread, where Python cannot install handlers.
"""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


@contextmanager
def _handled(signals: tuple[signal.Signals, ...], handler: Callable[[int, object], None]) -> Iterator[None]:
    """``handler`` for ``signals`` inside the block, the previous handlers restored after it (a
    signal whose handler was not installed from Python is left alone)."""
    previous = {s: signal.getsignal(s) for s in signals}
    for s, old in previous.items():
        if old is not None:
            signal.signal(s, handler)
    try:
        yield
    finally:
        for s, old in previous.items():
            if old is not None:
                signal.signal(s, old)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP raise KeyboardInterrupt (as SIGINT does)."""
    if not _main_thread():
        yield
        return
    with _handled((signal.SIGTERM, signal.SIGHUP), _interrupt):
        yield


@contextmanager
def interrupts_kept() -> Iterator[None]:
    """Inside the block SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt, and one that Python
    dropped is raised again when the block ends. Python only prints an exception raised inside a
    finalizer (a ``Popen.__del__`` running when the signal lands): without this the block would
    end as if no signal had come."""
    if not _main_thread():
        yield
        return
    received: list[int] = []

    def interrupt(signum: int, frame: object) -> None:
        received.append(signum)
        _interrupt(signum, frame)

    with _handled(_SIGNALS, interrupt):
        yield
    if received:
        raise KeyboardInterrupt(f"signal {signal.Signals(received[0]).name}")


@contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP for the block; deliver the first one received when it ends."""
    if not _main_thread():
        yield
        return
    received: list[int] = []
    try:
        with _handled(_SIGNALS, lambda signum, frame: received.append(signum)):
            yield
    finally:
        if received:
            signal.raise_signal(received[0])


def poll(proc: subprocess.Popen) -> int | None:
    """``proc.poll()`` with signals held. An interrupt inside ``Popen.poll`` can leave its waitpid
    lock held, and every later ``wait()`` on that process (the clean-up's) then hangs."""
    with deferred_signals():
        return proc.poll()


def stop_process(proc: subprocess.Popen, grace_s: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``grace_s`` seconds; always reaped."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
