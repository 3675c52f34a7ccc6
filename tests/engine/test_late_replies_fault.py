"""Replies that come after their operation timed out are discarded and counted into the result
(``late_replies`` in the run's JSON, and a line among its errors), never dropped silently."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from tests.fixtures.servers import start_mongo_wire, start_redis, wait_stopped
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

pytestmark = [pytest.mark.speed, pytest.mark.fault]

TIMEOUT_S = 0.3


def _frozen_once(pid: int, for_s: float) -> threading.Thread:
    """SIGSTOP ``pid`` for ``for_s`` s (longer than the timeout), then SIGCONT: the requests it
    holds time out, and their replies come when it runs again."""
    def freeze() -> None:
        os.kill(pid, signal.SIGSTOP)
        try:
            wait_stopped(pid)
            threading.Event().wait(for_s)  # the length of the fault, not a wait for a condition
        finally:
            os.kill(pid, signal.SIGCONT)
    t = threading.Thread(target=freeze)
    t.start()
    return t


def _late_run(url: str, pid: int, records: int):
    props = {k: str(v) for k, v in {**load_properties("workload-c"), "recordcount": records,
                                    "operationcount": 0}.items()}
    assert run_phase(PhaseSpec("load", url, props, threads=2, processes=1)).status == "ok"
    fault: list[threading.Thread] = []

    def on_tick(tick) -> None:  # the first second of the run was measured: freeze the server now
        if not fault and not tick.starting:  # not a tick of the start (what the point waits for)
            fault.append(_frozen_once(pid, 4 * TIMEOUT_S))

    try:
        return run_phase(PhaseSpec("run", url, props, threads=4, processes=1, duration_s=4, timeout_s=TIMEOUT_S),
                         on_tick)
    finally:
        for t in fault:
            t.join()


def _check(r) -> None:
    timeouts = r.returns("TIMEOUT")
    late = r.late_replies
    # each of the 4 threads had one request in flight when the server froze: it timed out, and its
    # reply came once the server ran again
    assert timeouts >= 4 and 1 <= late <= timeouts, (timeouts, late, r.errors)
    assert any(f"{late:,} late replies (after their operation timed out)" in e for e in r.errors), r.errors
    assert r.stray_replies == 0


@pytest.mark.parametrize(("start", "records"), [(start_redis, 200), (start_mongo_wire, 100)],
                         ids=["redis", "mongo-wire"])
def test_late_replies_are_counted(tmp_path, start, records):
    server = start(tmp_path / "server")
    try:
        _check(_late_run(server.url, server.proc.pid, records))
    finally:
        server.stop()
