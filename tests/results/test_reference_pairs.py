"""``compare A B`` across folders read against each folder's reference server, on synthetic alternated sessions
(tests/fixtures/alternated.py: known true rates, the host's noise common to every target of a session and to the
reference): the reference-paired ratio against a hand computation from slices.parquet, the host's drift divided
out, and every way the reference can fail to divide it out held ``undecided`` with why, interval kept."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from tests.fixtures.alternated import Noise, record, session_slices
from tests.fixtures.cli import run_cli
from ycsbctl.report.compare import compare
from ycsbctl.results import host_drift, load
from ycsbctl.results import reference_pairs as rp
from ycsbctl.results import slice_table as st
from ycsbctl.results.folder import ResultFolder
from ycsbctl.results.names import RunStatus
from ycsbctl.results.schema import Manifest

THREADS = (2, 4, 8)
RATES = {"a": 20_000.0, "b": 20_000.0, "reference": 30_000.0}
MARGINS = host_drift.Margins({"throughput": 0.10, "p99": 0.10}, "test")  # the host's drift; reference: default
NOISE = Noise(host_phi=0.9, host_sd=0.15, white_sd=0.02)  # a session's slices: a slow host state, little else


def make_folder(root: Path, name: str, host: float = 1.0, b_gap: float = 1.0, seed: int = 1,
                cpus: tuple[int, ...] = (0, 1), ref_only: dict[int, float] | None = None,
                busy: bool = False, blocks: int = 16, targets: tuple[str, ...] = ("a", "b"),
                noise: Noise = NOISE, measured: tuple[int, ...] = THREADS) -> Path:
    """A folder of one round: a and b (b ``b_gap`` times as fast as in truth) measured in one alternated session
    per thread count beside the reference, every rate times ``host`` (the host's speed for this folder);
    ``ref_only``: threads -> a factor on the reference's rate alone in that cell's session; ``busy``: b's points
    degraded by a busy host; ``targets``: those measured (a subset of a and b); ``noise``: the slices';
    ``measured``: the thread counts' sessions in the order they ran (the points' order_index)."""
    rng = np.random.default_rng(seed)
    f = ResultFolder.create(root, name, Manifest(experiment_id=name, plan={
        "targets": list(targets), "workloads": ["w"], "threads": list(THREADS), "baseline_target": targets[0]},
        reference={"on": True, "cpus": list(cpus)},
        servers={t: {"server_name": "redis", "server_version": "7.0.15", "kind": "redis", "settings": {}}
                 for t in targets}))
    for threads in THREADS:
        rates = {t: v * host * (b_gap if t == "b" else 1.0) * ((ref_only or {}).get(threads, 1.0)
                                                               if t == "reference" else 1.0)
                 for t, v in RATES.items() if t in (*targets, "reference")}
        s = session_slices(rng, rates, blocks, noise, warmup_blocks=1)
        session = f"w.t{threads}.r1"
        for j, t in enumerate(targets):
            r = record(t, 1, s[t], session=session, threads=threads)
            r.order_index = measured.index(threads) * len(targets) + j + 1
            if busy and t == "b":
                r.status = RunStatus.DEGRADED
                r.error = "the hypervisor gave 22% of a core to other machines (steal: 22% of the host)"
            f.add_run(r)
        key = {"run_id": f"reference.w.run.t{threads}.r1", "target": "reference", "workload": "w", "phase": "run",
               "threads": threads, "repetition": 1, "session": session, st.ROLE: st.REFERENCE}
        f.add_reference_slices(session, st.keyed(s["reference"], key))
    return f.finalize()


def by_hand(folder: Path, target: str, threads: int, against: str = "reference") -> np.ndarray:
    """Per block (6 slices: two of a, of b and of the reference), log(target's ops ÷ seconds) − log(``against``'s:
    the reference's, or a control target's), past the warm-up: computed from slices.parquet with pandas alone."""
    s = pd.read_parquet(folder / "slices.parquet")
    s = s[(s["threads"] == threads) & (s["target"].isin([target, against]))].assign(block=lambda d: d["slice"] // 6)
    s = s.assign(seconds=s["t_end_s"] - s["t_start_s"])
    g = s.groupby(["block", "target"]).agg(ops=("operations", "sum"), seconds=("seconds", "sum"),
                                          warm=("warmup", "any")).reset_index()
    g = g[~g.groupby("block")["warm"].transform("any")]
    rate = g.assign(rate=g["ops"] / g["seconds"]).pivot(index="block", columns="target", values="rate")
    return np.log(rate[target].to_numpy()) - np.log(rate[against].to_numpy())


def cell(c, target: str, threads: int, metric: str = "throughput") -> dict:
    v = c.verdicts
    return v[(v["target"] == target) & (v["threads"] == threads) & (v["metric"] == metric)].iloc[0].to_dict()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A, and B on a host 5 % slower (within the drift margin) with b held 30 % slower."""
    root = tmp_path_factory.mktemp("reference")
    return make_folder(root, "A", seed=1), make_folder(root, "B", host=0.95, b_gap=0.7, seed=2)


