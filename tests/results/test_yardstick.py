"""The host yardstick's arithmetic: speed, host factor and the division against hand computation; its rows
through yardstick.parquet and the manifest's summary; folder_verdicts dividing a known host factor out."""

from __future__ import annotations

import math
import statistics

import pandas as pd
import pytest
from scipy.stats import gmean

from ycsbctl.results import folder_verdicts as fv
from ycsbctl.results import host_drift
from ycsbctl.results import yardstick as ys
from ycsbctl.results.folder import ResultFolder
from ycsbctl.results.schema import Manifest


def reading(cpu: float, rtt: float, seconds: float = 0.3) -> ys.Reading:
    return ys.Reading(cpu_ops_per_s=cpu, rtt_us=rtt, rtt_median_us=rtt * 0.8, cpu_share=0.9, cpus=2, seconds=seconds)


def table(*readings: ys.Reading) -> pd.DataFrame:
    return pd.DataFrame([r.row(i, "run", "", "2026-11-27T08:00:00+00:00") for i, r in enumerate(readings, 1)],
                        columns=ys.COLUMNS)


def test_speed_is_the_geometric_mean_of_the_cpu_rate_and_the_round_trip_rate():
    # 4e6 byte steps/s and 100 µs round trips (1e4 per s): sqrt(4e6 × 1e4) = 2e5
    assert reading(4e6, 100.0).speed == pytest.approx(2e5)
    # twice the CPU rate and half the round trip: each a factor 2 on its rate, together 2 on the speed
    assert reading(8e6, 50.0).speed / reading(4e6, 100.0).speed == pytest.approx(2.0)
    # only the CPU twice as fast: sqrt(2) on the speed
    assert reading(8e6, 100.0).speed / reading(4e6, 100.0).speed == pytest.approx(math.sqrt(2))
    assert math.isnan(ys.speed_of(0.0, 100.0)) and math.isnan(ys.speed_of(4e6, 0.0))


def test_the_host_factor_is_the_other_folders_median_speed_over_the_base_folders():
    base = table(reading(1e6, 100.0), reading(4e6, 100.0), reading(9e6, 100.0))  # speeds 1e5, 2e5, 3e5: median 2e5
    other = table(reading(4e6 * 1.18**2, 100.0), reading(1e6, 100.0))  # 2.36e5 and 1e5: median 1.68e5
    f = ys.host_factor(base, other)
    assert f is not None
    assert f.base_speed == pytest.approx(2e5) and f.other_speed == pytest.approx((2.36e5 + 1e5) / 2)
    assert f.factor == pytest.approx(((2.36e5 + 1e5) / 2) / 2e5)
    assert (f.base_readings, f.other_readings) == (3, 2)
    assert ys.host_factor(base, table()) is None and ys.host_factor(table(), base) is None
    same = ys.host_factor(base, table(reading(4e6 * 1.18**2, 100.0)))
    assert same is not None and same.text() == "host speed 1.18× between the folders (yardstick)"


def test_the_host_factors_error_is_a_medians_from_the_spread_of_each_folders_log_speeds():
    base = table(reading(1e6, 100.0), reading(4e6, 100.0), reading(9e6, 100.0))
    other = table(reading(4e6, 100.0), reading(4e6 * 1.1**2, 100.0), reading(4e6 * 0.9**2, 100.0), reading(4e6, 100.0))
    f = ys.host_factor(base, other)
    assert f is not None
    la = [math.log(r) for r in (1e5, 2e5, 3e5)]
    lb = [math.log(r) for r in (2e5, 2.2e5, 1.8e5, 2e5)]
    va, vb = statistics.variance(la) / 3, statistics.variance(lb) / 4
    assert f.log_se == pytest.approx(math.sqrt(math.pi / 2 * (va + vb)))
    assert f.df == pytest.approx((va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 3))
    one = ys.host_factor(base, table(reading(4e6, 100.0)))  # one reading a side: its spread is unknown
    assert one is not None and math.isnan(one.log_se) and math.isnan(one.df)
    two = ys.host_factor(base, table(reading(4e6, 100.0), reading(4e6 * 1.1**2, 100.0)))  # two: a spread, df 1
    vb = statistics.variance([math.log(2e5), math.log(2.2e5)]) / 2
    assert two is not None and two.log_se == pytest.approx(math.sqrt(math.pi / 2 * (va + vb)))
    assert two.df == pytest.approx((va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 1))


