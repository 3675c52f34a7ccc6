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
