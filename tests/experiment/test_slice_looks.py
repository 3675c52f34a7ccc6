"""``--repeat auto`` on cells measured in alternated sessions: its looks judge them slice by slice, as the report
does (ycsbctl.experiment.sequential.open_cells), so a clear gap is decided at the first look, after one round —
where the rounds' test alone has no interval from one round."""

from __future__ import annotations

from tests.results.test_slice_verdicts import PLAN, alternated_records
from ycsbctl.experiment.sequential import open_cells, slices_of
from ycsbctl.results import looks

# a budget planned to hold three rounds: the first look (a third of the information) tests at α ≈ 6e-4
SEQUENTIAL = {**PLAN, "sequential": True, "planned_rounds": 3, "spending": looks.SPENDING}


def test_a_clear_gap_between_alternated_targets_is_decided_at_the_first_look():
    records = alternated_records(1.3, blocks=60)
    assert looks.plan_spent_alpha(SEQUENTIAL, 0.05, 1) < 1e-3  # look 1 spends little of alpha
    assert open_cells(records, SEQUENTIAL) == []
    apart = alternated_records(1.3, blocks=60)
    for r in apart:
        r.result.slices = None  # the same points without their slices: the rounds' test, one round, no interval
    assert [c.text.split(":")[0] for c in open_cells(apart, SEQUENTIAL)] == ["b w 4 threads"]


def test_the_looks_see_the_slices_a_folder_would_keep():
    records = alternated_records(1.0, blocks=10)
    slices = slices_of(records)
    assert slices is not None and set(slices["run_id"]) == {r.run_id for r in records}
    assert len(slices) == sum(len(r.result.slices) for r in records) and set(slices["session"]) == {"w.t4.r1"}
    assert slices_of([]) is None