def test_values_at_the_base_speed_divide_a_rate_and_multiply_a_time_by_the_factor():
    assert ys.at_base_speed({1: 118.0, 2: 236.0}, 1.18, higher_is_better=True) == pytest.approx({1: 100.0, 2: 200.0})
    assert ys.at_base_speed({1: 100.0}, 1.18, higher_is_better=False) == pytest.approx({1: 118.0})


def test_readings_go_through_yardstick_parquet_and_the_manifests_summary_unchanged(tmp_path):
    folder = ResultFolder.create(tmp_path, "ys", Manifest(experiment_id="ys"))
    taken = [reading(4e6, 100.0, 0.25), reading(9e6, 400.0, 0.35), reading(1e6, 25.0, 0.30)]
    for i, r in enumerate(taken, 1):
        folder.add_yardstick(r.row(i, "run", "redis" if i == 2 else "", f"2026-11-27T08:0{i}:00+00:00"))
    back = ys.read_table(folder.path)
    assert back["round"].tolist() == [1, 2, 3] and back["target"].tolist() == ["", "redis", ""]
    assert [ys.Reading.from_row(r) for r in back.to_dict("records")] == taken
    # speeds 2e5, 1.5e5, 2e5: median 2e5, spread 2e5 / 1.5e5 − 1
    s = folder.manifest.yardstick
    assert s["readings"] == 3 and s["speed_median"] == pytest.approx(2e5)
    assert s["speed_spread_pct"] == pytest.approx(100 * (2e5 / 1.5e5 - 1))
    assert s["cpu_ops_per_s_median"] == pytest.approx(4e6) and s["rtt_us_median"] == pytest.approx(100.0)
    assert s["seconds_total"] == pytest.approx(0.9) and s["seconds_median"] == pytest.approx(0.30)
    final = folder.finalize()
    assert ys.read_table(final)["speed"].tolist() == pytest.approx([2e5, 1.5e5, 2e5])  # kept through the rename


def test_a_folder_without_a_yardstick_or_with_a_damaged_one_reads_as_none(tmp_path, capsys):
    assert ys.read_table(tmp_path).empty
    (tmp_path / ys.FILE).write_bytes(b"not parquet")
    assert ys.read_table(tmp_path).empty
    assert "yardstick.parquet is damaged" in capsys.readouterr().err


@pytest.mark.parametrize("column", ["cpu_ops_per_s", "rtt_us", "round", "cpus"])
def test_a_yardstick_file_with_a_figure_that_is_no_number_is_named_and_read_as_none(tmp_path, capsys, column):
    """A yardstick.parquet whose ``column`` holds text ("x") where a figure must be: named as damaged once, read as no
    yardstick (was: a float("x") traceback in compare, report and the notebook); the same file with the figure a
    number reads whole, its values as pandas wrote them."""
    row = reading(4e6, 100.0, 0.25).row(1, "run", "", "2026-11-27T08:01:00+00:00")
    good = pd.DataFrame([row, {**row, "round": 2}], columns=ys.COLUMNS)
    good.to_parquet(tmp_path / ys.FILE, index=False)
    back = ys.read_table(tmp_path)
    pd.testing.assert_frame_equal(back, pd.read_parquet(tmp_path / ys.FILE).reindex(columns=ys.COLUMNS))
    bad = good.astype({column: str})  # a column of text, one of which is no number
    bad.loc[1, column] = "x"
    bad.to_parquet(tmp_path / ys.FILE, index=False)
    capsys.readouterr()
    assert ys.read_table(tmp_path).empty
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and said[0].startswith(f"warning: {tmp_path / ys.FILE} is damaged"), said


