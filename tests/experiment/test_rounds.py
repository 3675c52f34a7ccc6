"""The run order: rounds over every cell, each shuffled reproducibly from the seed."""

from __future__ import annotations

from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.rounds import resolve_order, round_order, round_points

CELLS = [(t, n) for t in ("redis", "valkey", "redis6") for n in (8, 16, 32, 64)]  # (target, threads)


def test_a_round_visits_every_cell_once_in_an_order_the_seed_fixes():
    first = round_order(CELLS, 1, seed=7)
    assert sorted(first, key=CELLS.index) == CELLS and len(set(first)) == len(CELLS)
    assert round_order(CELLS, 1, seed=7) == first  # reproducible
    assert round_order(CELLS, 2, seed=7) != first  # each round its own order
    assert round_order(CELLS, 1, seed=8) != first
    assert round_order(CELLS, 1, seed=None) == round_order(CELLS, 1, seed=0)  # no --seed: seed 0, still reproducible
    assert first != CELLS  # not the target-major order


def test_targets_spread_over_the_round():
    """Over 20 rounds no target always runs first: the position of a target in a round is not fixed."""
    firsts = {round_order(CELLS, r, seed=1)[0][0] for r in range(1, 21)}
    assert firsts == {"redis", "valkey", "redis6"}


def test_a_round_is_the_points_of_its_cells_in_the_rounds_order_each_as_that_repetition():
    study = resolve_study(Plan(workloads=["workload-b"], targets=["redis", "valkey"], threads=[8, 16],
                               target_rates=[1000.0, 2000.0]))
    cells = [c for t in study.targets for c in study.cells(t)]
    assert len(cells) == 2 * 2 * 2
    for r in (1, 2, 3):
        points = round_points(cells, r, seed=5)
        assert [p.cell for p in points] == round_order(cells, r, seed=5)
        assert {p.repetition for p in points} == {r}
        assert len({p.run_id for p in points}) == len(cells)  # each cell once
        assert all(p.run_id.endswith(f".r{r}") and f".rate{p.rate:.0f}." in p.run_id for p in points)


def test_auto_interleaves_with_several_targets_or_repetitions_and_says_why_not():
    assert resolve_order("auto", 2, 1, False, False, False) == ("interleaved", None)
    assert resolve_order("auto", 1, 3, False, False, False) == ("interleaved", None)
    assert resolve_order("auto", 1, 1, False, False, False) == ("target", None)
    assert resolve_order("target", 3, 5, False, False, False) == ("target", None)
    order, why = resolve_order("auto", 2, 1, True, False, False)
    assert order == "target" and "SLO" in why
    order, why = resolve_order("interleaved", 2, 1, False, True, False)
    assert order == "target" and "variant" in why