def test_the_reference_is_kept_as_slices_only(pair):
    a = load(pair[0])
    assert set(a.runs["target"]) == {"a", "b"}  # never a run
    ref = a.slices()[a.slices()[st.ROLE] == st.REFERENCE]
    assert set(ref["target"]) == {"reference"} and set(ref["session"]) == set(a.runs["session"])
    # the session's blocks count the reference: three points a session
    from ycsbctl.results.slice_pairs import targets_per_session

    assert set(targets_per_session(a.slices()).values()) == {3}


def test_the_cross_folder_ratio_is_the_hand_computed_reference_paired_one(pair):
    c = compare(list(pair), margins=MARGINS)
    for target in ("a", "b"):
        for threads in THREADS:
            la, lb = by_hand(pair[0], target, threads), by_hand(pair[1], target, threads)
            row = cell(c, target, threads)
            assert row["ratio"] == pytest.approx(math.exp(lb.mean() - la.mean()), rel=1e-9)
            assert row["test"] == rp.TEST
            # the interval: Welch of the two means, each standard error inflated by its blocks' lag-one
            # autocorrelation (here recomputed with numpy's corrcoef-free sums)
            se2, dfs = [], []
            for x in (la, lb):
                d = x - x.mean()
                rho = min(max(float((d[1:] * d[:-1]).sum() / (d ** 2).sum()), 0.0), 0.9)
                eff = len(x) * (1 - rho) / (1 + rho)
                se2.append(x.var(ddof=1) / eff)
                dfs.append(max(eff - 1, 1.0))
            df = sum(se2) ** 2 / sum(v ** 2 / d for v, d in zip(se2, dfs))
            half = sps.t.ppf(1 - (1 - row["ci_level"]) / 2, df) * math.sqrt(sum(se2))
            assert row["ci_low"] == pytest.approx(math.exp(lb.mean() - la.mean() - half), rel=1e-6)
            assert row["ci_high"] == pytest.approx(math.exp(lb.mean() - la.mean() + half), rel=1e-6)


def test_with_a_control_target_the_others_are_read_against_its_blocks_and_the_control_against_the_reference(pair):
    """``--control a``: b's cross-folder ratio is the mean of log(b) − log(a) per block, folder against folder (by
    hand, from slices.parquet); a's own cell stays read against the reference; b, 30 % slower, reads worse."""
    c = compare(list(pair), control="a", margins=MARGINS)
    for threads in THREADS:
        la, lb = by_hand(pair[0], "b", threads, "a"), by_hand(pair[1], "b", threads, "a")
        row = cell(c, "b", threads)
        assert row["ratio"] == pytest.approx(math.exp(lb.mean() - la.mean()), rel=1e-9)
        assert row["test"] == rp.CONTROL_TEST and row["caveat"].startswith("read against control a, block by block")
        assert row["verdict"] == "worse" and row["ci_low"] < 0.7 < row["ci_high"]
        own = cell(c, "a", threads)
        ra, rb = by_hand(pair[0], "a", threads), by_hand(pair[1], "a", threads)
        assert own["test"] == rp.TEST and own["ratio"] == pytest.approx(math.exp(rb.mean() - ra.mean()), rel=1e-9)