def _runs(scale: float = 1.0) -> pd.DataFrame:
    """Target a, workloadb, 8 threads, three rounds; throughput times ``scale``, p99 over it."""
    tp, p99 = [1000.0, 1040.0, 980.0], [500.0, 520.0, 510.0]
    return pd.DataFrame({"workload": "workloadb", "target": "a", "threads": 8, "phase": "run", "status": "ok",
                         "repetition": [1, 2, 3], "target_rate": math.nan, "run_id": ["r1", "r2", "r3"],
                         "throughput_ops": [v * scale for v in tp], "all_p99_us": [v / scale for v in p99]})


def test_folder_verdicts_divide_the_host_factor_out_of_every_cell():
    """The host ran 1.3× faster for the second folder and the target with it: without the yardstick both metrics
    read better (no margin); with the host factor 1.3 the ratios are 1 and nothing is called."""
    none = host_drift.Margins({"throughput": 0.0, "p99": 0.0}, "none")
    raw = fv.folder_verdicts(_runs(), _runs(1.3), None, "b", margins=none).set_index("metric")
    assert raw.loc["throughput", "ratio"] == pytest.approx(1.3) and raw.loc["p99", "ratio"] == pytest.approx(1 / 1.3)
    assert set(raw["verdict"]) == {"better"} and raw["host_factor"].isna().all()
    out = fv.folder_verdicts(_runs(), _runs(1.3), None, "b", margins=none, host_factor=1.3).set_index("metric")
    assert out["ratio"].tolist() == pytest.approx([1.0, 1.0])
    assert not set(out["verdict"]) & {"better", "worse"}
    assert out.loc["throughput", "value"] == pytest.approx(1.3 * gmean([1000.0, 1040.0, 980.0]))  # as measured
    assert out["host_factor"].tolist() == [1.3, 1.3]
    assert out["caveat"].str.startswith("host speed 1.30× between the folders (yardstick), divided out").all()
    # moved 30 %, beyond the margin (0 here): the verdict says it rests on the yardstick
    assert out["caveat"].str.contains("the host's own speed moved 30.0 %, beyond that margin").all()
    assert out["caveat"].str.contains("too few readings to know its spread: taken as exact").all()


def test_the_host_factors_spread_widens_a_cell_until_a_call_it_made_as_exact_is_undecided():
    """The second folder 1.5× faster, its host 1.3× by the yardstick: 1.15× left, called better with the factor
    taken as exact (a margin of 35 %, which the host's 30 % stays within, and no equivalence); with a factor known
    only to ±20 % (log se 0.18, 6 df) the same cell is undecided, its interval wider and still about 1.15."""
    within = host_drift.Margins({"throughput": 0.35, "p99": 0.35}, "within")
    exact = fv.folder_verdicts(_runs(), _runs(1.5), None, "b", margins=within, host_factor=1.3)
    wide = fv.folder_verdicts(_runs(), _runs(1.5), None, "b", margins=within, host_factor=1.3, host_se=0.18,
                              host_df=6.0)
    # tested beyond ±35 %: 1.15 is not beyond it; the plain test's interval is what the spread widens
    exact, wide = exact.set_index("metric"), wide.set_index("metric")
    assert not {exact.loc["throughput", "verdict"], wide.loc["throughput", "verdict"]} & {"better", "worse"}
    assert wide.loc["throughput", "ratio"] == pytest.approx(exact.loc["throughput", "ratio"])
    assert wide.loc["throughput", "ci_low"] < exact.loc["throughput", "ci_low"] < 1.15
    assert wide.loc["throughput", "ci_high"] > exact.loc["throughput", "ci_high"] > 1.15
    assert wide["caveat"].str.contains(r"\(±19\.7 % from its readings' spread, which widens the interval\)").all()


