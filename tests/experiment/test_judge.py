"""Stall detection over the engine's per-second series (no server needed: the series is the input). A failed
point's labels."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from tests.fixtures.phase_results import result, series, with_client_lag
from ycsbctl.experiment.judge import judge
from ycsbctl.results import histogram as hdr
from ycsbctl.results.model import OpSummary, PhaseResult
from ycsbctl.results.names import RunStatus
from ycsbctl.telemetry.stall import Stall, find_stall


def test_two_silent_seconds_among_busy_ones_are_a_stall_as_long_as_the_slowest_reply_after_them():
    s = find_stall(series([900, 1000, 0, 0, 800, 1000], {4: 2.6e6}))
    assert s is not None and s.seconds == 2.6 and 1.0 <= s.from_s <= 2.0
    assert s.text() == f"no reply for 2.6 s, from {s.from_s:.1f} s into the measured window"


def test_a_silence_no_longer_than_the_operations_themselves_is_not_a_stall():
    """ClickHouse's FULLTEXT over 100,000 items at 50 clients: every query took 2.0-7.3 s (p50 4.0 s), the 50
    started together, and no reply came in the window's first two seconds — the operations' own length,
    not a pause of the server. The same silence among 10 ms operations is a stall; so is one of 3× the
    median, and one with operations that timed out."""
    ch = series([0, 0, 0, 0, 13, 10, 24, 6, 16, 11], {4: 4.95e6}, warmup=2)
    assert find_stall(ch, warmup_s=2.0, typical_s=4.0) is None
    s = find_stall(ch, warmup_s=2.0, typical_s=0.01)
    assert s is not None and s.seconds == 5.0 and s.window_s < 0  # said as "before the measured window"
    assert find_stall(series([900, 1000, 0, 0, 0, 0, 0, 0, 800, 1000], {8: 7.5e6}), typical_s=2.5).seconds == 7.5
    timed = series([900, 1000, 8, 8, 800, 1000], {4: 2.0e6}).assign(timeouts=[0, 0, 8, 8, 0, 0])
    assert find_stall(timed, timeout_s=1.0, typical_s=2.0) is not None
    r = result([900, 1000, 0, 0, 800, 1000], {4: 2.6e6})  # judged with its own median (100 µs): a stall
    assert "no reply for 2.6 s" in judge(r, max_error_rate=0.01).reason


def test_seconds_whose_operations_all_timed_out_are_silent_seconds():
    """With --timeout 1 the clients keep failing through a 5 s outage: every second has operations,
    none of them a reply. The stall is the outage, not the timeout."""
    df = series([900, 1000, 8, 8, 8, 8, 8, 950, 1000], {7: 1.0e6})
    df["timeouts"] = [0, 0, 8, 8, 8, 8, 8, 3, 0]
    s = find_stall(df, timeouts=43, timeout_s=1.0)
    # the operations that expired in second 2 were sent a timeout (1 s) before, and never answered
    assert s is not None and s.seconds == 6.0 and s.from_s == 1.0 and s.timeouts == 43
    assert find_stall(df, timeout_s=0.5).seconds == 5.5
    assert find_stall(df).seconds == 5.0  # no timeout known: the silent seconds alone
    assert find_stall(df.assign(timeouts=[0, 0, 8, 7, 8, 8, 8, 3, 0]), timeout_s=1.0).seconds == 4.0  # a reply in 3
    legacy = df.drop(columns="timeouts")  # a folder from before the column: seconds with operations are busy
    assert find_stall(legacy) is None
    assert find_stall(df.assign(timeouts=float("nan"))) is None  # unknown (YCSB's status lines): the same


def test_the_stall_rules_at_their_edges():
    # the stall begins where the reply after it says it did: 4.5 s - 2.65 s, to a tenth of a second
    s = find_stall(series([900, 1000, 0, 0, 800, 1000], {4: 2.65e6}))
    assert (s.seconds, s.from_s) == (2.6, 1.9)
    assert find_stall(series([900, 1000, 0, 0, 800, 1000], {4: 2.949e6})).seconds == 2.9
    # five operations make a second busy; four do not
    assert find_stall(series([5, 5, 0, 5, 5])).seconds == 1.0
    assert find_stall(series([4, 4, 0, 4, 4])) is None
    # one busy second among quiet ones proves nothing
    assert find_stall(series([1000, 0, 1, 0, 1, 0, 1])) is None
    # two measured seconds are enough; a silence just before the last second counts
    assert find_stall(series([0, 1000], {1: 300.0})).seconds == 1.0
    s = find_stall(series([900, 1000, 950, 0, 800], {4: 300.0}))
    assert (s.seconds, s.from_s) == (1.0, 3.0)
    # a silence running into the last (partial) second is as long as its empty seconds
    s = find_stall(series([900, 1000, 950, 0, 0]))
    assert (s.seconds, s.from_s) == (2.0, 2.5)
    # a silence from the first measured second begins no earlier than one second before it (in the warm-up) …
    assert find_stall(series([900, 0, 0, 900, 1000, 950], {3: 5e6}, warmup=1)).from_s == 0.0
    assert find_stall(series([900, 900, 0, 0, 900, 1000, 950], {4: 5e6}, warmup=2)).from_s == 1.0
    # … and never before the run itself began (no warm-up: nothing was sent before second 0)
    assert find_stall(series([0, 0, 900, 1000, 950], {2: 5e6})).from_s == 0.0
    # a folder without the timeouts column: a second with one operation had a reply
    assert find_stall(series([900, 1000, 1, 950, 1000]).drop(columns="timeouts")) is None
    # the outage began a timeout before operations expired, but never before the measured window
    df = series([1000, 8, 8, 8, 950, 1000], {4: 1.0e6}).assign(timeouts=[0, 8, 8, 8, 0, 0])
    s = find_stall(df, timeout_s=1.0)
    assert (s.seconds, s.from_s) == (4.0, 0.0)


def test_the_stall_text_has_its_threshold_and_counts_in_words():
    assert Stall(1.0, 2.0).text() == "no reply for 1.0 s, from 2.0 s into the measured window"
    assert Stall(0.9, 2.0).text() == ""
    # begun 30 ms before the measured window (a server frozen as the workers started): 0.0 s, never "-0.0 s"
    assert Stall(2.5, 0.97, warmup_s=1.0).text() == "no reply for 2.5 s, from 0.0 s into the measured window"
    # begun 0.5 s inside the warm-up: said so, with the 2.0 s of it inside the window, never "-0.5 s"
    assert Stall(2.5, 0.5, warmup_s=1.0).text() == ("no reply for 2.5 s, from 0.5 s before the measured window "
                                                    "(in the warm-up; 2.0 s of it inside)")
    assert Stall(0.0, 0.0, timeouts=1).text() == "1 operation timed out"
    assert Stall(0.0, 0.0, timeouts=2).text() == "2 operations timed out"


def test_silent_warm_up_and_a_short_last_second_are_not_stalls():
    assert find_stall(series([0, 0, 900, 1000, 950, 0], warmup=2)) is None
    assert find_stall(series([900, 1000, 950, 1000])) is None


def test_a_paced_point_with_a_few_operations_a_second_proves_nothing():
    assert find_stall(series([1, 0, 2, 0, 1, 0, 1])) is None


def test_a_timeout_alone_degrades_the_point_and_is_counted():
    v = judge(result([900, 1000, 950], returns={"OK": 2840, "TIMEOUT": 3}), max_error_rate=0.01)
    assert v.status == "degraded" and "3 operations timed out" in v.reason and v.bottleneck["label"] == "stall"
    # no silence: the stall is the timeouts alone, 0 s long from 0 s (the evidence the report reads)
    assert find_stall(series([900, 1000, 950]), timeouts=3) == Stall(0.0, 0.0, timeouts=3)
    assert v.bottleneck["evidence"]["stall"] == {"seconds": 0.0, "from_s": 0.0, "timeouts": 3, "warmup_s": 0.0}


def test_the_servers_own_error_text_is_the_failure_reason():
    oom = "OOM command not allowed when used memory > 'maxmemory'."
    v = judge(result([900, 1000, 950], returns={"OK": 1425, "ERROR": 1425}, errors=["timed out after 1 s", oom]),
              max_error_rate=0.01)
    assert v.status == "failed" and v.reason.endswith(oom) and "50.0% of operations failed" in v.reason


def test_a_healthy_point_is_ok_with_its_measured_label_kept():
    v = judge(result([900, 1000, 950]), max_error_rate=0.01, bottleneck={"label": "server-cpu"})
    assert v.status == "ok" and v.reason is None and v.bottleneck == {"label": "server-cpu"}


def test_seconds_missing_from_a_coarse_series_are_not_silent_seconds():
    # the Java engine's status lines come every 10 s: the seconds between are absent, not empty
    df = series([0] * 31)
    df = df[df["second"] % 10 == 0].assign(operations=10_000, max_us=500.0)
    assert find_stall(df) is None
    # nor is one just after a silent second: the stall is the silent second alone (1 s), not it and the unknown one
    gap = series([1000, 1000, 0, 0, 1000, 1000, 1000, 1000])
    assert find_stall(gap[gap["second"] != 3]) == Stall(seconds=1.0, from_s=1.5)


def test_silence_while_the_client_itself_was_stopped_is_a_client_stall_not_the_servers():
    # two silent seconds, and the client's own loop ran 2.1 s late: the client never read the replies
    v = judge(with_client_lag(result([900, 0, 0, 950, 1000], max_us={3: 2_100_000.0}), [200, 2_100_000]),
              max_error_rate=0.01, bottleneck={"label": "latency"})
    assert v.status == "degraded" and v.bottleneck["label"] == "client-stall"
    assert "the client itself did not run for 2.1 s" in v.reason and "no reply" not in v.reason


def test_a_client_pause_of_a_tenth_of_the_window_degrades_even_without_a_silent_second():
    busy = [900, 1000, 950, 1000, 980, 990, 1000, 1010, 990, 1000]  # 10 s measured
    v = judge(with_client_lag(result(busy), [200, 1_200_000]), max_error_rate=0.01, bottleneck={"label": "latency"})
    assert v.status == "degraded" and v.bottleneck["label"] == "client-stall"
    assert v.bottleneck["evidence"]["measured_label"] == "latency"  # what the figures said stays as evidence


def test_short_client_hiccups_leave_the_point_ok_and_a_servers_stall_stays_the_servers():
    busy = [900, 1000, 950, 1000, 980, 990, 1000, 1010, 990, 1000]
    assert judge(with_client_lag(result(busy), [200, 900_000]), max_error_rate=0.01).status == "ok"  # < 1 s
    long = [900] * 30  # 1.2 s of a 30 s window: under a tenth
    assert judge(with_client_lag(result(long), [200, 1_200_000]), max_error_rate=0.01).status == "ok"
    # the server froze 3 s while the client ran (its loop at most 50 ms late): the server's stall
    v = judge(with_client_lag(result([900, 0, 0, 0, 950, 1000]), [200, 50_000]), max_error_rate=0.01)
    assert v.status == "degraded" and v.bottleneck["label"] == "stall"


def test_lookups_that_found_no_record_during_the_point_degrade_it_and_say_from_when():
    r = result([900, 1000, 950], returns={"OK": 1900, "NOT_FOUND": 950})
    failed = series([0, 0, 950])
    failed["op"] = "READ-FAILED"
    r.series = pd.concat([r.series, failed])
    v = judge(r, max_error_rate=0.01, bottleneck={"label": "latency"})
    assert v.status == "degraded"
    assert "950 of 2,850 lookups found no record (NOT_FOUND, 33.3%), from 2 s into the measured window" in v.reason
    assert v.bottleneck["label"] == "latency"  # the figures' label stays: the reason says what went wrong


def test_a_stray_not_found_or_two_leave_the_point_ok():
    assert judge(result([900, 1000, 950], returns={"OK": 2848, "NOT_FOUND": 2}), max_error_rate=0.01).status == "ok"


def test_a_client_pause_is_judged_against_a_tenth_of_the_window_at_its_edge():
    window = [950] * 20  # 20 s measured: the line is 2.0 s
    assert judge(with_client_lag(result(window), [200, 2_000_000]), max_error_rate=0.01).status == "degraded"
    assert judge(with_client_lag(result(window), [200, 1_990_000]), max_error_rate=0.01).status == "ok"
    v = judge(with_client_lag(result(window), [200, 2_000_000]), max_error_rate=0.01)
    assert "did not run for 2.0 s of the 20.0 s measured" in v.reason


def test_a_silence_is_the_clients_when_its_pause_covers_half_of_it_and_the_servers_below():
    counts = [950] * 20 + [0, 0, 0, 0] + [950] * 16  # a 4 s silence in 40 s: the client's from 2.0 s of pause
    assert judge(with_client_lag(result(counts), [200, 2_000_000]),
                 max_error_rate=0.01).bottleneck["label"] == "client-stall"
    v = judge(with_client_lag(result(counts), [200, 1_990_000]), max_error_rate=0.01)
    assert v.status == "degraded" and v.bottleneck["label"] == "stall"  # the server's: the client ran half of it
    v = judge(with_client_lag(result(counts), [200, 1_500_000]), max_error_rate=0.01)
    assert v.bottleneck["label"] == "stall"


def test_missing_data_is_dated_from_the_first_second_it_was_missed():
    r = result([900, 1000, 950], returns={"OK": 1900, "NOT_FOUND": 950})
    failed = series([0, 400, 550])
    failed["op"] = "READ-FAILED"
    r.series = pd.concat([r.series, failed])
    assert "from 1 s into the measured window" in judge(r, max_error_rate=0.01).reason


def test_a_stall_and_missing_data_are_dated_on_the_consoles_one_clock_the_warm_up_negative():
    """The series counts from the point's start; the console counts from the measured window (an event
    "at 4.00 s"): with a 2 s warm-up, a silence that began in the series' second 6 began at 4 s, and
    one in the warm-up's first second at −2 s."""
    from ycsbctl.experiment.missing import find_missing

    counts = [900, 1000, 950, 1000, 900, 1000, 0, 0, 950, 1000]
    assert Stall(1.0, 6.0, warmup_s=2.0).text() == "no reply for 1.0 s, from 4.0 s into the measured window"
    # one that began in the warm-up is said so, never at a negative offset (ClickHouse's FULLTEXT: "-1.0 s")
    assert Stall(5.0, 1.0, warmup_s=2.0).text() == ("no reply for 5.0 s, from 1.0 s before the measured window "
                                                    "(in the warm-up; 4.0 s of it inside)")
    assert Stall(0.5, 0.0, timeouts=3, warmup_s=2.0).text() == "3 operations timed out"
    r = result(counts)
    r.warmup_s = 2.0
    r.series["warmup"] = r.series["second"] < 2
    v = judge(r, max_error_rate=0.01)
    began = find_stall(r.series).from_s  # on the series' clock
    assert f"from {began - 2.0:.1f} s into the measured window" in v.reason, v.reason
    m = result([900, 1000, 950, 1000], returns={"OK": 2850, "NOT_FOUND": 950})
    m.warmup_s = 1.0
    failed = series([0, 0, 0, 950])
    failed["op"] = "READ-FAILED"
    m.series = pd.concat([m.series, failed])
    assert find_missing(m).from_s == 2.0  # the series' second 3, less the 1 s warm-up