def test_the_hosts_drift_divides_out_and_the_held_back_server_reads_worse(pair):
    c = compare(list(pair), margins=MARGINS)
    for threads in THREADS:
        a, b = cell(c, "a", threads), cell(c, "b", threads)
        assert b["ci_low"] < 0.7 < b["ci_high"] and b["verdict"] == "worse"
        assert a["ci_low"] < 1.0 < a["ci_high"] and a["verdict"] not in ("better", "worse")
    assert any("read against each folder's reference server" in n for n in c.notes)


def test_a_host_that_moved_beyond_what_the_reference_divides_out_holds_every_cell(tmp_path):
    """The same plan on a host 30 % slower: the reference read 0.70×, beyond the ±10 % drift margin; b, truly 30 %
    slower too, is not called worse either — each line says the host differed and by how much."""
    a, b = make_folder(tmp_path, "A"), make_folder(tmp_path, "B", host=0.7, b_gap=0.7, seed=2)
    c = compare([a, b], margins=MARGINS)
    tp = c.verdicts[c.verdicts["metric"] == "throughput"]
    assert set(tp["verdict"]) == {"undecided"} and tp["ci_low"].notna().all() and tp["detectable_pct"].notna().all()
    assert tp["decided_by"].str.contains(r"the host differed between the folders: the reference read 0\.7\d×").all()


def test_a_changed_cpu_set_holds_every_cell_and_is_a_difference(tmp_path):
    a, b = make_folder(tmp_path, "A"), make_folder(tmp_path, "B", b_gap=0.7, seed=2, cpus=(0,))
    c = compare([a, b], margins=MARGINS)
    tp = c.verdicts[c.verdicts["metric"] == "throughput"]
    assert set(tp["verdict"]) == {"undecided"}
    assert tp["decided_by"].str.contains("A ran on CPUs 0-1 and B on 0").all()
    assert any("ran on CPUs 0-1" in d for d in c.differences)


def test_one_cells_reference_reading_far_from_the_others_holds_that_cell(tmp_path):
    """In B the reference alone read 40 % slower in the 8-thread session (a burst on it, not on the targets): that
    cell's reading is far from the other cells', so its cells are held; the others are decided as before."""
    a = make_folder(tmp_path, "A")
    b = make_folder(tmp_path, "B", b_gap=0.7, seed=2, ref_only={8: 0.6})
    c = compare([a, b], margins=MARGINS)
    assert cell(c, "b", 8)["verdict"] == "undecided"
    assert "lies far from the other cells'" in cell(c, "b", 8)["decided_by"]
    assert cell(c, "b", 2)["verdict"] == cell(c, "b", 4)["verdict"] == "worse"