def test_beside_a_control_the_host_factor_is_reported_not_divided_out():
    base = pd.concat([_runs(), _runs().assign(target="c")], ignore_index=True)
    other = pd.concat([_runs(1.2), _runs(1.2).assign(target="c")], ignore_index=True)
    v = fv.folder_verdicts(base, other, "c", "b", host_factor=1.3)
    a = v[(v["target"] == "a") & (v["metric"] == "throughput")].iloc[0]
    c = v[(v["target"] == "c") & (v["metric"] == "throughput")].iloc[0]
    assert a["ratio"] == pytest.approx(1.0) and c["ratio"] == pytest.approx(1.2)  # the control's, not the yardstick's
    assert (
        a["caveat"].startswith("against control c")
        and "host speed 1.30× between the folders (yardstick)" in a["caveat"]
    )
    assert "host speed 1.30×" in c["caveat"]


def test_across_a_host_that_moved_beyond_the_margin_no_cell_is_called():
    """A tail does not scale with the host's speed (a busy core: speed 1.7× lower, p99 9× higher), nor does a
    server's rate when it shares cores with its client: where the yardstick moved beyond the margin every cell is
    held undecided with why, its interval kept. Where it moved within the margin, the p99 cell is tested as before."""
    moved = fv.folder_verdicts(_runs(), _runs(1.5), None, "b", host_factor=1.3).set_index("metric")  # ±10 % default
    # beyond the margin no cell rests on the yardstick (issue 71: a busy host read as a slower server): held, each
    # keeping its interval, the why in decided_by
    assert set(moved["verdict"]) == {"undecided"} and moved["ci_low"].notna().all()
    assert moved["decided_by"].str.contains("its speed moved 30 % \\(yardstick\\), beyond the ±10.0 %").all()
    wide = host_drift.Margins({"throughput": 0.5, "p99": 0.5}, "wide")
    within = fv.folder_verdicts(_runs(), _runs(1.5), None, "b", margins=wide, host_factor=1.3).set_index("metric")
    assert not math.isnan(within.loc["p99", "p_value"]) and "held undecided" not in within.loc["p99", "caveat"]


def _table(speeds: list[float], cpus: int = 2) -> pd.DataFrame:
    return pd.DataFrame([ys.Reading(s, 100.0, 90.0, 1.0, cpus, 1.0).row(i + 1, "run", "", "") for i, s in
                         enumerate(speeds)])


def test_a_yardstick_that_cannot_be_trusted_says_why():
    """Its only reading is a run's first (about 30 % slow: issue 71), or the readings ran over other CPU counts."""
    assert ys.untrusted(_table([1e6, 1.1e6]), _table([1e6, 1.05e6]), ("A", "B")) is None
    assert "B's only yardstick reading is its first" in ys.untrusted(_table([1e6, 1e6]), _table([1e6]), ("A", "B"))
    other_cpus = ys.untrusted(_table([1e6, 1e6]), _table([1e6, 1e6], cpus=1), ("A", "B"))
    assert "over 2 CPU(s) in A and 1 in B" in other_cpus


def test_an_untrusted_yardstick_is_not_divided_out_and_no_cell_rests_on_it():
    """The same 1.3× as above: not divided out (the ratios stay 1.3 and 1/1.3), its reason in each caveat, and
    beyond the margin every cell held undecided rather than called better on the raw ratio."""
    none = host_drift.Margins({"throughput": 0.0, "p99": 0.0}, "none")
    why = "B's only yardstick reading is its first, which reads the host slow"
    out = fv.folder_verdicts(_runs(), _runs(1.3), None, "b", margins=none, host_factor=1.3,
                             untrusted=why).set_index("metric")
    assert out.loc["throughput", "ratio"] == pytest.approx(1.3) and out.loc["p99", "ratio"] == pytest.approx(1 / 1.3)
    assert out["caveat"].str.contains(f"not divided out: {why}").all()
    assert set(out["verdict"]) == {"undecided"} and out["decided_by"].str.startswith("undecided: the host").all()
