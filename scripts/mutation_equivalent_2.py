"""Equivalent mutants, part 2 of 4, in the order they were judged: see scripts/mutation_equivalent.py."""

from __future__ import annotations

EQUIVALENT: dict[str, str] = {
    "ycsbctl/engine/measurements.py: self.sched[v if v < _SMALL else hdr.counts_index(v)] += 1 | Lt -> LtE":
        "values below 2048 µs are their own HDR index and 2048's index is 2048 (hdr.counts_index): at v == 2048 both branches count the same slot",
    "ycsbctl/results/scaling.py: if kappa > 0 and (peak_n is None or peak_n < float(t[0])):  # the curve only falls over the ladder | Gt -> GtE":
        "curve_fit with bounds is scipy's 'trf', whose iterates stay strictly inside the bounds: κ is never 0 (nor σ 1), "
        "so κ > 0, κ >= 0 and κ > -1 are all true and peak_n is always computed",
    "ycsbctl/results/scaling.py: if kappa > 0 and (peak_n is None or peak_n < float(t[0])):  # the curve only falls over the ladder | 0 -> -1":
        "curve_fit with bounds is scipy's 'trf', whose iterates stay strictly inside the bounds: κ is never 0 (nor σ 1), "
        "so κ > 0, κ >= 0 and κ > -1 are all true and peak_n is always computed",
    "ycsbctl/results/scaling.py: if peak_n is not None and peak_n > PEAK_REACH * float(t[-1]): | Gt -> GtE":
        "the peak is √((1-σ)/κ) of a least-squares fit, a float that lands on exactly 4 × the top thread count only by "
        "chance of its last bits (no ladder can be built to put curve_fit's answer there): > and >= say the same",
    "ycsbctl/engine/worker.py: elif not done & 127:  # nor would one that seldom does (basic://) | 127 -> 126":
        "how often a client whose binding seldom suspends yields to the loop so that the ticker ships each interval: "
        "done & 126 is 0 at 128k and 128k + 1, two sleep(0) per 128 operations instead of one; every operation is "
        "timed and counted the same, the ticker runs either way",
    "ycsbctl/telemetry/stall.py: if counts.get(k, 1) > 0:  # a second absent from the series (coarser status lines) is unknown | 1 -> 2":
        "the default only marks a second absent from the series as not silent: 1 and 2 are both > 0",
    "ycsbctl/telemetry/stall.py: while k <= last and counts.get(k, 1) == 0: | 1 -> 2":
        "the default only marks a second absent from the series as not silent: 1 and 2 are both != 0",
    "ycsbctl/results/over_rounds.py: for n in range(2, cap + 1): | 2 -> 1":
        "n = 1 is never returned: the t quantile at 0 degrees of freedom is NaN (scipy's stdtrit) and NaN <= effect is "
        "false, so the loop goes on to 2 as it starts there (range(3, ...), which never says 2, stays scored)",
    "ycsbctl/results/over_rounds.py: for n in range(2, cap + 1): | 1 -> 0":
        "the loop's last try is n = cap, which returns cap when it suffices; without it the loop falls through to "
        "return cap all the same",
    "ycsbctl/telemetry/why.py: return _pct(top[1].get(\"runq_pct\")) / max(1.0, float(top[1].get(\"threads\") or 1)) | 1 -> 0":
        "a role without a thread count (or 0): max(1.0, 0.0) is 1.0 as max(1.0, 1.0) is",
    "ycsbctl/telemetry/why.py: return _pct(top[1].get(\"runq_pct\")) / max(1.0, float(top[1].get(\"threads\") or 1)) | 1.0 -> 0.99":
        "the thread count is a whole number, at least 1 once 'or 1' has replaced 0 or None: max(0.99, n) is n as max(1.0, n)",
    "ycsbctl/results/scaling.py: if kappa > 0 and (peak_n is None or peak_n < float(t[0])):  # the curve only falls over the ladder | Lt -> LtE":
        "the peak is √((1-σ)/κ) of a least-squares fit, a float that lands on exactly the first thread count only by "
        "chance of its last bits (no ladder can be built to put curve_fit's answer there): < and <= say the same",
    "ycsbctl/telemetry/why.py: n = max(1.0, float(fig.get(\"threads\") or 1)) | 1 -> 0":
        "a role without a thread count (or 0): max(1.0, 0.0) is 1.0 as max(1.0, 1.0) is",
    "ycsbctl/telemetry/stall.py: if len(measured) >= 2: | 2 -> 1":
        "with one measured second the block finds nothing: its first second is its last, so the search loop "
        "(while k < last) never runs and no stall is set",
    "ycsbctl/telemetry/network.py: while time.monotonic() < deadline and poll(proc) is None: | Lt -> LtE":
        "a deadline on a continuous clock: a reading equal to it to the nanosecond changes only whether one more 20 ms look is taken",
    "ycsbctl/telemetry/wire.py: WIRE_INTERVAL_S = 3.0 | 3.0 -> 3.0300000000000002":
        "how often ss is run (its cost, 10-30 ms a run): each figure is the counters' difference over the measured "
        "elapsed time between two runs, per second, whatever the period",
    "ycsbctl/telemetry/wire.py: WIRE_INTERVAL_S = 3.0 | 3.0 -> 2.9699999999999998":
        "how often ss is run (its cost, 10-30 ms a run): each figure is the counters' difference over the measured "
        "elapsed time between two runs, per second, whatever the period",
    "ycsbctl/results/stats.py: if se == 0: | 0 -> -1":
        "a shortcut: with se 0 the general path's half-width is t × 0 = 0 and its bounds exp(mean ± 0) are the centre, "
        "the same Interval (a standard error is never -1; == 1 stays scored)",
    "ycsbctl/engine/throttle.py: self.ideal = self.ideal_end = 0 | 0 -> 1":
        "the first operation's due time (perf_counter ns, seconds after boot) is above 0, 1 and -1 alike: ended() takes it",
    "ycsbctl/engine/throttle.py: self.ideal = self.ideal_end = 0 | 0 -> -1":
        "the first operation's due time (perf_counter ns, seconds after boot) is above 0, 1 and -1 alike: ended() takes it",
    "ycsbctl/telemetry/profiler.py: ranked = sorted(inclusive, key=lambda f: (-own.get(f, 0), -inclusive[f]))[:top] | 0 -> -1":
        "every frame without samples of its own gets the same key, 0 or 1, after every frame with some (negative): "
        "the order is the same",
    "ycsbctl/results/ycsb_text.py: facts[\"workload\"] = nxt.rstrip(\"/\").rsplit(\"/\", 1)[-1] | 1 -> 2":
        "the last piece of a split from the right is the same whether one or two splits are made",
    "ycsbctl/results/tables.py: if not len(runs) or not cols: | Or -> And":
        "a shortcut: with no rows or no such column, the test that follows finds no negative figure and returns "
        "the frame unchanged as well",
    "ycsbctl/results/tables.py: why = first_line(exc)[:160] | 160 -> 161":
        "how much of the exception's first line a damaged-file warning keeps (as the error-text-cap rule): the file, the "
        "exception's type and what happens to the file are said in full either way",
    "ycsbctl/results/tables.py: why = first_line(exc)[:160] | 160 -> 159":
        "how much of the exception's first line a damaged-file warning keeps (as the error-text-cap rule): the file, the "
        "exception's type and what happens to the file are said in full either way",
    "ycsbctl/telemetry/threads.py: def read_file(path: str, size: int = 4096) -> bytes: | 4096 -> 4097":
        "the default cap is above every file read with it (a thread's /proc status, ~1.5 KB); the children lists, which "
        "can be longer, are read whole (read_whole)",
    "ycsbctl/telemetry/threads.py: def read_file(path: str, size: int = 4096) -> bytes: | 4096 -> 4095":
        "the default cap is above every file read with it (a thread's /proc status, ~1.5 KB); the children lists, which "
        "can be longer, are read whole (read_whole)",
    "ycsbctl/telemetry/threads.py: def read_whole(path: str, chunk: int = 4096) -> bytes: | 4096 -> 4097":
        "the size of each read of a file read to its end: only how it is chunked (seq_file gives whole records per read)",
    "ycsbctl/telemetry/threads.py: def read_whole(path: str, chunk: int = 4096) -> bytes: | 4096 -> 4095":
        "the size of each read of a file read to its end: only how it is chunked (seq_file gives whole records per read)",
    "ycsbctl/telemetry/bottleneck.py: if isinstance(io_threads, int) and io_threads > 1:  # Redis/Valkey io-threads N: "
    "N threads serve clients | Gt -> GtE":
        "io-threads 1 then returns max(own, min(1, limit)), and every store's own cores are at least min(1, limit)",
    "ycsbctl/telemetry/bottleneck.py: if isinstance(io_threads, int) and io_threads > 1:  # Redis/Valkey io-threads N: "
    "N threads serve clients | 1 -> 0":
        "io-threads is a whole number: > 0 differs from > 1 only at io-threads 1, which then returns max(own, min(1, "
        "limit)), and every store's own cores are at least min(1, limit) (as Gt -> GtE)",
    "ycsbctl/telemetry/stall.py: expired = dict(zip(measured[\"second\"].astype(int), (measured[\"operations\"] - replies).astype(int))) | Sub -> Add":
        "expired is read only at a silence's first second (expired.get(start)), where the replies are 0 by definition "
        "(counts[start] == 0): operations - 0 and operations + 0 are the same timed-out count",
    "ycsbctl/telemetry/threads.py: if fields[0] != b\"R\": | 0 -> 1":
        "fields[1] (the parent's pid) is never b'R', so the mutant reads wchan for running threads too: a thread in state "
        "R is classed running whatever its wchan (wait_class), and role_figures tallies wchan only of threads not "
        "running or idle, so that reading is never used (a cost of one 128-byte read, not a figure)",
    "ycsbctl/results/disturbance.py: k_first = max(math.ceil(fine.warmup_s / dt - 1e-9), math.ceil((start_s - before_s) / dt - 1e-9)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_first = max(math.ceil(fine.warmup_s / dt - 1e-9), math.ceil((start_s - before_s) / dt - 1e-9)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: first = max(math.ceil(fine.warmup_s - 1e-9), math.ceil(start_s - before_s - 1e-9)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: first = max(math.ceil(fine.warmup_s - 1e-9), math.ceil(start_s - before_s - 1e-9)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: seconds: Sequence[int] = range(first, math.floor(start_s + 1e-9)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: seconds: Sequence[int] = range(first, math.floor(start_s + 1e-9)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_start = math.floor(start_s / dt + 1e-9) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_start = math.floor(start_s / dt + 1e-9) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_end = max(k_start, math.floor(end_s / dt + 1e-9)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_end = max(k_start, math.floor(end_s / dt + 1e-9)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: measured = range(math.ceil(fine.warmup_s - 1e-9), math.floor(start_s + 1e-9)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: measured = range(math.ceil(fine.warmup_s - 1e-9), math.floor(start_s + 1e-9)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_until = k_start if until_s is None else math.ceil(until_s / dt - 1e-9) - 1 | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_until = k_start if until_s is None else math.ceil(until_s / dt - 1e-9) - 1 | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/overlap.py: first = math.floor(events[members[0]].start_s / dt + 1e-9) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/overlap.py: first = math.floor(events[members[0]].start_s / dt + 1e-9) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/overlap.py: while at < len(order) and events[order[at]].start_s < e.affected_end_s - 1e-9: | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/overlap.py: while at < len(order) and events[order[at]].start_s < e.affected_end_s - 1e-9: | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/overlap.py: while at < len(order) and events[order[at]].start_s < e.affected_end_s - 1e-9: | Lt -> LtE":
        "a start equal to the window's end less 1e-9 exactly: the 1e-9 already decides a start at the end",
    "ycsbctl/results/overlap.py: if len(members) == 1: | 1 -> 0":
        "an event alone taken through the group path is charged the same: it blames itself or is 'jointly' its own label",
    "ycsbctl/results/disturbance.py: ks = range(k_first, math.floor(start_s / dt + 1e-9)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: ks = range(k_first, math.floor(start_s / dt + 1e-9)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_before = max(math.ceil(fine.warmup_s / dt - 1e-9), k_start - round(BEFORE_S / dt)) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: k_before = max(math.ceil(fine.warmup_s / dt - 1e-9), k_start - round(BEFORE_S / dt)) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/disturbance.py: AFTER_S = 3.0 | 3.0 -> 2.9699999999999998":
        "used only as round(AFTER_S / dt) with the engine's 0.1 s intervals: 29.7 and 30.3 round to 30 like 30",
    "ycsbctl/results/disturbance.py: AFTER_S = 3.0 | 3.0 -> 3.0300000000000002":
        "used only as round(AFTER_S / dt) with the engine's 0.1 s intervals: 29.7 and 30.3 round to 30 like 30",
    "ycsbctl/results/disturbance.py: at = 0  # set again where each run begins | 0 -> 1":
        "at is set where each run begins, before it is read",
    "ycsbctl/results/disturbance.py: at = 0  # set again where each run begins | 0 -> -1":
        "at is set where each run begins, before it is read",
    "ycsbctl/telemetry/why.py: kind = max(NOT_IDLE, key=lambda s: states.get(s, 0)) | 0 -> -1":
        "a missing state is below every counted one either way; one counted state is above 0 (most samples waited)",
    "ycsbctl/results/scaling.py: lam0 = float(tp[0] / threads[0]) | 0 -> 1":
        "a starting guess of the least-squares fit: it converges to the same optimum (to curve_fit's tolerance, far below the texts' digits) from a start this near",
    "ycsbctl/results/scaling.py: lam0 = float(tp[0] / threads[0]) | 0 -> -1":
        "a starting guess of the least-squares fit: it converges to the same optimum (to curve_fit's tolerance, far below the texts' digits) from a start this near",
    "ycsbctl/results/scaling.py: popt, _ = curve_fit(usl, threads, tp, p0=(lam0, 0.05, 0.0005), sigma=tp, | 0.05 -> 0.0505":
        "a starting guess of the least-squares fit: it converges to the same optimum (to curve_fit's tolerance, far below the texts' digits) from a start this near",
    "ycsbctl/results/scaling.py: popt, _ = curve_fit(usl, threads, tp, p0=(lam0, 0.05, 0.0005), sigma=tp, | 0.05 -> 0.0495":
        "a starting guess of the least-squares fit: it converges to the same optimum (to curve_fit's tolerance, far below the texts' digits) from a start this near",
    "ycsbctl/results/scaling.py: popt, _ = curve_fit(usl, threads, tp, p0=(lam0, 0.05, 0.0005), sigma=tp, | 0.0005 -> 0.000505":
        "a starting guess of the least-squares fit: it converges to the same optimum (to curve_fit's tolerance, far below the texts' digits) from a start this near",
    "ycsbctl/results/scaling.py: popt, _ = curve_fit(usl, threads, tp, p0=(lam0, 0.05, 0.0005), sigma=tp, | 0.0005 -> 0.000495":
        "a starting guess of the least-squares fit: it converges to the same optimum (to curve_fit's tolerance, far below the texts' digits) from a start this near",
    "ycsbctl/results/scaling.py: bounds=([0.0, 0.0, 0.0], [np.inf, 1.0, 1.0]), maxfev=20_000) | 20000 -> 20001":
        "the fit's cap on evaluations: the ladders it fits converge in a few hundred",
    "ycsbctl/results/scaling.py: bounds=([0.0, 0.0, 0.0], [np.inf, 1.0, 1.0]), maxfev=20_000) | 20000 -> 19999":
        "the fit's cap on evaluations: the ladders it fits converge in a few hundred",
    "ycsbctl/experiment/host_claim.py: if age is None or _age(p) < age: | Lt -> LtE":
        "two claims' ages are (mtime, pid): different files have different pids, so they are never equal",
    "ycsbctl/results/fine.py: return min(ks[-1], math.floor(self.end_s / self.interval_s + 1e-9) - 1) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/fine.py: return min(ks[-1], math.floor(self.end_s / self.interval_s + 1e-9) - 1) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/fine.py: parts = [p for p in parts if p[0].size] | 0 -> 1":
        "a sparse part's index and count arrays are of one length: p[1].size is p[0].size",
    "ycsbctl/results/disturbance.py: stall_start_s=round(search[stall_at] * dt, 6) if stall_n else None, | 6 -> 7":
        "a whole number of the engine's 0.1 s intervals has one decimal: rounding to 6 or 7 digits only drops float noise",
    "ycsbctl/stores/memcached/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (sample asserts prime() ran)",
    "ycsbctl/stores/tarantool/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (sample asserts prime() ran)",
    "ycsbctl/stores/tarantool/stats.py: out: dict[str, float | None] = {\"ops\": None if None in parts else sum(p or 0.0 for p in parts), | 0.0 -> 1.0":
        "ops is read only as a difference of two readings: a kind at 0 adds the same 1 to both",
    "ycsbctl/report/variant_study.py: runtime_s = pd.to_numeric(exp.runs.loc[exp.runs[\"run_id\"] == run_id, \"runtime_ms\"], errors=\"coerce\").max() / 1000 | .max -> .min":
        "a run id is one row of runs.parquet: the max and the min of one value are that value",
    "ycsbctl/stores/memcached/stats.py: def __init__(self, url: str, interval_s: float = 1.0) -> None: | 1.0 -> 1.01":
        "a default no caller uses: memcached/store.py passes the telemetry interval",
    "ycsbctl/stores/memcached/stats.py: def __init__(self, url: str, interval_s: float = 1.0) -> None: | 1.0 -> 0.99":
        "a default no caller uses: memcached/store.py passes the telemetry interval",
    "ycsbctl/stores/tarantool/stats.py: def __init__(self, url: str, interval_s: float = 1.0) -> None: | 1.0 -> 1.01":
        "a default no caller uses: tarantool/store.py passes the telemetry interval",
    "ycsbctl/stores/tarantool/stats.py: def __init__(self, url: str, interval_s: float = 1.0) -> None: | 1.0 -> 0.99":
        "a default no caller uses: tarantool/store.py passes the telemetry interval",
    "ycsbctl/report/verdict_table.py: for digits in range(0, 4): | 4 -> 5":
        "a fifth pass would try 4 digits, which the line after the loop prints anyway",
    "ycsbctl/results/fine.py: t = round(k * self.interval_s, 6) | 6 -> 5":
        "a whole number of the engine's 0.1 s intervals has one decimal: rounding to 5 or 6 digits only drops float noise",
    "ycsbctl/results/fine.py: t = round(k * self.interval_s, 6) | 6 -> 7":
        "the interval is a whole number of ms (engine/runner.py: series_interval_ms / 1000): k of them have three "
        "decimals, and rounding to 6 or 7 digits only drops float noise",
    "ycsbctl/results/fine.py: parts = [p for p in parts if p[0].size] | 0 -> -1":
        "a sparse part's index and count arrays are of one length (sparse_of): p[-1].size is p[0].size",
    "ycsbctl/results/fine.py: \"warmup\": t < self.warmup_s - 1e-9}) | Lt -> LtE":
        "t has at most 6 decimals (rounded the line before) and warmup_s - 1e-9 sits 1 ns below a warm-up: equal only "
        "for a warm-up set to 1 ns past an interval's start, which < and <= alone would tell apart",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | Gt -> GtE":
        "the mutant goes on only for a lone server with io_threads 1, and every check below then finds one group "
        "(versions, allocators, threads) and no io_threads above 1: out stays []",
    "ycsbctl/engine/measurements.py: return [_zeroed() for _ in range(n)], [_zeroed() for _ in range(n if self.both else 0)], _zeroed(), _zeroed() | 0 -> 1":
        "the intended spares are read only under self.both (roll: islots[s] = ifresh[i]): without it the list is "
        "dropped unread, whatever its length",
    **{f"ycsbctl/report/summary_table.py: said = wdf[wdf[\"error\"].notna() & (wdf[\"error\"] != \"\")] if \"error\" in wdf else wdf.iloc[:0] | 0 -> {_to}":
       "never reached: exp.runs always has the error column (results/run_columns.py conform_runs gives every "
       "RUN_COLUMNS column, \"error\" among them, to each folder read)"
       for _to in ("1", "-1")},
    "ycsbctl/telemetry/why.py: busiest = max((_pct(fig.get(\"oncpu_pct\")) for fig in roles.values()), default=0.0) | 0.0 -> 1.0":
        "the default is used only for no roles, and then the loop below runs no turn: None either way",
    "ycsbctl/report/verdict_table.py: note=str(peak.iloc[0][\"caveat\"] or \"\"))) | 0 -> -1":
        "a target's peak is one row of the verdicts (results/verdicts.py verdicts(): one at_peak row per workload and "
        "target, the first metric's): its last row is its first",
    "ycsbctl/engine/worker.py: k_last = int(min((end - t0) // self.step_ns, self.next_tick)) | FloorDiv -> Div":
        "end >= t0, both int ns: int() truncates the non-negative quotient to its floor, as // does (a quotient of "
        "ns over steps of 0.1 s or more is never within a float's rounding of a whole number it is not)",
    "ycsbctl/results/fine.py: \"warmup\": t < self.warmup_s - 1e-9}) | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/results/fine.py: \"warmup\": t < self.warmup_s - 1e-9}) | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of intervals: any nearby epsilon does the same",
    "ycsbctl/report/study_headlines.py: return f\" — no clear winner (stalls within {STALL_MARGIN_S * 1000:.0f} ms of "
    "each other: two 100 ms intervals)\" | 1000 -> 999":
        "STALL_MARGIN_S is the constant 0.2: 199.8 and 200 both print as 200 ms",
    "ycsbctl/report/study_headlines.py: return f\" — no clear winner (stalls within {STALL_MARGIN_S * 1000:.0f} ms of "
    "each other: two 100 ms intervals)\" | 1000 -> 1001":
        "STALL_MARGIN_S is the constant 0.2: 200.2 and 200 both print as 200 ms",
    "ycsbctl/results/fine.py: interval_s: float = 0.1 | 0.1 -> 0.101":
        "a default no caller uses: the engine builds every FineSeries with its interval (engine/measurements.py)",
    "ycsbctl/results/fine.py: interval_s: float = 0.1 | 0.1 -> 0.099":
        "a default no caller uses: the engine builds every FineSeries with its interval (engine/measurements.py)",
    "ycsbctl/stores/mariadb/stats.py: size = num(cur.fetchone()[0]) or 0.0 | 0 -> -1":
        "a one-column result row: [-1] is [0]",
    "ycsbctl/stores/mariadb/stats.py: return size + (num(cur.fetchone()[0]) or 0.0) | 0 -> -1":
        "a one-column result row: [-1] is [0]",
    "ycsbctl/stores/mariadb/stats.py: if not cur.fetchone()[0]: | 0 -> -1":
        "a one-column result row: [-1] is [0]",
    "ycsbctl/stores/mariadb/stats.py: return num(cur.fetchone()[0]) | 0 -> -1":
        "a one-column result row: [-1] is [0]",
    "ycsbctl/report/compare.py: alpha: float = 0.05 | 0.05 -> 0.0505":
        "a default no caller uses: compare() and the one-folder comparison both pass their alpha",
    "ycsbctl/report/compare.py: alpha: float = 0.05 | 0.05 -> 0.0495":
        "a default no caller uses: compare() and the one-folder comparison both pass their alpha",
    "ycsbctl/engine/batches.py: goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1 | 8 -> 9":
        "how many slices of the next batch's preparation run during this one (spread over 7/8 of it): the next batch is the same operations either way (refill finishes what is left), only when its preparation's CPU is spent moves",
    "ycsbctl/engine/batches.py: goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1 | 8 -> 7":
        "how many slices of the next batch's preparation run during this one (spread over 7/8 of it): the next batch is the same operations either way (refill finishes what is left), only when its preparation's CPU is spent moves",
    "ycsbctl/engine/batches.py: goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1 | 7 -> 8":
        "how many slices of the next batch's preparation run during this one (spread over 7/8 of it): the next batch is the same operations either way (refill finishes what is left), only when its preparation's CPU is spent moves",
    "ycsbctl/engine/batches.py: goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1 | 7 -> 6":
        "how many slices of the next batch's preparation run during this one (spread over 7/8 of it): the next batch is the same operations either way (refill finishes what is left), only when its preparation's CPU is spent moves",
    "ycsbctl/engine/batches.py: goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1 | 1 -> 2":
        "how many slices of the next batch's preparation run during this one (spread over 7/8 of it): the next batch is the same operations either way (refill finishes what is left), only when its preparation's CPU is spent moves",
    "ycsbctl/engine/batches.py: goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1 | 1 -> 0":
        "how many slices of the next batch's preparation run during this one (spread over 7/8 of it): the next batch is the same operations either way (refill finishes what is left), only when its preparation's CPU is spent moves",
    "ycsbctl/workload/media_items/truth.py: return (order // self.data.words.shape[1]).astype(np.int32), starts | FloorDiv -> Div":
        "non-negative indices: the float quotient cast to int32 truncates to the floor quotient (exact below 2**53)",
    "ycsbctl/stores/postgresql/wire.py: if not self.buf and not self.rows and self.error is None and len(self.waiters) == 1 and data[-6:] == READY: | 6 -> 7":
        "a slice of 5 or 7 bytes never equals the 6-byte ReadyForQuery: the fast path is never taken, and the full parse "
        "gives the same statuses and rows (the fast path only saves time)",
    "ycsbctl/stores/postgresql/wire.py: if not self.buf and not self.rows and self.error is None and len(self.waiters) == 1 and data[-6:] == READY: | 6 -> 5":
        "a slice of 5 or 7 bytes never equals the 6-byte ReadyForQuery: the fast path is never taken, and the full parse "
        "gives the same statuses and rows (the fast path only saves time)",
    "ycsbctl/engine/throttle.py: ideal = due if due > self.ideal_end else self.ideal_end | Gt -> GtE":
        "when due equals ideal_end either branch gives that same value",
    "ycsbctl/results/ycsb_format.py: suffix = \"th\" if j % 100 in (11, 12, 13) else [\"th\", \"st\", \"nd\", \"rd\", \"th\", \"th\", \"th\", \"th\", \"th\", \"th\"][j % 10] | 100 -> 101":
        "a percentile is 0 to 100 (YCSB's, HdrHistogram's): for every whole j there, j % 99, j % 100 and j % 101 are "
        "11, 12 or 13 for j = 11, 12, 13 only, so every name is the same (11th, 12th, 13th, 100th)",
    "ycsbctl/results/ycsb_format.py: suffix = \"th\" if j % 100 in (11, 12, 13) else [\"th\", \"st\", \"nd\", \"rd\", \"th\", \"th\", \"th\", \"th\", \"th\", \"th\"][j % 10] | 100 -> 99":
        "a percentile is 0 to 100 (YCSB's, HdrHistogram's): for every whole j there, j % 99, j % 100 and j % 101 are "
        "11, 12 or 13 for j = 11, 12, 13 only, so every name is the same (11th, 12th, 13th, 100th)",
    "ycsbctl/results/histogram.py: i = min(int(np.searchsorted(cum, target)), hist.counts_len - 1) | Sub -> Add":
        "a cap that never binds from above: target is at most the total (min(p, 100) x total / 100, rounded) and "
        "cum's last is the total, so searchsorted answers an index inside counts; a cap of counts_len + 1 is as "
        "unreached as counts_len - 1 (counts_len - 2, which would bind on the last bucket, stays scored)",
    "ycsbctl/results/histogram.py: i = min(int(np.searchsorted(cum, target)), hist.counts_len - 1) | 1 -> 0":
        "a cap that never binds from above: target is at most the total and cum's last is the total, so "
        "searchsorted answers an index inside counts, below counts_len as below counts_len - 1 (- 2 stays scored)",
    "ycsbctl/report/rate_plots.py: if not yci or not xci: | Or -> And":
        "neither is ever empty or None there: _bars gives one (low, high) per offered rate of a non-empty group for "
        "throughput and every latency column, and the p50 bars are drawn only when the p50 column exists",
}
# A binding's request number (Binding.seq) is only compared for equality (binding_set.watchdog tells one request
# from the next by it): counting by 2 tells them apart as well; counting by 0 would not, and stays scored.
for _module, _line in (("sql/chain.py", "b.seq += 1"), ("redis/reply_chain.py", "b.seq += 1"),
                       ("redis/cluster_chain.py", "node.seq += 1"), ("tarantool/binding.py", "b.seq += 1"),
                       ("sphinx/binding.py", "b.seq += 1"), ("mongodb/wire_chain.py", "b.seq += 1"),
                       ("memcached/binding.py", "b.seq += 1"), ("clickhouse/binding.py", "b.seq += 1"),
                       ("elasticsearch/binding.py", "b.seq += 1")):
    EQUIVALENT[f"ycsbctl/stores/{_module}: {_line} | 1 -> 2"] = \
        "the request number is only compared for equality (the watchdog's same-request test): +2 tells requests apart too"