def test_a_far_reading_in_the_session_that_ran_first_is_said_to_be_the_references_first(tmp_path):
    """The reference's first reading in a folder is the one of the session measured first (runs.parquet's
    order_index), not the first by name or round: B's 8-thread session ran first there (a round's sessions run in
    a shuffled order), its reference read 40 % slower (cold), and its cells' hold says it was B's first reading; the
    same burst in B's last session (A and B ran 2, 4, 8) is held without those words."""
    a = make_folder(tmp_path, "A")
    first = make_folder(tmp_path, "B", b_gap=0.7, seed=2, ref_only={8: 0.6}, measured=(8, 2, 4))
    last = make_folder(tmp_path / "last", "B", b_gap=0.7, seed=2, ref_only={8: 0.6})
    runs = pd.read_parquet(first / "runs.parquet")
    assert runs.loc[runs["order_index"].idxmin(), "threads"] == 8  # the case: 8 threads first, "w.t2.r1" first by name
    for folder, said in ((first, True), (last, False)):
        c = compare([a, folder], margins=MARGINS)
        for target in ("a", "b"):
            why = cell(c, target, 8)["decided_by"]
            assert "lies far from the other cells'" in why, why
            assert ("×): its first reading in B, so the host reading it rests on is not trusted" in why) == said, why
            assert "its first reading in A" not in why  # A's first session (2 threads) is not this cell's


def test_three_shared_cells_are_enough_to_hold_the_one_whose_reference_reading_is_far(tmp_path):
    """reference_cells.MIN_CELLS_FOR_OUTLIER (3): with one target at three thread counts, the burst on the reference
    alone in B's 8-thread session holds that cell; the other two are read as before (not held)."""
    a = make_folder(tmp_path, "A", targets=("a",))
    b = make_folder(tmp_path, "B", seed=2, ref_only={8: 0.6}, targets=("a",))
    c = compare([a, b], margins=MARGINS)
    assert "lies far from the other cells'" in cell(c, "a", 8)["decided_by"]
    assert not any("lies far" in cell(c, "a", t)["decided_by"] for t in (2, 4))