def test_missing_data_needs_more_than_a_thousandth_of_the_lookups_in_a_run_phase():
    from ycsbctl.experiment.missing import find_missing

    at_line = result([1000, 1000], returns={"OK": 1998, "NOT_FOUND": 2})  # exactly 0.1 %: not yet
    assert find_missing(at_line) is None
    over = result([1000, 1000], returns={"OK": 1997, "NOT_FOUND": 3})
    found = find_missing(over)
    assert found is not None and (found.not_found, found.lookups) == (3, 2000)
    # a thousandth (0.1 %), to the operation: 101 of 100,000 is above it, 100 is not
    assert find_missing(result([50_000, 50_000], returns={"OK": 99_899, "NOT_FOUND": 101})) is not None
    assert find_missing(result([50_000, 50_000], returns={"OK": 99_900, "NOT_FOUND": 100})) is None
    over.phase = "load"  # a load reads nothing
    assert find_missing(over) is None and find_missing(None) is None


def test_a_silence_during_the_points_own_disturbance_is_said_not_held_against_it():
    # a DEL began at 1.9 s and held the server 1.3 s: second 2 is silent — what the point measures
    r = result([900, 1000, 0, 800, 1000], max_us={3: 1.3e6})
    v = judge(r, max_error_rate=0.01, bottleneck={"label": "server-cpu"}, disturbances=[(1.9, 1.9 + 1.3 + 1.0)])
    assert v.status == "ok" and v.bottleneck == {"label": "server-cpu"}
    assert "during the point's own disturbance" in v.reason
    # the same silence away from any disturbance is a stall
    away = judge(r, max_error_rate=0.01, disturbances=[(3.5, 4.0)])
    assert away.status == "degraded" and away.bottleneck["label"] == "stall"


