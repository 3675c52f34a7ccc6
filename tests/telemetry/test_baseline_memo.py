"""The loopback baseline kept for later runs (``YCSBCTL_BASELINE_MEMO``): read back as measured, said so,
and only by a sweep of the same boot; ``ycsbctl iperf`` and an unset variable always measure."""

from __future__ import annotations

import json

import pytest

from ycsbctl.provision.base import Endpoint
from ycsbctl.telemetry.network import LOOPBACK_NOTE, MEMO_ENV, boot_id, iperf_baseline, kept_loopback_baseline

LOCAL = Endpoint(target="redis", protocol="redis", url="redis://127.0.0.1:6379", backend="local")


def test_a_kept_loopback_baseline_is_read_back_as_measured_and_said_so(iperf3, tmp_path, monkeypatch) -> None:
    memo = tmp_path / "baseline.json"
    monkeypatch.setenv(MEMO_ENV, str(memo))
    first = iperf_baseline(LOCAL, duration_s=1, reuse=True)
    assert first is not None and first.gbit_s and first.note == LOOPBACK_NOTE  # measured: nothing was kept
    kept = json.loads(memo.read_text())
    assert kept["gbit_s"] == first.gbit_s and kept["server"] == first.server
    again = iperf_baseline(LOCAL, duration_s=1, reuse=True)
    assert again is not None
    # the same figure and the same iperf3 server (each measurement listens on a new free port): not measured again
    assert (again.gbit_s, again.server, again.duration_s, again.retransmits) == \
        (first.gbit_s, first.server, first.duration_s, first.retransmits)
    assert again.note.startswith(LOOPBACK_NOTE + "; measured at ") and f"kept in {memo}" in again.note
    # without reuse (``ycsbctl iperf``), iperf3 runs again
    fresh = iperf_baseline(LOCAL, duration_s=1)
    assert fresh is not None and fresh.server != first.server and fresh.note == LOOPBACK_NOTE


GOOD = {"gbit_s": 21.5, "note": "", "server": "127.0.0.1:40001", "duration_s": 1.0, "retransmits": 0,
        "measured_at": 1.0e9}


@pytest.mark.parametrize("kept", [{}, {"boot_id": "another boot"}, {"gbit_s": None}, {"gbit_s": 0.0}, "not json",
                                  {"measured_at": None}, {"unknown": 1}])
def test_a_baseline_kept_before_a_reboot_or_without_a_figure_is_not_taken(tmp_path, monkeypatch, kept) -> None:
    memo = tmp_path / "baseline.json"
    monkeypatch.setenv(MEMO_ENV, str(memo))
    assert kept_loopback_baseline() is None  # no file yet
    memo.write_text(kept if isinstance(kept, str) else json.dumps(GOOD | {"boot_id": boot_id()} | kept))
    b = kept_loopback_baseline()
    if kept == {}:
        assert b is not None and (b.gbit_s, b.server, b.duration_s, b.retransmits) == (21.5, "127.0.0.1:40001", 1.0, 0)
        monkeypatch.delenv(MEMO_ENV)
        assert kept_loopback_baseline() is None  # the variable unset: nothing is read
    else:
        assert b is None