def test_a_far_reading_on_a_host_that_moved_is_held_by_the_way_it_moved_against_the_other_cells(tmp_path):
    """B's host 25 % faster (within a ±30 % drift margin: nothing held folder-wide), and in B's 8-thread session a
    burst on the reference alone, 25 % slower: there it read slower than in A, yet faster than 1 / the other cells'
    reading — its move is judged against theirs (÷ their median), not against A's. a and b are unchanged between the
    folders, so against the slowed reference they read faster in that session alone: the reference moved alone, and
    both cells there are held, not called better; the other cells read equivalent. The readings said, by hand from
    slices.parquet: the reference's block rates (2 of its 6 slices a block, past the warm-up), B's mean log over
    A's."""
    quiet = Noise(host_phi=0.9, host_sd=0.03, white_sd=0.01)  # a quiet host: each reading within a few %
    a = make_folder(tmp_path, "A", noise=quiet)
    b = make_folder(tmp_path, "B", host=1.25, seed=2, ref_only={8: 0.75}, noise=quiet)
    c = compare([a, b], margins=host_drift.Margins({"throughput": 0.30, "p99": 0.30}, "test"))

    def reference_logs(folder: Path, threads: int) -> np.ndarray:
        s = pd.read_parquet(folder / "slices.parquet")
        s = s[(s["threads"] == threads) & (s[st.ROLE] == st.REFERENCE)].assign(block=lambda d: d["slice"] // 6)
        g = s.assign(seconds=s["t_end_s"] - s["t_start_s"]).groupby("block").agg(
            ops=("operations", "sum"), seconds=("seconds", "sum"), warm=("warmup", "any"))
        g = g[~g["warm"]]
        return np.log((g["ops"] / g["seconds"]).to_numpy())

    moved = {t: math.exp(reference_logs(b, t).mean() - reference_logs(a, t).mean()) for t in THREADS}
    centre = math.exp(float(np.median([math.log(moved[t]) for t in THREADS for _ in ("a", "b")])))
    assert moved[8] < 1 < moved[8] * centre and centre < 1.3  # the case: slower than in A, faster than 1 / centre
    for target in ("a", "b"):
        held = cell(c, target, 8)
        assert held["verdict"] == "undecided" and held["ratio"] > 1.25, held  # against the slowed reference
        assert f"the reference's reading in this cell ({moved[8]:.2f}× [" in held["decided_by"], held
        assert f"lies far from the other cells' ({centre:.2f}×)" in held["decided_by"], held["decided_by"]
        assert [cell(c, target, t)["verdict"] for t in (2, 4)] == ["equivalent", "equivalent"]


def test_a_busy_host_in_one_folder_only_holds_its_cells_and_says_what_kept_it_busy(tmp_path):
    """b's points degraded in B alone, by the hypervisor's steal (a bench run of 30 Nov read "other programs used
    it" for steal): every cell of b is held, naming the folder, what its points said, and the other folder."""
    a, b = make_folder(tmp_path, "A"), make_folder(tmp_path, "B", b_gap=0.7, seed=2, busy=True)
    c = compare([a, b], margins=MARGINS)
    for threads in THREADS:
        row = cell(c, "b", threads)
        assert row["verdict"] == "undecided" and ("the host differed: B's points of this cell were degraded (host "
                                                  "busy: the hypervisor took CPU (steal)) and A's were not") \
            in row["decided_by"], row["decided_by"]


def test_a_control_the_quiet_folder_measured_alike_the_target_decides_the_cells_a_busy_folder_held(tmp_path):
    """b's points degraded in B alone, read against control a: in A, whose points were not degraded, b and a answered
    alike (one build, 90 % interval inside the ±10 % margin), so a host that hit them unlike each other in B cannot
    have made a difference between the folders; b, 30 % slower in B, reads worse, and the caveat says both why it
    would have been held and why it was not. Without the control, held as before."""
    a, b = make_folder(tmp_path, "A"), make_folder(tmp_path, "B", b_gap=0.7, seed=2, busy=True)
    c = compare([a, b], control="a", margins=MARGINS)
    for threads in THREADS:
        row = cell(c, "b", threads)
        assert row["test"] == rp.CONTROL_TEST and row["verdict"] == "worse", row
        assert "B's points of this cell were degraded (host busy: the hypervisor took CPU (steal))" in row["caveat"]
        assert "read all the same through control a, which A measured alike this target (" in row["caveat"]
        assert "held undecided" not in row["caveat"]
    assert all(cell(compare([a, b], margins=MARGINS), "b", t)["verdict"] == "undecided" for t in THREADS)


def test_a_control_the_quiet_folder_measured_unlike_the_target_leaves_the_busy_folders_cells_held(tmp_path):
    """b 20 % slower than a in both folders, B's points of b degraded: servers that differ can answer a busy host
    unlike each other (a gap the host masks in one folder reads as a change), so through the control too b's cells
    stay undecided, saying why."""
    a = make_folder(tmp_path, "A", b_gap=0.8)
    b = make_folder(tmp_path, "B", b_gap=0.8, seed=2, busy=True)
    c = compare([a, b], control="a", margins=MARGINS)
    for threads in THREADS:
        row = cell(c, "b", threads)
        assert row["test"] == rp.CONTROL_TEST and row["verdict"] == "undecided"
        assert row["decided_by"].endswith("B's points of this cell were degraded (host busy: the hypervisor took CPU "
                                          "(steal)) and A's were not, which hits a server and its client unlike the "
                                          "reference"), row["decided_by"]
        assert "read all the same" not in row["caveat"]


def test_the_json_of_an_undecided_cell_has_its_interval_and_detectable_size(tmp_path, monkeypatch):
    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path / "cache"))  # no calibration record: the defaults
    a, b = make_folder(tmp_path, "A"), make_folder(tmp_path, "B", host=0.7, seed=2)
    r = run_cli("compare", str(a), str(b), "--format", "json")
    cells = json.loads(r.output[r.output.index("["):])
    undecided = [x for x in cells if x["verdict"] == "undecided"]
    assert undecided and all(x["ci_low"] is not None and x["ci_high"] is not None and x["detectable_pct"] is not None
                             for x in undecided)
    tp = [x for x in undecided if x["metric"] == "throughput"]
    assert tp and all(x["decided_by"].startswith("undecided: the host differed") for x in tp)


