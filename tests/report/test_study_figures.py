"""The studies' own figures, from a result folder built by hand: the structure study's table (each
variant's peak over a thread ladder, its users per second and bytes per user) and headline (the
smallest and the fastest variant), the disturbance study's headline (each target's median stall and
operations lost, who lost fewest) and its events table (seconds as ms, targets side by side).

The numbers are chosen so that a wrong choice reads another value: the peak is not the first nor the
last row of its ladder and a failed point is faster still; the median of three stalls is not their
mean; runtimes are not one second; a tie is within 5 % and a non-tie just outside it. The real-server
versions are tests/experiment/test_sweep_axis.py and tests/experiment/test_disturb_truth.py."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from ycsbctl.report.disturbance_report import event_rows
from ycsbctl.report.study_headlines import disturbance_headlines, seconds_text, variant_headlines
from ycsbctl.report.variant_study import records_per_second, study_rows
from ycsbctl.results.frames import Experiment
from ycsbctl.results.schema import Manifest

TARGETS = ["valkey", "redis"]  # plan order: not alphabetical
VARIANTS = ("hash", "set")


def _experiment(runs: list[dict], ops: list[dict], events: list[dict] | None = None, **manifest) -> Experiment:
    m = Manifest(experiment_id="hand-made", plan={"targets": TARGETS, "workloads": manifest.pop("workloads", [])},
                 **manifest)
    exp = Experiment(Path("/nonexistent"), m, pd.DataFrame(runs), pd.DataFrame(ops), pd.DataFrame(), pd.DataFrame())
    if events is not None:
        exp.events = pd.DataFrame(events)
    return exp


def _run(target: str, variant: str, threads: int, ops_s: float, status: str = "ok", runtime_ms: float = 2500.0,
         repetition: int = 1) -> dict:
    return {"run_id": f"{target}.online-status-{variant}.run.t{threads}.r{repetition}", "target": target,
            "workload": f"online-status-{variant}", "phase": "run", "threads": threads, "status": status,
            "throughput_ops": ops_s, "all_p50_us": 10.0 * threads, "all_p99_us": 100.0 * threads + ops_s / 1000,
            "runtime_ms": runtime_ms, "repetition": repetition}


@pytest.fixture
def structure_study() -> Experiment:
    """Two variants on two targets, each a ladder of 1, 4 and 8 threads peaking at 4 (8 is degraded and
    slower; a failed point at 16 threads is the fastest of all and must not count)."""
    runs, ops = [], []
    rate = {("valkey", "hash"): 40_000.0, ("valkey", "set"): 30_000.0, ("redis", "hash"): 50_000.0,
            ("redis", "set"): 52_000.0}
    for (target, v), top in rate.items():
        for threads, share, status in ((1, 0.4, "ok"), (4, 1.0, "ok"), (8, 0.9, "degraded"), (16, 2.0, "failed")):
            r = _run(target, v, threads, top * share, status)
            runs.append(r)
            # a BATCH-STORE stores 10 users, a READ-STATUS none: users/s is 10 × the BATCH-STOREs' OK per s
            n = top * share * r["runtime_ms"] / 1000
            ops += [{"run_id": r["run_id"], "op": "BATCH-STORE", "return_OK": n * 0.25},
                    {"run_id": r["run_id"], "op": "READ-STATUS", "return_OK": n * 0.75}]
    footprints = {f"online-status-{v}": {t: {"bytes_per_record": b, "basis": "used_memory", "records": 3000}
                                         for t, b in zip(TARGETS, bs)}
                  for v, bs in (("hash", (120.0, 200.0)), ("set", (80.0, 195.0)))}
    units = {f"online-status-{v}": {"unit": "users", "per_op": {"BATCH-STORE": 10, "STORE": 1, "INSERT": 10}}
             for v in VARIANTS}
    return _experiment(runs, ops, workloads=[f"workloads/online-status[online.structure={v}]" for v in VARIANTS],
                       workload_footprints=footprints, record_units=units)


def test_each_variants_row_is_its_peak_on_the_ladder_with_the_users_it_stored_per_second(structure_study):
    rows = {(r["variant"], r["target"]): r for r in study_rows(structure_study)}
    assert list(rows) == [("hash", "valkey"), ("hash", "redis"), ("set", "valkey"), ("set", "redis")]
    r = rows[("set", "redis")]
    assert (r["throughput"], r["threads"], r["status"]) == (52_000.0, 4, "ok")
    assert (r["p50"], r["p99"]) == (40.0, 400.0 + 52.0)
    assert r["run_id"] == "redis.online-status-set.run.t4.r1"
    assert r["records_per_s"] == pytest.approx(52_000 * 0.25 * 10)  # users/s: BATCH-STOREs × 10, not ops/s
    assert (r["bytes_per_record"], r["basis"], r["records"], r["unit"]) == (195.0, "used_memory", 3000, "users")
    assert rows[("hash", "valkey")]["bytes_per_record"] == 120.0


def test_an_operation_kind_without_any_ok_stored_no_records():
    """An operation kind whose every call failed has no return_OK (NaN in runs' ops table): it stored
    none, not one call's worth. 500 STOREs of 1 user in 2.5 s: 200 users/s, whatever the BATCH-STOREs."""
    run = _run("redis", "set", 4, 200.0)
    exp = _experiment([run], [{"run_id": run["run_id"], "op": "BATCH-STORE", "return_OK": math.nan},
                              {"run_id": run["run_id"], "op": "STORE", "return_OK": 500}])
    assert records_per_second(exp, run["run_id"], {"BATCH-STORE": 10, "STORE": 1}) == 500 / 2.5


def test_a_footprint_without_bytes_per_record_reads_nan_not_a_number_made_up(structure_study):
    """A footprint whose bytes per record is null (JSON) or not a finite number is NaN in the row (drawn as no bar)."""
    fps = structure_study.manifest.workload_footprints
    fps["online-status-set"]["redis"]["bytes_per_record"] = None
    fps["online-status-hash"]["redis"]["bytes_per_record"] = math.inf
    rows = {(r["variant"], r["target"]): r for r in study_rows(structure_study)}
    assert math.isnan(rows[("set", "redis")]["bytes_per_record"]) and math.isnan(rows[("hash",
                                                                                       "redis")]["bytes_per_record"])
    assert rows[("set", "valkey")]["bytes_per_record"] == 80.0


def test_a_variant_with_only_failed_points_is_not_measured_but_keeps_its_bytes(structure_study):
    runs = structure_study.runs
    structure_study.runs = runs[~((runs["target"] == "valkey") & (runs["workload"] == "online-status-set")
                                  & (runs["status"] != "failed"))]
    r = next(r for r in study_rows(structure_study) if (r["variant"], r["target"]) == ("set", "valkey"))
    assert r["status"] == "not measured" and r["threads"] is None
    assert math.isnan(r["throughput"]) and math.isnan(r["records_per_s"])
    assert r["bytes_per_record"] == 80.0


def test_the_headline_names_the_smallest_and_fastest_variant_per_target_with_ties_within_5_percent(structure_study):
    lines = variant_headlines(structure_study)
    assert lines == [
        "workloads/online-status on valkey: hash 120 B/user, 100,000 users/s (40,000 commands/s); "
        "set 80 B/user, 75,000 users/s (30,000 commands/s) — smallest set; fastest hash "
        "(one repetition: the speed ranking is not tested).",
        "workloads/online-status on redis: hash 200 B/user, 125,000 users/s (50,000 commands/s); "
        "set 195 B/user, 130,000 users/s (52,000 commands/s) — smallest set (hash within 5%); "
        "fastest set (hash within 5%) (one repetition: the speed ranking is not tested).",
    ]


WITHIN = "(operations lost within 1.5× or 0.2 s of the reference rate of each other)."  # why no target wins


def _event(target: str, run: int, stall_s: float, lost: float, error: str = "", event: str = "del:set:2M@2s",
           at_s: float = 2.0, occurrence: int = 1, **more: object) -> dict:
    return {"run_id": f"{target}.workloadb.run.t8.r{run}", "target": target, "event": event,
            "action": event.split(":")[0], "occurrence": occurrence, "at_s": at_s, "command_s": stall_s * 0.9,
            "server_s": math.nan, "stall_s": stall_s, "ops_lost": lost, "error": error, "pre_ops_per_s": 10_000.0,
            **more}


def _disturbed(events: list[dict]) -> Experiment:
    runs = [{"run_id": e["run_id"], "target": e["target"], "workload": "workloadb", "phase": "run"} for e in events]
    return _experiment(runs, [], events, workloads=["workloadb"])


def test_the_disturbance_headline_is_each_targets_median_cost_and_who_lost_fewest():
    events = [_event("redis", 1, 0.1, 1000.0), _event("redis", 2, 0.2, 2000.0), _event("redis", 3, 1.5, 30_000.0),
              _event("redis", 4, math.nan, math.nan, error="lost the server"),
              _event("valkey", 1, 0.0, 0.0),
              _event("redis", 1, 0.05, 10.0, event="unlink:set:2M@1s", at_s=1.0),
              _event("valkey", 1, 0.1, 20.0, event="unlink:set:2M@1s", at_s=1.0)]
    # UNLINK: twice the loss, but 10 operations are far less than two intervals of the 10,000 ops/s reference
    assert disturbance_headlines(_disturbed(events)) == [
        "UNLINK (unlink:set:2M@1s): valkey stalled 100 ms (20 ops lost), redis stalled 50 ms (10 ops lost)"
        " — no clear winner (operations lost within 1.5× or 0.2 s of the reference rate of each other).",
        "DEL (del:set:2M@2s): valkey no stall (0 ops lost), redis stalled 200 ms (2,000 ops lost, median of 3 runs)"
        " — valkey wins: fewest operations lost over the whole affected window.",
    ]


def test_a_target_wins_only_when_every_other_lost_half_as_many_again_and_two_intervals_more():
    def line(other_lost: float, **more: object) -> str:
        return disturbance_headlines(_disturbed([_event("valkey", 1, 0.3, 3_000.0, **more),
                                                 _event("redis", 1, 0.3, other_lost)]))[0]

    assert line(5_000.0).endswith(" — valkey wins: fewest operations lost over the whole affected window.")
    assert line(4_400.0).endswith(f" — no clear winner {WITHIN}")  # < 1.5×
    assert line(5_000.0, pre_ops_per_s=20_000.0).endswith(f"redis stalled 300 ms (5,000 ops lost) — no clear winner "
                                                          f"{WITHIN}")  # < 0.2 s
    # the fewest lost, but its window still open when the point ended: a lower bound cannot win
    opened = line(9_000.0, slow_s=0.4, slow_run_s=0.3, during_s=1.2, window_open=True)
    assert opened == ("DEL (del:set:2M@2s): valkey stalled 300 ms; slowed: below 50 % for 400 ms (300 ms in a row), at "
                      "least 3,000 ops lost over 1.2 s (not back when the point ended), redis stalled 300 ms (9,000 "
                      "ops lost) — no clear winner (valkey lost fewest, but was not back when its point ended).")
    assert disturbance_headlines(_disturbed([_event("valkey", 1, 0.0, 0.0), _event("redis", 1, 0.0, 0.0)]))[0] \
        .endswith(f" — no target stalled {WITHIN}")
    failed = disturbance_headlines(_disturbed([_event("valkey", 1, math.nan, math.nan, error="refused"),
                                               _event("redis", 1, 0.3, 1.0)]))[0]
    assert failed == "DEL (del:set:2M@2s): valkey failed (refused), redis stalled 300 ms (1 ops lost)."


def test_no_target_stalled_is_never_said_of_a_series_below_half_for_more_than_two_intervals():
    def line(run_s: float) -> str:
        slowed = _event("valkey", 1, 0.0, 2_000.0, slow_s=run_s, slow_run_s=run_s, during_s=run_s + 0.3)
        return disturbance_headlines(_disturbed([slowed, _event("redis", 1, 0.0, 2_500.0, slow_s=0.0)]))[0]

    assert line(0.2).endswith(f" — no target stalled {WITHIN}")
    assert line(0.3).endswith(f" — no clear winner {WITHIN}")
    assert "below 50 % for 300 ms, 2,000 ops lost over 600 ms" in line(0.3)


def test_a_target_that_stalled_but_lost_fewest_wins_and_its_stall_is_said():
    line = disturbance_headlines(_disturbed([_event("valkey", 1, 0.0, 7_301.0), _event("redis", 1, 0.6, 2_000.0)]))[0]
    assert line.endswith(" — redis wins: fewest operations lost over the whole affected window, though it stalled "
                         "600 ms and valkey did not.")


def _overlapped(target: str, event: str, overlaps: str, charged_to: str, stall_s: float, lost: float,
                slow_s: float, evidence: str) -> dict:
    return {**_event(target, 1, stall_s, lost, event=event, at_s=5.0), "slow_s": slow_s, "overlaps": overlaps,
            "charged_to": charged_to, "evidence": evidence}


def test_the_headline_says_a_slowdown_and_where_an_overlapping_events_cost_went():
    exp, lrem = "expire:set:300k@5s", "lrem:list:100k@5s"
    blamed = [_overlapped("redis", exp, lrem, exp, 0.6, 4_775.0, 0.6,
                          "SLOWLOG EXISTS 579 ms; LATENCY expire-del 580 ms; INFO expired_keys +1"),
              _overlapped("redis", lrem, exp, exp, 0.0, 0.0, 0.0, "SLOWLOG LREM 2.4 ms"),
              {**_event("redis", 1, 0.0, 4_711.0, event="unlink:set:300k@3s", at_s=3.0), "slow_s": 0.8,
               "overlaps": None, "charged_to": "unlink:set:300k@3s", "evidence": "lazyfree: freed …"}]
    assert disturbance_headlines(_disturbed(blamed)) == [
        "UNLINK (unlink:set:300k@3s): redis no stall; slowed: below 50 % for 800 ms, 4,711 ops lost.",
        f"EXPIRE ({exp}): redis stalled 600 ms; slowed: below 50 % for 600 ms, 4,775 ops lost; overlapped {lrem}, "
        "charged here by the server's evidence (LATENCY expire-del 580 ms).",
        f"LREM ({lrem}): redis overlapped {exp}: charged there by the server's evidence (SLOWLOG LREM 2.4 ms).",
    ]
    joint = f"{exp}+{lrem}"
    together = [_overlapped("redis", exp, lrem, joint, 0.6, 4_775.0, 0.7, ""),
                _overlapped("redis", lrem, exp, joint, 0.0, 0.0, 0.0, "")]
    assert disturbance_headlines(_disturbed(together)) == [
        f"EXPIRE ({exp}): redis EXPIRE+LREM overlapped: stalled 600 ms; slowed: below 50 % for 700 ms, 4,775 ops lost "
        f"together ({lrem}: the server's evidence does not tell them apart).",
        f"LREM ({lrem}): redis overlapped {exp}: charged jointly with {exp}.",
    ]
    # no slowdown: said; an older folder without slow_s says only the stall
    quiet = [{**_event("redis", 1, 0.0, 3.0), "slow_s": 0.0}]
    assert disturbance_headlines(_disturbed(quiet)) == ["DEL (del:set:2M@2s): redis no stall, not slowed (3 ops lost)."]


def test_a_stall_reads_in_ms_below_a_second_and_in_seconds_from_one():
    assert [seconds_text(s) for s in (0.0, -1.0, math.nan, 0.3, 0.9994, 1.0, 2.25)] == [
        "none", "none", "none", "300 ms", "999 ms", "1.0 s", "2.2 s"]


def test_the_events_table_is_in_ms_per_event_and_occurrence_with_targets_in_plan_order():
    events = [_event("redis", 1, 0.25, 7.0, occurrence=2), _event("redis", 1, 0.5, 9.0),
              _event("valkey", 1, 0.125, 3.0), _event("valkey", 1, 0.0, 0.0, occurrence=2)]
    rows = event_rows(_disturbed(events))
    assert [(r["occurrence"], r["target"]) for r in rows] == [(1, "valkey"), (1, "redis"), (2, "valkey"), (2, "redis")]
    assert [(r["stall_ms"], r["command_ms"]) for r in rows] == [(125.0, 112.5), (500.0, 450.0), (0.0, 0.0),
                                                                (250.0, 225.0)]
    assert rows[0]["server_s"] is None and rows[0]["server_ms"] is None  # NaN: not measured, not 0 ms
    assert event_rows(_disturbed([])) == []


def test_the_fastest_variant_is_named_from_degraded_peaks_too_and_said_degraded(structure_study):
    """Every point of redis degraded: its headline still names the fastest variant (set, 130,000 users/s against
    hash's 125,000), marks each degraded figure and says the fastest's peak was degraded; on valkey, hash's ok
    peak (100,000 users/s) stays the fastest against set's degraded one, made faster than its ok peak but slower
    than hash, and carries no mark."""
    runs = structure_study.runs
    redis = runs["target"] == "redis"
    runs.loc[redis & (runs["status"] == "ok"), "status"] = "degraded"
    valkey_set = (runs["target"] == "valkey") & (runs["workload"] == "online-status-set") & (runs["threads"] == 8)
    runs.loc[valkey_set, "throughput_ops"] = 38_000.0  # degraded, above set's ok 30,000, below hash's 40,000
    valkey, redis_line = variant_headlines(structure_study)
    assert redis_line.count("(degraded)") == 2 and "fastest set (hash within 5%) (its peak degraded)" in redis_line
    assert "set 195 B/user, 130,000 users/s (52,000 commands/s) (degraded)" in redis_line
    assert "fastest hash (one repetition" in valkey and "(38,000 commands/s) (degraded)" in valkey
    ops = structure_study.ops  # now the fastest of valkey (102,500 users/s: its BATCH-STOREs' × 10 over 2.5 s)
    ops.loc[(ops["run_id"] == "valkey.online-status-set.run.t8.r1") & (ops["op"] == "BATCH-STORE"),
            "return_OK"] = 25_625
    assert "102,500 users/s" in variant_headlines(structure_study)[0]
    assert "fastest set (hash within 5%) (its peak degraded)" in variant_headlines(structure_study)[0]
    # one variant measured (set's points all failed, hash's degraded): nothing to rank, so no "fastest" at all
    runs = structure_study.runs
    valkey = runs["target"] == "valkey"
    structure_study.runs = runs[
        ~(valkey & (runs["workload"] == "online-status-set") & (runs["status"] != "failed"))
    ].copy()
    structure_study.runs.loc[valkey & (structure_study.runs["workload"] == "online-status-hash"), "status"] = "degraded"
    assert "fastest" not in variant_headlines(structure_study)[0]


def test_ties_are_within_5_percent_of_the_best_and_not_beyond(structure_study):
    fp = structure_study.manifest.workload_footprints
    fp["online-status-hash"]["valkey"]["bytes_per_record"] = 84.0  # set's 80 B + 5 %: a tie
    assert "smallest set (hash within 5%)" in variant_headlines(structure_study)[0]
    fp["online-status-hash"]["valkey"]["bytes_per_record"] = 84.03  # + 5.04 %: not
    assert "smallest set; fastest hash" in variant_headlines(structure_study)[0]


def test_with_a_second_repetition_the_speed_ranking_carries_no_caveat(structure_study):
    second = structure_study.runs.assign(repetition=2, run_id=structure_study.runs["run_id"].str.replace(".r1", ".r2"))
    structure_study.runs = pd.concat([structure_study.runs, second], ignore_index=True)
    lines = variant_headlines(structure_study)
    assert lines and not any("one repetition" in line for line in lines)


def test_a_disturbed_points_timeline_draws_each_interval_at_its_middle_in_the_window_with_its_stall_shaded():
    """In memory (the real-server timeline is test_disturb_truth's): a 0.5 s warm-up and 2 s measured, 100 ms
    intervals of distinct counts and p99s, a late part-interval after the end (not drawn); throughput per second
    at each interval's middle in window seconds, p99 and the loop lag's maximum in ms (values reach 20 ms); the
    warm-up shaded from its first interval's start; one event's stall shaded where it fell (since the operations
    began, less the warm-up), another event without a stall shading nothing."""
    from ycsbctl.report.disturbance_report import STALL_COLOR, timeline_figure
    from ycsbctl.results import histogram as hdr
    from ycsbctl.results.fine import FineSeries, sparse_of

    f = FineSeries(interval_s=0.1, warmup_s=0.5, end_s=2.5)
    for k in range(26):  # 0..24 in the window, 25 the late part
        f.operations[k] = 100 + 7 * k
        h = hdr.new_histogram()
        hdr.record_many(h, [100] * 90 + [1_000 * (k + 1)] * 10)
        f.latency[k] = sparse_of(hdr.counts_of(h))
        g = hdr.new_histogram()
        hdr.record_many(g, [40, 500 * (k + 1)])
        f.client_lag[k] = sparse_of(hdr.counts_of(g))
    run_id = "redis.w.run.t4.r1"
    exp = _experiment([_run("redis", "hash", 4, 1000.0)], [])
    exp.docs = {run_id: {"run_id": run_id, "target": "redis", "result": {"warmup_s": 0.5, "duration_s": 2.0}}}
    exp.series_100ms = f.frame().assign(run_id=run_id)
    exp.events = pd.DataFrame([{"run_id": run_id, "started_s": 1.0, "stall_s": 0.3, "stall_start_s": 1.6,
                                "event": "del:set:2M@1s"},
                               {"run_id": run_id, "started_s": 1.8, "stall_s": math.nan, "stall_start_s": math.nan,
                                "event": "del:set:2M@1s"}])
    fig = timeline_figure(exp, run_id)
    assert fig is not None
    top, bottom = fig.axes[:2]
    mid = [round(k * 0.1 - 0.5 + 0.05, 6) for k in range(25)]
    (tput,) = top.get_lines()[:1]
    assert [round(v, 6) for v in tput.get_xdata()] == mid
    assert list(tput.get_ydata()) == [(100 + 7 * k) * 10.0 for k in range(25)]  # ops/s: 10 × each interval's count
    p99, lag = bottom.get_lines()[:2]
    assert [round(v, 6) for v in p99.get_xdata()] == mid and [round(v, 6) for v in lag.get_xdata()] == mid
    assert list(p99.get_ydata()) == pytest.approx([(k + 1) * 1.0 for k in range(25)], rel=1e-3)  # ms
    assert list(lag.get_ydata()) == pytest.approx([0.5 * (k + 1) for k in range(25)], rel=1e-3)
    assert bottom.get_ylabel() == "latency (ms, log)" and (lag.get_linewidth(), lag.get_linestyle()) == (1.0, ":")

    def spans(ax, color):
        from matplotlib.colors import to_rgba

        out = []
        for p in ax.patches:
            if to_rgba(p.get_facecolor())[:3] == to_rgba(color)[:3]:
                out.append((round(p.get_x(), 6), round(p.get_x() + p.get_width(), 6)))  # axvspan: a Rectangle
        return out

    # each event labelled at its line, the labels stepped down 11 points each so that near ones do not overlap
    labels = [(a.get_text(), tuple(a.xyann), a.xy[0]) for a in top.texts]
    assert labels == [("del:set:2M@1s, stall 300 ms", (3, -4), 1.0), ("del:set:2M@1s", (3, -15), 1.8)], labels
    # drawn (Agg), each label hangs from the throughput panel's top edge: inside the panel, in its upper half
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    panel = top.get_window_extent(renderer)
    for a in top.texts:
        box = a.get_window_extent(renderer)
        assert panel.y0 + panel.height / 2 < box.y0 < box.y1 <= panel.y1, (a.get_text(), box, panel)
    for ax in (top, bottom):
        assert spans(ax, STALL_COLOR) == [(1.1, 1.4)]  # the one stall: 1.6 s since the start is 1.1 s into the window
        assert spans(ax, "#999") == [(-0.5, 0.0)]


def test_a_plain_workload_and_a_study_test_are_no_variants_of_the_structure_table():
    """The plan's plain workloada has no settings, a many-store test's variant is compared across stores (its own
    table): neither is a row of the variant study; online-status[online.structure=hash] is, named as its run ids."""
    from ycsbctl.report.variant_study import variants
    from ycsbctl.results.variants import TEST_AXES

    exp = _experiment([], [], workloads=["workloada", "workloads/online-status[online.structure=hash]",
                                         f"workloads/media-items[{TEST_AXES[0]}=text]"])
    assert variants(exp) == [("workloads/online-status", "online-status-hash", "hash")], variants(exp)


def test_the_structure_figure_draws_each_targets_peak_p99_and_bytes_per_variant_side_by_side(structure_study):
    """Three panels of grouped bars: for each variant (a group at 0, 1) each target's bar (valkey left, redis right,
    0.4 wide: 0.8 shared by two) is its row's figure, labelled with it; a variant a target did not run has no bar."""
    from matplotlib.colors import to_hex

    from ycsbctl.report.variant_study import study_figure

    rows = study_rows(structure_study)
    colors = {"valkey": "#E69F00", "redis": "#0072B2"}
    fig = study_figure([r for r in rows if not (r["target"] == "redis" and r["variant"] == "set")], colors)
    assert fig is not None
    panels = fig.axes[:3]
    assert [ax.get_title() for ax in panels] == ["peak throughput", "p99 latency at the peak",
                                                 "memory per record after load"]
    want = {(r["variant"], r["target"]): r for r in rows}
    for ax, col in zip(panels, ("throughput", "p99", "bytes_per_record")):
        assert [t.get_text() for t in ax.get_xticklabels()] == ["hash", "set"]
        bars = [(round(p.get_x() + p.get_width() / 2, 6), round(p.get_width(), 6), to_hex(p.get_facecolor()),
                 p.get_height()) for p in ax.patches]
        expect = [(-0.2, 0.4, "#e69f00", want[("hash", "valkey")][col]), (0.8, 0.4, "#e69f00", want[("set",
                                                                                                     "valkey")][col]),
                  (0.2, 0.4, "#0072b2", want[("hash", "redis")][col])]
        got = [b for b in bars if b[3] == b[3]]  # redis's set bar: not drawn (NaN)
        assert got == expect, (col, bars)
        labels = [t.get_text() for t in ax.texts if t.get_text()]
        assert labels[:2] == [f"{want[('hash', 'valkey')][col]:,.0f}", f"{want[('set', 'valkey')][col]:,.0f}"], labels
        assert ax.title.get_fontsize() == 10 and {t.get_fontsize() for t in ax.texts} == {7}
    one = study_figure([r for r in rows if r["target"] == "valkey"], colors)  # one target: its bars 0.8 wide, centred
    assert one is not None and {(round(p.get_x() + p.get_width() / 2, 6), round(p.get_width(), 6))
                                for p in one.axes[0].patches} == {(0.0, 0.8), (1.0, 0.8)}
    sp = fig.subplotpars
    assert (sp.top, sp.bottom, sp.wspace) == (0.8, 0.2, 0.3)  # room for the titles above and the legend below


def test_with_repetitions_the_fastest_variant_is_said_to_be_ranked_by_peaks_not_by_a_verdict(structure_study):
    """Two variants of one target are two workloads, measured in rounds of their own (a variant sweep runs variant by
    variant): no verdict compares them, so the ranking is said to be by peaks whatever the rounds."""
    structure_study.runs = structure_study.runs.assign(repetition=2)
    line = variant_headlines(structure_study)[0]
    assert line.endswith("fastest hash (by peaks: the variants ran in rounds of their own, one after another, and no "
                         "verdict compares them)."), line


def test_an_overlap_names_its_runs_only_when_there_were_several():
    from ycsbctl.report.study_headlines import _overlap_text

    row = pd.Series({"overlaps": "unlink:set:2M@5s", "charged_to": "del:set:2M@5s"})
    assert _overlap_text("joint", row, 1) == " (unlink:set:2M@5s: the server's evidence does not tell them apart)"
    assert _overlap_text("joint", row, 2) == \
        " (unlink:set:2M@5s (in 2 runs): the server's evidence does not tell them apart)"
    assert _overlap_text("alone", row, 3) == ""


def test_a_timeline_label_names_a_slowdown_only_where_there_was_one():
    """The disturbed point's timeline label (disturbance_report._label): the command's and the stall's lengths, and
    "slowed" only for a slowdown that lasted (slow_s 0: none, so nothing said)."""
    import pandas as pd

    from ycsbctl.report.disturbance_report import _label

    quiet = pd.Series({"event": "del:set:2M@3s", "command_s": 0.012, "stall_s": 0.0, "slow_s": 0.0})
    assert _label(quiet) == "del:set:2M@3s, command 12 ms, stall 0 ms"
    slowed = quiet.copy()
    slowed["slow_s"] = 0.4
    assert _label(slowed) == "del:set:2M@3s, command 12 ms, stall 0 ms, slowed 400 ms"
