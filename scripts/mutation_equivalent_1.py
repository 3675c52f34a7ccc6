"""Equivalent mutants, part 1 of 4, in the order they were judged: see scripts/mutation_equivalent.py."""

from __future__ import annotations

EQUIVALENT: dict[str, str] = {
    "ycsbctl/urls.py: netloc = parts.netloc.rsplit(\"@\", 1)[-1].split(\",\")[0] | 1 -> 2":
        "the last piece after the last @ is the same whether the split stops after one @ or two",
    "ycsbctl/results/spending.py: tails = _ndtr((-bound - grid) / sd) + _ndtr((grid - bound) / sd) | Sub -> Add":
        "the grid and its density are symmetric about 0, so the lower tail summed over -grid is the same sum",
    "ycsbctl/results/spending.py: if not excess(40.0) < 0 < excess(1e-6): | 1e-06 -> 9.9e-07":
        "a bracket edge: every boundary lies between 1e-6 and 40 z, far from both",
    "ycsbctl/results/spending.py: return float(brentq(excess, 1e-6, 40.0, xtol=1e-10)) | 40.0 -> 40.4":
        "a bracket edge: every boundary lies between 1e-6 and 40 z, far from both",
    "ycsbctl/results/looks.py: r = max(rounds, 1) | 1 -> 0":
        "an analysis after 0 rounds: looks_until and look_index clamp to look 1 again, so the level is the same",
    "ycsbctl/results/looks.py: last = look_index(max(planned_rounds, 1)) | 1 -> 0":
        "planned rounds are never below 1 (looks.planned_rounds returns at least 1, and plan_spent_alpha passes None for "
        "a missing or zero entry), so max(·, 0) and max(·, 1) agree",
    "ycsbctl/engine/aggregate.py: return (order.get(base, 99), n.startswith(\"Intended-\"), n.endswith(\"-FAILED\")) | 99 -> 98":
        "an operation the workload does not name sorts after those it names: 98 and 99 both do while it names fewer "
        "than 99 (the built-in workloads name 7 at most: media-items GET-BY-ID … INSERT)",
    "ycsbctl/engine/worker.py: record(COMPONENT + READ, st, t0, t_mid, due or t0) | Add -> Sub":
        "READ is op code 0 (workload/core.py: READ, UPDATE, … = range(7)): COMPONENT - 0 is COMPONENT + 0",
    **{f"ycsbctl/engine/measurements.py: self.idle_mark = 0 | 0 -> {_to}":
       "the first mark is never read: idle_mark is read only once idle_ns is set, and the one place that sets idle_ns "
       "sets idle_mark with it (engine/worker.py: self.rec.idle_ns, self.rec.idle_mark = …, alarm.idle_total_ns())"
       for _to in ("1", "-1")},
    "ycsbctl/experiment/calibrate.py: if r.status != \"ok\" or insert is None or insert.returns.get(\"OK\", 0) != plan.records: | 0 -> 1":
        "the default is never read: a load whose status is ok had every insert OK (an insert that fails stops its "
        "thread, and a stopped load thread fails the phase: engine/runner.py), so its INSERT summary counts OK",
    "ycsbctl/stores/redis/admin.py: kind = {\"rediss\": DeadlineSSLConnection, \"unix\": DeadlineUnixConnection}.get(url.split(\":\", 1)[0], | 1 -> 2":
        "the scheme is the text before the first ':' however many splits follow: split(':', 2)[0] is split(':', 1)[0]",
    "ycsbctl/results/verdict_words.py: if factor > BOUND_HIGH:  # past any figure worth printing: two rounds of a wild cell | Gt -> GtE":
        "at a factor of exactly BOUND_HIGH both branches print the same words: 'only beyond 1,000× either way'",
    "ycsbctl/stores/chain.py: if due >= self.ctx.deadline_ns: | GtE -> Gt":
        "the pacer's due time and the deadline are nanosecond instants: only an operation due at the deadline's very "
        "nanosecond is told apart, and it is then issued (one operation more at the phase's end) instead of not",
    "ycsbctl/engine/worker.py: if self.settle(b, op, st, t0, t1, due, pacer, is_load) or t1 >= deadline_ns: | GtE -> Gt":
        "t1 and the deadline are perf_counter_ns readings: only a reply read at the deadline's very nanosecond is "
        "told apart, and then by one operation more or less at the phase's end (as chain.py's same test)",
    **{f"ycsbctl/telemetry/threads.py: start_ticks: int = 0  # when it started, in clock ticks after boot | 0 -> {_to}":
       "the default is only the zero reading's (role_figures' 'before' of a thread first seen), whose start is never "
       "read (only its counters are); read_thread gives every reading its own start from /proc's stat"
       for _to in ("1", "-1")},
    "ycsbctl/engine/measurements.py: COMPONENT = 8  # op code offset marking the READ/UPDATE halves of a read-modify-write | 8 -> 9":
        "any offset above the highest op code (7, a plug-in's seventh operation: workload/plugin.py's MAX_OPERATIONS "
        "and SEVENTH_CODE) marks the halves alike: 9 + READ and 9 + UPDATE are READ and UPDATE modulo 9, every plain "
        "op code stays below it, and N_SLOTS follows it (5 slots more, never named)",
    "ycsbctl/engine/measurements.py: return [_zeroed() for _ in range(n)], [_zeroed() for _ in range(n if self.both else 0)], _zeroed(), _zeroed() | 0 -> -1":
        "range(-1) is empty as range(0) is: no intended spares either way",
    "ycsbctl/telemetry/capture.py: saving = (pd.to_numeric(rows[\"rdb_bgsave_in_progress\"], errors=\"coerce\").fillna(0) > 0 | 0 -> -1":
        "a missing reading filled with -1 is not above 0, as one filled with 0 is not: no snapshot either way",
    **{f"ycsbctl/telemetry/stall.py: {_line} | 0 -> {_to}":
       "start is a second of the series (a silent second is one whose count is there and 0), and expired holds every "
       "second of the series: the default is never read"
       for _line in ("if timeout_s and expired.get(start, 0):  # unanswered since timeout_s before they expired",
                     "if typical_s and length <= OWN_LENGTH * typical_s and not expired.get(start, 0):")
       for _to in ("1", "-1")},
    "ycsbctl/telemetry/host.py: f += [0.0] * (8 - len(f)) | Sub -> Add":
        "only f[0] … f[7] are read: 8 + len(f) zeros pad a short line's missing fields with zeros as 8 - len(f) "
        "do, and a full line's eight first fields stay its own either way",
    **{f"ycsbctl/telemetry/evidence.py: interval_s: float = 1.0) -> dict[str, dict[str, float]]: | 1.0 -> {_to}":
       "a default no caller uses: capture.py's evidence() passes the capture's interval for both sides"
       for _to in ("0.99", "1.01")},
    **{f"ycsbctl/experiment/calibrate.py: reads_served: int = 0  # the server's count of the read command over the same span | 0 -> {_to}":
       "never read: calibrate() returns its Calibration only after setting reads_served (the server's count after "
       "the rounds less before), and returns none when a step raises"
       for _to in ("1", "-1")},
    "ycsbctl/telemetry/profiler.py: assert self.client_pids is not None and spy is not None | And -> Or":
        "a type-narrowing assert of what start() checked before starting this thread (client pids given, py-spy "
        "found): both hold whenever it runs, so 'or' passes exactly when 'and' does",
    "ycsbctl/telemetry/host.py: f += [0.0] * (8 - len(f)) | 8 -> 9":
        "only f[0] … f[7] are read: a ninth zero pads nothing that is read",
    "ycsbctl/telemetry/host.py: fields = s[close + 2:].split(b\" \", 20) | 20 -> 21":
        "the fields read are 1, 11, 12 and 19 (parent, utime, stime, starttime): split at 20 spaces or 21, each is "
        "the same word",
    "ycsbctl/stores/redis/benchmark.py: scheme = url.split(\"://\", 1)[0] | 1 -> 2":
        "the piece before the first '://' is the same whatever the split's maxsplit from 1 on",
    "ycsbctl/telemetry/wire.py: key = (parts[-2], parts[-1]) if len(parts) >= 2 else None | 2 -> 3":
        "ss -tin's connection lines have four fields or more (two queues, two addresses; the state too without a "
        "state filter): no line ss writes has exactly two",
    "ycsbctl/telemetry/wire.py: key = (parts[-2], parts[-1]) if len(parts) >= 2 else None | GtE -> Gt":
        "ss -tin's connection lines have four fields or more (two queues, two addresses; the state too without a "
        "state filter): no line ss writes has exactly two",
    "ycsbctl/stores/tarantool/binding.py: return st, iproto.record_fields(r.tuples()[0], set(fields) if fields else None) | 0 -> -1":
        "a read by the primary key answers one tuple at most (an empty answer is NOT_FOUND before this line): its "
        "first is its last",
    "ycsbctl/stores/binding_set.py: step = max(timeout_s / 8, 0.005) | 0.005 -> 0.00505":
        "the watchdog's look-again floor, for timeouts under 40 ms only: a request is expired within a step of its "
        "timeout either way (the ±12 % its docstring states), which 50 µs more does not change",
    "ycsbctl/stores/binding_set.py: step = max(timeout_s / 8, 0.005) | 0.005 -> 0.00495":
        "the watchdog's look-again floor, for timeouts under 40 ms only: a request is expired within a step of its "
        "timeout either way (the ±12 % its docstring states), which 50 µs less does not change",
    "ycsbctl/stores/mysql41.py: if first < 0xFB: | 251 -> 252":
        "0xFB is no length: the protocol sends it only as a text row's NULL, which row_values reads before lenenc "
        "(a column count, rows affected and a value's length are never 0xFB)",
    "ycsbctl/stores/memcached/store.py: CLEAR_WAIT_S = 10.0  # how long clear waits for the server to reclaim flushed items | 10.0 -> 10.1":
        "a deadline: clear stops polling as soon as curr_items reads 0 (the crawler reclaims in well under a second); "
        "how long it may wait, not what it finds",
    "ycsbctl/stores/memcached/store.py: CLEAR_WAIT_S = 10.0  # how long clear waits for the server to reclaim flushed items | 10.0 -> 9.9":
        "a deadline: clear stops polling as soon as curr_items reads 0 (the crawler reclaims in well under a second); "
        "how long it may wait, not what it finds",
    "ycsbctl/stores/postgresql/messages.py: n = _I16.unpack_from(body)[0] | 0 -> -1":
        "a Struct of one int16 unpacks to a 1-tuple: [-1] is [0]",
    "ycsbctl/stores/postgresql/messages.py: size = _I32.unpack_from(body, pos)[0] | 0 -> -1":
        "a Struct of one int32 unpacks to a 1-tuple: [-1] is [0]",
    "ycsbctl/stores/mongodb/pymongo_binding.py: return u.path.lstrip(\"/\").split(\"?\")[0] or \"ycsb\" | 0 -> -1":
        "urlparse has already cut the query off the path: it holds no '?', so its one piece is [0] and [-1]",
    "ycsbctl/stores/redis/reply_chain.py: powers = _POWERS[len(key)] = tuple(pow(31, len(key) - 1 - i, 1 << 32) for i in range(len(key))) | 32 -> 33":
        "the sum is cut to its low 32 bits (& 0xFFFFFFFF) on the next line: powers mod 2**33 leave the same low 32 bits",
    "ycsbctl/stores/redis/cluster.py: return fields.get(\"cluster_state\") == \"ok\" and int(fields.get(\"cluster_size\", 0)) >= shards | 0 -> 1":
        "CLUSTER INFO always says cluster_size (Redis, Valkey): the default is never read",
    "ycsbctl/stores/redis/cluster.py: for entry in sorted(reply, key=lambda e: int(e[0])): | 0 -> 1":
        "CLUSTER SLOTS' ranges are disjoint: ordered by their first slot or by their last, they come in the same order",
    "ycsbctl/stores/disturb.py: n = int(math.floor((duration_s - self.at_s) / self.every_s + 1e-9)) + 1 | 1e-09 -> 9.9e-10":
        "the 1e-9 only absorbs float noise in a whole number of periods (and the times past the window are dropped "
        "on the next line): any nearby epsilon does the same",
    "ycsbctl/stores/disturb.py: n = int(math.floor((duration_s - self.at_s) / self.every_s + 1e-9)) + 1 | 1e-09 -> 1.01e-09":
        "the 1e-9 only absorbs float noise in a whole number of periods (and the times past the window are dropped "
        "on the next line): any nearby epsilon does the same",
    "ycsbctl/stores/sphinx/wire.py: if pos and data[pos + 4] == 0xFE and end - pos < 13:  # the EOF after the definitions | Lt -> LtE":
        "in the head's walk a packet after the column count is a column definition, whose first byte is the length "
        "of its catalog, always 'def' (0x03), or the EOF: no 0xFE packet of 9 bytes can come there",
    "ycsbctl/results/host_drift.py: if len(drifts) < QUANTILE_FROM: | Lt -> LtE":
        "at exactly 20 drifts numpy's 'higher' 95th percentile is the 20th of 20 (ceil(0.95 x 19) = 19): the largest either way",
    "ycsbctl/results/host_drift.py: QUANTILE_FROM = 20  # from this many recorded cells on, the margin is their 95th percentile, not their largest | 20 -> 19":
        "numpy's 'higher' 95th percentile of n <= 20 drifts is the largest (index ceil(0.95 x (n - 1)) = n - 1 while 0.05 x (n - 1) < 1): "
        "at 19 cells max() and the quantile read the same drift",
    "ycsbctl/results/host_drift.py: QUANTILE_FROM = 20  # from this many recorded cells on, the margin is their 95th percentile, not their largest | 20 -> 21":
        "numpy's 'higher' 95th percentile of n <= 20 drifts is the largest (index ceil(0.95 x (n - 1)) = n - 1 while 0.05 x (n - 1) < 1): "
        "at 20 cells max() and the quantile read the same drift; 21 cells take the quantile either way",
    # report/, results/, telemetry/, engine/ (issue 43)
    "ycsbctl/engine/batches.py: if len(b) == 0: | 0 -> -1":
        "an empty batch also gives every client an empty take, and each client's loop breaks on it (n == 0; more() finds "
        "no chained start in it): the stopping flag only repeats it (== 1, which would stop a one-operation batch, stays scored)",
    "ycsbctl/experiment/explain.py: stalled = events[events[\"stall_s\"].fillna(0) >= SINGLE_COMMAND_STALL_S] | 0 -> -1":
        "a disturbance without a stall is below the 0.1 s line as 0 or as -1 (fillna(1), above it, stays scored)",
    "ycsbctl/telemetry/host.py: if elapsed <= 0: | LtE -> Lt":
        "two CLOCK_BOOTTIME readings a scan of /proc apart (milliseconds) differ, and the clock never goes back: elapsed is never 0 nor in (-1, 0]; <= 1, which would drop every interval under a second, stays scored",
    "ycsbctl/telemetry/host.py: if elapsed <= 0: | 0 -> -1":
        "two CLOCK_BOOTTIME readings a scan of /proc apart (milliseconds) differ, and the clock never goes back: elapsed is never 0 nor in (-1, 0]; <= 1, which would drop every interval under a second, stays scored",
    "ycsbctl/telemetry/host.py: cgroup = read_file(f\"/proc/{pid}/cgroup\", 4096).decode(errors=\"replace\") | 4096 -> 4097":
        "a read cap above a process's cgroup file (one line per hierarchy: a few hundred bytes): either cap reads it whole",
    "ycsbctl/telemetry/host.py: cgroup = read_file(f\"/proc/{pid}/cgroup\", 4096).decode(errors=\"replace\") | 4096 -> 4095":
        "a read cap above a process's cgroup file (one line per hierarchy: a few hundred bytes): either cap reads it whole",
    "ycsbctl/telemetry/evidence.py: if not throughput_ops or throughput_ops <= 0: | LtE -> Lt":
        "at 0 the first test (not throughput_ops) already returns",
    "ycsbctl/telemetry/threads.py: stat = read_file(base + \"stat\", 1024) | 1024 -> 1025":
        "a read cap above the part of /proc/<pid>/stat that is read: fields up to the 22nd (start time), at most ~450 bytes (a 16-byte name, 20 numbers of at most 20 digits); either cap reads them whole",
    "ycsbctl/telemetry/threads.py: stat = read_file(base + \"stat\", 1024) | 1024 -> 1023":
        "a read cap above the part of /proc/<pid>/stat that is read: fields up to the 22nd (start time), at most ~450 bytes (a 16-byte name, 20 numbers of at most 20 digits); either cap reads them whole",
    "ycsbctl/telemetry/host.py: s = read_file(f\"/proc/{name}/stat\", 1024) | 1024 -> 1025":
        "a read cap above the part of /proc/<pid>/stat that is read: fields up to the 22nd (start time), at most ~450 bytes (a 16-byte name, 20 numbers of at most 20 digits); either cap reads them whole",
    "ycsbctl/telemetry/host.py: s = read_file(f\"/proc/{name}/stat\", 1024) | 1024 -> 1023":
        "a read cap above the part of /proc/<pid>/stat that is read: fields up to the 22nd (start time), at most ~450 bytes (a 16-byte name, 20 numbers of at most 20 digits); either cap reads them whole",
    "ycsbctl/telemetry/host.py: return cpu_times_of(read_file(\"/proc/stat\", 512)) | 512 -> 511":
        "only /proc/stat's first line is read (cpu and at most 10 counters of at most 20 digits: 215 bytes at most, whatever the number of cores; the per-core lines after it, which make the file longer than the read on a many-core host, are cut off either way): a cap of 511, 512 or 513 bytes holds it whole",
    "ycsbctl/telemetry/host.py: return cpu_times_of(read_file(\"/proc/stat\", 512)) | 512 -> 513":
        "only /proc/stat's first line is read (cpu and at most 10 counters of at most 20 digits: 215 bytes at most, whatever the number of cores; the per-core lines after it, which make the file longer than the read on a many-core host, are cut off either way): a cap of 511, 512 or 513 bytes holds it whole",
    "ycsbctl/telemetry/wire.py: proc.returncode = 0  # reaped above | 0 -> -1":
        "only marks the Popen as done (wait4 reaped it) so that it does not wait again; nothing reads the code",
    "ycsbctl/telemetry/wire.py: proc.returncode = 0  # reaped above | 0 -> 1":
        "only marks the Popen as done (wait4 reaped it) so that it does not wait again; nothing reads the code",
    "ycsbctl/telemetry/wire.py: self._t_last = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (the Sampler's loop primes first)",
    "ycsbctl/telemetry/wire.py: if elapsed <= 0: | 0 -> -1":
        "two monotonic readings with an ss run between them (milliseconds) are never equal nor in (-1, 0]",
    "ycsbctl/telemetry/wire.py: if elapsed <= 0: | LtE -> Lt":
        "two monotonic readings with an ss run between them (milliseconds) are never equal",
    "ycsbctl/report/html.py: d.get(\"phase\", \"\"), d.get(\"threads\", 0))): | 0 -> 1":
        "a sort key's default never used: read_run_docs leaves out every run JSON without threads",
    "ycsbctl/report/html.py: d.get(\"phase\", \"\"), d.get(\"threads\", 0))): | 0 -> -1":
        "a sort key's default never used: read_run_docs leaves out every run JSON without threads",
    "ycsbctl/experiment/calibrate.py: warm, _ = _theirs(url, ref, plan, t, PROBE_REQUESTS, 0, cal) | 0 -> 1":
        "the warm-up's round number: the warm-up is not kept among the samples, only its reads and its rate are read",
    "ycsbctl/experiment/calibrate.py: warm, _ = _theirs(url, ref, plan, t, PROBE_REQUESTS, 0, cal) | 0 -> -1":
        "the warm-up's round number: the warm-up is not kept among the samples, only its reads and its rate are read",
    "ycsbctl/results/disturbance.py: during_s=round(len(during) * dt, 6), | 6 -> 5":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: during_s=round(len(during) * dt, 6), | 6 -> 7":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: slow_s=round(slow_n * dt, 6), | 6 -> 5":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: slow_s=round(slow_n * dt, 6), | 6 -> 7":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: affected_end_s=round((during[-1] + 1) * dt, 6), | 6 -> 5":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: affected_end_s=round((during[-1] + 1) * dt, 6), | 6 -> 7":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: stall_s=round(stall_n * dt, 6), | 6 -> 5":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/results/disturbance.py: stall_s=round(stall_n * dt, 6), | 6 -> 7":
        "a whole number of the engine's intervals (series_interval_ms / 1000: a whole number of ms) has at most 3 decimals: rounding to 5, 6 or 7 digits only drops float noise",
    "ycsbctl/telemetry/threads.py: self._ticks_last = 0 | 0 -> 1":
        "prime() sets it (the first reading's boot ticks) before the first sample reads it (Sampler's loop primes first)",
    "ycsbctl/telemetry/threads.py: self._ticks_last = 0 | 0 -> -1":
        "prime() sets it (the first reading's boot ticks) before the first sample reads it (Sampler's loop primes first)",
    "ycsbctl/telemetry/threads.py: values[f\"wait_{s}\"] = values.get(f\"wait_{s}\", 0) + n | 0 -> 1":
        "the default is never read: role_figures gives every role a wait_<s> column for each of STATES, and a polled "
        "state is one of STATES (wait_class answers nothing else)",
    "ycsbctl/telemetry/threads.py: values[f\"wait_{s}\"] = values.get(f\"wait_{s}\", 0) + n | 0 -> -1":
        "the default is never read: role_figures gives every role a wait_<s> column for each of STATES, and a polled "
        "state is one of STATES (wait_class answers nothing else)",
    "ycsbctl/telemetry/why.py: n = int(fig.get(\"threads\") or 1) | 1 -> 0":
        "the count is only compared with 1 (thread or threads (n)): a role without a count is one thread as 0 or as 1 (or 2, plural, stays scored)",
    "ycsbctl/experiment/judge.py: typical_us = overall.percentiles_us.get(50.0, 0.0) if overall is not None else 0.0 | 0.0 -> 1.0":
        "a median of 0 µs (operations under 1 µs, an in-process store) or none: the stall search exempts a silence of at most OWN_LENGTH (1.5) × the median, and a silence is at least one whole second, so a median of 0 or of 1 µs exempts none",
    "ycsbctl/experiment/judge.py: paced=result.target_rate is not None, typical_s=(typical_us or 0.0) / 1e6) | 0.0 -> 1.0":
        "a median of 0 µs (operations under 1 µs, an in-process store) or none: the stall search exempts a silence of at most OWN_LENGTH (1.5) × the median, and a silence is at least one whole second, so a median of 0 or of 1 µs exempts none",
    "ycsbctl/engine/worker.py: await asyncio.sleep(0) | 0 -> -1":
        "asyncio.sleep takes any delay <= 0 as one yield to the loop (if delay <= 0: await __sleep0()): sleep(-1) is "
        "sleep(0) (0 -> 1, a second's sleep, stays scored)",
    "ycsbctl/engine/worker.py: NO_DEADLINE = 2**63 - 1  # perf_counter ns: a phase that ends at its quota only (a load without --duration) | 63 -> 62":
        "the deadline of a phase bounded by its operation count only, compared with perf_counter_ns readings (ns since "
        "boot): 2**62 ns is 146 years, never reached any more than 2**63 (the plug-in worker's test of it reads the same "
        "constant)",
    "ycsbctl/engine/measurements.py: N_SLOTS = (COMPONENT + UPDATE + 1) * N_STATUS  # slot = op code · N_STATUS + status | 1 -> 2":
        "room for one op code more than the highest (an RMW's UPDATE half): its slots stay None, as those of every op "
        "code the workload does not run, since only slot_ids are installed, recorded and rolled (1 -> 0, too few, "
        "stays scored)",
    "ycsbctl/engine/measurements.py: _SMALL = 2048  # values below this are their own HDR index (see hdr.counts_index) | 2048 -> 2049":
        "hdr.counts_index(v) is v for every v up to 2048 (2047: no shift; 2048: (1 << 10) + (2048 >> 1) = 2048): a value "
        "of 2047 or 2048 is counted in the same slot whichever side of the shortcut it takes (2049's index is 2048)",
    "ycsbctl/engine/measurements.py: _SMALL = 2048  # values below this are their own HDR index (see hdr.counts_index) | 2048 -> 2047":
        "hdr.counts_index(v) is v for every v up to 2048 (2047: no shift; 2048: (1 << 10) + (2048 >> 1) = 2048): a value "
        "of 2047 or 2048 is counted in the same slot whichever side of the shortcut it takes (2049's index is 2048)",
    "ycsbctl/telemetry/stall.py: floor = max(float(first) - 1.0, 0.0) | 1.0 -> 0.99":
        "first is a whole second and the stall's start and length are kept to 0.1 s (Stall keeps round(began, 1), "
        "round(length, 1)): first - 0.99 and first - 1.01 round as first - 1",
    "ycsbctl/telemetry/stall.py: floor = max(float(first) - 1.0, 0.0) | 1.0 -> 1.01":
        "first is a whole second and the stall's start and length are kept to 0.1 s (Stall keeps round(began, 1), "
        "round(length, 1)): first - 0.99 and first - 1.01 round as first - 1",
    "ycsbctl/telemetry/threads.py: lines = tail.split(b\"\\n\", 2)  # the count, the next line, the rest | 2 -> 3":
        "only the first two pieces are read: they are the same whether two or three splits are made",
    "ycsbctl/telemetry/threads.py: def __init__(self, roots: Callable[[], Iterable[int]], source: str, interval_s: float = 1.0, | 1.0 -> 0.99":
        "a default no caller uses: telemetry/capture.py passes the telemetry interval to both thread samplers",
    "ycsbctl/telemetry/threads.py: def __init__(self, roots: Callable[[], Iterable[int]], source: str, interval_s: float = 1.0, | 1.0 -> 1.01":
        "a default no caller uses: telemetry/capture.py passes the telemetry interval to both thread samplers",
    "ycsbctl/experiment/rate_search.py: log_span = math.log(PRECISION) * 2.0 ** min(self.points, 64)  # in logs: 1.04^(2^30) overflows a float | 64 -> 63":
        "the cap only keeps 2.0 ** points a finite float: from 63 points on, log(1.04) x 2^63 (or 2^64, 2^65) is far "
        "above log(MAX_SPAN), so the span is MAX_SPAN whichever cap; below 63 points none of them binds",
    "ycsbctl/experiment/rate_search.py: log_span = math.log(PRECISION) * 2.0 ** min(self.points, 64)  # in logs: 1.04^(2^30) overflows a float | 64 -> 65":
        "the cap only keeps 2.0 ** points a finite float: from 63 points on, log(1.04) x 2^63 (or 2^64, 2^65) is far "
        "above log(MAX_SPAN), so the span is MAX_SPAN whichever cap; below 63 points none of them binds",
    "ycsbctl/telemetry/profiler.py: self.profile.notes.append(f\"{side} flame graph: inferno-flamegraph failed ({svg.stderr.decode(errors='replace')[:120]})\") | 120 -> 121":
        "how much of inferno's error output the note keeps (as the error-text-cap rule): that the flame graph failed, "
        "which side's and that no picture is kept are said in full either way",
    "ycsbctl/telemetry/profiler.py: self.profile.notes.append(f\"{side} flame graph: inferno-flamegraph failed ({svg.stderr.decode(errors='replace')[:120]})\") | 120 -> 119":
        "how much of inferno's error output the note keeps (as the error-text-cap rule): that the flame graph failed, "
        "which side's and that no picture is kept are said in full either way",
    "ycsbctl/telemetry/process.py: def __init__(self, pids: int | PidSource, source: str = \"server-process\", interval_s: float = 1.0, | 1.0 -> 0.99":
        "a default no caller uses: telemetry/capture.py passes the telemetry interval to each process sampler",
    "ycsbctl/telemetry/process.py: def __init__(self, pids: int | PidSource, source: str = \"server-process\", interval_s: float = 1.0, | 1.0 -> 1.01":
        "a default no caller uses: telemetry/capture.py passes the telemetry interval to each process sampler",
    "ycsbctl/telemetry/process.py: self._t_last = 0.0 | 0.0 -> 1.0":
        "prime() sets it (the wall clock before its first read, the monotonic one after) before any read uses it",
    "ycsbctl/telemetry/process.py: self._wall_last = 0.0 | 0.0 -> 1.0":
        "prime() sets it (the wall clock before its first read, the monotonic one after) before any read uses it",
    "ycsbctl/telemetry/stall.py: else max(floor, start - 0.5)) | 0.5 -> 0.505":
        "start is a whole second and the stall's start is said to 0.1 s (Stall keeps round(began, 1)): "
        "start - 0.505 and start - 0.495 round to start - 0.5",
    "ycsbctl/telemetry/stall.py: else max(floor, start - 0.5)) | 0.5 -> 0.495":
        "start is a whole second and the stall's start is said to 0.1 s (Stall keeps round(began, 1)): "
        "start - 0.505 and start - 0.495 round to start - 0.5",
    "ycsbctl/telemetry/profiler.py: return sum(n for s, n in folded.items() if s.rsplit(\";\", 1)[-1].endswith(KERNEL_MARK)) / total | 1 -> 2":
        "the last piece of a split from the right is the same whether one or two splits are made",
    "ycsbctl/telemetry/container.py: def __init__(self, container_id: str, interval_s: float = 1.0, mode: str = \"stream\", | 1.0 -> 1.01":
        "a default no caller uses: telemetry/capture.py passes the telemetry interval",
    "ycsbctl/telemetry/container.py: def __init__(self, container_id: str, interval_s: float = 1.0, mode: str = \"stream\", | 1.0 -> 0.99":
        "a default no caller uses: telemetry/capture.py passes the telemetry interval",
    "ycsbctl/engine/measurements.py: slots[op * 5 + st][v if v < small else index(v)] += 1 | Lt -> LtE":
        "values below 2048 µs are their own HDR index and 2048's index is 2048 (hdr.counts_index): at v == 2048 both branches count the same slot",
    "ycsbctl/engine/measurements.py: islots[op * 5 + st][v if v < small else index(v)] += 1 | Lt -> LtE":
        "values below 2048 µs are their own HDR index and 2048's index is 2048 (hdr.counts_index): at v == 2048 both branches count the same slot",
    "ycsbctl/engine/measurements.py: lag[v if v < _SMALL else hdr.counts_index(v)] += 1 | Lt -> LtE":
        "values below 2048 µs are their own HDR index and 2048's index is 2048 (hdr.counts_index): at v == 2048 both branches count the same slot",
}