def test_a_slices_table_with_text_for_a_figure_is_named_left_out_and_rebuilt_and_one_gone_is_said(tmp_path, capsys):
    """slices.parquet edited to hold text in a count: named damaged, the table rebuilt from its parts (the same rows
    as written); one part holding text: named, its rows alone left out; every slice gone from a folder that
    alternated: said, once. Was: a ValueError traceback from report and compare; a folder without its slices read
    point against point without a word."""
    folder = make_folder(tmp_path, "A", seed=1)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["plan"]["run_order"] = "alternate"  # as a folder of an alternated run says
    (folder / "manifest.json").write_text(json.dumps(manifest))
    written = st.conform(pd.read_parquet(folder / "slices.parquet"))
    written = written[written[st.ROLE] == st.TARGET]
    table = pd.read_parquet(folder / "slices.parquet").astype({"operations": str})
    table.loc[0, "operations"] = "many"  # written by hand: the column is text now
    table.to_parquet(folder / "slices.parquet")
    slices = load(folder).slices()
    assert f"warning: {folder / 'slices.parquet'} is damaged (ValueError: its column operations holds" in \
        capsys.readouterr().err
    assert len(slices[slices[st.ROLE] == st.TARGET]) == len(written)
    part = sorted((folder / "parts" / "slices").glob("*.parquet"))[0]
    bad = pd.read_parquet(part)
    bad.astype({"threads": str}).assign(threads="x").to_parquet(part)
    (folder / "slices.parquet").unlink()
    slices = load(folder).slices()
    assert f"warning: {part} is damaged (ValueError: its column threads holds 'x', not a number)" in \
        capsys.readouterr().err
    kept = slices[slices[st.ROLE] == st.TARGET]
    assert len(kept) == len(written) - len(bad) and set(bad["run_id"]).isdisjoint(kept["run_id"])
    for p in (folder / "parts" / "slices").glob("*.parquet"):
        p.unlink()
    load(folder)
    assert capsys.readouterr().err.count("alternated its targets but the sessions' slices (slices.parquet, "
                                         "parts/slices/) are gone") == 1
    with pytest.raises(ValueError, match="its column warmup holds 'x', not a flag"):
        st.conform(written.assign(warmup="x"), strict=True)
    bad_threads = written["threads"].astype(object)
    bad_threads.iloc[[1, -1]] = ["first bad", "last bad"]
    with pytest.raises(ValueError, match="its column threads holds 'first bad', not a number"):  # the first named
        st.conform(written.assign(threads=bad_threads), strict=True)
    assert st.conform(written.assign(errors="x"))["errors"].isna().all()  # not strict: not a number, so NaN


@pytest.mark.parametrize("shift", [0.0, 0.03, -0.08])
def test_welchs_p_and_interval_are_scipys_welch_t_test_of_the_same_blocks(shift):
    """Two folders' block means without autocorrelation: the p-value is two-sided and the interval Welch's, as
    ``scipy.stats.ttest_ind(equal_var=False)`` computes them from the raw blocks (a one-sided p passed the
    verdict twice the evidence it has)."""
    rng = np.random.default_rng(71)
    a, b = rng.normal(0.0, 0.1, 9), rng.normal(shift, 0.15, 7)
    mean = [rp.Mean(float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))), len(x) - 1.0, len(x)) for x in (a, b)]
    got = rp.welch(*mean)
    want = sps.ttest_ind(b, a, equal_var=False)
    assert got.p_value == pytest.approx(want.pvalue, rel=1e-9) and 0 < got.p_value < 1
    low, high = want.confidence_interval(0.95)
    assert (math.log(got.low), math.log(got.high)) == pytest.approx((low, high), rel=1e-9)
    assert got.ratio == pytest.approx(math.exp(b.mean() - a.mean()), rel=1e-12)
