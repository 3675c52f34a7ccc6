"""ycsbctl.results.verdicts on hand-built runs tables: which rows make a cell, how targets pair by round,
the peak-against-peak row, and the control target that takes a host's drift out."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from tests.fixtures.verdict_runs import runs_table
from ycsbctl.results import cells as cl
from ycsbctl.results import folder_verdicts as fv
from ycsbctl.results import host_drift, over_rounds
from ycsbctl.results import verdicts as vd

BASE = [10_000.0, 9_400.0, 10_800.0, 9_100.0, 10_300.0]  # rounds drift up and down: pairing cancels it
RUNS = runs_table({("a", 8): BASE, ("b", 8): [v * 1.10 * f for v, f in zip(BASE, (1.01, 0.99, 1.0, 1.02, 0.98))],
              ("a", 16): [v * 1.5 for v in BASE],
                   ("b", 16): [v * 1.5 * f for v, f in zip(BASE, (1.0, 1.02, 0.97, 1.01, 1.0))]})


def test_paired_verdicts_are_per_round_log_ratios_against_the_baseline():
    v = vd.target_verdicts(RUNS, "a")
    cell = v[(v["threads"] == 8) & (v["metric"] == "throughput") & ~v["at_peak"]].iloc[0]
    b = RUNS[(RUNS["target"] == "b") & (RUNS["threads"] == 8)]["throughput_ops"].to_numpy()
    d = np.log(b) - np.log(BASE)
    assert cell["ratio"] == pytest.approx(math.exp(d.mean())) and cell["baseline"] == "a" and cell["n"] == 5
    assert cell["p_value"] == pytest.approx(sps.ttest_rel(np.log(b), np.log(BASE)).pvalue)
    assert cell["verdict"] == "better"
    lat = v[(v["threads"] == 8) & (v["metric"] == "p99")].iloc[0]
    assert lat["ratio"] == pytest.approx(1 / cell["ratio"]) and lat["verdict"] == "better"  # lower latency is better
    at16 = v[(v["threads"] == 16) & (v["metric"] == "throughput") & ~v["at_peak"]].iloc[0]
    # five rounds of ~2 % noise: the interval holds 1 and lies inside the ±10 % margin
    assert at16["verdict"] == "equivalent" and 1 / 1.1 <= at16["ci_low"] < 1 < at16["ci_high"] <= 1.1
    assert at16["margin_pct"] == 10.0 and at16["margin_source"].startswith("the default")
    assert 0 < at16["detectable_pct"] < 10  # five rounds of ~2 % noise would have seen a few %
    # unpaired, the same data: the rounds' drift (±9 %) is noise, and the 10 % gap at 8 threads is harder to see
    welch = vd.target_verdicts(RUNS, "a", paired=False)
    w8 = welch[(welch["threads"] == 8) & (welch["metric"] == "throughput") & ~welch["at_peak"]].iloc[0]
    assert w8["ci_high"] - w8["ci_low"] > 3 * (cell["ci_high"] - cell["ci_low"])


def test_the_peak_row_compares_each_targets_best_thread_count():
    v = vd.target_verdicts(RUNS, "a")
    peak = v[v["at_peak"]]
    assert len(peak) == 1
    p = peak.iloc[0]
    assert p["threads"] == 16 and "a at 16 threads" in p["caveat"]  # both peak at 16 threads


def test_only_ok_runs_of_the_sweep_make_a_cell():
    runs = runs_table({("a", 8): BASE, ("b", 8): [v * 1.2 for v in BASE]}, status={("b", 8, 2): "degraded"})
    loads = runs.iloc[:1].assign(phase="load", run_id="a.w.load.t8.r1", throughput_ops=1.0)
    cells = cl.cell_table(pd.concat([runs, loads]))
    assert cells.set_index("target").loc["b", "n"] == 4 and cells.set_index("target").loc["a", "n"] == 5
    v = vd.target_verdicts(runs, "a")
    assert v[(v["metric"] == "throughput") & ~v["at_peak"]].iloc[0]["n"] == 4  # round 2 has no pair


def test_cell_table_intervals_cv_and_drift():
    falling = [10_000.0 * 0.96 ** r for r in range(6)]
    cells = cl.cell_table(runs_table({("a", 8): falling, ("b", 8): BASE})).set_index("target")
    a = cells.loc["a"]
    assert a["throughput"] == pytest.approx(sps.gmean(falling))
    assert a["throughput_low"] < a["throughput"] < a["throughput_high"]
    assert a["drift"].startswith("throughput fell 18%")  # 0.96^5 - 1
    assert "latency rose" in a["drift"]
    assert pd.isna(cells.loc["b", "drift"]) and cells.loc["b", "throughput_cv"] == pytest.approx(
        np.std(BASE, ddof=1) / np.mean(BASE))
    assert cells.loc["b", "repetitions_for_5pct"] > 5  # ~7 % noise between rounds needs more than five


def test_repetitions_for_5pct_needs_two_rounds_and_is_the_rounds_log_sd_from_two_on():
    """The repetitions a 5 % difference needs, from the sd of the rounds' log throughput (numpy, ddof 1):
    none from one round (no sd), a figure from two rounds on (two rounds already have an sd), a zero-sd cell
    the fewest (2)."""
    tps = {1: [10_000.0], 2: [10_000.0, 9_000.0], 3: [10_000.0, 9_000.0, 10_500.0]}
    cells = cl.cell_table(runs_table({("a", n): v for n, v in tps.items()} | {("b",
                                                                               8): [7_000.0] * 3})).set_index("threads")
    assert pd.isna(cells.loc[1, "repetitions_for_5pct"])
    for n in (2, 3):
        want = over_rounds.repetitions_needed(float(np.std(np.log(tps[n]), ddof=1)), 0.05, paired=False)
        assert want is not None and want > 5 and cells.loc[n, "repetitions_for_5pct"] == want
    assert cells.loc[8, "repetitions_for_5pct"] == 2


def test_one_repetition_takes_its_interval_from_the_seconds_of_that_run():
    runs = runs_table({("a", 8): [10_000.0]})
    series = pd.DataFrame({"run_id": runs["run_id"].iloc[0], "op": "OVERALL", "second": range(7),
                           "operations": [9_000, 11_000, 10_500, 9_500, 10_000, 10_200, 4_000], "warmup": False})
    others = pd.concat([series.assign(op="READ", operations=50.0),  # another operation's and another run's seconds
                        series.assign(run_id="other", operations=50.0)])
    series = pd.concat([others.iloc[:3], series, others.iloc[3:]])
    cell = cl.cell_table(runs, series=series).iloc[0]
    assert bool(cell["within_run"]) and cell["throughput_low"] < 10_000 < cell["throughput_high"]
    # the last, partial second (4,000) is left out: six full seconds in five batches
    assert cell["throughput"] == pytest.approx(sps.gmean([10_000, 10_500, 9_500, 10_000, 10_200]), rel=0.01)


def test_one_repetition_of_two_seconds_keeps_both_and_of_three_drops_the_last():
    """Two measured seconds are both whole (the interval of the two, scipy's t on their logs); from three on the
    last, partial second is left out."""
    runs = runs_table({("a", 8): [10_000.0]})

    def cell(ops: list[int]) -> pd.Series:
        series = pd.DataFrame({"run_id": runs["run_id"].iloc[0], "op": "OVERALL", "second": range(len(ops)),
                               "operations": ops, "warmup": False})
        return cl.cell_table(runs, series=series).iloc[0]

    for ops, kept in (([9_000, 11_000], [9_000, 11_000]), ([9_000, 11_000, 2_000], [9_000, 11_000])):
        c, logs = cell(ops), np.log(kept)
        lo, hi = sps.t.interval(0.95, len(logs) - 1, loc=logs.mean(), scale=sps.sem(logs))
        assert (c["throughput"], c["throughput_low"], c["throughput_high"]) == pytest.approx(
            (sps.gmean(kept), math.exp(lo), math.exp(hi)))


@pytest.mark.parametrize(("runtime_ms", "ops", "kept"), [
    (1_000.3, [10_000, 2], [10_000]),  # a 1 s point: one whole second, its next holds the last 0.3 ms
    (2_000.4, [9_000, 11_000, 3], [9_000, 11_000]),
    (2_990.0, [9_000, 11_000, 10_500, 40], [9_000, 11_000, 10_500]),  # 10 ms short of 3 s: the third still whole
])
def test_the_seconds_past_the_measured_windows_whole_ones_are_left_out(runtime_ms, ops, kept):
    """With the run's measured window (runtime_ms), exactly its whole seconds make the interval: one whole
    second gives no interval (not a 141 % CV from a batch of 2 operations)."""
    runs = runs_table({("a", 8): [10_000.0]}).assign(runtime_ms=runtime_ms)
    series = pd.DataFrame({"run_id": runs["run_id"].iloc[0], "op": "OVERALL", "second": range(len(ops)),
                           "operations": ops, "warmup": False})
    c = cl.cell_table(runs, series=series).iloc[0]
    if len(kept) == 1:
        assert c["throughput"] == kept[0] and math.isnan(c["throughput_low"]) and math.isnan(c["throughput_cv"])
        return
    logs = np.log(kept)
    lo, hi = sps.t.interval(0.95, len(logs) - 1, loc=logs.mean(), scale=sps.sem(logs))
    assert (c["throughput"], c["throughput_low"], c["throughput_high"]) == pytest.approx(
        (sps.gmean(kept), math.exp(lo), math.exp(hi)))


def test_the_peak_is_the_thread_count_of_the_highest_mean_not_the_highest_repetition():
    """a at 8 threads: 1,000 and 3,000 ops/s (mean 2,000, the highest single run); at 16: 2,500 twice (the
    highest mean): the peak row compares a at 16 threads."""
    runs = runs_table({("a", 8): [1_000.0, 3_000.0], ("a", 16): [2_500.0, 2_500.0],
                  ("b", 8): [1_100.0, 3_100.0], ("b", 16): [2_000.0, 2_100.0]})
    peak = vd.target_verdicts(runs, "a")
    (p,) = peak[peak["at_peak"] & (peak["metric"] == "throughput")].to_dict("records")
    assert "a at 16 threads" in p["caveat"], p["caveat"]


def test_a_control_target_takes_a_hosts_drift_out_of_a_folder_comparison():
    before = RUNS
    after = RUNS.assign(throughput_ops=RUNS["throughput_ops"] * 0.88)  # the host ran 12 % slower for both
    no_margin = host_drift.Margins({"throughput": 0.0, "p99": 0.0}, "none")
    plain = fv.folder_verdicts(before, after, None, "after", margins=no_margin)
    tp = plain[plain["metric"] == "throughput"]
    assert set(tp["verdict"]) == {"worse"} and tp["caveat"].str.startswith("no control target").all()
    # against the default margin (±10 %) a 12 % drift inside ±9 % noise between rounds is not called: the
    # interval holds both a change within the host's drift and one beyond it; the p99, unchanged, is equivalent
    # (the two one-sided tests' 90 % interval lies inside ±10 %)
    margin = fv.folder_verdicts(before, after, None, "after")
    assert set(margin["drift_margin_pct"]) == {10.0}
    assert set(margin[margin["metric"] == "throughput"]["verdict"]) == {"undecided"}
    p99 = margin[margin["metric"] == "p99"]
    assert set(p99["verdict"]) == {"equivalent"} and list(p99["ci_level"]) == pytest.approx([0.90] * len(p99))
    ctl = fv.folder_verdicts(before, after, "a", "after")
    a = ctl[ctl["target"] == "a"]
    b = ctl[(ctl["target"] == "b") & (ctl["metric"] == "throughput")]
    assert set(a["verdict"]) == {"host drift"} and a[a["metric"] == "throughput"]["ratio"].tolist() == pytest.approx(
        [0.88] * 2
    )
    assert set(b["verdict"]) == {"equivalent"} and b["ratio"].tolist() == pytest.approx([1.0, 1.0])
    assert b["caveat"].str.startswith("against control a").all()


def test_same_server_means_the_same_build_and_settings():
    ep = {"server_name": "Redis", "server_version": "7.0.15", "kind": "redis", "settings": {"io-threads": "1"}}
    assert fv.same_server(ep, dict(ep))
    assert not fv.same_server(ep, {**ep, "server_version": "7.2.4"})
    assert not fv.same_server(ep, {**ep, "settings": {"io-threads": "4"}})
    assert not fv.same_server(ep, None)


def test_verdict_text_quotes_the_interval_and_what_could_be_seen():
    row = {"ratio": 1.004, "ci_low": 0.97, "ci_high": 1.04, "verdict": "equivalent", "detectable_pct": 6.2,
           "margin_pct": 10.0}
    assert vd.verdict_text(row) == "1.00× [0.97, 1.04] equivalent (margin ±10 %)"
    wide = {**row, "ci_low": 0.8, "ci_high": 1.3, "verdict": "undecided", "detectable_pct": 25.4}
    assert vd.verdict_text(wide) == "1.00× [0.80, 1.30] undecided (margin ±10 %; could detect ±25 %)"
    # a bound that two decimals would round onto 1.00 is shown with the digits that keep it off 1
    worse = {"ratio": 0.97, "ci_low": 0.94, "ci_high": 0.996, "verdict": "worse", "margin_pct": 10.0}
    assert vd.verdict_text(worse) == "0.970× [0.940, 0.996] worse (margin ±10 %)"
    assert vd.verdict_text({**row, "ratio": math.nan}) == "—"
    assert "nan" not in vd.verdict_text({**row, "ci_low": math.nan, "ci_high": math.nan, "detectable_pct": math.nan,
                                         "margin_pct": math.nan})


def test_every_verdict_is_the_same_whatever_the_unit_of_the_values():
    """Ratios, tests and verdicts do not depend on the unit: the same runs in ops/ms (values below 1)
    give the same table as in ops/s, in a target comparison, a cell table and a folder comparison."""
    small = RUNS.assign(throughput_ops=RUNS["throughput_ops"] / 10_000, all_p99_us=RUNS["all_p99_us"] / 10_000)
    cols = ["ratio", "ci_low", "ci_high", "p_value", "p_adjusted", "detectable_pct"]
    for paired in (True, False):
        a, b = vd.target_verdicts(RUNS, "a", paired=paired), vd.target_verdicts(small, "a", paired=paired)
        assert a[cols].to_numpy() == pytest.approx(b[cols].to_numpy(), rel=1e-9, nan_ok=True)
        assert list(a["verdict"]) == list(b["verdict"])
        after, after_small = RUNS.assign(throughput_ops=RUNS["throughput_ops"] * 0.9), small.assign(
            throughput_ops=small["throughput_ops"] * 0.9)
        f, g = fv.folder_verdicts(RUNS, after, "a", "x",
                                  paired=paired), fv.folder_verdicts(small, after_small, "a", "x",
                                                                                            paired=paired)
        assert f[cols].to_numpy() == pytest.approx(g[cols].to_numpy(), rel=1e-9, nan_ok=True)
    big, tiny = cl.cell_table(RUNS), cl.cell_table(small)
    assert list(big["repetitions_for_5pct"]) == list(tiny["repetitions_for_5pct"])
    logs = np.log(BASE)
    assert big.iloc[0]["repetitions_for_5pct"] == over_rounds.repetitions_needed(float(np.std(logs, ddof=1)), 0.05,
                                                                             paired=False)


def test_detectable_pct_is_the_decided_cells_detectable_difference_in_percent():
    v = vd.target_verdicts(RUNS, "a")
    cells = v[~v["at_peak"]]
    comps = [vd.stats.compare(cl.by_round(RUNS[(RUNS["target"] == "a") & (RUNS["threads"] == t)], col),
                              cl.by_round(RUNS[(RUNS["target"] == "b") & (RUNS["threads"] == t)], col), paired=True)
             for t in (8, 16) for col in ("throughput_ops", "all_p99_us")]
    done = vd.stats.decide(comps, [True, False, True, False])
    assert list(cells["detectable_pct"]) == pytest.approx([100 * c.detectable for c in done])
    assert list(cells["p_adjusted"]) == pytest.approx(list(sps.false_discovery_control([c.p_value for c in comps])))


def test_a_latency_statistic_reads_its_own_column():
    assert [m.column for m in cl.metrics("p99.9")] == ["throughput_ops", "all_p999_us"]
    assert cl.metrics("avg")[1].column == "all_mean_us" and cl.metrics("p50")[1].column == "all_p50_us"
    runs = RUNS.assign(all_p999_us=RUNS["all_p99_us"] * np.where(RUNS["target"] == "b", 2.0, 1.0))
    p999 = vd.target_verdicts(runs, "a", latency="p99.9")
    lat = p999[(p999["metric"] == "p99.9") & (p999["threads"] == 8)].iloc[0]
    p99 = vd.target_verdicts(runs, "a")
    assert lat["ratio"] == pytest.approx(2 * p99[(p99["metric"] == "p99") & (p99["threads"] == 8)].iloc[0]["ratio"])
    tables = vd.verdict_tables({"targets": ["a", "b"]}, runs, pd.DataFrame())
    assert set(tables["verdicts"]["metric"]) == {"throughput", "p99"}  # the folder's tables: p99


def test_an_insert_only_workload_is_judged_on_its_load_and_a_run_workload_on_its_run():
    loads = runs_table({("a", 8): BASE, ("b", 8): [v * 1.3 for v in BASE]}).assign(phase="load", workload="ins")
    mixed = pd.concat([RUNS, loads, RUNS.assign(phase="load", throughput_ops=1.0)])
    cells = cl.cell_table(mixed)
    ins = cells[cells["workload"] == "ins"].set_index("target")
    assert ins.loc["b", "throughput"] == pytest.approx(1.3 * sps.gmean(BASE))  # from its load rows
    w = cells[(cells["workload"] == "w") & (cells["threads"] == 8)].set_index("target")
    assert w.loc["a", "throughput"] == pytest.approx(sps.gmean(BASE))  # its load rows (1 ops/s) left out
    assert len(cells) == 6


def test_the_peak_row_compares_peaks_at_different_thread_counts_as_its_own_test():
    """b peaks at 8 threads, a at 16: the peak row is b at 8 against a at 16 (per round), a test of its own
    in the family; a NaN mean (a cell without throughput) is never a peak."""
    runs = runs_table({("a", 8): BASE, ("a", 16): [v * 1.5 for v in BASE],
                  ("b", 8): [v * 1.8 * f for v, f in zip(BASE, (1.01, 0.99, 1.0, 1.02, 0.98))],
                  ("b", 16): [v * 1.2 for v in BASE]})
    nan_cell = runs_table({("b", 32): [math.nan] * 5})
    v = vd.target_verdicts(pd.concat([runs, nan_cell]), "a")
    peak = v[v["at_peak"]].iloc[0]
    b8 = np.array([v * 1.8 * f for v, f in zip(BASE, (1.01, 0.99, 1.0, 1.02, 0.98))])
    assert peak["threads"] == 8 and peak["caveat"] == "peak against peak: a at 16 threads"
    assert peak["ratio"] == pytest.approx(math.exp(np.mean(np.log(b8) - np.log(np.array(BASE) * 1.5))))
    tested = v[v["p_value"].notna()]
    assert list(tested["p_adjusted"]) == pytest.approx(list(sps.false_discovery_control(list(tested["p_value"]))))


def test_a_peak_at_the_same_thread_count_repeats_that_cells_test_not_a_second_one():
    v = vd.target_verdicts(RUNS, "a")
    peak, cell = (
        v[v["at_peak"]].iloc[0],
        v[(v["threads"] == 16) & (v["metric"] == "throughput") & ~v["at_peak"]].iloc[0],
    )
    assert (peak["p_adjusted"], peak["verdict"], peak["ci_low"]) == (cell["p_adjusted"], cell["verdict"],
                                                                     cell["ci_low"])
    cells = v[~v["at_peak"]]  # four tests in the family, not five
    assert list(cells["p_adjusted"]) == pytest.approx(list(sps.false_discovery_control(list(cells["p_value"]))))


def test_the_baseline_is_the_plans_then_its_first_target_with_runs():
    assert vd.baseline_of({"targets": ["b", "a"]}, RUNS) == "b"
    assert vd.baseline_of({"targets": ["c", "b", "a"], "baseline_target": "a"}, RUNS) == "a"
    assert vd.baseline_of({"targets": ["c"], "baseline_target": "c"}, RUNS) == "a"  # c has no runs: the runs' first
    assert vd.baseline_of({}, RUNS.iloc[:0]) is None


def test_failed_and_degraded_rounds_make_no_cell_and_only_ok_ones_count():
    status = {("b", 8, r): s for r, s in ((1, "failed"), (2, "degraded"), (3, "skipped"))}
    runs = runs_table({("a", 8): BASE, ("b", 8): [v * 1.2 for v in BASE]}, status=status)
    cells = cl.cell_table(runs).set_index("target")
    assert cells.loc["b", "n"] == 2 and cells.loc["b", "throughput"] == pytest.approx(1.2 * sps.gmean(BASE[3:]))
    only_bad = runs_table({("a", 8): BASE}, status={("a", 8, r): "failed" for r in range(1, 6)})
    assert len(cl.cell_table(only_bad)) == 0


def test_the_peak_is_an_unpaced_cell_even_when_a_paced_one_measured_more():
    """a and b unpaced at 8 threads (2,000 and 2,200 ops/s) and at 16 (1,500 and 1,600), and paced at 16 threads
    and 5,000 ops/s offered (4,900 and 5,100 measured, more than any unpaced cell): a paced cell's rate is the one
    asked for, not what the target can do, so the peak row compares the unpaced 8 threads of each."""
    runs = runs_table({("a", 8): [2_000.0, 2_000.0], ("b", 8): [2_200.0, 2_200.0],
                  ("a", 16): [1_500.0, 1_500.0], ("b", 16): [1_600.0, 1_600.0]})
    paced = runs_table({("a", 16): [4_900.0, 4_900.0], ("b", 16): [5_100.0, 5_100.0]}).assign(target_rate=5_000.0)
    peak = vd.target_verdicts(pd.concat([runs, paced], ignore_index=True), "a")
    (p,) = peak[peak["at_peak"] & (peak["metric"] == "throughput")].to_dict("records")
    assert p["threads"] == 8 and "a at 8 threads" in p["caveat"], p
    assert p["ratio"] == pytest.approx(2_200 / 2_000)


def test_a_blocks_order_pairs_round_i_of_a_with_round_i_of_b_as_the_rounds_placed_them():
    """Five rounds in the A B B A order (a b, b a, a b, b a, a b), the rows as a folder may hold them (b's in
    reverse): the folder's verdict (its plan's run_order "blocks", as "interleaved") pairs each round of a with the
    same round of b — the p-value is scipy's paired t-test of the rounds' logs matched by repetition, the ratio their
    mean log ratio — not b's k-th row with a's k-th (that pairing's p-value differs); a plan run target by target
    is judged unpaired (Welch)."""
    b_vals = [v * 1.10 * f for v, f in zip(BASE, (1.01, 0.99, 1.0, 1.02, 0.98))]
    rows = []
    for rnd in range(1, 6):
        for target in (("a", "b") if rnd % 2 else ("b", "a")):  # A B B A …
            rows.append(runs_table({(target, 8): [(BASE if target == "a" else b_vals)[rnd - 1]]}).assign(
                repetition=rnd, run_id=f"{target}.w.run.t8.r{rnd}"))
    runs = pd.concat(rows, ignore_index=True)
    runs = pd.concat([runs[runs["target"] == "a"], runs[runs["target"] == "b"].iloc[::-1]], ignore_index=True)
    la, lb = np.log(BASE), np.log(b_vals)
    for order in ("blocks", "interleaved"):
        v = vd.plan_verdicts({"targets": ["a", "b"], "run_order": order}, runs)
        cell = v[(v["metric"] == "throughput") & ~v["at_peak"]].iloc[0]
        assert cell["p_value"] == pytest.approx(sps.ttest_rel(lb, la).pvalue) and cell["n"] == 5
        assert cell["ratio"] == pytest.approx(math.exp((lb - la).mean()))
    by_row = sps.ttest_rel(lb[::-1], la).pvalue  # b's k-th row against a's k-th: another answer
    assert by_row != pytest.approx(sps.ttest_rel(lb, la).pvalue, rel=0.1)
    welch = vd.plan_verdicts({"targets": ["a", "b"], "run_order": "target"}, runs)
    w = welch[(welch["metric"] == "throughput") & ~welch["at_peak"]].iloc[0]
    assert w["p_value"] == pytest.approx(sps.ttest_ind(lb, la, equal_var=False).pvalue)


def test_a_runs_operations_per_second_leave_out_its_warm_up_and_its_last_partial_second():
    from ycsbctl.results.cells import _per_second

    series = pd.DataFrame({"run_id": ["a"] * 6 + ["b"], "op": ["OVERALL"] * 5 + ["READ", "OVERALL"],
                           "second": [4, 0, 1, 2, 3, 2, 0], "operations": [7, 50, 110, 120, 130, 99, 5],
                           "warmup": [False, True, False, False, False, False, False]})
    assert _per_second(series, "a") == [110.0, 120.0, 130.0]  # second 4 (7 operations) is the partial last
    assert _per_second(series, "b") == [5.0]
    assert _per_second(series.drop(columns="operations"), "a") == []
    assert _per_second(series.drop(columns="run_id"), "a") == []


def test_a_targets_values_relative_to_the_control_round_by_round_or_over_its_geometric_mean():
    from ycsbctl.results.folder_verdicts import _relative
    from ycsbctl.results.verdicts import interval_text

    # paired: round 2 has no control, round 3's value is 0 and round 4's control 0: round 1 alone
    assert _relative({1: 200.0, 2: 300.0, 3: 0.0, 4: 50.0}, {1: 100.0, 3: 50.0, 4: 0.0}, paired=True) == {1: 2.0}
    # unpaired: over the control's geometric mean, √(100 × 400) = 200; a zero value is left out
    got = _relative({1: 200.0, 2: 300.0, 3: 0.0}, {1: 100.0, 2: 400.0}, paired=False)
    assert got == pytest.approx({1: 1.0, 2: 1.5}) and set(got) == {1, 2}
    # a control that measured nothing above 0 has no geometric mean: nothing is relative to it
    assert _relative({1: 200.0}, {1: 0.0, 2: 0.0}, paired=False) == {} == _relative({1: 200.0}, {}, paired=False)
    # a value under 1 is a value; one under 0 none: over the control's √(1 × 4) = 2
    assert _relative({1: 0.5, 2: -0.5, 3: 3.0}, {1: 1.0, 2: 4.0}, paired=False) == {1: 0.25, 3: 1.5}
    # a bound up to 1,000 is written out, past it ">1,000"
    assert interval_text(0.5, 995.0) == " [0.50, 995.00]" and interval_text(0.5, 1000.5) == " [0.50, >1,000]"
