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


def test_the_points_a_ratio_pairs_run_next_to_each_other_in_a_shuffled_order():
    """A round is a randomized complete block design: the targets at one thread count (and rate) run one after
    another, so the two sides of a paired ratio share the host's moment; the blocks' order and the targets'
    order inside a block change from round to round, and a round still visits every cell once."""
    study = resolve_study(Plan(workloads=["workload-b"], targets=["redis", "valkey", "memcached"],
                               threads=[8, 16, 32, 64]))
    cells = [c for t in study.targets for c in study.cells(t)]
    firsts, block_orders = set(), set()
    for r in range(1, 21):
        order = round_order(cells, r, seed=3, block=lambda c: c.block)
        assert sorted(order, key=cells.index) == cells  # every cell once
        blocks = [c.block for c in order]
        runs = [b for i, b in enumerate(blocks) if i == 0 or blocks[i - 1] != b]
        assert len(runs) == len({c.block for c in cells}) == 4, blocks  # each block in one stretch
        firsts |= {order[0].target.label}
        block_orders.add(tuple(b[2] for b in runs))
    assert firsts == {t.label for t in study.targets}  # no target always first
    assert len(block_orders) > 1  # nor one thread-count order
    # one block: the targets' plain shuffle, as a one-thread-count plan always had it
    one = [c for c in cells if c.threads == 8]
    assert round_order(one, 4, seed=3, block=lambda c: c.block) == round_order(one, 4, seed=3)


def test_a_round_is_the_points_of_its_cells_in_the_rounds_order_each_as_that_repetition():
    study = resolve_study(Plan(workloads=["workload-b"], targets=["redis", "valkey"], threads=[8, 16],
                               target_rates=[1000.0, 2000.0]))
    cells = [c for t in study.targets for c in study.cells(t)]
    assert len(cells) == 2 * 2 * 2
    for r in (1, 2, 3):
        points = round_points(cells, r, seed=5)
        assert [p.cell for p in points] == round_order(cells, r, seed=5, block=lambda c: c.block)
        assert {p.repetition for p in points} == {r}
        assert len({p.run_id for p in points}) == len(cells)  # each cell once
        assert all(p.run_id.endswith(f".r{r}") and f".rate{p.rate:.0f}." in p.run_id for p in points)


def test_auto_interleaves_with_several_targets_or_repetitions_and_says_why_not():
    assert resolve_order("auto", 2, 1, False, False, False) == ("alternate", None)
    assert resolve_order("auto", 2, 1, False, False, False, None, "a paced point") == (
        "interleaved", "rounds run interleaved, not alternate (a cell's targets in one engine session): a paced point")
    assert resolve_order("auto", 1, 3, False, False, False) == ("interleaved", None)
    # two are several: one target's 2 repetitions are rounds, and 2 targets whose servers cannot both stay up are
    # rounds too (blocks, one server up at a time), never target by target
    assert resolve_order("auto", 1, 2, False, False, False) == ("interleaved", None)
    assert resolve_order("auto", 2, 1, False, False, False, "no room")[0] == "blocks"
    assert resolve_order("auto", 1, 1, False, False, False) == ("target", None)
    assert resolve_order("target", 3, 5, False, False, False) == ("target", None)
    order, why = resolve_order("auto", 2, 1, True, False, False)
    assert order == "target" and "SLO" in why
    order, why = resolve_order("interleaved", 2, 1, False, True, False)  # a variant sweep: as asked, stage by stage
    assert order == "interleaved" and why.startswith("variant by variant")
    order, why = resolve_order("auto", 2, 1, False, True, False)
    assert order == "alternate" and "not alternated (the engine alternates targets, not workloads)" in why
    assert resolve_order("target", 2, 1, False, True, False) == ("target", None)


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
    assert servers_fit(2, "2g", available=4 * 2**30) is None  # 2 × 2 GiB is exactly the 4 GiB available: they fit
    assert servers_fit(2, "2g", available=4 * 2**30 - 1) is not None  # a byte short: they do not
    order, why = resolve_order("auto", 2, 3, False, False, False, full)
    assert order == "blocks" and why.endswith(full)
    assert resolve_order("interleaved", 2, 3, False, False, False, full) == ("interleaved", None)  # as asked
    assert resolve_order("blocks", 2, 3, True, False, False)[0] == "target"  # an SLO search still runs target by target
    started = Plan(workloads=["workload-b"], targets=["redis", "valkey"], repeat=3, server_memory="100000g")
    assert started.run_order[0] == "blocks" and "100000g" in started.run_order[1]
    assert started.to_dict()["run_order"] == "blocks" and "A B B A" in started.to_dict()["run_order_note"]
    urls = Plan(workloads=["workload-b"], targets=["redis://127.0.0.1:1", "redis://localhost:1"], repeat=3,
                server_memory="100000g")
    assert urls.run_order == ("alternate", None)  # servers you run: nothing of ours to hold in memory


