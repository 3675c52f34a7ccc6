"""The run order: rounds over every cell, each shuffled reproducibly from the seed."""

from __future__ import annotations

from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.rounds import block_order, resolve_order, round_order, round_points, servers_fit

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


def test_blocks_alternate_the_targets_order_every_round():
    assert [block_order(["A", "B"], r) for r in (1, 2, 3, 4)] == [["A", "B"], ["B", "A"], ["A", "B"], ["B", "A"]]
    assert block_order(["A", "B", "C"], 2) == ["C", "B", "A"]


def test_blocks_when_asked_or_when_the_servers_cannot_all_stay_up_and_it_says_why():
    order, why = resolve_order("blocks", 2, 3, False, False, False)
    assert order == "blocks" and "A B B A" in why
    full = "2 servers of --server-memory 8g need 16.0 GiB together, more than the host's 4.0 GiB available"
    assert servers_fit(2, "8g", available=4 * 2**30) == full
    assert servers_fit(2, "1g", available=4 * 2**30) is None and servers_fit(1, "8g", available=4 * 2**30) is None
    assert servers_fit(3, None, available=1) is None
    order, why = resolve_order("auto", 2, 3, False, False, False, full)
    assert order == "blocks" and why.endswith(full)
    assert resolve_order("interleaved", 2, 3, False, False, False, full) == ("interleaved", None)  # as asked
    assert resolve_order("blocks", 2, 3, True, False, False)[0] == "target"  # an SLO search still runs target by target
    started = Plan(workloads=["workload-b"], targets=["redis", "valkey"], repeat=3, server_memory="100000g")
    assert started.run_order[0] == "blocks" and "100000g" in started.run_order[1]
    assert started.to_dict()["run_order"] == "blocks" and "A B B A" in started.to_dict()["run_order_note"]
    urls = Plan(workloads=["workload-b"], targets=["redis://127.0.0.1:1", "redis://localhost:1"], repeat=3,
                server_memory="100000g")
    assert urls.run_order == ("interleaved", None)  # servers you run: nothing of ours to hold in memory


def test_the_sweep_runs_blocks_in_the_order_the_seed_fixes(redis_server, tmp_path):
    """Two targets (one server under two names), two rounds: round 1 runs A's points then B's, round 2 B's
    then A's, each block's points in the round's shuffled order; manifest and report say so (in-process,
    no report rendered: the order is what is tested)."""
    import pandas as pd

    from ycsbctl.experiment.plan import target_label
    from ycsbctl.experiment.run import run_plan
    from ycsbctl.report.verdict_table import order_text
    from ycsbctl.results.frames import load

    urls = [redis_server.url, redis_server.url.replace("127.0.0.1", "localhost")]
    seed = 3
    plan = Plan(workloads=["workload-c"], targets=urls, threads=[1], repeat=2, order="blocks", records=100,
                duration_s=0.2, warmup_s=0.0, seed=seed, telemetry=False, load=True)
    outcome = run_plan(plan, tmp_path / "f", "ycsbctl run (test)", quiet=True, allow_concurrent=True)
    assert outcome.folder is not None
    exp = load(outcome.folder)
    runs = exp.runs.query("phase == 'run'").sort_values("order_index")
    labels = [target_label(u) for u in urls]
    want = [(t, threads, rnd) for rnd in (1, 2) for t in block_order(labels, rnd)
            for threads in round_order([1], rnd, seed)]
    assert list(zip(runs["target"], runs["threads"], runs["repetition"])) == want
    assert exp.manifest.plan["run_order"] == "blocks" and "A B B A" in exp.manifest.plan["run_order_note"]
    assert "order reversed every other round (A B B A)" in order_text(exp) and exp.interleaved  # pairs by round
    loads = pd.read_parquet(outcome.folder / "runs.parquet").query("phase == 'load'")
    assert len(loads) == 2  # a server you run keeps its dataset from one block to the next: one load each
