"""The phase's common start: a worker killed while it waits for the start (SIGKILL, as the OOM killer
sends) must not hang the controller that gives the start."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time

import pytest

from tests.fixtures.waiting import wait_until
from ycsbctl.engine.start import StartSignal

pytestmark = pytest.mark.speed


def _wait(start, ready) -> None:
    ready.set()
    start.wait(60)


def _set_within(start, seconds: float) -> bool:
    t = threading.Thread(target=start.set, daemon=True)
    t.start()
    t.join(seconds)
    return not t.is_alive()


def test_a_waiter_killed_before_the_start_does_not_hang_the_start():
    ctx = mp.get_context("spawn")
    start, ready = StartSignal(ctx), ctx.Event()
    waiter = ctx.Process(target=_wait, args=(start, ready), daemon=True)
    waiter.start()
    assert ready.wait(30)
    time.sleep(0.2)  # it is inside wait() now
    os.kill(waiter.pid, signal.SIGKILL)
    waiter.join(10)
    assert _set_within(start, 5) and start.is_set() and start.wait(0)


def test_multiprocessings_own_event_hangs_there_which_is_why_we_do_not_use_it():
    """The failure this module exists for, shown with the standard library's Event."""
    ctx = mp.get_context("spawn")
    event, ready = ctx.Event(), ctx.Event()
    waiter = ctx.Process(target=_wait, args=(event, ready), daemon=True)
    waiter.start()
    assert ready.wait(30)
    # inside wait() now: counted as a sleeper, which set() waits for (a waiter killed before it got there
    # would not hang set); read from the Event's own count, not guessed from a sleep
    wait_until(lambda: event._cond._sleeping_count.get_value() == 1, 30, "the waiter inside Event.wait")
    os.kill(waiter.pid, signal.SIGKILL)
    waiter.join(10)
    assert not _set_within(event, 2), "multiprocessing.Event.set no longer waits for a dead waiter"


def test_wait_times_out_and_sees_a_later_start():
    start = StartSignal(mp.get_context("spawn"))
    t0 = time.monotonic()
    assert start.wait(0.05) is False and time.monotonic() - t0 >= 0.05
    threading.Timer(0.05, start.set).start()
    assert start.wait(5) is True