def test_the_sweep_alternates_target_blocks_one_server_up_at_a_time():
    """Two started targets, two rounds through a real Sweep (recording engine, basic:// servers): round 1
    runs redis's point then valkey's, round 2 valkey's then redis's (each block's points in the round's
    shuffled order: :func:`round_points`, tested above); only one server is ever up, and each block
    reloads its new server's dataset."""
    from tests.fixtures.sweep import BasicServers, RecordingEngine, run_sweep

    seed = 3
    plan = Plan(workloads=["workload-b"], targets=["redis", "valkey"], threads=[2], repeat=2, order="blocks",
                records=60, duration_s=0.1, warmup_s=0.0, telemetry=False, processes=1, seed=seed)
    servers = BasicServers()
    outcome, store = run_sweep(plan, servers, RecordingEngine())
    runs = [r for r in outcome.records if r.phase == "run"]
    want = [(t, 2, rnd) for rnd in (1, 2) for t in block_order(["redis", "valkey"], rnd)]
    assert want[1:3] == [("valkey", 2, 1), ("valkey", 2, 2)]  # A B B A
    assert [(r.target, r.threads, r.repetition) for r in runs] == want
    assert servers.log == [(verb, t) for rnd in (1, 2) for t in block_order(["redis", "valkey"], rnd)
                           for verb in ("up", "down")]  # one server up at a time
    assert [r.target for r in outcome.records if r.phase == "load"] == [t for rnd in (1, 2)
                                                                        for t in block_order(["redis", "valkey"], rnd)]
    assert store.manifest.plan["run_order"] == "blocks" and "A B B A" in store.manifest.plan["run_order_note"]
    study = resolve_study(plan)  # the progress total counts what the sweep did: a load per block, not per target
    assert study.dataset_loads == 4 and plan.points() + study.dataset_loads == len(outcome.records)
    assert [study.loads_in_round(r) for r in (1, 2, 3)] == [2, 2, 2] and study.loads_in_round(2, "load") == 0


def test_the_planned_loads_are_the_loads_each_order_makes():
    """A URL's server keeps its dataset between blocks; interleaved rounds load each target once per dataset;
    target by target, once per change of dataset (a variant has its own)."""
    def loads(targets: list[str], order: str, workloads: tuple[str, ...] = ("workload-b",)) -> int:
        return resolve_study(Plan(workloads=list(workloads), targets=targets, threads=[2, 4], repeat=3, order=order,
                                  load=True)).dataset_loads
    assert loads(["redis", "valkey"], "blocks") == 6  # 2 targets × 3 rounds, each block on a new server
    assert loads(["redis://127.0.0.1:1/0", "valkey"], "blocks") == 1 + 3
    assert loads(["redis", "valkey"], "interleaved") == 2
    assert loads(["redis", "valkey"], "target") == 2
    assert loads(["redis"], "target", ("workload-b", "online-status[online.structure=set]", "workload-a")) == 3


def test_blocks_progress_counts_every_points_place_through_the_cli(tmp_path):
    """Was "[7/6]": the total counted one dataset load per target, the blocks order loads one per block."""
    import re

    from tests.fixtures.cli import CONCURRENT, completed, ycsbctl_in

    r = ycsbctl_in(tmp_path, "run", "workload-c", "--targets", "redis,redis-two", "--order", "blocks", "--repeat", "2",
                   "--threads", "1", "--duration", "0.5", "--records", "50", "--backend", "local", "--no-telemetry",
                   "--out", str(tmp_path / "out"), CONCURRENT)
    assert completed(r), r.stderr[-2000:]
    places = [(int(k), int(n)) for k, n in re.findall(r"^\[(\d+)/(\d+)\] ", r.stderr, re.MULTILINE)]
    assert [k for k, _ in dict(places).items()] == list(range(1, 9)), r.stderr  # 4 points and 4 loads, in turn
    assert {n for _, n in places} == {8}, r.stderr
