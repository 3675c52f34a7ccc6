"""Signals and child processes: clean-up that an interrupt cannot skip.

``sigterm_as_interrupt``: SIGTERM and SIGHUP raise KeyboardInterrupt, so ``finally`` blocks run
for them as for Ctrl-C. ``interrupts_kept``: the same, and never lost to a finalizer (see
``interrupts_redelivered``, which the command line keeps on for every command).
``deferred_signals``: SIGINT/SIGTERM/SIGHUP wait until the block ends
(used while a server is created and recorded, while it is probed, and while it is torn down),
then are re-raised. ``children_spared_ctrl_c``: the Python children started in the block leave a
Ctrl-C to this process rather than print a traceback of their own start-up. ``poll``: ``Popen.poll`` that an interrupt
cannot break. ``stop_process``: a child process ycsbctl started (iperf3, test and bench servers) stopped for sure. The
first two are no-ops outside the main thread, where Python cannot install handlers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _interruption(signum: int) -> KeyboardInterrupt:
    """The KeyboardInterrupt that stands for ``signum`` (named, so :func:`_signal_of` reads it back)."""
    return KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


def _interrupt(signum: int, frame: object) -> None:
    raise _interruption(signum)


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
def default_stops_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP raise KeyboardInterrupt where they would otherwise end the
    process at once, without a word (their default action); one that the caller ignores (nohup's SIGHUP)
    stays ignored."""
    if not _main_thread():
        yield
        return
    with _handled(tuple(s for s in (signal.SIGTERM, signal.SIGHUP) if signal.getsignal(s) is signal.SIG_DFL),
                  _interrupt):
        yield


REDELIVERY_DELAY_S = 0.05
"""Seconds between a finalizer dropping an interrupt and the signal sent again: long enough for
the main thread to be out of the finalizer and of the hook that saw it drop."""


def _signal_of(exc: BaseException) -> signal.Signals:
    """The signal a KeyboardInterrupt stands for: ours name it (``signal SIGTERM``), Python's own is SIGINT."""
    name = str(exc).removeprefix("signal ")
    return signal.Signals[name] if name in signal.Signals.__members__ else signal.SIGINT


@contextmanager
def interrupts_redelivered() -> Iterator[None]:
    """Inside the block, a KeyboardInterrupt that Python drops because it was raised inside a
    finalizer (a ``Popen.__del__`` running when Ctrl-C lands: Python only prints it, as
    "Exception ignored in …", and the code goes on) is not printed: its signal is sent again to
    this process :data:`REDELIVERY_DELAY_S` later, so the interrupt takes effect where the code
    is by then. Other unraisable exceptions go to the previous hook. A signal not yet sent again
    when the block ends is not sent (the block ended: what it was to stop is over)."""
    previous = sys.unraisablehook
    pending: list[threading.Timer] = []

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)
            return
        resend = threading.Timer(REDELIVERY_DELAY_S, os.kill, (os.getpid(), _signal_of(unraisable.exc_value)))
        resend.daemon = True
        pending.append(resend)
        resend.start()

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous
        for resend in pending:
            resend.cancel()


@contextmanager
def interrupts_kept() -> Iterator[None]:
    """Inside the block SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt, one that a finalizer
    dropped is raised again where the block has got to (:func:`interrupts_redelivered`), and the
    block ends in KeyboardInterrupt whenever a signal came, whatever else it raised after it (a
    wait that failed because the interrupt was dropped, say)."""
    if not _main_thread():
        yield
        return
    received: list[int] = []

    def interrupt(signum: int, frame: object) -> None:
        received.append(signum)
        _interrupt(signum, frame)

    try:
        with _handled(_SIGNALS, interrupt), interrupts_redelivered():
            yield
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        if received:
            raise _interruption(received[0]) from exc
        raise
    if received:
        raise _interruption(received[0])


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


@contextmanager
def children_spared_ctrl_c() -> Iterator[None]:
    """Signals held in this process for the block (:func:`deferred_signals`), and SIGINT blocked in this thread,
    so the Python processes started inside it (the engine's fork server, spawned workers) begin with SIGINT
    blocked: a terminal's Ctrl-C reaches its whole foreground process group, and landing in a child's own
    start-up (``site``, its imports) printed that child's KeyboardInterrupt traceback beside ycsbctl's one line.
    The child ignores SIGINT (:func:`sigint_ignored_and_unblocked`) and leaves stopping to this process, which
    gets the signal when the block ends. The same idea as :mod:`multiprocessing.resource_tracker`'s own start."""
    with deferred_signals():
        if not _main_thread():
            yield
            return
        # multiprocessing's resource tracker (started by the first fork server or spawned worker) blocks and then
        # unblocks SIGINT around its own start: it starts first, so SIGINT stays blocked for the rest
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def sigint_ignored_and_unblocked() -> None:
    """In a child started under :func:`children_spared_ctrl_c`, once its start-up is done: SIGINT ignored (a
    Ctrl-C that came meanwhile is dropped), then unblocked, so its own children start as usual."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


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