def _lookups(ops: dict[str, dict[str, int]], counts: list[int] | None = None) -> PhaseResult:
    """A run whose operations ``ops`` (name -> returns) each kept a histogram of one 100 µs reply."""
    h = hdr.new_histogram()
    h.record_value(100)
    summaries = {name: OpSummary.from_histogram(name, h, returns) for name, returns in ops.items()}
    total = sum(sum(r.values()) for r in ops.values())
    counts = counts or [total // 2, total - total // 2]
    return PhaseResult("run", 4, 1000.0 * len(counts), total, summaries, series(counts))


def test_the_missing_share_counts_scans_and_read_modify_writes_and_leaves_inserts_out():
    from ycsbctl.experiment.missing import find_missing

    for op in ("SCAN", "READ-MODIFY-WRITE", "UPDATE"):
        found = find_missing(_lookups({op: {"OK": 1997, "NOT_FOUND": 3}}))
        assert found is not None and (found.not_found, found.lookups) == (3, 2000), op
        assert find_missing(_lookups({op: {"OK": 1998, "NOT_FOUND": 2}})) is None, op
    # an insert looks no key up: its 1,000 operations are not lookups, its NOT_FOUND none of the missing
    found = find_missing(_lookups({"READ": {"OK": 1997, "NOT_FOUND": 3}, "INSERT": {"OK": 990, "NOT_FOUND": 10}}))
    assert found is not None and (found.not_found, found.lookups) == (3, 2000)
    # every status of a lookup is one lookup (ERROR too): 3 of 3,000 is the line
    assert find_missing(_lookups({"READ": {"OK": 1997, "NOT_FOUND": 3, "ERROR": 1000}})) is None
    r = _lookups({"SCAN": {"OK": 1500, "NOT_FOUND": 500}}, counts=[1000, 1000, 0])
    failed = series([0, 0, 500])
    failed["op"] = "SCAN-FAILED"
    r.series = pd.concat([r.series, failed])
    assert find_missing(r).from_s == 2.0


def test_a_stall_with_timeouts_inside_a_disturbance_window_is_held_against_the_point():
    from ycsbctl.experiment.judge import caused_by_disturbance

    r = result([900, 1000, 0, 800, 1000], max_us={3: 1.3e6}, returns={"OK": 3697, "TIMEOUT": 3})
    v = judge(r, max_error_rate=0.01, disturbances=[(1.9, 4.0)])
    assert v.status == "degraded" and v.bottleneck["label"] == "stall" and "timed out" in v.reason
    # the window is open at both ends: a stall that ends where it begins, or begins where it ends, is not in it
    assert caused_by_disturbance(Stall(1.0, 2.0), [(1.5, 2.5)])
    assert not caused_by_disturbance(Stall(1.0, 2.0), [(3.0, 4.0)])
    assert not caused_by_disturbance(Stall(1.0, 2.0), [(1.0, 2.0)])
    assert caused_by_disturbance(Stall(1.0, 2.0), [(2.9, 4.0)]) and caused_by_disturbance(Stall(1.0, 2.0), [(1.0, 2.1)])
    assert not caused_by_disturbance(Stall(1.0, 2.0, timeouts=1), [(1.5, 2.5)])


def test_the_errors_column_is_error_plus_timeout_and_not_not_found():
    """runs.parquet's ``errors``, ``timeouts``, ``not_found`` and ``error_rate``, and the judge's error rate,
    summed by hand over two operations."""
    from ycsbctl.results.tables import run_row

    r = _lookups({"READ": {"OK": 980, "NOT_FOUND": 5, "ERROR": 2, "TIMEOUT": 3}, "UPDATE": {"OK": 1009, "ERROR": 1}})
    assert r.operations == 2000 and r.error_rate == (2 + 3 + 1) / 2000
    doc = {"run_id": "r", "target": "t", "workload": "w", "phase": "run", "threads": 4, "repetition": 0,
           "status": "ok", "result": r.to_dict()}
    row = run_row(doc)
    assert (row["errors"], row["timeouts"], row["not_found"]) == (6, 3, 5)
    assert row["error_rate"] == pytest.approx(6 / 2000)
    # above --max-error-rate by ERROR + TIMEOUT, not by NOT_FOUND
    assert judge(r, max_error_rate=0.0029).status == "failed"
    assert judge(r, max_error_rate=0.003).status != "failed"


def test_a_point_cut_short_keeps_its_reason_but_neither_a_label_nor_a_rate_and_an_interrupted_one_keeps_both():
    """The cut-short rule where it is applied: a result the engine ended FAILED (its clients stopped before the
    window's end) is cut short — the judge keeps its reason and drops the bottleneck (a 1 s of 4 s "rate" labelled
    would mislead), and runs.parquet's row has no throughput (NaN) while keeping its operations and runtime; an
    INTERRUPTED (Ctrl-C) or OK result is not cut short: its label and its rate, 1,900 operations over 2 s, stay."""
    from ycsbctl.results.model import cut_short
    from ycsbctl.results.tables import run_row

    assert [cut_short(s) for s in ("failed", "interrupted", "ok", "degraded",
                                   None)] == [True, False, False, False, False]
    rows = {}
    for status in (RunStatus.FAILED, RunStatus.INTERRUPTED, RunStatus.OK):
        r = result([900, 1000], errors=["lost the server at 127.0.0.1:6379"])
        r.status = status
        assert r.cut_short == (status == RunStatus.FAILED)
        v = judge(r, max_error_rate=1.0, bottleneck={"label": "server-cpu"})
        rows[status] = (v, run_row({"run_id": "r", "target": "t", "workload": "w", "phase": "run", "threads": 4,
                                    "repetition": 0, "status": v.status, "result": r.to_dict()}))
    failed, row = rows[RunStatus.FAILED]
    assert failed.status == "failed" and failed.bottleneck is None and "lost the server" in (failed.reason or "")
    assert math.isnan(row["throughput_ops"]) and (row["operations"], row["runtime_ms"]) == (1900, 2000.0)
    interrupted, row = rows[RunStatus.INTERRUPTED]
    assert interrupted.status == "interrupted" and interrupted.bottleneck == {"label": "server-cpu"}
    assert row["throughput_ops"] == pytest.approx(1900 / 2.0)
    assert rows[RunStatus.OK][1]["throughput_ops"] == pytest.approx(1900 / 2.0)


def test_a_point_cut_short_keeps_no_label_not_even_a_faults_which_a_point_failed_by_its_errors_keeps():
    """A failed point keeps only a fault's label (stall, client-stall, host-busy: Verdict's rule), but one cut short
    keeps none: its label would name a rate it did not measure. Each fault label given to a cut-short result is
    dropped; given to a result the engine ran to its end whose ERROR rate failed it, it is kept (was: the cut-short
    rule could be removed unseen, as the test above gives only a label the failed rule drops anyway)."""
    from ycsbctl.results.names import FAULT_LABELS

    assert len(FAULT_LABELS) == 3
    for label in FAULT_LABELS:
        r = result([900, 1000], errors=["lost the server at 127.0.0.1:6379"])
        r.status = RunStatus.FAILED
        cut = judge(r, max_error_rate=1.0, bottleneck={"label": label, "text": label})
        assert r.cut_short and cut.status == "failed" and cut.bottleneck is None, (label, cut)
        ran = result([900, 1000, 950], returns={"OK": 1425, "ERROR": 1425}, errors=["ERROR from the server"])
        failed = judge(ran, max_error_rate=0.01, bottleneck={"label": label, "text": label})
        assert not ran.cut_short and failed.status == "failed", (label, failed)
        assert (failed.bottleneck or {}).get("label") == label, (label, failed)


def test_the_verdicts_small_rules_each_said_by_a_case():
    from ycsbctl.experiment.missing import find_missing

    # an operation with no NOT_FOUND adds none: 3 of 3,000 is the line, not over it
    assert find_missing(_lookups({"READ": {"OK": 1997, "NOT_FOUND": 3}, "UPDATE": {"OK": 1000}})) is None
    found = find_missing(_lookups({"READ": {"OK": 1996, "NOT_FOUND": 4}, "UPDATE": {"OK": 1000}}))
    assert found is not None and (found.not_found, found.lookups) == (4, 3000)
    # a series that cannot say when: no date; one failed operation in a second dates it
    r = _lookups({"READ": {"OK": 1990, "NOT_FOUND": 10}}, counts=[1000, 1000, 0])
    r.series = None
    assert find_missing(r).from_s is None
    r = _lookups({"READ": {"OK": 1990, "NOT_FOUND": 10}}, counts=[1000, 1000, 0])
    failed = series([0, 1, 9])
    failed["op"] = "READ-FAILED"
    r.series = pd.concat([r.series, failed])
    assert find_missing(r).from_s == 1.0
    # no result; no operation measured
    assert judge(None, max_error_rate=0.01).reason == "no result"
    assert judge(None, max_error_rate=0.01, error="server down").reason == "server down"
    empty = result([0, 0])
    v = judge(empty, max_error_rate=0.01)
    assert v.status == "failed" and "no operation was measured" in v.reason and "operationcount" in v.reason
    empty.phase = "load"  # a load of no records names the property that made it: recordcount, not operationcount
    v = judge(empty, max_error_rate=0.01)
    assert "give recordcount ≥ 1" in v.reason and "operationcount" not in v.reason
    # a server's text without an ERROR count is not said as errors, on a degraded point or an ok one
    slow = result([900, 1000, 950], returns={"OK": 2847, "TIMEOUT": 3}, errors=["LOADING Redis is loading"])
    assert "ERROR" not in judge(slow, max_error_rate=0.01).reason
    assert judge(result([900, 1000, 950], errors=["LOADING Redis is loading"]), max_error_rate=0.01).reason is None
    # another benchmark on the host labels the point only when no stall says more
    busy = judge(result([900, 1000, 950]), max_error_rate=0.01, host_busy="another benchmark ran")
    assert busy.status == "degraded" and busy.bottleneck["label"] != "stall"
    stalled = judge(result([900, 1000, 0, 0, 800, 1000], {4: 2.6e6}), max_error_rate=0.01,
                    host_busy="another benchmark ran")
    assert stalled.bottleneck["label"] == "stall"
    # a point degraded only by a busy host is compared (the rounds' pairing controls it); one that also stalled,
    # or whose dataset was short, is not
    assert busy.compared and busy.busy_only and not stalled.compared
    short = judge(result([900, 1000, 950]), max_error_rate=0.01, host_busy="another benchmark ran",
                  dataset_note="only 900 of 1,000 records were there")
    assert short.status == "degraded" and not short.compared
    assert judge(result([900, 1000, 950]), max_error_rate=0.01).compared  # ok


def test_a_silence_longer_than_the_rest_of_the_window_is_a_stall():
    """A server frozen 12 s of a 15 s window: two busy seconds, the silence, the two operations that
    waited through it (12.2 s each) in the last second. The busy seconds are most of those with replies
    (was: compared with all 15 seconds, so a freeze longer than half the window was never one, and the
    point read 'latency, ok')."""
    counts = [619, 482] + [0] * 12 + [2]
    s = find_stall(series(counts, {14: 12.17e6}))
    assert s is not None and s.seconds == 12.2 and s.from_s == 2.0  # the first silent second
    v = judge(result(counts, {14: 12.17e6}), max_error_rate=0.01)
    assert v.status == "degraded" and v.bottleneck["label"] == "stall" and "no reply for 12.2 s" in v.reason


def test_an_unpaced_point_silent_from_its_start_is_a_stall_a_paced_one_is_not():
    """No busy second at all: the clients of an unpaced point each always wait on an operation, so a
    silence over half the window is the server's (frozen before the window began); a paced point at a
    few operations a second proves nothing, nor does a short silence of an unpaced one."""
    frozen = series([0, 0, 0, 0, 0, 0, 2], {6: 7.5e6})
    s = find_stall(frozen)
    assert s is not None and s.seconds == 7.5
    assert find_stall(frozen, paced=True) is None
    assert find_stall(series([1, 0, 0, 1, 2, 1, 1, 2], {3: 2.1e6})) is None  # 2.1 s of 8: under half
    assert find_stall(series([1, 0, 0, 0, 0, 1, 2, 1], {5: 4.2e6})).seconds == 4.2  # 4.2 s of 8: over half
    assert find_stall(series([1, 0, 0, 0, 1, 2, 1, 1], {4: 3.9e6})) is None  # 3.9 s of 8: under half
    r = result([0, 0, 0, 0, 0, 0, 2], {6: 7.5e6})
    assert judge(r, max_error_rate=0.01).status == "degraded"
    r.target_rate = 10.0
    assert judge(r, max_error_rate=0.01).status == "ok"


def test_the_client_lag_warning_quotes_its_figures_in_ms_as_hdrhistogram_reads_them():
    """1,000 reads (990 of 20 ms, 10 of 40 ms), the loop late by 30 ms at every probe but one of 45 ms: the
    warning quotes the lag's p99.9 and maximum and the reads' p99 (not p99.99) and maximum, each
    HdrHistogram's own value in ms."""
    from hdrh.histogram import HdrHistogram

    from ycsbctl.results.client_lag import client_lag_warning

    reads, lag = HdrHistogram(1, 3_600_000_000, 3), HdrHistogram(1, 3_600_000_000, 3)
    for v in [20_000] * 990 + [40_000] * 10:  # p99 20 ms, p99.99 and the maximum 40 ms
        reads.record_value(v)
    for v in [30_000] * 999 + [45_000]:
        lag.record_value(v)
    r = PhaseResult("run", 4, 1000.0, 1000, {"READ": OpSummary.from_histogram("READ", reads, {"OK": 1000})},
                    series([1000]))
    r = with_client_lag(r, [30_000] * 999 + [45_000])
    lag999, lag_max = lag.get_value_at_percentile(99.9), lag.get_max_value()
    p99, op_max = reads.get_value_at_percentile(99.0), reads.get_max_value()
    assert client_lag_warning(r) == (
        f"client lag: the load generator's own event loop ran late — its p99.9 ({lag999 / 1000:.2f} ms) is "
        f"{lag999 / p99:.0%} of the operations' p99 ({p99 / 1000:.2f} ms); its maximum ({lag_max / 1000:.1f} ms) is "
        f"{lag_max / op_max:.0%} of the slowest operation's ({op_max / 1000:.1f} ms): that part of the latency is "
        "the client's, not the server's")
    # ÷ 1001: 29.99, 20.00
    assert f"({lag999 / 1000:.2f} ms)" == "(30.02 ms)" and f"({p99 / 1000:.2f} ms)" == "(20.02 ms)"


def test_the_client_pause_text_gives_the_measured_window_in_seconds_to_the_tenth():
    """runtime_ms 20,040 and 20,060 read 20.0 s and 20.1 s (ms to s by 1,000: neither 999 nor 1,001), in the
    client-stall sentence and in the lock-wait one an embedded store's pause cause gives."""
    for runtime_ms, said in ((20_040.0, "20.0"), (20_060.0, "20.1")):
        r = with_client_lag(result([950] * 20), [200, 2_100_000])
        r.runtime_ms = runtime_ms
        v = judge(r, max_error_rate=0.01)
        assert f"did not run for 2.1 s of the {said} s measured" in v.reason, v.reason
        r = with_client_lag(result([950] * 20), [200, 2_100_000])
        r.runtime_ms = runtime_ms
        v = judge(r, max_error_rate=0.01, pause_cause=lambda: "a lock held by pid 7")
        assert v.reason.startswith(f"the client's calls waited 2.1 s of the {said} s measured: a lock held by pid 7"), \
            v.reason


def test_a_failed_point_is_said_by_its_first_error():
    r = result([900, 1000], errors=["first: connection refused", "second: timed out"])
    r.status = RunStatus.FAILED
    assert judge(r, max_error_rate=0.01).reason == "first: connection refused"


def test_workers_that_never_connected_are_said_with_the_stores_own_reason_and_only_then():
    """A PostgreSQL primary whose commits wait for a synchronous standby that is gone: the workers' first commit
    (the table's creation) waits, and "did not connect within 60 s" alone blamed the connection."""
    asked = []

    def cause() -> str:
        asked.append(1)
        return "the primary's commits wait for a synchronous standby"

    v = judge(None, max_error_rate=0.01, error="the engine's workers did not connect within 60 s", stall_cause=cause)
    assert v.status == RunStatus.FAILED
    assert v.reason == ("the engine's workers did not connect within 60 s; "
                        "the primary's commits wait for a synchronous standby")
    assert judge(None, max_error_rate=0.01, error="cannot reach the server", stall_cause=cause).reason == \
        "cannot reach the server"
    assert judge(None, max_error_rate=0.01, error="the engine's workers did not connect within 60 s",
                 stall_cause=lambda: None).reason == "the engine's workers did not connect within 60 s"
    assert len(asked) == 1  # asked only of workers that did not connect


def test_a_stall_from_the_first_second_of_a_point_without_warm_up_begins_at_its_start_never_before():
    """Every operation timed out from the start (a primary whose commits wait for a standby that is gone), no
    warm-up: the silence is the whole window, 3.0 s from 0.0 s — not 4.0 s from 1.0 s before a window that had
    nothing before it (the timeout back-dates expired operations, never past the run's own start)."""
    df = series([0, 0, 0]).assign(operations=[2, 2, 2], timeouts=[2, 2, 2], max_us=[932_863.0, 999_935.0, 999_935.0])
    s = find_stall(df, timeouts=6, timeout_s=1.0)
    assert (s.seconds, s.from_s, s.window_s) == (3.0, 0.0, 0.0)
    assert s.text() == "no reply for 3.0 s, from 0.0 s into the measured window; 6 operations timed out"


def test_the_operations_own_length_is_their_median_in_seconds_at_its_edge():
    # 2.6 s without a reply; the median operation took 1.725 s: 1.5 x 1.725 = 2.59 s < 2.6 s, a stall (read as
    # 1.725 / 0.99 s it would be 2.61 s, the operations' own length); 1.74 s: 2.61 s, not a stall
    def judged(median_us: int):
        h = hdr.new_histogram()
        h.record_value(median_us, 3)
        counts = [900, 1000, 0, 0, 800, 1000]
        r = PhaseResult("run", 4, 6000.0, sum(counts), {"READ": OpSummary.from_histogram("READ", h,
                                                                                         {"OK": sum(counts)})},
                        series(counts, {4: 2.6e6}))
        return judge(r, max_error_rate=0.01)

    assert judged(1_725_000).stall is not None
    assert "no reply for 2.6 s" in (judged(1_725_000).reason or "")
    assert judged(1_740_000).stall is None


def test_a_stall_began_half_a_second_into_the_second_that_ended_it_less_the_slowest_reply():
    # silent seconds 2 and 3; the slowest reply of second 4 waited 2.553 s: it was sent at 4.5 - 2.553 = 1.947 s
    s = find_stall(series([900, 1000, 0, 0, 800, 1000], {4: 2.553e6}))
    assert s is not None and (s.seconds, s.from_s) == (2.6, 1.9)
    s = find_stall(series([900, 1000, 0, 0, 800, 1000], {4: 2.547e6}))  # sent at 1.953 s
    assert s is not None and (s.seconds, s.from_s) == (2.5, 2.0)
    # no reply time known after the silence: half a second before its first empty second
    gap = series([900, 1000, 900, 0, 0, 0, 800, 1000])
    gap.loc[6, "max_us"] = math.nan
    s = find_stall(gap)
    assert s is not None and (s.seconds, s.from_s) == (3.0, 2.5)


def test_a_failed_point_keeps_a_fault_label_without_its_why_and_no_other_and_a_stall_says_its_cause_if_known():
    from ycsbctl.experiment.judge import Verdict, client_stalled

    kept = Verdict(RunStatus.FAILED, "x", {"label": "stall", "why": "w", "seconds": 3.0})
    assert kept.bottleneck == {"label": "stall", "seconds": 3.0}
    assert Verdict(RunStatus.FAILED, "x", {"label": "server-cpu", "why": "w"}).bottleneck is None
    assert Verdict(RunStatus.OK, None,
                   {"label": "server-cpu", "why": "w"}).bottleneck == {"label": "server-cpu", "why": "w"}
    # a client pause of exactly half a stall makes it the client's (100 s measured: not a tenth of the window)
    r = with_client_lag(result([950] * 100), [200, 2_600_000])
    paused = r.client_lag.max_us / 1e6
    assert client_stalled(r, Stall(2 * paused, 10.0)) and not client_stalled(r, Stall(2 * paused + 0.1, 10.0))
    # the stall's reason, with the cause found for it when there is one, never a cause that is not
    counts, slowest = [900, 1000, 0, 0, 800, 1000], {4: 2.6e6}
    assert judge(result(counts, slowest),
                 max_error_rate=0.01).reason == "no reply for 2.6 s, from 1.9 s into the measured window"
    said = judge(result(counts, slowest), max_error_rate=0.01, stall_cause=lambda: "the server saved its snapshot")
    assert said.reason == "no reply for 2.6 s, from 1.9 s into the measured window: the server saved its snapshot"


def test_lookups_missed_in_the_series_first_second_are_said_missing_from_the_points_start_and_later_ones_are_not():
    """from_first_second: the first failed second is the series' first (the warm-up's, when it has one), not
    only some second after it; a miss one second later is dated instead."""
    from ycsbctl.experiment.missing import find_missing

    for first, expected in ((0, True), (1, False)):
        r = result([900, 1000, 950], returns={"OK": 1900, "NOT_FOUND": 950})
        failed = series([400 if k >= first else 0 for k in range(3)])
        failed["op"] = "READ-FAILED"
        r.series = pd.concat([r.series, failed])
        found = find_missing(r)
        assert found is not None and found.from_first_second is expected, first
        assert ("from the point's first second" in found.text()) is expected


def test_the_client_lag_rule_holds_the_lag_against_the_failed_operations_tail_too():
    """1,000 reads of 20 ms and 50 READ-FAILED that waited 1 s each (timed out): the operations' p99 and maximum
    are the failed reads' 1 s, so a loop late by 30 ms (45 ms at worst) is 3 % of the tail, no warning; the same
    lag against the 1,000 OK reads alone (20 ms) is 150 % of their p99 and is one."""
    from hdrh.histogram import HdrHistogram

    from ycsbctl.results.client_lag import client_lag_warning

    reads, failed = HdrHistogram(1, 3_600_000_000, 3), HdrHistogram(1, 3_600_000_000, 3)
    for v in [20_000] * 1000:
        reads.record_value(v)
    for v in [1_000_000] * 50:
        failed.record_value(v)
    ops = {"READ": OpSummary.from_histogram("READ", reads, {"OK": 1000, "TIMEOUT": 50}),
           "READ-FAILED": OpSummary.from_histogram("READ-FAILED", failed, {"TIMEOUT": 50})}
    r = with_client_lag(PhaseResult("run", 4, 1000.0, 1050, ops, series([1050])), [30_000] * 999 + [45_000])
    assert client_lag_warning(r) is None
    alone = with_client_lag(PhaseResult("run", 4, 1000.0, 1000, {"READ": ops["READ"]}, series([1000])),
                             [30_000] * 999 + [45_000])
    assert (alone_said := client_lag_warning(alone)) is not None and "150% of the operations' p99" in alone_said


def test_a_silence_is_held_against_the_points_median_latency_not_its_tail():
    """3,700 reads: 3,660 of 100 µs and 40 of 2 s (p50 100 µs, p99 2 s, as HdrHistogram reads them): two silent
    seconds ended by a 2.6 s reply are a stall — 1.5 × the median is 150 µs; against the p99 (1.5 × 2 s: 3 s) it would
    pass as the operations' own length."""
    h = hdr.new_histogram()
    hdr.record_many(h, [100] * 3660 + [2_000_000] * 40)
    assert (h.get_value_at_percentile(50), h.get_value_at_percentile(99)) == (100, h.get_max_value())
    assert h.get_max_value() == pytest.approx(2_000_000, rel=1e-3)
    r = result([900, 1000, 0, 0, 800, 1000], {4: 2.6e6})
    r.ops["READ"] = OpSummary.from_histogram("READ", h, {"OK": 3700})
    v = judge(r, max_error_rate=0.01)
    assert v.status == "degraded" and "no reply for 2.6 s" in v.reason, v


def test_a_failed_point_keeps_a_fault_label_host_busy_included_and_no_rate_label():
    from ycsbctl.experiment.judge import Verdict
    from ycsbctl.results.names import RunStatus

    for label, kept in (("stall", True), ("client-stall", True), ("host-busy", True), ("client-cpu", False),
                        ("server-cpu", False), ("latency", False)):
        v = Verdict(RunStatus.FAILED, "lost the server", {"label": label, "why": "w", "text": "t"})
        assert v.bottleneck == ({"label": label, "text": "t"} if kept else None), label
    assert Verdict(RunStatus.OK, None, {"label": "latency", "why": "w"}).bottleneck == {"label": "latency", "why": "w"}


def test_an_alternated_targets_held_slices_are_no_stall_nor_held_against_it_and_its_reason_says_them():
    """A point whose second 1 was all held slices (another target's late operations): that second is not read as a
    silence, and the point is not degraded for it (the engine left that time out of its rate, the slice pairs
    their blocks): ok with the note as its reason, and with a busy host as the only other reason it is compared
    like any busy point of paired rounds."""
    r = result([900, 0, 950, 1000])
    note = "2 of its 10 slices (0.4 s) served nothing: …"
    plain = judge(r, max_error_rate=0.01, bottleneck={"label": "latency"}, held={1}, held_note=note)
    assert (plain.status, plain.reason, plain.stall, plain.bottleneck["label"]) == ("ok", note, None, "latency")
    busy = judge(r, max_error_rate=0.01, bottleneck={"label": "latency"}, held={1}, held_note=note,
                 host_busy="other programs used 40 % of a core")
    assert busy.status == "degraded" and busy.compared and note in (busy.reason or "")
    assert judge(r, max_error_rate=0.01, bottleneck={"label": "latency"}).stall is not None  # read alone: a stall


def test_an_alternated_point_whose_slices_its_partner_held_and_that_measured_nothing_fails_naming_the_partner():
    """No operation measured in an alternated session whose partner's late operations held its slices (a slow store
    beside it, one client thread, 0.05 s slices): failed, and the reason is the partner's hold and what gives the
    point slices of its own, not "check the target" (CI, 1 Dec 2026: redis beside ClickHouse, 4 of 6 slices held)."""
    r = result([0, 0])
    note = "4 of its 6 slices (0.2 s) served nothing: every client was still waiting on clickhouse's late operations"
    v = judge(r, max_error_rate=0.01, held={0}, held_note=note)
    assert v.status == "failed" and v.reason == (f"no operation was measured ({note}, and none started in its other "
                                                 "slices: give longer points (--duration) or slices (--slice))")
    assert "check the target" in (judge(r, max_error_rate=0.01).reason or "")


def test_an_alternated_targets_stall_is_read_from_the_operation_that_waited_where_no_second_went_empty():
    """Its replies on waking counted where the wait began: no empty second, but one operation ran 1.7 s past its
    slice's end while its own slices up to then measured nothing — a stall of 1.7 s, the server's."""
    nan = math.nan
    r = result([7000, 2, 856, 3000])
    r.slices = pd.DataFrame([{"t_end_s": e, "operations": n, "switch_s": sw, "warmup": False}
                             for e, n, sw in [(0.4, 2420, 0.0002), (1.2, 2, 1.688), (1.4, 0, nan), (2.0, 0, nan),
                                              (2.8, 0, nan), (3.0, 856, 0.0002)]])
    v = judge(r, max_error_rate=0.01, bottleneck={"label": "latency"})
    assert v.status == "degraded" and v.bottleneck["label"] == "stall" and v.stall["seconds"] == 1.7
    assert v.reason.startswith("no reply for 1.7 s, from 1.2 s into the measured window")
    r.slices = None
    assert judge(r, max_error_rate=0.01, bottleneck={"label": "latency"}).status == "ok"
