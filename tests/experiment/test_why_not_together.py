"""Which of a round's cells the sweep measures in one alternated session (alternated_measure.why_not_together): a
workload plug-in that says its operations can alternate (media-items, online-status) shares one session like
YCSB's CoreWorkload; a run that inserts, and a plug-in that does not say so, are measured one target at a time,
with the reason in one line."""

from __future__ import annotations

import pytest

from ycsbctl.experiment.alternated_measure import why_not_together
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study

TARGETS = ["redis://127.0.0.1:1/0", "redis://127.0.0.1:2/0"]  # URLs: nothing is started or reached


def _why(workload: str, *properties: str) -> str | None:
    study = resolve_study(Plan(workloads=[workload], targets=TARGETS, threads=[2], duration_s=1.0,
                               properties=list(properties)))
    points = [c.point(1) for t in study.targets for c in study.cells(t) if c.phase == "run"]
    assert len(points) == 2
    return why_not_together(points, study)


@pytest.mark.parametrize(("workload", "properties"), [
    ("workload-b", ()),
    ("media-items", ("media.operation=byid",)),
    ("media-items", ("media.operation=update",)),
    ("online-status", ()),
])
def test_a_cell_alternates_when_its_workload_says_its_operations_can(workload: str, properties: tuple) -> None:
    assert _why(workload, *properties) is None


def test_a_run_that_inserts_is_measured_one_target_at_a_time() -> None:
    assert "a run that inserts cannot alternate" in (_why("workload-d") or "")


def test_a_plugin_that_does_not_say_it_can_alternate_is_measured_one_target_at_a_time() -> None:
    why = _why("workload-b", "workload=tests.workload.faulty_plugin:Faulty") or ""
    assert "Faulty does not say its operations can alternate targets" in why and "\n" not in why


def test_a_plugins_alternation_refusal_that_raises_is_a_refusal_in_one_line() -> None:
    from tests.workload.faulty_plugin import AlternatingFaulty
    from ycsbctl.workload.plugin import why_not_alternated

    class Raising(AlternatingFaulty):
        def alternation_refusal(self) -> str | None:
            raise RuntimeError("its own bug")

    assert why_not_alternated(AlternatingFaulty("ok")) is None
    why = why_not_alternated(Raising("ok")) or ""
    assert why.startswith("the workload plug-in Raising: its alternation_refusal() raised RuntimeError") and \
        "its own bug" in why and "\n" not in why
