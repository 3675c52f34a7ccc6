"""The reference server's switch and its share of an alternated session (ycsbctl.experiment.reference,
alternated_measure.session_length): on unless turned off, off with its reason in the manifest where the plan does not
alternate or the workload is a plug-in's, and a session that keeps the length the compared targets alone would have."""

from __future__ import annotations

import pytest

from ycsbctl.experiment.alternated_measure import session_length
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.reference import ReferenceServer, wanted
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.results.schema import Manifest

TARGETS = ["redis://127.0.0.1:1/0", "redis://127.0.0.1:2/0"]  # URLs: nothing is started or reached


def _study(**kw):
    return resolve_study(Plan(workloads=["workload-b"], targets=TARGETS, threads=[2], duration_s=10.0, **kw))


def test_the_switch_is_the_flag_else_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YCSBCTL_REFERENCE", "off")
    assert wanted(None) == (False, "YCSBCTL_REFERENCE=off") and wanted(True) == (True, None)
    monkeypatch.setenv("YCSBCTL_REFERENCE", "on")
    assert wanted(None) == (True, None) and wanted(False) == (False, "--no-reference")


@pytest.mark.parametrize(("kw", "why"), [({"reference": False}, "--no-reference"),
                                         ({"order": "interleaved", "reference": True}, "does not alternate")])
def test_off_says_why_in_the_manifest(kw: dict, why: str) -> None:
    sink = MemorySink(Manifest(experiment_id="x"))
    ref = ReferenceServer(_study(**kw), sink, Console(Progress(1, quiet=True)))
    assert not ref.on and why in sink.manifest.reference["why_off"] and sink.manifest.reference["cpus"]
    assert ref.point(next(c.point(1) for c in _study().cells(_study().targets[0]))) is None


def test_the_reference_shares_the_sessions_length_and_takes_no_session_time() -> None:
    """Two targets of 10 s points, 0.5 s slices: alone a session of 20 s (10 blocks of 2 s); with the reference 7
    blocks of 3 s, 21 s (whole blocks), each of the three measuring 7 s; a 2 s warm-up one whole block either way."""
    study = _study(warmup_s=2.0, slice_s=0.5)
    assert session_length(study, 2) == (20.0, 2.0)
    measured, warmup = session_length(study, 3, compared=2)
    assert measured == pytest.approx(21.0) and warmup == pytest.approx(3.0)
    assert measured / 3 == pytest.approx(7.0)


def test_ctrl_c_while_the_reference_loads_stops_the_run_and_its_server(module_redis, tmp_path) -> None:
    """Ctrl-C as a terminal sends it, 0.1 s after "reference: loading" (in its load of 20,000 records, or past it):
    exit 130, the folder interrupted, the line saying the servers ycsbctl started were stopped, and nothing answers on
    the reference's port. Was: the engine's interrupted
    result of the reference's load went unread, and the run went on to measure every session (exit 1, "partial")."""
    import json
    import re
    import socket

    from tests.fixtures.cli import ctrl_c_after, start

    base = module_redis.url.rsplit("/", 1)[0]
    out = tmp_path / "out"
    proc = start("run", "workload-c", "--targets", f"{base}/1,{base}/2", "--load", "--reference", "--records",
                 "20000", "--threads", "1", "--duration", "1", "--warmup", "0", "--no-telemetry", "--no-yardstick",
                 "--no-report", "--allow-concurrent", "--out", str(out), own_group=True)
    (up, _), said, _ = ctrl_c_after(proc, ("measured as one more target in every alternated session", 300),
                                    ("reference: loading", 60), delay_s=0.1)
    assert proc.returncode == 130, said[-3000:]
    assert "interrupted: stopped every server we started; keeping the finished points" in said, said[-3000:]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    port = int(re.search(r"redis://127\.0\.0\.1:(\d+)/", up).group(1))  # type: ignore[union-attr]
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