# media-items on Elasticsearch tells a refusal by its HTTP status from 300 on: each change below moves the edge by
# one status, to 299 or 301, and only a reply of status 299 or 300 would be told apart, which Elasticsearch never
# sends (its successes are 200 and 201, its refusals 4xx and 5xx; no 3xx: it does not redirect).
for _line, _flips in (
        ('if st == OK and http >= 300 and "already_exists" not in json.dumps(got):  # another worker made it first', "GtE -> Gt"),
        ('return st if st != OK or http < 300 else _failed(b, "health", http, got)', "Lt -> LtE"),
        ('return st if st != OK or http < 300 else _failed(b, "refresh", http, got)', "Lt -> LtE"),
        ('if http >= 300 or got.get("errors"):', "GtE -> Gt"),
        ('return _failed(b, "bulk", http, got if http >= 300 else next(i["index"] for i in got["items"] if "error" in i["index"]))',
         "GtE -> Gt")):
    for _what in ("300 -> 301", "300 -> 299", _flips):
        EQUIVALENT[f"ycsbctl/stores/elasticsearch/media_items.py: {_line} | {_what}"] = \
            "Elasticsearch sends no HTTP status 299 or 300 (successes 200/201, refusals 4xx/5xx, no redirection): the edge at 300 moved by one status tells no reply apart"
