"""Mutation testing of the modules that compute what users read: ``make mutation``.

Each mutant is one small change of one module (a comparison flipped, an integer ±1, an arithmetic
operator swapped, a float constant nudged by 1 %, a percentile name or a mean/max/min swapped, and/or
swapped); the module's fast tests run against it, and a mutant that no test notices "survives".

Without module names it draws a stratified random sample of the whole map within a time budget
(scripts/mutation_sample.py) and prints the share killed with its 95 % interval. Named modules get an
exact run: the module's tests run once first, under coverage.py (scripts/mutation_probe.py): each test's duration,
the tests that fail without any mutant (left out, and said), and which tests ran each line. A mutant
then runs only the tests that ran its line, quickest first, stopping at the first failure; a line run
only at import or in another process (a spawned engine worker) runs every test of the module. A kill
by a test that runs the line only in another process is not looked for when tests of this process run
it: the score is a lower bound. Equivalent mutants (EQUIVALENT, each with why, and those of the rules of
scripts/mutation_rules.py) are listed, not scored.

The checkout is never touched: the tree is copied to a temporary folder, each mutant is written
there and the original file put back after its tests (always, in ``finally``), and the folder is
removed at the end. Prints a score per module and every surviving mutant.

    python scripts/mutation.py --seed 43 --budget-min 25   # the whole-map sample
    python scripts/mutation.py --all                 # every mutant of every module (hours)
    python scripts/mutation.py ycsbctl/telemetry/bottleneck.py --max 20
    python scripts/mutation.py --list                # the mutants, without running tests
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import mutation_rules  # noqa: E402  (scripts/ is no package)
import mutation_sample  # noqa: E402

# the checkout's venv; else (a git worktree without one) the Python that runs this script
PYTHON = ROOT / ".venv" / "bin" / "python" if (ROOT / ".venv").exists() else Path(sys.executable)

# Module -> its tests (pytest arguments; -x stops at the first failure, so a killed mutant is cheap).
# "-k not test_cli_" leaves out the tests that run the CLI in a subprocess (a plain "not cli" also
# dropped every test with "client" in its name). test_truth_report reuses two experiments made once (YCSBCTL_TRUTH_CACHE): the report code is what
# is mutated, not the measurements. test_report.py renders plots (~25 s): the report modules' mutants
# that survive the truth tests cost that much each.
TESTS: dict[str, list[str]] = {
    "ycsbctl/results/histogram.py": ["tests/results/test_histogram_truth.py", "tests/engine/test_measurements.py"],
    "ycsbctl/urls.py": ["tests/provision/test_local.py"],
    "ycsbctl/results/quota_held.py": ["tests/results/test_quota_held.py", "tests/report/test_compare.py"],
    "ycsbctl/report/folder_differences.py": ["tests/results/test_folder_verdicts.py", "tests/report/test_compare.py"],  # redaction: the secret-property pattern's reference test
    "ycsbctl/telemetry/bottleneck.py": ["tests/telemetry/test_bottleneck_truth.py", "tests/telemetry/test_bottleneck.py"],
    "ycsbctl/telemetry/network.py": ["tests/telemetry/test_network_truth.py", "tests/telemetry/test_network.py",
                                    "tests/telemetry/test_baseline_memo.py"],
    "ycsbctl/report/summary.py": ["tests/report/test_summary_truth.py", "tests/report/test_report_truth.py", "tests/report/test_report.py",
                                  "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/knee.py": ["tests/report/test_summary_truth.py", "tests/report/test_knee_truth.py", "-k",
                               "not two_folders"],
    "ycsbctl/telemetry/cpu_limit.py": ["tests/telemetry/test_cpu_points_truth.py", "tests/telemetry/test_process.py",
                                      "-k", "not confined and not held_by"],
    "ycsbctl/telemetry/frame_figures.py": ["tests/telemetry/test_capture_truth.py", "tests/telemetry/test_samplers.py"],
    "ycsbctl/report/html.py": ["tests/report/test_report_truth.py", "tests/report/test_report.py", "-k", "not test_cli_ and not chromium"],
    # runs.parquet's row per run: errors (ERROR + TIMEOUT), timeouts, not_found, error_rate, client µs per operation.
    "ycsbctl/results/tables.py": ["tests/results/test_tables.py", "tests/experiment/test_judge.py", "tests/results/test_csv_tables.py",
                                  "tests/results/test_folder.py", "tests/results/test_frames_truth.py", "-k", "not test_cli_"],
    "ycsbctl/results/frames.py": ["tests/results/test_frames_truth.py", "tests/report/test_report_truth.py", "tests/results/test_folder.py",
                                  "-k", "not test_cli_"],
    "ycsbctl/engine/measurements.py": ["tests/engine/test_measurements.py", "tests/engine/test_measurements_truth.py",
                                       "tests/engine/test_engine_truth.py"],
    # Every worker's counts added per second, per 100 ms and over the measured seconds (the phase's totals).
    "ycsbctl/engine/aggregate.py": ["tests/engine/test_measurements.py", "tests/engine/test_measurements_truth.py", "tests/engine/test_engine_truth.py"],
    "ycsbctl/results/ycsb_text.py": ["tests/results/test_ycsb_text.py", "tests/results/test_ycsb_text_truth.py", "tests/engine/test_engine_truth.py"],
    # YCSB's final block written line for line (Java's long and Double.toString values, its JSON exporters).
    "ycsbctl/results/ycsb_format.py": ["tests/results/test_ycsb_text.py", "tests/results/test_ycsb_text_truth.py", "tests/engine/test_engine_truth.py"],
    "ycsbctl/experiment/rate_search.py": ["tests/experiment/test_rate_search.py", "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/results/slo.py": ["tests/experiment/test_rate_search.py", "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/engine/throttle.py": ["tests/engine/test_throttle.py", "tests/engine/test_timerfd.py", "tests/engine/test_pacing_chains.py", "tests/engine/test_engine.py",
                                   "-k", "target or paced or pacer or lag"],
    # Each operation's timing and count, and which operations a client runs (chains, their takes).
    "ycsbctl/stores/chain.py": ["tests/stores/test_chain.py", "tests/stores/test_memcached_binding.py", "tests/stores/test_mariadb_wire.py", "tests/stores/test_redis_binding.py", "tests/stores/test_mongodb_wire_chain.py",
                                "tests/engine/test_engine_truth.py", "tests/engine/test_batched_writes.py"],
    # test_measurements: the next batch drawn a slice or two per take, ready before this one runs out.
    "ycsbctl/engine/worker.py": ["tests/engine/test_worker.py", "tests/engine/test_engine_truth.py", "tests/engine/test_engine.py",
                                 "tests/engine/test_measurements.py"],
    "ycsbctl/engine/batches.py": ["tests/engine/test_worker.py", "tests/engine/test_engine_truth.py", "tests/engine/test_engine.py", "tests/engine/test_measurements.py"],
    # A worker process's entry: its last message always sent, its exit when the phase's process is gone.
    "ycsbctl/engine/worker_process.py": ["tests/engine/test_worker.py", "tests/engine/test_engine_truth.py", "tests/engine/test_engine.py", "tests/engine/test_measurements.py"],
    # A point's verdict: stall, client-stall, data gone missing during the point.
    "ycsbctl/experiment/judge.py": ["tests/experiment/test_judge.py"],
    # A deployment variant's settings as the server reads them back (CONFIG GET, psql, the mariadb client), and its
    # processes (shards, replicas, a standby) as the deployment's own tests count them.
    "ycsbctl/provision/variants.py": ["tests/provision/test_persistence_variants.py", "tests/stores/test_redis_cluster.py",
                                      "tests/stores/test_redis_replicas.py", "tests/stores/test_postgresql_standby.py"],
    # A cell a store cannot do at the plan's scale, refused before its points (FerretDB's scans against --timeout).
    "ycsbctl/experiment/cannot.py": ["tests/experiment/test_cannot.py"],
    # How a run ended: its exit code and its folder's status (complete, partial, interrupted).
    "ycsbctl/experiment/outcome.py": ["tests/experiment/test_outcome.py"],
    "ycsbctl/experiment/missing.py": ["tests/experiment/test_judge.py"],
    # Whether a point's host was busy (the claim's other benchmark, or foreign CPU during it) and its why line.
    "ycsbctl/experiment/explain.py": ["tests/experiment/test_explain.py", "tests/telemetry/test_why.py", "tests/experiment/test_point_runner.py"],
    "ycsbctl/telemetry/stall.py": ["tests/telemetry/test_stall.py", "tests/experiment/test_judge.py"],
    # Which replica a point lost, when (the first 1 Hz sample counting fewer), and what its figures are true of.
    "ycsbctl/telemetry/replicas_lost.py": ["tests/experiment/test_faults_replica_unread.py"],
    # The disturbance study's events table: stall, operations lost, p99 before/during/after.
    "ycsbctl/results/disturbance.py": ["tests/results/test_disturbance.py", "tests/results/test_overlap.py"],
    # Overlapping events: one window, the cost charged once, to the event the server's evidence blames.
    "ycsbctl/results/overlap.py": ["tests/results/test_overlap.py"],
    # The words of an event's cost (stall, slowdown, ops lost) and of its charge (alone, here, there, jointly).
    "ycsbctl/results/events.py": ["tests/report/test_study_figures.py"],
    # Each reply's status (OK, NOT_FOUND, ERROR) as the server's own counters count it.
    "ycsbctl/stores/memcached/binding.py": ["tests/stores/test_chain.py", "tests/stores/test_watchdog.py", "tests/stores/test_memcached_binding.py", "tests/stores/test_memcached_truth.py"],
    "ycsbctl/stores/postgresql/wire.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_sql_stores.py",
                                          "-k", "postgresql or wire"],
    # A reply's rows, tag and error as the wire path reads them (the endings that decide a point operation's status).
    "ycsbctl/stores/postgresql/messages.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_sql_stores.py", "-k", "postgresql or wire"],
    "ycsbctl/stores/mariadb/wire.py": ["tests/stores/test_mariadb_wire.py", "tests/stores/test_sql_stores.py", "tests/stores/test_mariadb_sql_truth.py", "-k", "mariadb or wire"],
    # What a result folder keeps of a point: its overall summary, its histograms (whole, decodable), its run docs.
    "ycsbctl/results/folder.py": ["tests/results/test_folder.py", "tests/results/test_frames_truth.py"],
    # A folder's files written whole (or not at all) and their JSON and parquet forms (mixed columns as numbers or text).
    "ycsbctl/results/durable.py": ["tests/results/test_folder.py", "tests/results/test_frames_truth.py"],
    # A point's figures: its overall summary (every operation merged), throughput, error rate, client CPU per op.
    "ycsbctl/results/model.py": ["tests/results/test_model.py", "tests/results/test_tables.py", "tests/results/test_folder.py", "tests/results/test_frames_truth.py",
                                 "tests/experiment/test_judge.py"],
    # What compare calls a real change, and what it says makes two experiments differ.
    "ycsbctl/report/compare.py": ["tests/results/test_verdict_edges.py", "tests/report/test_compare.py",
                                  "tests/results/test_host_drift.py"],
    # What compare --calibrate records as the host's drift, and the A/A pairs it refuses.
    "ycsbctl/report/drift_record.py": ["tests/results/test_host_drift.py"],
    # The 100 ms series (series_100ms.parquet: ops_per_s, p50/p99 per interval) the disturbance table reads.
    "ycsbctl/results/fine.py": ["tests/results/test_disturbance.py", "tests/engine/test_fine_series_truth.py"],
    # The client's own loop lag (CLIENT-LAG) and the rule that calls a point's client lagging.
    "ycsbctl/results/client_lag.py": ["tests/results/test_client_lag.py", "tests/engine/test_measurements.py", "tests/experiment/test_judge.py",
                                      "tests/experiment/test_client_lag_in_client.py"],
    # Intervals, tests and verdicts between targets (issue 42).
    "ycsbctl/results/stats.py": ["tests/results/test_stats.py",
                                "tests/results/test_decisions.py"],
    # Group-sequential boundaries: the nominal level of each look (Lan–DeMets, numerical integration).
    "ycsbctl/results/spending.py": ["tests/results/test_decisions.py"],
    # When a sequential run (--repeat auto) looks, and the level each look tests at.
    "ycsbctl/results/looks.py": ["tests/results/test_stats.py",
                                "tests/results/test_decisions.py", "tests/experiment/test_sequential.py"],
    # --repeat auto's rounds: when they stop, the rounds the budget was planned to hold.
    "ycsbctl/experiment/sequential.py": ["tests/experiment/test_sequential.py"],
    # The run order: rounds of shuffled blocks (the targets at one thread count together).
    "ycsbctl/experiment/rounds.py": ["tests/experiment/test_rounds.py"],
    "ycsbctl/results/verdicts.py": ["tests/results/test_verdict_edges.py", "tests/results/test_verdicts.py", "tests/results/test_cost_verdicts.py",
                                  "tests/results/test_percentiles.py", "tests/results/test_decisions.py", "tests/results/test_uncompared.py"],
    # Each cell's centre, interval, CV and drift over its rounds (of throughput, latency and every percentile).
    "ycsbctl/results/cells.py": ["tests/results/test_verdict_edges.py", "tests/results/test_verdicts.py", "tests/results/test_cost_verdicts.py", "tests/results/test_percentiles.py", "tests/results/test_decisions.py", "tests/results/test_uncompared.py"],
    # Two experiments compared cell by cell: through a control target, the yardsticks' host speed, or the drift margin.
    "ycsbctl/results/folder_verdicts.py": ["tests/results/test_folder_verdicts.py", "tests/results/test_verdict_edges.py", "tests/results/test_verdicts.py", "tests/results/test_yardstick.py", "tests/results/test_host_drift.py"],
    # The four verdicts as one line (ratio, interval with the digits its verdict needs, margin), and the host's
    # noise bound that decides a far gap from one round (issue 60).
    "ycsbctl/results/verdict_words.py": ["tests/results/test_verdicts.py", "tests/results/test_verdict_edges.py",
                                         "tests/report/test_summary_table.py", "tests/results/test_decisions.py"],
    "ycsbctl/results/noise.py": ["tests/results/test_decisions.py"],
    # Why a point was not compared, counted by cause; the host-busy findings said once; compare's JSON of cells
    # with no verdict.
    "ycsbctl/results/causes.py": ["tests/results/test_uncompared.py"],
    "ycsbctl/report/host_busy.py": ["tests/report/test_degraded_readers.py"],
    "ycsbctl/report/compare_json.py": ["tests/report/test_degraded_readers.py", "tests/report/test_compare.py"],
    # The host yardstick: its readings, the host factor between folders and its division.
    "ycsbctl/results/yardstick.py": ["tests/results/test_yardstick.py", "tests/report/test_compare_yardstick.py"],
    "ycsbctl/telemetry/yardstick.py": ["tests/telemetry/test_yardstick.py"],
    "ycsbctl/telemetry/yardstick_child.py": ["tests/telemetry/test_yardstick.py"],
    "ycsbctl/results/host_drift.py": ["tests/results/test_host_drift.py", "tests/report/test_compare.py"],
    "ycsbctl/report/cost_table.py": ["tests/results/test_cost_verdicts.py", "tests/report/test_deployment_findings.py"],
    # The scaling model (Universal Scalability Law) each ladder's finding and plot carry (issue 46).
    "ycsbctl/results/scaling.py": ["tests/results/test_scaling.py", "tests/report/test_scaling_report.py"],
    # What the report and the console show of them: each cell's interval text, the first screen, the bars.
    "ycsbctl/report/verdict_table.py": ["tests/report/test_verdict_table.py", "tests/report/test_report_truth.py", "tests/report/test_summary_table.py",
                                        "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/summary_table.py": ["tests/report/test_summary_table.py"],
    "ycsbctl/report/plots.py": ["tests/report/test_plots.py", "tests/report/test_peak_truth.py", "tests/report/test_plot_labels.py",
                                "tests/report/test_scaling_report.py", "tests/report/test_report.py"],
    # The variant study's names and values (which variant a row is).
    "ycsbctl/results/variants.py": ["tests/experiment/test_sweep_axis.py", "-k", "not test_cli_"],
    # Other load on the host: who is foreign, whose CPU counts.
    "ycsbctl/experiment/host_claim.py": ["tests/experiment/test_host_claim.py"],
    # ycsbctl calibrate: the comparisons against redis-benchmark, the verdict on the client, redis-benchmark's report read
    "ycsbctl/experiment/calibrate.py": ["tests/experiment/test_calibrate.py"],
    "ycsbctl/experiment/calibrate_text.py": ["tests/experiment/test_calibrate.py"],
    "ycsbctl/stores/redis/benchmark.py": ["tests/experiment/test_calibrate.py", "tests/stores/test_redis_tls.py"],
    # Footprints: bytes per record (server's own memory, RSS less the empty server), a container's memory.
    "ycsbctl/telemetry/footprint.py": ["tests/telemetry/test_footprint.py", "tests/telemetry/test_samplers.py", "tests/telemetry/test_container.py"],
    "ycsbctl/telemetry/container.py": ["tests/telemetry/test_container_sampler.py", "tests/telemetry/test_container.py"],
    "ycsbctl/telemetry/process.py": ["tests/telemetry/test_process.py", "tests/telemetry/test_process_cpu_truth.py", "tests/telemetry/test_samplers.py"],
    # Where the time went, per point, and the why line built from it (issue 46).
    "ycsbctl/telemetry/why.py": ["tests/telemetry/test_process.py", "tests/telemetry/test_why.py", "tests/telemetry/test_why_planted.py"],
    "ycsbctl/telemetry/threads.py": ["tests/telemetry/test_process.py", "tests/telemetry/test_threads.py", "tests/telemetry/test_where_time_went.py", "tests/telemetry/test_why_planted.py"],
    "ycsbctl/telemetry/host.py": ["tests/telemetry/test_host.py", "tests/telemetry/test_where_time_went.py", "tests/telemetry/test_why.py"],
    # The run table's telemetry figures over the measured window (server/client CPU mean and max, memory, shard
    # balance, replication lag, forks), from the samplers' frame.
    "ycsbctl/telemetry/capture.py": ["tests/telemetry/test_capture_truth.py", "tests/telemetry/test_bottleneck.py",
                                     "tests/telemetry/test_samplers.py"],
    "ycsbctl/telemetry/wire.py": ["tests/telemetry/test_wire.py", "tests/telemetry/test_evidence.py", "tests/telemetry/test_why.py"],
    "ycsbctl/telemetry/evidence.py": ["tests/telemetry/test_evidence.py", "tests/telemetry/test_why_planted.py", "tests/telemetry/test_cpu_points_truth.py"],
    "ycsbctl/telemetry/profiler.py": ["tests/telemetry/test_why.py", "tests/telemetry/test_profile.py"],
    # The stores' samplers: each figure the server's own counters over the span.
    "ycsbctl/stores/memcached/stats.py": ["tests/stores/test_memcached_stats.py", "tests/stores/test_memcached_truth.py"],
    "ycsbctl/stores/postgresql/stats.py": ["tests/stores/test_postgresql_stats.py", "tests/stores/test_postgresql_stats_truth.py", "tests/stores/test_sql_stores.py", "-k", "postgresql"],
    "ycsbctl/stores/mariadb/stats.py": ["tests/stores/test_sql_stores.py", "tests/stores/test_mariadb_stats_truth.py", "tests/experiment/test_faults_sql.py", "-k", "mariadb and not killed"],
    "ycsbctl/stores/tarantool/stats.py": ["tests/stores/test_tarantool.py"],
    "ycsbctl/stores/clickhouse/stats.py": ["tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/sphinx/stats.py": ["tests/stores/test_sphinx.py"],
    "ycsbctl/stores/elasticsearch/stats.py": ["tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/redis/info.py": ["tests/stores/test_redis_info_sampler.py", "tests/stores/test_redis_info.py", "tests/telemetry/test_samplers.py", "tests/provision/test_persistence_variants.py"],
    # A cluster point's operations per shard and its redirections (checked against the shards' commandstats).
    "ycsbctl/stores/redis/cluster_chain.py": ["tests/stores/test_redis_cluster_slots.py", "tests/stores/test_redis_cluster.py"],
    "ycsbctl/report/deployment_findings.py": ["tests/report/test_deployment_findings_edges.py", "tests/report/test_deployment_findings.py"],
    "ycsbctl/stores/mongodb/status.py": ["tests/stores/test_mongodb_status.py", "tests/telemetry/test_samplers.py"],
    # SQL: YCSB's jdbc layout (scan bounds, row counts) and the shared reply path.
    "ycsbctl/stores/sql/layout.py": ["tests/stores/test_sql_layout.py", "tests/stores/test_sql_stores.py", "tests/stores/test_sql_ycsb_interop.py"],
    "ycsbctl/stores/sql/wire.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_mariadb_wire.py",
                                  "tests/stores/test_sql_stores.py"],
    "ycsbctl/stores/sql/chain.py": ["tests/stores/test_sql_stores.py", "tests/stores/test_postgresql_wire.py",
                                   "tests/stores/test_mariadb_wire.py"],
    # The records count of a SQL store (count and clear).
    "ycsbctl/stores/sql/protocol.py": ["tests/stores/test_sql_stores.py"],
    "ycsbctl/stores/sqlite/binding.py": ["tests/stores/test_sqlite_wal_switch.py", "tests/stores/test_sql_stores.py",
                                        "tests/experiment/test_faults_sqlite_lock.py", "-k", "sqlite"],
    # The structure study (online-status): users loaded, members stored, the study's peak.
    "ycsbctl/workload/online_status/workload.py": ["tests/workload/test_study_rules.py", "tests/workload/test_online_status.py"],
    "ycsbctl/workload/online_status/ops.py": ["tests/workload/test_online_status.py"],
    "ycsbctl/workload/online_status/redis.py": ["tests/workload/test_online_status.py"],
    "ycsbctl/workload/online_status/mongodb.py": ["tests/workload/test_online_status.py"],
    # The many-store study (media-items): the truth every answer is checked against, the checks, its headlines.
    "ycsbctl/workload/media_items/truth.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/executor.py": ["tests/workload/test_study_rules.py", "tests/workload/test_media_items.py"],
    # Each store's media-items executor: its answers, checked against the truth by the executor (a wrong one
    # fails the point), on real servers; the data set, the query pools, the operation mix and settings.
    "ycsbctl/workload/media_items/dataset.py": ["tests/workload/test_study_rules.py", "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/pool.py": ["tests/workload/test_study_rules.py", "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/sources.py": ["tests/workload/test_study_rules.py", "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/settings.py": ["tests/workload/test_study_rules.py",
                                                 "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/workload.py": ["tests/workload/test_study_rules.py",
                                                 "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/sql.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/sqlite.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/postgresql.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/mysql.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/mongodb.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/redis.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/memcached.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/tarantool.py": ["tests/workload/test_media_items_tarantool.py"],
    "ycsbctl/workload/media_items/clickhouse.py": ["tests/workload/test_media_items_clickhouse.py"],
    "ycsbctl/workload/media_items/sphinx.py": ["tests/workload/test_media_items_sphinx.py"],
    "ycsbctl/workload/media_items/elasticsearch.py": ["tests/workload/test_media_items_elasticsearch.py"],
    "ycsbctl/report/many_store.py": ["tests/report/test_many_store_headline.py", "tests/workload/test_media_items.py",
                                    "-k", "run_marks or many_store_headline"],
    # Which operation's latency a point's one line and the report name (workload E: SCAN, not its INSERTs).
    "ycsbctl/results/names.py": ["tests/experiment/test_judge.py", "tests/report/test_summary_truth.py", "tests/telemetry/test_bottleneck.py",
                                 "tests/report/test_report_truth.py", "-k", "not test_cli_ and not chromium"],
    # The structure study's table and headline: bytes per user, users per second, the smallest and fastest
    # variant; the disturbance study's events table (ms) and headline (stall, operations lost, who wins).
    "ycsbctl/report/unlike.py": ["tests/report/test_unlike.py", "tests/report/test_many_store_headline.py",
                                 "tests/report/test_footprint_table.py"],
    "ycsbctl/report/variant_study.py": ["tests/report/test_study_figures.py", "tests/experiment/test_sweep_axis.py"],
    "ycsbctl/report/study_headlines.py": ["tests/report/test_study_figures.py", "tests/report/test_summary_table.py",
                                          "tests/report/test_deployment_findings.py"],
    "ycsbctl/report/disturbance_report.py": ["tests/report/test_report_rules.py", "tests/report/test_study_figures.py",
                                           "tests/experiment/test_disturb_truth.py"],
    # The report's other findings and figures: the scaling law's line, the why lines, what differs between
    # the servers, the rate (hockey-stick) figure, the resource and footprint figures, the axes.
    "ycsbctl/report/scaling_report.py": ["tests/report/test_scaling_report.py"],
    "ycsbctl/report/why_report.py": ["tests/report/test_why_findings.py"],
    "ycsbctl/report/server_traits.py": ["tests/report/test_server_traits.py", "tests/provision/test_target_labels.py", "tests/report/test_report.py",
                                        "tests/report/test_deployment_findings.py", "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/rate_plots.py": ["tests/report/test_rate_plot_bars.py", "tests/report/test_rate_plot_intervals.py", "tests/experiment/test_rate_ladder.py", "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/report/resource_plots.py": ["tests/report/test_resource_plots.py", "tests/report/test_report_rules.py", "tests/report/test_footprint_table.py", "tests/report/test_report.py",
                                         "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/plot_style.py": ["tests/report/test_plots.py", "tests/report/test_plot_style.py", "tests/report/test_report_rules.py",
                                     "tests/report/test_plot_labels.py", "tests/report/test_report.py",
                                     "-k", "not test_cli_ and not chromium"],
    # The stores' shared pieces: each sampler's per-second rates, a reply's timeout, HTTP and MySQL framing.
    "ycsbctl/stores/sampler.py": ["tests/stores/test_sampler.py", "tests/stores/test_sampler_cost.py", "tests/telemetry/test_samplers.py", "tests/stores/test_memcached_truth.py",
                                  "tests/stores/test_tarantool.py"],
    "ycsbctl/stores/binding.py": ["tests/stores/test_wire_binding.py", "tests/stores/test_elasticsearch_binding.py", "tests/stores/test_mariadb_wire.py", "tests/stores/test_chain.py", "tests/stores/test_postgresql_wire.py", "tests/stores/test_mongodb_wire_chain.py", "tests/stores/test_redis_binding.py",
                                  "tests/stores/test_memcached_binding.py"],
    "ycsbctl/stores/binding_set.py": ["tests/stores/test_watchdog.py", "tests/stores/test_mongodb_wire_chain.py", "tests/stores/test_redis_binding.py"],
    "ycsbctl/stores/http1.py": ["tests/stores/test_http1.py", "tests/stores/test_clickhouse.py", "tests/stores/test_elasticsearch.py", "tests/stores/test_slow_reply_deadline.py"],
    "ycsbctl/stores/deadline.py": ["tests/stores/test_slow_reply_deadline.py"],
    "ycsbctl/stores/redis/admin.py": ["tests/stores/test_slow_reply_deadline.py", "tests/stores/test_redis_tls.py"],
    "ycsbctl/stores/mysql_admin.py": ["tests/stores/test_slow_reply_deadline.py", "tests/stores/test_mariadb_sql_truth.py"],
    # MariaDB's wire path and SphinxQL: packets, length-encoded integers, text rows, ERR packets, quoting.
    "ycsbctl/stores/mysql41.py": ["tests/stores/test_sphinx_wire.py", "tests/stores/test_mariadb_wire.py", "tests/stores/test_sphinx.py",
                                  "tests/stores/test_sql_stores.py", "-k", "mariadb or sphinx"],
    # Disturbances: the spec's second and size, the command's own duration (the events table's command_s).
    "ycsbctl/stores/disturb.py": ["tests/stores/test_disturb_spec.py", "tests/stores/test_redis_disturb.py"],
    "ycsbctl/stores/redis/disturb.py": ["tests/stores/test_redis_disturb.py"],
    "ycsbctl/stores/mongodb/disturb.py": ["tests/stores/test_mongodb_disturb.py", "tests/experiment/test_disturb_truth.py",
                                          "-k", "mongo"],
    # Each store's bindings (each reply's status: OK, NOT_FOUND, ERROR; scan rows) and its reading (memory
    # and records: the footprint per record).
    "ycsbctl/stores/redis/binding.py": ["tests/stores/test_redis_requests.py", "tests/stores/test_redis_binding.py"],
    # The chained path (each reply's status, WAIT's count of replicas) and a URL's settings and refusals.
    "ycsbctl/stores/redis/reply_chain.py": ["tests/stores/test_redis_requests.py", "tests/stores/test_redis_binding.py", "tests/stores/test_chain.py"],
    "ycsbctl/stores/redis/options.py": ["tests/stores/test_redis_requests.py", "tests/stores/test_redis_binding.py", "tests/stores/test_redis_tls.py"],
    "ycsbctl/stores/tls_wire.py": ["tests/stores/test_tls_wire.py"],
    "ycsbctl/stores/tls_socket.py": ["tests/stores/test_tls_wire.py"],
    "ycsbctl/stores/redis/cluster.py": ["tests/stores/test_redis_cluster_slots.py", "tests/stores/test_redis_cluster.py"],
    "ycsbctl/stores/redis/replica_reads.py": ["tests/stores/test_redis_replica_routing.py", "tests/stores/test_redis_replicas.py"],
    "ycsbctl/stores/redis/store.py": ["tests/stores/test_redis_store.py", "tests/stores/test_store_urls.py", "tests/telemetry/test_samplers.py", "tests/stores/test_redis_cluster.py",
                                      "tests/stores/test_redis_info.py"],
    # A Redis URL checked, rewritten (TLS, -p redis.password) and made into YCSB's binding properties.
    "ycsbctl/stores/redis/urls.py": ["tests/stores/test_redis_store.py", "tests/stores/test_store_urls.py", "tests/telemetry/test_samplers.py", "tests/stores/test_redis_cluster.py", "tests/stores/test_redis_info.py"],
    "ycsbctl/stores/mongodb/wire.py": ["tests/stores/test_mongodb_wire_handshake.py", "tests/stores/test_mongodb_native_reader.py",
                                       "tests/stores/test_mongodb_wire_chain.py",
                                       "tests/stores/test_mongodb_bindings.py", "tests/stores/test_mongodb_truth.py",
                                       "tests/stores/test_mongo_tls.py"],
    "ycsbctl/stores/mongodb/wire_chain.py": ["tests/stores/test_mongodb_wire_chain.py", "tests/stores/test_mongodb_truth.py"],
    # test_mongodb_wire_chain: the wire path's requests against bson of this module's record_document and projection
    "ycsbctl/stores/mongodb/pymongo_binding.py": ["tests/stores/test_mongodb_bindings.py", "tests/stores/test_mongodb_truth.py",
                                                 "tests/stores/test_mongodb_wire_chain.py"],
    "ycsbctl/stores/mongodb/store.py": ["tests/stores/test_mongodb_store.py", "tests/stores/test_store_urls.py", "tests/telemetry/test_samplers.py",
                                       "tests/stores/test_mongo_tls.py", "tests/experiment/test_faults_new_stores.py",
                                       "-k", "mongo"],
    "ycsbctl/stores/memcached/record.py": ["tests/stores/test_memcached_record.py", "tests/stores/test_memcached_binding.py", "tests/stores/test_memcached_ycsb_interop.py"],
    "ycsbctl/stores/memcached/store.py": ["tests/stores/test_store_urls.py", "tests/stores/test_memcached_binding.py", "tests/provision/test_memcached_provision.py"],
    "ycsbctl/stores/postgresql/binding.py": ["tests/stores/test_postgresql_binding_failures.py", "tests/stores/test_sql_stores.py", "tests/stores/test_postgresql_password.py",
                                             "-k", "postgresql"],
    "ycsbctl/stores/postgresql/store.py": ["tests/stores/test_postgresql_stats_truth.py", "tests/stores/test_postgresql_store.py", "tests/stores/test_store_urls.py", "tests/stores/test_sql_stores.py",
                                           "tests/stores/test_postgresql_password.py", "-k", "postgresql"],
    "ycsbctl/stores/mariadb/binding.py": ["tests/stores/test_mariadb_binding_failures.py", "tests/stores/test_sql_stores.py",
                                          "tests/stores/test_mariadb_sql_truth.py", "-k", "mariadb"],
    "ycsbctl/stores/mariadb/store.py": ["tests/stores/test_mariadb_store.py", "tests/stores/test_store_urls.py", "tests/stores/test_sql_stores.py",
                                        "tests/stores/test_mariadb_stats_truth.py",
                                        "tests/provision/test_local_sql.py", "-k", "mariadb"],
    # SQLite's kind: embedded, which says its points have no server and no network round trip (the report's
    # "unlike quantities" and the provisioner's no-port path read it).
    "ycsbctl/stores/sqlite/server.py": ["tests/provision/test_server_kinds.py", "tests/stores/test_sql_stores.py",
                                        "-k", "sqlite or embedded or kind"],
    "ycsbctl/stores/sqlite/store.py": ["tests/stores/test_sqlite_store.py", "tests/stores/test_store_urls.py", "tests/stores/test_sqlite_open.py", "tests/stores/test_sql_stores.py",
                                       "tests/experiment/test_faults_sqlite_lock.py", "-k", "sqlite"],
    "ycsbctl/stores/tarantool/iproto.py": ["tests/stores/test_tarantool_iproto.py", "tests/stores/test_tarantool.py",
                                           "tests/experiment/test_faults_new_stores.py"],
    "ycsbctl/stores/tarantool/binding.py": ["tests/stores/test_tarantool_binding.py", "tests/stores/test_tarantool_iproto.py", "tests/stores/test_tarantool.py",
                                            "tests/experiment/test_tarantool_dying_port.py"],
    "ycsbctl/stores/tarantool/store.py": ["tests/stores/test_store_urls.py", "tests/stores/test_tarantool.py"],
    "ycsbctl/stores/clickhouse/http.py": ["tests/stores/test_clickhouse_http.py", "tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/clickhouse/binding.py": ["tests/stores/test_clickhouse_http.py", "tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/clickhouse/layout.py": ["tests/stores/test_clickhouse.py"],
    # its admin calls, and the records it counts: distinct keys (a key loaded twice is two MergeTree rows)
    "ycsbctl/stores/clickhouse/admin.py": ["tests/stores/test_clickhouse.py", "tests/experiment/test_faults_load_twice.py",
                                          "-k", "clickhouse"],
    # a URL a `ycsbctl load` would load twice, or a run would read empty: refused before anything starts
    "ycsbctl/experiment/url_datasets.py": ["tests/experiment/test_faults_load_twice.py"],
    "ycsbctl/stores/clickhouse/store.py": ["tests/stores/test_clickhouse_store.py", "tests/stores/test_store_urls.py", "tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/elasticsearch/rest.py": ["tests/stores/test_elasticsearch_binding.py", "tests/stores/test_elasticsearch_rest.py", "tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/elasticsearch/binding.py": ["tests/stores/test_elasticsearch_binding.py", "tests/stores/test_elasticsearch_rest.py", "tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/elasticsearch/store.py": ["tests/stores/test_elasticsearch_store.py", "tests/stores/test_store_urls.py", "tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/sphinx/wire.py": ["tests/stores/test_sphinx_wire.py", "tests/stores/test_sphinx.py"],
    "ycsbctl/stores/sphinx/binding.py": ["tests/stores/test_sphinx_wire.py", "tests/stores/test_sphinx.py"],
    "ycsbctl/stores/sphinx/store.py": ["tests/stores/test_store_urls.py", "tests/stores/test_sphinx.py"],
}

# Modules under the folders that compute figures (report/, results/, telemetry/, stores/ and every store's
# package, the structure study) that compute no figure a user reads nor a verdict, each with why:
# tests/test_mutation_map.py fails on a module in neither this list nor TESTS (an ``__init__.py`` of
# imports only aside), so that a new module is not silently left out.
NOT_FIGURES: dict[str, str] = {
    "ycsbctl/stores/sql/tls.py": "the TLS settings of a SQL URL (sslmode, CA, verification) for the drivers: no "
                                 "figure; tests/stores/test_sql_tls.py checks the server sees every session encrypted",
    "ycsbctl/results/__init__.py": "re-exports",
    "ycsbctl/results/disk.py": "whether the folder can be written",
    "ycsbctl/results/hdr_log.py": "a file format, checked by a round trip through HdrHistogram's reader",
    "ycsbctl/results/json_summary.py": "copies the summary's fields into JSON",
    "ycsbctl/results/listing.py": "which folders exist",
    "ycsbctl/results/run_columns.py": "column declarations",
    "ycsbctl/results/schema.py": "document shapes and validation",
    "ycsbctl/results/ycsb_import.py": "parses YCSB's text (its figures are YCSB's): see ycsb_text.py",
    "ycsbctl/telemetry/__init__.py": "re-exports",
    "ycsbctl/telemetry/client_hosts.py": "collects what each shard measured (--cluster, lab tests only)",
    "ycsbctl/telemetry/client_network.py": "runs iperf3 per client host (lab tests only); its figures are iperf3's",
    "ycsbctl/report/profile_report.py": "inlines the profiles' pictures and the shares telemetry/profiler.py computes",
    "ycsbctl/stores/admin.py": "dispatches clear and count to the store (the store's own admin answers them)",
    "ycsbctl/stores/base.py": "the store contract: declarations and defaults",
    "ycsbctl/stores/capabilities.py": "the optional store interfaces: declarations only; "
                                      "tests/stores/test_capabilities.py checks who declares and implements what",
    "ycsbctl/stores/layers_contract.py": "import-linter's contract, built from the registry",
    "ycsbctl/stores/reference.py": "the reference client contract (redis/benchmark.py computes its figures)",
    "ycsbctl/stores/registry.py": "URL scheme -> store",
    "ycsbctl/stores/server_kind.py": "how a server kind is started (command line, settings, TLS): no figure; "
                                     "tests/provision/ check the command lines and the servers they start",
    **{f"ycsbctl/stores/{_store}/server.py": "its servers' command lines and data-folder preparation: no figure; "
                                            "tests/provision/ start them"
       for _store in ("redis", "mongodb", "memcached", "postgresql", "mariadb", "tarantool", "clickhouse",
                      "sphinx", "elasticsearch")},
    "ycsbctl/stores/basic/binding.py": "BasicDB: every call OK at once, nothing to decide",
    "ycsbctl/stores/basic/store.py": "BasicDB's store: no server, no reading",
    "ycsbctl/stores/redis/tls.py": "the one line said when TLS is why a connection failed",
    "ycsbctl/stores/mongodb/admin.py": "opens a pymongo client for admin calls",
    "ycsbctl/stores/memcached/admin.py": "memcached's admin commands on a blocking connection, answers as the server gives them",
    "ycsbctl/stores/tarantool/admin.py": "Tarantool's admin EVAL calls, answers as the server gives them",
    "ycsbctl/stores/elasticsearch/admin.py": "Elasticsearch's admin HTTP calls, answers as the server gives them",
    "ycsbctl/stores/sphinx/admin.py": "Sphinx's admin statements through PyMySQL, answers as the server gives them",
    "ycsbctl/workload/media_items/contract.py": "the executor contract: declarations (Item, Query, MediaStore)",
    "ycsbctl/workload/media_items/ops.py": "operation codes and names",
    "ycsbctl/stores/postgresql/session.py": "an asyncpg connection of its own for admin calls",
    "ycsbctl/stores/mariadb/session.py": "a PyMySQL connection of its own for admin calls",
}

# Equivalent mutants: changes that no input can tell from the original (same output for every value the
# code can be given), each with why. Keyed "module: the source line, stripped | the change" (Mutant.key),
# so that they stay named when lines move. They are listed, not scored.
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
    "ycsbctl/results/stats.py: for n in range(2, cap + 1): | 2 -> 1":
        "n = 1 is never returned: the t quantile at 0 degrees of freedom is NaN (scipy's stdtrit) and NaN <= effect is "
        "false, so the loop goes on to 2 as it starts there (range(3, ...), which never says 2, stays scored)",
    "ycsbctl/results/stats.py: for n in range(2, cap + 1): | 1 -> 0":
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
        EQUIVALENT[f"ycsbctl/workload/media_items/elasticsearch.py: {_line} | {_what}"] = \
            "Elasticsearch sends no HTTP status 299 or 300 (successes 200/201, refusals 4xx/5xx, no redirection): the edge at 300 moved by one status tells no reply apart"
EQUIVALENT.update({
    "ycsbctl/stores/clickhouse/store.py: query(url, create_table(properties.get(\"table\", \"usertable\"), columns), max(timeout_s, 10.0)) | 10.0 -> 9.9":
        "how long the CREATE TABLE may wait for its answer (the wait-timeout rule's reason): 9.9 s or 10 s, the same "
        "table; that it gets 10 s whatever the operations' timeout is pinned (test_clickhouse_store, a 0.1 s DDL)",
    "ycsbctl/stores/mariadb/wire.py: t = t[:i] + b\"%d\" + t[i + 4:] | 4 -> 5":
        "QUOTED.scan's text ends with its LIMIT '%b' (whatever the fields: they come before FROM), so nothing follows "
        "the 4 bytes at i: t[i + 5:] is b'' as t[i + 4:] is",
    "ycsbctl/stores/http1.py: pos = end + 2 | 2 -> 1":
        "pos then lands on the \\n of the CRLF that ends the chunk's data (the length check above counts its 2 bytes), so the next "
        "size line reads b'\\n1f4' and int(x, 16) skips leading whitespace: the same size, the same end, for every "
        "chunked reply that ends its chunks with CRLF as HTTP/1.1 requires",
    "ycsbctl/stores/postgresql/store.py: traits[\"tls\"] = f\"{ssl_row[0][1]} {ssl_row[0][2]}\"  # every point of this target is encrypted | 0 -> -1":
        "the query (WHERE pid = pg_backend_pid()) answers one row, this backend's: ssl_row[-1] is ssl_row[0]",
    "ycsbctl/stores/postgresql/store.py: if ssl_row and ssl_row[0][0]: | 0 -> -1":
        "the pg_backend_pid() row is one row (its first is its last), and its cipher (the last column) is NULL "
        "exactly when ssl is false (PostgreSQL's pg_stat_ssl): either index reads the same truth",
    "ycsbctl/stores/clickhouse/store.py: query(url, create_table(properties.get(\"table\", \"usertable\"), columns), max(timeout_s, 10.0)) | 10.0 -> 10.1":
        "the twin of 10.0 -> 9.9 above: 10.1 s or 10 s for the CREATE TABLE's answer, the same table; the 10 s floor "
        "over a short operations' timeout is pinned (test_clickhouse_store, a 0.1 s DDL)",
    "ycsbctl/stores/memcached/store.py: while c.stats().get(\"curr_items\") not in (\"0\", None) and time.monotonic() < end: | Lt -> LtE":
        "end is a time.monotonic() reading 10 s ahead: only a reading equal to it to the last bit is told apart, and "
        "then by one more 50 ms look at the server's items",
    "ycsbctl/stores/disturb.py: n = int(math.floor((duration_s - self.at_s) / self.every_s + 1e-9)) + 1 | Sub -> Add":
        "n only bounds the range: the comprehension keeps the times inside the window (at_s + i * every_s < "
        "duration_s), so a larger n adds only times it drops",
    "ycsbctl/stores/postgresql/stats.py: return num(row[0][0]) if row and row[0][0] is not None else None | 0 -> -1":
        "SELECT pg_total_relation_size(...) answers one row of one value: row[-1] is row[0] and [-1] is [0] "
        "(test_postgresql_stats_truth pins the value against psql's)",
    "ycsbctl/stores/postgresql/stats.py: if None in a or None in b or dt <= 0: | LtE -> Lt":
        "dt is the time between two time.monotonic() readings with a database round trip between them: never 0",
    "ycsbctl/stores/mongodb/wire_chain.py: b.last_error = str(errors[0].get(\"errmsg\", errors[0]))[:300] | 0 -> -1":
        "a chain's request writes one document: its reply holds one write error at most, and a writeConcernError is "
        "put in a list of one, so the first error is the last",
    **{f"ycsbctl/stores/mongodb/wire_chain.py: if st < 0: | {what}":
       "the compiled reader answers OK (0) only for a plainly successful reply, which reply_status judges OK too "
       "(test_mongodb_native_reader::test_the_reader_judges_each_reply_as_reply_status_does compares the two): "
       "re-judged in Python, the same status" for what in ("0 -> 1", "Lt -> LtE")},
    **{f"ycsbctl/stores/mongodb/wire_chain.py: _MAX_SHAPES = 256  # templates kept per kind of request; beyond, "
       f"requests are encoded by bson | 256 -> {to}":
       "how many request shapes keep a template: a shape past the cap is encoded by bson.encode, to the very bytes its "
       "template would give (test_mongodb_wire_chain::test_a_chain_sends_the_very_bytes_of_the_awaited_commands runs "
       "both ways, the cap at 256 and at 0): one shape more or less on the template side, the same request"
       for to in (255, 257)},
    **{f"ycsbctl/stores/mongodb/wire_chain.py: if len(self.{cache}) >= _MAX_SHAPES: | GtE -> Gt":
       "the same cap one shape later (as _MAX_SHAPES 256 -> 257): a shape past it is encoded by bson.encode, to the "
       "very bytes its template would give (test_a_chain_sends_the_very_bytes_of_the_awaited_commands, both ways)"
       for cache in ("_finds", "_updates", "_inserts")},
    "ycsbctl/stores/redis/reply_chain.py: elif self.op == READ and (not reply or reply[0] is None): | 0 -> -1":
        "a chained READ is HGETALL (field, value, … never nil) or HMGET of one field (read_request): a reply of one "
        "element, whose first is its last",
    "ycsbctl/stores/redis/cluster_chain.py: elif self.op == READ and (not reply or reply[0] is None) and self.st == OK: "
    "| 0 -> -1":
        "a chained READ is HGETALL (field, value, … never nil) or HMGET of one field (read_request): a reply of one "
        "element, whose first is its last",
    "ycsbctl/stores/mongodb/status.py: return pymongo.MongoClient(url, maxPoolSize=1, serverSelectionTimeoutMS=5000, "
    "connectTimeoutMS=5000, | 1 -> 2":
        "the telemetry client's calls are made one at a time (the sampler's one thread, or one call of a helper): "
        "pymongo reuses its one idle connection, so a cap of two opens no second one",
    **{"ycsbctl/stores/mongodb/store.py: f\"({str(exc).split(',', 1)[0][:120]})\") from None | 120 -> " + to:
       "the length pymongo's words are cut to inside the one line that says the server is no MongoDB one (as the "
       "error-text-cap rule's last_error): the quoted tail, not what the line says" for to in ("121", "119")},
    "ycsbctl/stores/redis/benchmark.py: return rows[-1] if rows else None | 1 -> 0":
        "read runs redis-benchmark with one test (READ's HGETALL): its --csv has the header and one row, the first "
        "and the last",
    "ycsbctl/stores/mongodb/wire.py: self.last_error = str(errors[0].get(\"errmsg\", errors[0]))[:300] | 0 -> -1":
        "every command this binding writes carries one document (insert, update and delete of one _id): its reply "
        "holds one write error at most, and a writeConcernError is put in a list of one, so the first is the last",
    "ycsbctl/stores/mongodb/wire.py: r = await self.command(self._write({\"delete\": table, \"deletes\": "
    "[{\"q\": {\"_id\": key.decode()}, \"limit\": 1}]})) | 1 -> 0":
        "the delete's filter is an _id, unique in a collection: limit 0 (every match) removes the one document "
        "limit 1 does, and n says 1 or 0 alike",
    **{f"ycsbctl/stores/mongodb/wire.py: hello = bson.decode(await self.send(self._encode({{\"hello\": 1, "
       f"\"$db\": \"admin\"}}))) | 1 -> {to}":
       "the value of a command's name field is not read by the server: {hello: 0} and {hello: 2} are the hello "
       "command (MongoDB's shell sends 1 by habit; FerretDB and mongo-echo answer each alike, as the mapped tests "
       "that open connections show)" for to in ("0", "2")},
    **{f"ycsbctl/stores/redis/disturb.py: return -2 | 2 -> {to}":
        "the mark of a server whose SLOWLOG GET failed: -1 or -3 misses _slowlog_duration's -2 shortcut, which then asks "
        "SLOWLOG GET again, fails again and returns None, as the shortcut does (a server refuses SLOWLOG for good: "
        "renamed or not implemented)" for to in ("1", "3")},
    "ycsbctl/stores/redis/disturb.py: while (left := self.expires_at - time.perf_counter()) > 0: | Gt -> GtE":
        "left is a difference of perf_counter readings: exactly 0 only at that very tick, where >= sleeps 0 s and "
        "reads the clock once more (then past it)",
    **{"ycsbctl/stores/redis/info.py: return int(sum(d.get(\"keys\", 0) for d in dbs)) if dbs else (0 if "
       "\"used_memory\" in info else None) | 0 -> " + to:
       "every keyspace line of INFO says keys= first (db0:keys=10,expires=0,avg_ttl=0: Redis, Valkey, KeyDB, "
       "Dragonfly): the default is never read" for to in ("-1", "1")},
    **{f"ycsbctl/stores/redis/disturb.py: TIMEOUT_S = 300.0  # a DEL of a huge key may hold the server for seconds "
       f"| 300.0 -> {to}":
       "the disturber's socket timeout (redis.Redis.from_url(socket_timeout=TIMEOUT_S)): how long to wait for an "
       "answer, as the wait-timeout rule (MongoDB's disturber's TIMEOUT_S is listed alike)" for to in ("303.0", "297.0")},
    "ycsbctl/stores/redis/disturb.py: and bytes(e.get(\"command\") or b\"\").split(b\" \", 1)[0].upper() == word] "
    "| 1 -> 2":
        "the first word of a logged command is the same however many times the rest is split",
    "ycsbctl/stores/mongodb/wire.py: self._ids = itertools.count(1) | 1 -> 0":
        "request ids only pair each reply with its request on this connection (responseTo echoes the id): numbered "
        "from 0 or 1, every reply finds its request",
    "ycsbctl/stores/redis/cluster_chain.py: kind, slot, where = error.split()[:3] | 3 -> 4":
        "a redirection is three words, '-MOVED <slot> <endpoint>:<port>' or '-ASK …' (the cluster spec; redis-py's "
        "MovedError splits it into exactly slot and address): its first four words are its three",
    "ycsbctl/stores/sql/protocol.py: await first(bindings[0]) | 0 -> -1":
        "every binding of the set is connected (the loop above) to the same URL with the same properties: the table "
        "is created once, by the last as by the first",
    "ycsbctl/stores/chain.py: if t1 < ctx.deadline_ns and (self.i < self.end or (ctx.more is not None and not self.errors and ctx.more(self))): | Lt -> LtE":
        "t1 and the deadline are perf_counter_ns readings: only a reply read at the deadline's very nanosecond is "
        "told apart, and then by one operation more or less at the phase's end",
    "ycsbctl/stores/postgresql/store.py: data = sock.recv(64) | 64 -> 63":
        "what is read is told by its first byte and shown by its first 40: 63 bytes hold them as 64 do",
    "ycsbctl/stores/mariadb/store.py: wire_eligible(url or self.loopback_url(1), properties) | 1 -> 0":
        "wire_eligible reads a URL's password and options only, never its port: the loopback URL at any port answers the same",
    "ycsbctl/stores/elasticsearch/binding.py: self.unsolicited(reply.error() if reply.status >= 400 else None) | 400 -> 399":
        "no server sends HTTP status 399 (RFC 9110's redirections end at 308, Elasticsearch sends none): 400 and 200 "
        "on either side are pinned by test_elasticsearch_rest",
    "ycsbctl/stores/memcached/binding.py: if data.endswith(_TRAILER) and data.startswith(_VALUE): | And -> Or":
        "one chained get's reply in one read: a read that starts with VALUE but does not end with \\r\\nEND\\r\\n is a "
        "part of a hit, shorter than its frame, so the length check fails and the general parse below reads it; one "
        "that ends so without VALUE does not come (a miss is END\\r\\n alone, an error one line without END)",
    **{f"ycsbctl/stores/redis/disturb.py: self.mark = -2  # the last SLOWLOG entry's id before the next action (-2: no "
       f"SLOWLOG here) | 2 -> {to}":
       "build() sets it before act() reads it (experiment/disturb.py builds every disturber before its point; arm() sets "
       "it again)" for to in ("1", "3")},
    "ycsbctl/stores/tarantool/binding.py: if pos < n: | Lt -> LtE":
        "at pos == n the rest is b'', which self.buf already is (emptied at the top of data_received)",
    "ycsbctl/stores/tarantool/iproto.py: return pos + 1 if b < 0x80 else pos + _UINT_SIZE[b] | Lt -> LtE":
        "a msgpack uint is a positive fixint (0x00-0x7F) or 0xCC-0xCF; 0x80 (an empty map) is no uint, and the "
        "header Tarantool writes holds uints only (type, sync, schema version): the byte the mutant reads as one never comes",
    "ycsbctl/workload/media_items/truth.py: if len(s) < 2: | 2 -> 1":
        "one id is kept by the general path too (keep[0] is True, the comparison of no neighbours sets nothing)",
    "ycsbctl/stores/sphinx/binding.py: tail = key[4:]  # YCSB's keys: user<number> (any other goes through document_id) | 4 -> 3":
        "cut a byte early, a 'user' key's tail starts with 'r' and is no number: the key goes through document_id, "
        "which gives the same document id",
    "ycsbctl/stores/sphinx/binding.py: sql = _READ % (int(tail) + 1 if key[:4] == b\"user\" and tail.isdigit() else document_id(key)) | 4 -> 5":
        "a 5- or 3-byte prefix never equals b'user': every key goes through document_id, which gives a user<number> "
        "key the same document id (number + 1; the fast path only saves its regular expression)",
    "ycsbctl/stores/sphinx/binding.py: sql = _READ % (int(tail) + 1 if key[:4] == b\"user\" and tail.isdigit() else document_id(key)) | 4 -> 3":
        "a 5- or 3-byte prefix never equals b'user': every key goes through document_id, which gives a user<number> "
        "key the same document id (number + 1; the fast path only saves its regular expression)",
    "ycsbctl/workload/media_items/truth.py: starts = np.searchsorted(flat[order], np.arange(len(dictionary()) + 1)) | 1 -> 2":
        "one more run start, past the last word number (len(flat), as the one before it): word_range never asks for "
        "it (its hi is at most len(dictionary()))",
    "ycsbctl/stores/postgresql/binding.py: if (statement.split(None, 1) or [\"\"])[0].upper() in (\"SELECT\", \"WITH\"):  # its first word: rows to fetch | 1 -> 2":
        "only the first word ([0]) is read: split at most once or twice, the first word is the same",
    "ycsbctl/stores/sqlite/binding.py: if name != \"journal_mode\" or str(conn.execute(\"PRAGMA journal_mode\").fetchone()[0]).upper() != value: | NotEq -> Eq":
        "the mutant sets journal_mode=WAL on a file already in WAL too: SQLite answers 'wal' at once and takes no "
        "lock for it (tried under another connection's BEGIN EXCLUSIVE and BEGIN IMMEDIATE), and synchronous=OFF "
        "is set either way (WAL != OFF); test_a_file_already_in_wal_is_opened_while_another_writes pins the open",
    "ycsbctl/stores/sqlite/binding.py: if name != \"journal_mode\" or str(conn.execute(\"PRAGMA journal_mode\").fetchone()[0]).upper() != value: | 0 -> -1":
        "PRAGMA journal_mode answers one row of one column: [-1] is [0]",
    "ycsbctl/stores/sqlite/binding.py: if \"locked\" not in str(exc) or time.monotonic() > deadline: | Gt -> GtE":
        "deadline is a time.monotonic() reading plus timeout_s: only a reading equal to it to the last bit is told "
        "apart, and then by one more 10 ms try of the WAL switch",
    "ycsbctl/stores/sqlite/binding.py: return Status.OK, {f: v.encode(\"latin-1\") for f, v in zip(fields, rows[0]) if v is not None} | 0 -> -1":
        "a read by primary key (WHERE YCSB_KEY = ?) gives one row at most: rows[-1] is rows[0]",
    "ycsbctl/stores/clickhouse/stats.py: out[f\"{k.lower()}_per_s\"] = max(0.0, d) / elapsed if elapsed > 0 else None | Gt -> GtE":
        "elapsed is the time between two time.monotonic() readings with an HTTP query to the server between them: "
        "never 0",
    "ycsbctl/workload/media_items/sql.py: if st == OK and rows and int(rows[0][0]) >= want: | 0 -> -1":
        "every statement until() is given is a SELECT count(*): one row of one column, so [-1] is [0] either way",
    "ycsbctl/workload/media_items/mongodb.py: def refused(cls, server: str = \"\", records: int = 0, connections: int = 0, timeout_s: float = 0.0) -> dict[int, str]: | 0 -> 1":
        "the item count of a caller that names none (0: any number): every caller names it (MediaItems.refusal), "
        "and a default of 1 is as far below any scale's refusal as 0",
    "ycsbctl/workload/media_items/workload.py: def refusal(self, protocol: str, server: str = \"\", connections: int = 0, timeout_s: float = 0.0) -> str | None: | 0 -> 1":
        "the connections of a caller that names no scale (the worker's executor): it names no server kind either, "
        "and only FerretDB's refusal reads the scale, which also needs a timeout (0.0): the same queries refused",
    "ycsbctl/workload/media_items/workload.py: def refusal(self, protocol: str, server: str = \"\", connections: int = 0, timeout_s: float = 0.0) -> str | None: | 0.0 -> 1.0":
        "the timeout of a caller that names no scale (the worker's executor): it names no server kind either, "
        "and only FerretDB's refusal reads the scale, which also needs the connections (0): the same queries refused",
    "ycsbctl/workload/media_items/sphinx.py: r = rows[0] | 0 -> -1":
        "SELECT … WHERE id = N on a Sphinx index answers one document at most (the document id is unique: a second "
        "INSERT of it is refused, REPLACE replaces it): rows[-1] is rows[0]",
    "ycsbctl/workload/media_items/sphinx.py: return OK, Page(tuple(_int(r[0]) - 1 for r in rows), total) | 0 -> -1":
        "the page's statement is SELECT id FROM …: each row has the one column, so r[-1] is r[0]",
    "ycsbctl/workload/media_items/tarantool.py: self.space_id = int(data[0]) | 0 -> -1":
        "SETUP's EVAL returns one value (return s.id): data[-1] is data[0]",
    "ycsbctl/workload/media_items/tarantool.py: return OK, Page(tuple(int(i) for i in ids), int(total) if count and total is not None else None) | And -> Or":
        "ycsbctl_items_page returns 'count and total or box.NULL': a number when count is true, nil (None) when "
        "false, so 'count and total is not None' and 'count or total is not None' agree on every reply",
    "ycsbctl/workload/media_items/clickhouse.py: total = int(counted[0][0]) | 0 -> -1":
        "SELECT count() answers one row of one column: [-1] is [0], for the row and for the cell",
    "ycsbctl/stores/redis/info.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/sphinx/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/mongodb/status.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/clickhouse/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/elasticsearch/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/mongodb/pymongo_binding.py: maxPoolSize=max(1, clients), | 1 -> 0":
        "a worker process has one client at least (the runner starts min(processes, threads) processes): "
        "max(0, clients) is clients",
    "ycsbctl/stores/mongodb/store.py: wire_eligible(url or self.loopback_url(1), properties) | 1 -> 0":
        "only the properties are checked here (no URL given): any loopback port makes the same plain mongodb:// URL",
    "ycsbctl/stores/mongodb/store.py: wire_eligible(url or self.loopback_url(1), properties) | 1 -> 2":
        "only the properties are checked here (no URL given): any loopback port makes the same plain mongodb:// URL",
    "ycsbctl/stores/elasticsearch/binding.py: if st >= 0: | GtE -> Gt":
        "a whole reply the quick verdict calls OK (0) goes to the full parse instead, which calls it OK too "
        "(b.status of a 200/201): the same status, a few microseconds later",
    "ycsbctl/stores/tarantool/binding.py: while n - pos >= 5: | 5 -> 4":
        "with 4 bytes left, end = pos + 5 + length is past n whatever the length: the loop breaks as it does at < 5",
    "ycsbctl/stores/tarantool/binding.py: while n - pos >= 5: | 5 -> 6":
        "with 5 bytes left, end = pos + 5 + length is past n (a frame has a header map: its length is never 0): "
        "the loop breaks there either way",
    "ycsbctl/stores/mongodb/wire_chain.py: if op == READ: | Eq -> NotEq":
        "the quick reading of a reply in place: an operation sent past it is decoded and judged by the same rules "
        "below (a find's firstBatch empty or not, a write's n, its errors): the same status, later",
    "ycsbctl/stores/mongodb/wire_chain.py: if body[4:12] == _CURSOR and body[16:28] == _FIRST_BATCH: | Eq -> NotEq":
        "either test flipped sends a server's find reply ({cursor: {firstBatch …}}, ok: 1) to the full decode, "
        "which reads the same firstBatch: the same status, later",
    "ycsbctl/stores/sphinx/stats.py: out[\"ops_per_s\"] = None if s is None or d is None else s + d | Or -> And":
        "both rates come from one SHOW STATUS of searchd, whose counters are a fixed list (command_search and "
        "command_delete in every version): one is None only when both are",
    "ycsbctl/stores/clickhouse/stats.py: out[\"ops_per_s\"] = None if sel is None or ins is None else sel + ins | Or -> And":
        "both rates are None together (only when elapsed is not positive), never one alone",
    "ycsbctl/stores/sqlite/store.py: ensure_table(path, properties.get(\"table\", \"usertable\"), field_names(properties), max(timeout_s, 5.0)) | max() -> min()":
        "the busy timeout of the table's creation (at least 5 s): how long to wait for another process's lock, not "
        "what is created",
    "ycsbctl/stores/sqlite/store.py: ensure_table(path, properties.get(\"table\", \"usertable\"), field_names(properties), max(timeout_s, 5.0)) | 5.0 -> 5.05":
        "the busy timeout of the table's creation (at least 5 s): how long to wait for another process's lock, "
        "not what is created",
    "ycsbctl/stores/sqlite/store.py: ensure_table(path, properties.get(\"table\", \"usertable\"), field_names(properties), max(timeout_s, 5.0)) | 5.0 -> 4.95":
        "the busy timeout of the table's creation (at least 5 s): how long to wait for another process's lock, "
        "not what is created",
    "ycsbctl/stores/memcached/record.py: EXPIRY_S = 2147483647 | 2147483647 -> 2147483646":
        "an exptime over 30 days is an absolute Unix time (memcached's protocol.txt): 2038-01-19 either way, "
        "a second apart: no record of a run expires",
    "ycsbctl/stores/postgresql/stats.py: self.t_prev = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/mariadb/stats.py: self.t_prev = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/clickhouse/stats.py: out[f\"{k.lower()}_per_s\"] = max(0.0, d) / elapsed if elapsed > 0 else None | 0 -> -1":
        "elapsed spans an HTTP query to the server (events() between the two monotonic reads): never 0 nor below",
    "ycsbctl/stores/memcached/record.py: if len(joined.translate(None, _PLAIN)) != len(vals) - 1:  # only the NULs we put in may be left | 1 -> 2":
        "the joined values hold their len(vals) - 1 NULs at least: the count is never len(vals) - 2, so every "
        "record goes the general path, which writes the same bytes (test_the_fast_encoder_writes_what_the_json_library_writes)",
    "ycsbctl/stores/memcached/record.py: _PLAIN = bytes(range(0x20, 0x80)) | 32 -> 33":
        "a space then takes the general path, which writes the same bytes "
        "(test_the_fast_encoder_writes_what_the_json_library_writes): only the encoder's speed changes",
    "ycsbctl/stores/elasticsearch/rest.py: at = data.find(b\"\\ncontent-length: \", 0, head) if head > 0 else -1 | 0 -> 1":
        "the data must start with 'HTTP/1.1 ' (checked next): its first byte is no newline, and its head ends past byte 1",
    "ycsbctl/stores/elasticsearch/rest.py: if at < 0 or not data.startswith(b\"HTTP/1.1 \"): | 0 -> 1":
        "a header line found starts after a newline, never at byte 0 (the data must start with 'HTTP/1.1 ')",
    "ycsbctl/stores/elasticsearch/rest.py: return int(data[9:12]) | 9 -> 8":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of ' NNN' is NNN",
    "ycsbctl/stores/elasticsearch/rest.py: return int(data[9:12]) | 12 -> 13":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of 'NNN ' is NNN",
    "ycsbctl/stores/mongodb/disturb.py: BATCH = 10_000  # documents per insertMany while building a collection | 10000 -> 10001":
        "how many documents go in one insertMany while building: the same documents either way, in other chunks",
    "ycsbctl/stores/mongodb/disturb.py: BATCH = 10_000  # documents per insertMany while building a collection | 10000 -> 9999":
        "how many documents go in one insertMany while building: the same documents either way, in other chunks",
    **{f"ycsbctl/stores/mongodb/disturb.py: ARRAY_BATCH = 100_000  # array members per $push while building a list's "
       f"document | 100000 -> {to}":
       "how many members go in one $push while building the list's document: the same array, in order, in other chunks"
       for to in ("100001", "99999")},
    "ycsbctl/stores/mongodb/disturb.py: TIMEOUT_S = 300.0 | 300.0 -> 303.0":
        "the admin client's timeout (client(url, TIMEOUT_S)): how long to wait, not what is built or timed",
    "ycsbctl/stores/mongodb/disturb.py: TIMEOUT_S = 300.0 | 300.0 -> 297.0":
        "the admin client's timeout (client(url, TIMEOUT_S)): how long to wait, not what is built or timed",
    "ycsbctl/stores/sqlite/binding.py: cached_statements=256) | 256 -> 257":
        "the size of sqlite3's prepared-statement cache: YCSB's few statement shapes fit either way",
    "ycsbctl/stores/sqlite/binding.py: cached_statements=256) | 256 -> 255":
        "the size of sqlite3's prepared-statement cache: YCSB's few statement shapes fit either way",
    "ycsbctl/stores/tarantool/binding.py: line = (await self.proto.greeted(self.loop)).split(b\"\\n\", 1)[0]  # type: ignore[arg-type] | 1 -> 2":
        "only the first piece is kept: it is the same whether the rest is split once or twice",
    "ycsbctl/stores/mariadb/wire.py: self.left = 0  # column definitions (and the EOF after them) still to come | 0 -> 1":
        "set from the column count when a result set starts (state 0 to 1), before state 1 reads it",
    "ycsbctl/stores/mariadb/wire.py: self._done(Reply(self.rows, self.row, 0, error_text(p))) | 0 -> -1":
        "an error reply's rows matched are never read: status() and sql() look at its error first",
    "ycsbctl/stores/clickhouse/binding.py: if not self.buf and len(waiters) == 1 and waiters[0].__class__ is _Chain: | 0 -> -1":
        "with exactly one waiter, waiters[-1] is waiters[0]",
    "ycsbctl/stores/http1.py: status = int(buf[9:12]) | 9 -> 8":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of ' NNN' is NNN",
    "ycsbctl/stores/http1.py: status = int(buf[9:12]) | 12 -> 13":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of 'NNN ' is NNN",
    "ycsbctl/stores/clickhouse/http.py: return 0 if head + 9 == len(data) and data.startswith(b\"0\\r\\n\\r\\n\", head + 4) else 1 | And -> Or":
        "data ends with '\\r\\n0\\r\\n\\r\\n' (checked above): a 5-byte body is then the empty chunk, and a body that "
        "starts with it is no longer than it (a chunk size has no leading zero): either test alone says the same",
    # workload/ and report/ (issue 43)
    "ycsbctl/workload/online_status/redis.py: return OK if st == OK and isinstance(reply, list) else int(st) or 2 | 2 -> 3":
        "never reached: the binding's resp answers OK with EXEC's reply, an array without WATCH (an aborted "
        "transaction is an error reply, ERROR): 'or 2' is read only for an OK whose reply is no array",
    "ycsbctl/workload/online_status/redis.py: return OK if st == OK and isinstance(reply, list) else int(st) or 2 | 2 -> 1":
        "never reached: the binding's resp answers OK with EXEC's reply, an array without WATCH (an aborted "
        "transaction is an error reply, ERROR): 'or 2' is read only for an OK whose reply is no array",
    "ycsbctl/workload/media_items/elasticsearch.py: if st != OK or http == 200: | 200 -> 201":
        "only whether an index that exists is PUT again: Elasticsearch answers that PUT resource_already_exists, "
        "which the next line takes as made (as when another worker made it first); the same index, the same status",
    "ycsbctl/workload/media_items/elasticsearch.py: if st != OK or http == 200: | 200 -> 199":
        "only whether an index that exists is PUT again: Elasticsearch answers that PUT resource_already_exists, "
        "which the next line takes as made (as when another worker made it first); the same index, the same status",
    "ycsbctl/workload/media_items/tarantool.py: space_id = 0  # the space's number (IPROTO's SELECT and UPDATE name a space by number), from setup | 0 -> 1":
        "set by setup (the load) and ready (a run), which the executor's prepare runs before any operation "
        "(a failed one fails the point): the class default is never read",
    "ycsbctl/workload/media_items/tarantool.py: space_id = 0  # the space's number (IPROTO's SELECT and UPDATE name a space by number), from setup | 0 -> -1":
        "set by setup (the load) and ready (a run), which the executor's prepare runs before any operation "
        "(a failed one fails the point): the class default is never read",
    "ycsbctl/workload/online_status/redis.py: return OK if st == OK and isinstance(reply, list) else int(st) or 2 | And -> Or":
        "the binding's resp gives a reply only with OK (None with ERROR or TIMEOUT): a list reply comes only with "
        "st == OK, so either test alone decides alike",
    "ycsbctl/workload/media_items/mysql.py: if st != OK or int(rows[0][0]) >= 3: | 0 -> -1":
        "a count's result is one row of one column: [-1] is [0] either way",
    "ycsbctl/workload/media_items/sql.py: total = int(counted[0][0]) | 0 -> -1":
        "a count's result is one row of one column: [-1] is [0] either way (as mysql.py's index count)",
    "ycsbctl/workload/media_items/mongodb.py: st, r = await w.run_command({\"find\": self.table, \"filter\": {\"_id\": key(item_id)}, \"limit\": 1, \"singleBatch\": True}) | 1 -> 2":
        "a filter on _id matches one document at most: a limit of 1, 2 or none (0) returns the same",
    "ycsbctl/workload/media_items/mongodb.py: st, r = await w.run_command({\"find\": self.table, \"filter\": {\"_id\": key(item_id)}, \"limit\": 1, \"singleBatch\": True}) | 1 -> 0":
        "a filter on _id matches one document at most: a limit of 1, 2 or none (0) returns the same",
    "ycsbctl/workload/media_items/mongodb.py: d = docs[0] | 0 -> -1":
        "the find by _id returns one document at most, and none was handled above: [-1] is [0]",
    "ycsbctl/workload/media_items/mongodb.py: if st != OK or r is None: | Or -> And":
        "the wire binding's run_command answers (OK, the reply) or (ERROR/TIMEOUT, None) and nothing else "
        "(stores/mongodb/wire.py): the two tests are always both true or both false",
    "ycsbctl/workload/media_items/mongodb.py: if st != OK or c is None: | Or -> And":
        "the wire binding's run_command answers (OK, the reply) or (ERROR/TIMEOUT, None) and nothing else "
        "(stores/mongodb/wire.py): the two tests are always both true or both false",
    "ycsbctl/workload/media_items/mongodb.py: return OK if r.get(\"n\", 0) else NOT_FOUND | 0 -> 1":
        "an update command's OK reply always holds n (the documents matched): the default is never read",
    "ycsbctl/workload/media_items/mongodb.py: return OK if r.get(\"n\", 0) else NOT_FOUND | 0 -> -1":
        "an update command's OK reply always holds n (the documents matched): the default is never read",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 0 -> 1":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 0 -> -1":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 2 -> 3":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 31 -> 32":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 31 -> 30":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: if not item_id % 4: | 4 -> 5":
        "how often the load's preparation yields to the event loop (a slice per 4 items): the same items in the "
        "same INSERTs either way",
    "ycsbctl/workload/media_items/sources.py: if not item_id % 4: | 4 -> 3":
        "how often the load's preparation yields to the event loop (a slice per 4 items): the same items in the "
        "same INSERTs either way",
    "ycsbctl/workload/media_items/workload.py: prepare_s: ClassVar[float] = 900.0 | 900.0 -> 909.0":
        "a deadline (as the wait-timeout rule): how long a point may prepare (index builds, answer checks) "
        "before it is given up, not what the preparation finds",
    "ycsbctl/workload/media_items/workload.py: prepare_s: ClassVar[float] = 900.0 | 900.0 -> 891.0":
        "a deadline (as the wait-timeout rule): how long a point may prepare (index builds, answer checks) "
        "before it is given up, not what the preparation finds",
    "ycsbctl/report/unlike.py: return f\" — unlike quantities: {emb[0]} is embedded (no server), so it has no network round trip\" | 0 -> -1":
        "said only when emb holds one target: [-1] is [0]",
    "ycsbctl/report/disturbance_report.py: fontsize=7.5, va=\"top\", bbox={\"boxstyle\": \"square,pad=0.1\", \"fc\": \"white\", \"ec\": \"none\", \"alpha\": 0.8}) | 0.8 -> 0.808":
        "the event label's box transparency (a matplotlib bbox's alpha): how the label looks, not what it says (as the drawing-style rule)",
    "ycsbctl/report/disturbance_report.py: fontsize=7.5, va=\"top\", bbox={\"boxstyle\": \"square,pad=0.1\", \"fc\": \"white\", \"ec\": \"none\", \"alpha\": 0.8}) | 0.8 -> 0.792":
        "the event label's box transparency (a matplotlib bbox's alpha): how the label looks, not what it says (as the drawing-style rule)",
    "ycsbctl/workload/media_items/memcached.py: if st != OK or r is None: | Or -> And":
        "the binding's mc answers (OK, a reply) or (TIMEOUT/ERROR, None) and nothing else (stores/memcached/binding.py): "
        "st != OK and r is None are always both true or both false",
    "ycsbctl/workload/media_items/workload.py: load_timeout_s: ClassVar[float] = 60.0 | 60.0 -> 60.6":
        "a timeout (as the wait-timeout rule): how long a load INSERT may wait for the store, not what it stores",
    "ycsbctl/workload/media_items/workload.py: load_timeout_s: ClassVar[float] = 60.0 | 60.0 -> 59.4":
        "a timeout (as the wait-timeout rule): how long a load INSERT may wait for the store, not what it stores",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | 0 -> 1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | 0 -> -1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | 1 -> 0":
        "only whether one server of one I/O thread returns early or goes on: on, its one version and one allocator "
        "differ from nothing and its io-threads 1 is said only past one (the line after), so it says nothing either way",
    "ycsbctl/report/server_traits.py: shared = any((e[\"traits\"].get(\"io_threads\") or 0) > 1 and not e.get(\"host\") for e in eps.values()) | 0 -> 1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/server_traits.py: shared = any((e[\"traits\"].get(\"io_threads\") or 0) > 1 and not e.get(\"host\") for e in eps.values()) | 0 -> -1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/rate_plots.py: legend_below(fig, handles, min(len(handles), 4)) | min() -> max()":
        "legend_below caps the columns at 4, and matplotlib's legend leaves out the empty columns of fewer handles "
        "than columns (legend.py: filter(len, array_split(...))): min(n, 4) and max(n, 4) columns lay out alike",
    "ycsbctl/report/summary.py: x = r.iloc[0] | 0 -> -1":
        "target_verdicts writes one at-peak row per workload and target against its one baseline (verdicts.py): the "
        "pair's at-peak throughput row is alone, [-1] is [0]",
})
# The stores' and workloads' survivors of the round-6 draws (issue 43).
EQUIVALENT.update({
    "ycsbctl/stores/elasticsearch/rest.py: at = data.find(b\"\\ncontent-length: \", 0, head) if head > 0 else -1 | Gt -> GtE":
        "head is where the head ends (-1: not yet): at 0, a find in data[0:0] finds nothing (-1) as the else does, "
        "so > 0 and >= 0 give the same at for every data",
    "ycsbctl/workload/media_items/dataset.py: if 5 <= len(word) <= 9: | 9 -> 10":
        "the longest word the loop makes is 9 letters (at most 4 syllables of 2, rng.integers(2, 5), and one final "
        "consonant): no word of 10 letters exists to let through",
    "ycsbctl/workload/media_items/truth.py: bounds = np.searchsorted(self.data.names[order], np.arange(NAMES + 1)) | 1 -> 2":
        "one bound more, for a name number NAMES that no item has (its run starts at the end, as NAMES's does): "
        "matching reads bounds[number] and bounds[number + 1] for numbers below NAMES only",
    "ycsbctl/stores/tarantool/binding.py: while n - pos >= 5: | GtE -> Gt":
        "with exactly 5 bytes left (a length prefix alone) only a packet of length 0 would be whole, and every "
        "Tarantool reply holds at least its header map: the loop breaks on end > n either way and keeps the bytes",
    "ycsbctl/stores/redis/disturb.py: BATCH = 1_000  # members per building command (~0.3-1 ms of the server's time each) | 1000 -> 1001":
        "how many members each building command adds: the key holds the same size members m0 .. m<size-1> either "
        "way (the last command adds what is left); only the number of commands differs",
    "ycsbctl/stores/redis/disturb.py: POLL_S = 0.001  # how often ``expire`` asks whether the key is gone | 0.001 -> 0.00101":
        "the poll's interval is the resolution of the 'gone N s after it expired' figure, which the note prints to "
        "1 ms: a poll every 1 or 1.01 ms finds the key gone within the same millisecond",
    "ycsbctl/stores/memcached/binding.py: stop = start + int(buf[buf.rfind(b\" \", pos, eol) + 1:eol]) | 1 -> 0":
        "int() skips the whitespace around a number: the byte count read from the last space of the VALUE line or from the character after it is the same count",
    "ycsbctl/stores/memcached/binding.py: if eol + int(data[data.rfind(b\" \", 0, eol) + 1:eol]) + 9 == len(data): | 1 -> 0":
        "int() skips the whitespace around a number: the byte count read from the last space of the VALUE line or from the character after it is the same count",
    "ycsbctl/stores/memcached/binding.py: if eol < 0: | 0 -> 1":
        "only a reply line that is empty, at the start of the buffer, is told apart (buffered instead of handed on), "
        "and memcached's text protocol has no empty reply line: every one is a status, VALUE, END or an error",
    "ycsbctl/stores/redis/cluster_chain.py: self.stage, self.hops = 1, 0 | 1 -> 2":
        "stage is only ever asked whether it is 0 (the HMSET, or a READ / UPDATE) or not (an INSERT's ZADD): 1 and "
        "2 both say the ZADD",
    "ycsbctl/stores/redis/cluster_chain.py: self.need = self.st = self.stage = self.hops = self.req_need = 0 | 0 -> -1":
        "the slots' first values are never read: issue() sets stage, hops and st, and send() need and req_need, "
        "before the chain waits for any reply; a chain that finds its shard unconnected finishes without reading them",
    "ycsbctl/stores/redis/cluster_chain.py: self.need = self.st = self.stage = self.hops = self.req_need = 0 | 0 -> 1":
        "the slots' first values are never read: issue() sets stage, hops and st, and send() need and req_need, "
        "before the chain waits for any reply; a chain that finds its shard unconnected finishes without reading them",
    "ycsbctl/stores/postgresql/messages.py: while pos < len(self.raw): | Lt -> LtE":
        "first_row walks raw only when the reply has rows, and raw is a reply judged by its ending (SELECT n, "
        "n > 0) whose every message came in this read (a DataRow read before would have counted rows and "
        "skipped that path): the walk finds its 'D' and stops before pos reaches the end",
    "ycsbctl/stores/sphinx/wire.py: if pos and data[pos + 4] == 0xFE and end - pos < 13:  # the EOF after the definitions | 13 -> 14":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if pos and data[pos + 4] == 0xFE and end - pos < 13:  # the EOF after the definitions | 13 -> 12":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if first == 0xFE and size < 9:  # the EOF after the column definitions | 9 -> 10":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if first == 0xFE and size < 9:  # the EOF after the column definitions | 9 -> 8":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if end > n:  # a definition cut short: not a whole reply | Gt -> GtE":
        "data that ends where a definition ends is no whole reply either way (skim returns -1 at once, or walks on "
        "and finds no row or EOF after it: -1); only whether the head is learnt from it differs, and the next "
        "whole reply learns it",
    "ycsbctl/stores/sphinx/wire.py: CAPABILITIES = 1 | 4 | 512 | 8192 | 32768 | 512 -> 513":
        "513 is 512 | 1, and 1 is in the OR already: the same capabilities, bit for bit",
    "ycsbctl/stores/tarantool/iproto.py: if len(data) > 5 and data[3] == 0 and data[4] == 10 and b\"\\0\" in data[5:]:  # 3-byte length, seq 0, protocol 10 | 5 -> 4":
        "the last condition looks for the NUL that ends the version in data[5:]: five bytes have none there, so "
        "len > 4 lets no more data through than len > 5",
    "ycsbctl/workload/media_items/sphinx.py: window = max(1000, q.offset + q.limit) | 1000 -> 1001":
        "max_matches only has to hold the page (offset + limit, which max() keeps); a floor of 999, 1000 or 1001 "
        "returns the same page rows, and the total is SHOW META's total_found, which counts every match past the "
        "window (test_sphinx_counts_every_match_past_its_window: 1,205 matches, max_matches 1,000); it sizes only "
        "searchd's top-N queue",
    "ycsbctl/workload/media_items/sphinx.py: window = max(1000, q.offset + q.limit) | 1000 -> 999":
        "max_matches only has to hold the page (offset + limit, which max() keeps); a floor of 999, 1000 or 1001 "
        "returns the same page rows, and the total is SHOW META's total_found, which counts every match past the "
        "window (test_sphinx_counts_every_match_past_its_window: 1,205 matches, max_matches 1,000); it sizes only "
        "searchd's top-N queue",
    # the s9 whole-map sample's survivors (judged by the lead)
    "ycsbctl/stores/sphinx/binding.py: return int(r), [], 0 | 0 -> -1":
        "rows changed of a statement that got no reply (TIMEOUT, lost connection): the plug-in contract "
        "(workload/plugin.py) gives rows changed with OK only, and a failed status is what every caller acts on",
    **{f"ycsbctl/stores/clickhouse/store.py: query(url, \"SELECT 1\", max(timeout_s, 10.0)) | 10.0 -> {_to}":
       "a wait floor for one admin query (how long it may wait, not what it finds), like CLEAR_WAIT_S; that a plug-in "
       "workload's SELECT 1 gets it whatever the operations' timeout (max -> min) is pinned (test_clickhouse_store, a "
       "0.1 s answer)"
       for _to in ("10.1", "9.9")},
    "ycsbctl/report/deployment_findings.py: lines.append(f\"{t}, {_point_name(r)}: {what} {e.get('at_s', 0):.1f} s "
    "into the measured window{paused}\" | 0 -> 1":
        "every fork event telemetry/capture.py writes carries at_s (capture.py: the fork's sample time minus the "
        "window's start); the default is never taken",
    "ycsbctl/workload/media_items/clickhouse.py: r = rows[0] | 0 -> -1":
        "rows of one id: the study loads each id once, and a MergeTree duplicate of an id (a load repeated) holds "
        "the same item, the dataset being a function of the id (media_items/dataset.py): first and last are alike",
})
for _line in ('ax.annotate("one core", (0.01, 100), xycoords=("axes fraction", "data"), xytext=(0, 3), textcoords="offset points",',
              'ax.annotate(f"all {cores} cores", (0.01, 100 * cores), xycoords=("axes fraction", "data"), xytext=(0, 3),'):
    for _to in ("0.0101", "0.0099"):
        EQUIVALENT[f"ycsbctl/report/resource_plots.py: {_line} | 0.01 -> {_to}"] = \
            ("a label's inset from the axis's left edge, 1 % of its width: 1 % of that is 0.07 px in the 9-inch figure "
             "at 100 dpi, the same pixels (its height, the line it names, stays scored)")
_PLOT_STYLE_EQUIVALENT: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "fig.suptitle(title, fontsize=12, fontweight=\"bold\", y=0.98)": (
        (("0.98", "0.9898"), ("0.98", "0.9702")),
        "the title's place in the figure's top margin, 5 px up or down of 520 (every figure's axes start at 80-86 % of "
        "its height): as subplots_adjust's margins (the drawing-style rule), where the layout puts it, not what it says"),
    "fig.text(0.5, 0.915, subtitle, ha=\"center\", fontsize=8.5, color=\"#444\")": (
        (("0.915", "0.92415"), ("0.915", "0.90585")),
        "the subtitle's height between the title and the axes, 5 px up or down: as subplots_adjust's margins (the "
        "drawing-style rule); its centre (0.5) stays scored"),
    "return len(v) > 1 and float(v.max() / v.min()) > SPREAD_FOR_LOG": (
        (("1", "0"),), "one value's max over its min is 1, never more than 20: len(v) > 0 and > 1 decide alike"),
    "def spread_labels(fig: Figure, labels: list, step_pt: float = 2.0, rounds: int = 200) -> None:": (
        (("2.0", "2.02"), ("2.0", "1.98"), ("200", "201"), ("200", "199")),
        "the labels' search: each moves up in 2-pt steps until it overlaps none (the test), and ends at most a step "
        "past clear: 1 % of the step is 0.02 pt a step (under a pixel for the dozens of steps a crowded label takes); "
        "200 rounds (400 pt, taller than any figure) is a bound never reached"),
    "if len(labels) < 2:": (
        (("2", "1"),), "a single label overlaps no other: the loop then moves nothing and returns (the early return saves "
                "only the renderer)"),
    "OP_STYLES = {\"READ\": \"-\", \"UPDATE\": \"--\", \"INSERT\": \":\", \"SCAN\": \"-.\", "
    "\"READ-MODIFY-WRITE\": (0, (5, 1, 1, 1)),": (
        (("0", "1"), ("0", "-1"), ("5", "6"), ("5", "4"), ("1", "2")),
        "READ-MODIFY-WRITE's dash pattern (points, scaled by the line width): where it starts (the offset) and a "
        "dash or gap a point longer or shorter keep it a long dash and a dot, unlike every other operation's; a "
        "segment of 0 (1 -> 0), which would draw no dot or no gap, stays scored (test_plot_style)"),
}
EQUIVALENT["ycsbctl/report/summary.py: return f\"{v / 1e6:.2g} s\" if v < 1e7 else f\"{v / 1e6:.0f} s\" | 10000000.0 -> 10100000.0"] = \
    ("from 10 s to 10.1 s both formats write '10 s' (two significant digits of 10.0x, or none after the point); "
     "the other side, 1e7 -> 9.9e6, turns 9.9 s into 10 s and stays scored")
for _line in ("limit = _limit_us(searches[0][\"slo\"])",
              "handles += [Line2D([], [], color=\"#555\", lw=1, ls=\"-.\", label=f\"SLO {searches[0]['slo']}\"),"):
    EQUIVALENT[f"ycsbctl/report/rate_plots.py: {_line} | 0 -> -1"] = \
        ("a plan has one --slo (Plan.slo, one string), which every search of its folder stores (rate_search.py's doc): "
         "the first search's objective is the last's")
for _from, _to in (("0.99", "0.9999"), ("0.99", "0.9801"), ("0.01", "0.0101"), ("0.01", "0.0099")):
    EQUIVALENT["ycsbctl/report/rate_plots.py: ax.text(0.99, 0.01, \"bars: 95 % interval of the repetitions\" if repeated else "
               f"| {_from} -> {_to}"] = \
        ("the interval note's corner, 1 % of the axes in from their lower right (axes fraction, the note right- and "
         "bottom-aligned to it): 1 % of that moves it 8 px sideways in the 783-px-wide axes (9-inch figure at 100 dpi) "
         "or 0.04 px up, inside the axes either way: where the layout puts it, not what it says (as the title's place, "
         "_PLOT_STYLE_EQUIVALENT)")
EQUIVALENT["ycsbctl/report/compare.py: r[\"experiment\"] = c.experiments[0].id | 0 -> -1"] = \
    ("only where c.within, which is len(c.experiments) == 1 (Comparison.within): the one folder is the first and the "
     "last (the first folder of several, the baseline, is pinned by test_compare.py's three-folder α test)")
# the two whole-map samples of seeds 27116 and 27127 (issue 43, surv)
EQUIVALENT.update({
    "ycsbctl/stores/clickhouse/binding.py: return Status.OK, self.sql.row_fields(r.body.split(b\"\\n\", 1)[0], fields) | 1 -> 2":
        "the piece before the first newline is the same whatever the split's maxsplit from 1 on (0, no split, which "
        "leaves the row's newline on its last field, stays scored: test_clickhouse reads field9)",
    "ycsbctl/workload/media_items/clickhouse.py: return OK, Page(tuple(int(r[0]) for r in rows), total) | 0 -> -1":
        "the rows are SELECT id's, one column each: a row's [-1] is its [0]",
    **{"ycsbctl/experiment/calibrate.py: r = run_phase(PhaseSpec(\"load\", url, props, threads=min(8, plan.records), "
       f"processes=plan.processes, seed=plan.seed)) | 8 -> {_to}":
       "how many clients load the calibration records: every record is inserted once whichever client inserts it "
       "(the load checks each INSERT was OK, plan.records of them), and calibrate prints no figure of the load; "
       "min -> max (one client per record, which test_calibrate's connection count catches) stays scored"
       for _to in ("9", "7")},
    "ycsbctl/stores/mariadb/store.py: rows = int(cur.fetchone()[0]) | 0 -> -1":
        "both statements (SELECT COUNT(*) FROM usertable, SELECT 0) answer one column: its first is its last",
    "ycsbctl/stores/postgresql/stats.py: return num(row[0][0]) or 0.0 | 0 -> -1":
        "an aggregate without GROUP BY (coalesce(sum(...), 0)) answers one row of one column: [-1] is [0] for both "
        "indexes (0 -> 1, which finds nothing, and 'or 1.0' stay scored: test_postgresql_stats)",
    "ycsbctl/stores/tarantool/iproto.py: if b < 0x80: | Lt -> LtE":
        "the byte is a msgpack integer's first (Tarantool writes the reply type as one: IPROTO_REQUEST_TYPE): 0x80 is "
        "msgpack's empty fixmap, never an integer's first byte (positive fixints end at 0x7F, then 0xCC-0xCF)",
    "ycsbctl/engine/worker.py: BATCHED_WRITES_FROM = 32  # clients in one worker (bench engine: see WriteBatch) | 32 -> 31":
        "how many clients a worker needs before its requests of one loop turn are written together (WriteBatch): "
        "each request goes out with the same bytes in the same order either way and each operation is timed from "
        "its own write (chain.py: c.t0 = _now() next to transport.write); a speed tuning measured with bench "
        "engine, not a figure's arithmetic (test_batched_writes runs the batched path at BATCHED_WRITES_FROM + 8)",
})
for _to in ("1", "-1"):
    EQUIVALENT["ycsbctl/results/ycsb_text.py: op = ops.setdefault(metric, OpSummary(metric, 0, math.nan, math.nan, math.nan)) "
               f"| 0 -> {_to}"] = \
        ("an operation's summary is made only at its 'Operations' or 'Total Operations' line (ops starts empty, and "
         "a block's other keys join it only once it is there), and _apply sets its count from that very line next: "
         "the starting count is always overwritten")
for _to in ("0.0202", "0.0198"):
    EQUIVALENT["ycsbctl/report/plots.py: floor = float(measured[measured > 0].min()) / 2 if log_tp else 0.02 * top "
               f"| 0.02 -> {_to}"] = \
        ("on a linear axis a failed point that measured nothing is drawn at 2 % of the throughput axis's top, above "
         "its zero: 1 % of that is 0.0002 of the axis, under 0.1 px of its 330-390 px height (the log axis's half of the "
         "smallest throughput stays scored)")
EQUIVALENT["ycsbctl/report/compare.py: notes=c.notes, within=c.within, baseline=c.experiments[0].baseline, alpha=c.alpha, "
           "drift_margin=_margin_text(c), | 0 -> -1"] = \
    ("compare.html.j2 says the baseline target only where within, which is len(c.experiments) == 1 "
     "(Comparison.within): the one folder is the first and the last (between folders it names experiments[0].id)")
for _to in ("1.01e-09", "9.9e-10"):
    EQUIVALENT[f"ycsbctl/report/disturbance_report.py: fine = fine[fine[\"t_s\"].astype(float) < end - 1e-9]  "
               f"# the part-interval after the window's end | 1e-09 -> {_to}"] = \
        ("a tolerance for float rounding: the 100 ms intervals start 0.1 s apart and their starts are off by ~1e-15 s "
         "at most, so any margin between those drops the same interval at the window's end")
EQUIVALENT["ycsbctl/report/variant_study.py: width = 0.8 / max(len(targets), 1) | 1 -> 0"] = \
    "the figure is drawn only from rows (None without), each naming a target: len(targets) >= 1, so max(n, 1) is max(n, 0)"
EQUIVALENT["ycsbctl/report/variant_study.py: out.append((base, variant_name(base.rsplit(\"/\", 1)[-1], settings), "
           "variant_label(settings))) | 1 -> 2"] = \
    "rsplit's last item is the text after the last '/' whatever maxsplit >= 1 allows: [-1] of rsplit('/', 1) and ('/', 2) is one"
EQUIVALENT["ycsbctl/stores/redis/cluster.py: end = key.find(b\"}\", start + 1) | 1 -> 0"] = \
    "key[start] is b'{' (found just above), never b'}': a search for b'}' from start or from start + 1 finds the same index"
EQUIVALENT["ycsbctl/report/deployment_findings.py: if not len(runs) or \"shards\" not in runs: | Or -> And"] = \
    ("runs without a shards column go on to each target, whose _max(mine, \"shards\") is None for a missing column, "
     "and the loop skips it: no finding either way (an empty runs table has no rows to read)")
for _to in ("1.414", "1.386"):
    EQUIVALENT[f"ycsbctl/report/many_store.py: axes = fig.subplots(1, 3, gridspec_kw={{\"width_ratios\": [3, 3, 1.4]}}) "
               f"| 1.4 -> {_to}"] = ("the memory panel's share of the figure's width (as figsize, the drawing-style rule): "
                                     "1 % of it is 2 px of 1,400, not what a bar says")
_LIFTED = "fig.legends[-1].set_bbox_to_anchor((0.5, 0.06), transform=fig.transFigure)"
EQUIVALENT[f"ycsbctl/report/many_store.py: {_LIFTED} | 1 -> 0"] = \
    "the figure has one legend (legend_below's, the line before): legends[-0] is legends[-1]"
for _to in ("0.0606", "0.059399999999999994"):
    EQUIVALENT[f"ycsbctl/report/many_store.py: {_LIFTED} | 0.06 -> {_to}"] = \
        "where the legend is lifted to above the note: 1 % of 6 % of 520 px is 0.3 px, the same pixels (its centre stays scored)"
for _line, (_pairs, _why) in _PLOT_STYLE_EQUIVALENT.items():
    for _from, _to in _pairs:
        EQUIVALENT[f"ycsbctl/report/plot_style.py: {_line} | {_from} -> {_to}"] = _why
for _module in ("resource_plots.py", "many_store.py"):
    for _to in ("0.01212", "0.01188"):
        EQUIVALENT[f"ycsbctl/report/{_module}: fig.text(0.5, 0.012, unlike, ha=\"center\", va=\"bottom\", fontsize=8.5, "
                   f"color=\"#9a3b00\") | 0.012 -> {_to}"] = \
            ("the unlike-quantities note's foot, 1.2 % of the figure's height above its bottom edge: 1 % of that is "
             "0.06 px of the 4.6-5.2-inch figure at 100 dpi, the same pixels (its centre, 0.5, stays scored)")

# Every store's samplers() builds its samplers with the telemetry interval: their own default is never used.
_URL_INTERVAL = "def __init__(self, url: str, interval_s: float = 1.0) -> None:"
for _module, _line in (("redis/info.py", _URL_INTERVAL),
                       ("redis/info.py", "def __init__(self, urls: list[str], interval_s: float = 1.0) -> None:"),
                       ("sphinx/stats.py", _URL_INTERVAL), ("mongodb/status.py", _URL_INTERVAL),
                       ("clickhouse/stats.py", _URL_INTERVAL), ("postgresql/stats.py", _URL_INTERVAL),
                       ("mariadb/stats.py", _URL_INTERVAL),
                       ("elasticsearch/stats.py",
                        "def __init__(self, url: str, interval_s: float = 1.0, index: str = INDEX) -> None:")):
    for _to in ("1.01", "0.99"):
        EQUIVALENT[f"ycsbctl/stores/{_module}: {_line} | 1.0 -> {_to}"] = \
            f"a default no caller uses: every store's samplers() passes the telemetry interval ({_module})"
EQUIVALENT["ycsbctl/stores/tls_socket.py: raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1) | 1 -> 2"] = \
    "any non-zero value turns TCP_NODELAY on (the kernel reads it as a flag and stores 1); 1 -> 0 stays scored"
EQUIVALENT["ycsbctl/telemetry/capture.py: forks = pd.to_numeric(rows[\"forks\"], errors=\"coerce\").fillna(0) | 0 -> -1"] = \
    "a sample without a fork count is no fork event either way: only counts above 0 are events (forks > 0)"
for _to in ("1.01", "0.99"):
    EQUIVALENT["ycsbctl/telemetry/capture.py: def sampling(endpoint: Endpoint, client_pids: Callable[[], Iterable[int]] | "
               f"None = None, interval_s: float = 1.0, | 1.0 -> {_to}"] = \
        ("the sampling period, not a figure: every rate is a counter's growth over the elapsed time measured between "
         "two readings, every mean is over the samples inside the measured window, whatever their spacing")

COMPARE_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
                ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
              ast.Mod: ast.FloorDiv, ast.RShift: ast.LShift, ast.LShift: ast.RShift, ast.BitOr: ast.BitAnd,
              ast.BitAnd: ast.BitOr}
NAME_SWAP = {"mean": "max", "max": "min", "min": "max", "sum": "max", "idxmax": "idxmin", "idxmin": "idxmax"}
PERCENTILE_SWAP = {"p50": "p95", "p95": "p99", "p99": "p95", "p999": "p99", "p9999": "p999"}


@dataclass
class Mutant:
    module: str
    line: int
    what: str
    source: str  # the whole mutated module
    end_line: int = 0  # the last line of the mutated expression
    rule: str = ""  # the rule of mutation_rules.RULES that sets it aside as equivalent ("": scored)

    def key(self, text: str) -> str:
        """``module: source line | what``, the mutant's name in EQUIVALENT (stable when lines move)."""
        return f"{self.module}: {text.splitlines()[self.line - 1].strip()} | {self.what}"


def _same(segment: str, node: ast.AST) -> bool:
    """The source segment really is ``node`` (positions inside f-strings may be off before 3.12)."""
    try:
        parsed = ast.parse(segment.strip(), mode="eval").body
    except SyntaxError:
        return False
    return ast.dump(parsed) == ast.dump(node)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _annotations(tree: ast.AST) -> set[int]:
    """Nodes inside type annotations: changing them changes nothing at run time."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        anns = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            anns = [a.annotation for a in (*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs,
                                           *(a for a in (node.args.vararg, node.args.kwarg) if a is not None))]
            anns.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            anns = [node.annotation]
        for a in anns:
            if a is not None:
                ids |= {id(n) for n in ast.walk(a)}
    return ids


def _variants(node: ast.AST) -> list[tuple[ast.AST, str]]:
    """Mutated copies of one expression node and a description of each."""
    out: list[tuple[ast.AST, str]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAP:
                m = copy.deepcopy(node)
                m.ops[i] = COMPARE_SWAP[type(op)]()
                out.append((m, f"{type(op).__name__} -> {COMPARE_SWAP[type(op)].__name__}"))
    elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
        m = copy.deepcopy(node)
        m.op = BINOP_SWAP[type(node.op)]()
        out.append((m, f"{type(node.op).__name__} -> {BINOP_SWAP[type(node.op)].__name__}"))
    elif isinstance(node, ast.BoolOp):
        m = copy.deepcopy(node)
        m.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append((m, f"{type(node.op).__name__} -> {type(m.op).__name__}"))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for d in (1, -1):
            out.append((ast.Constant(node.value + d), f"{node.value} -> {node.value + d}"))
    elif isinstance(node, ast.Constant) and type(node.value) is float:
        for new in ((node.value * 1.01, node.value * 0.99) if node.value else (1.0,)):
            out.append((ast.Constant(new), f"{node.value!r} -> {new!r}"))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in PERCENTILE_SWAP:
        out.append((ast.Constant(PERCENTILE_SWAP[node.value]), f"{node.value!r} -> {PERCENTILE_SWAP[node.value]!r}"))
    elif isinstance(node, ast.Attribute) and node.attr in NAME_SWAP and isinstance(node.ctx, ast.Load):
        m = copy.deepcopy(node)
        m.attr = NAME_SWAP[node.attr]
        out.append((m, f".{node.attr} -> .{m.attr}"))
    elif isinstance(node, ast.Name) and node.id in ("min", "max") and isinstance(node.ctx, ast.Load):
        out.append((ast.Name(NAME_SWAP[node.id], ast.Load()), f"{node.id}() -> {NAME_SWAP[node.id]}()"))
    return out


@dataclass
class Spot:
    """One mutation of one module, before its source is built: the lines and character offsets of the
    expression replaced, the new node, what changed, and the rule that sets it aside ("" when scored)."""

    line: int
    end_line: int
    a: int
    b: int
    new: ast.AST
    what: str
    rule: str = ""


def spots(module: str, text: str) -> list[Spot]:
    """Every mutation of ``module`` (its source ``text``), in source order."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    tree = ast.parse(text)
    skip = _docstrings(tree) | _annotations(tree)
    ruled = mutation_rules.by_rule(tree)
    out: list[Spot] = []
    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "end_lineno"):
            continue
        variants = _variants(node)
        if not variants:
            continue
        # the node's source by its offsets (col_offset counts UTF-8 bytes), not ast.get_source_segment, which
        # splits the whole text again for every node: 86 % of this function's time (test_mutation_map's 8 s)
        a = starts[node.lineno - 1] + len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
        b = starts[node.end_lineno - 1] + len(lines[node.end_lineno - 1].encode()[:node.end_col_offset].decode())
        if not _same(text[a:b], node):
            continue
        out += [Spot(node.lineno, node.end_lineno, a, b, new, what, ruled.get(id(node), "")) for new, what in variants]
    out.sort(key=lambda x: x.line)
    return out


def build(module: str, text: str, spot: Spot) -> Mutant | None:
    """The mutant ``spot`` makes of ``module`` (source ``text``); None when its source does not parse."""
    replacement = ast.unparse(spot.new)
    if not isinstance(spot.new, (ast.Constant, ast.Name, ast.Attribute)):
        replacement = f"({replacement})"
    source = text[:spot.a] + replacement + text[spot.b:]
    try:
        ast.parse(source)
    except SyntaxError:
        return None
    return Mutant(module, spot.line, spot.what, source, spot.end_line, spot.rule)


def mutants(module: str, limit: int = 0, seed: int | None = None) -> list[Mutant]:
    """Every mutant of ``module`` (a path relative to the checkout), in source order, those equivalent by
    rule included (``rule`` set); with ``limit``, a random sample of at most that many of the others (drawn
    before the mutated sources are built and parsed: the same for a module each time unless ``seed`` gives
    another draw) and every one a rule sets aside."""
    text = (ROOT / module).read_text(encoding="utf-8")
    found = spots(module, text)
    scored = [x for x in found if not x.rule]
    if limit and len(scored) > limit:
        scored = random.Random(module if seed is None else f"{module}:{seed}").sample(scored, limit)
    chosen = sorted([*scored, *(x for x in found if x.rule)], key=lambda x: x.line)
    return [m for m in (build(module, text, x) for x in chosen) if m is not None]


def import_lines(text: str) -> set[int]:
    """The lines of a module's source that run when it is imported: its top-level statements, its classes'
    bodies (methods aside) and every def's decorators and default values. Coverage gives such a line the
    context of whichever test imported the module first (a lazy import inside the CLI), so a mutant there is
    run against every test of the module, not that one alone."""
    out: set[int] = set()

    def span(node: ast.AST) -> set[int]:
        return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))  # type: ignore[attr-defined]

    def body(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for part in (*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d)):
                    out.update(span(part))
            elif isinstance(node, ast.ClassDef):
                for part in node.decorator_list:
                    out.update(span(part))
                body(node.body)
            else:
                out.update(span(node))

    body(ast.parse(text).body)
    return out


def _pytest(tree: Path, args: list[str], env: dict[str, str], timeout_s: float) -> tuple[int, float]:
    """pytest's exit code on ``args`` in ``tree`` and how long it took (s); -1 when it ran past
    ``timeout_s`` (a mutant that loops: mutation_sample.wait_or_stop)."""
    t = time.monotonic()
    proc = subprocess.Popen([str(PYTHON), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args], cwd=tree,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    return mutation_sample.wait_or_stop(proc, timeout_s), time.monotonic() - t


@dataclass
class Baseline:
    """One run of a module's tests without any mutant: each test's duration (s), the tests that fail
    anyway (left out of every mutant's run, and said), and which tests ran each line of the mutated
    modules in this process (``lines[module][line]``: test ids; a line run only at import, or only in
    another process, has none)."""

    took_s: float
    durations: dict[str, float]
    failed: list[str]
    lines: dict[str, dict[int, set[str]]]

    def passing(self) -> list[str]:
        """The tests that pass without a mutant, quickest first."""
        return sorted((t for t in self.durations if t not in self.failed), key=self.durations.__getitem__)

    def covering(self, module: str, first: int, last: int) -> list[str]:
        """The passing tests that ran any of lines ``first``..``last`` of ``module``, quickest first."""
        ran = set().union(*(self.lines.get(module, {}).get(n, set()) for n in range(first, last + 1)))
        return [t for t in self.passing() if t in ran]


def _widened(contexts: set[str], tests: list[str]) -> set[str]:
    """The tests that ran a line, from its coverage contexts: a line run while a test's fixtures were set up
    (``<id>|setup``, scripts/mutation_probe.py) counts for every test of that test's file, as a module-scoped
    fixture (one ``calibrate`` run, its figures read by the file's tests one by one) is made in the first
    one's set-up only; the kill of a later test that reads what it made was not looked for."""
    out = {c for c in contexts if not c.endswith("|setup")}
    for c in contexts - out:
        file = c.removesuffix("|setup").split("::", 1)[0]
        out |= {t for t in tests if t.split("::", 1)[0] == file}
    return out


def baseline(tree: Path, tests: list[str], modules: list[str], env: dict[str, str], tmp: Path,
             timeout_s: float) -> Baseline | None:
    """Run ``tests`` once under coverage.py (scripts/mutation_probe.py), for ``modules``; None when
    no test passes."""
    import json

    import coverage

    cov_file, outcomes = tmp / f"cov-{abs(hash(tuple(tests)))}", tmp / f"outcomes-{abs(hash(tuple(tests)))}.json"
    probe_env = {**env, "PYTHONPATH": f"{env['PYTHONPATH']}:{tree / 'scripts'}", "MUTATION_COVERAGE": str(cov_file),
                 "MUTATION_OUTCOMES": str(outcomes), "MUTATION_INCLUDE": ",".join(str(tree / m) for m in modules)}
    t = time.monotonic()
    proc = subprocess.run([str(PYTHON), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutation_probe", *tests],
                          cwd=tree, env=probe_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=timeout_s * 3)
    took = time.monotonic() - t
    if not outcomes.exists():
        print(f"  its tests did not run (pytest exit {proc.returncode})", flush=True)
        return None
    seen = json.loads(outcomes.read_text(encoding="utf-8"))
    data = coverage.CoverageData(basename=str(cov_file))
    data.read()
    lines: dict[str, dict[int, set[str]]] = {}
    for m in modules:
        by_line = data.contexts_by_lineno(str(tree / m)) if str(tree / m) in data.measured_files() else {}
        lines[m] = {n: _widened({c for c in ctx if c}, list(seen)) for n, ctx in by_line.items()}
    base = Baseline(took, {k: float(v["s"]) for k, v in seen.items()}, sorted(k for k, v in seen.items() if v["failed"]),
                    lines)
    return base if base.passing() else None


def copy_tree(dest: Path) -> Path:
    """The checkout's sources and tests (and links to its .venv, infra/bin and .cache) in ``dest``."""
    tree = dest / "tree"
    ignore = shutil.ignore_patterns(".git", ".venv", ".cache", "reports", "__pycache__", "*.pyc", "bin")
    for name in ("ycsbctl", "tests", "workloads", "infra", "scripts", "notebooks", "bench"):  # tests run the notebook
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, tree / name, ignore=ignore, symlinks=True)
    for name in ("pyproject.toml", "README.md", "mkdocs.yml"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(ROOT / "docs", tree / "docs")  # tests hold the docs' stated defaults to the code's
    for link in (".venv", ".cache", "infra/bin"):
        if (ROOT / link).exists():
            (tree / link).symlink_to((ROOT / link).resolve())
    return tree


def print_ruled(set_aside: list[Mutant], texts: dict[str, str]) -> None:
    """Every mutant a rule of mutation_rules.RULES set aside, counted per rule and listed."""
    if not set_aside:
        return
    print(f"\n{len(set_aside)} equivalent by rule, not scored")
    for rule, why in mutation_rules.RULES.items():
        n = sum(x.rule == rule for x in set_aside)
        if n:
            print(f"  {rule}: {n} ({why})")
    for x in set_aside:
        line = texts[x.module].splitlines()[x.line - 1].strip()
        print(f"  equivalent by rule ({x.rule}) {x.module}:{x.line}: {x.what}    | {line[:100]}")


def _mapped_tests(tree: Path, module: str) -> list[str]:
    """The pytest arguments of ``module``'s tests in TESTS whose files exist in ``tree``."""
    return [t for t in TESTS[module] if t.startswith("-") or (tree / t).exists() or not t.startswith("tests/")]


def run_sample(seed: int, budget_s: float, timeout_s: float) -> int:
    """``make mutation``: a stratified random sample of the whole map's scored mutants, drawn until
    ``budget_s`` (s) is spent (mutation_sample.draw_order), each run by mutation_sample.Unprobed; prints
    the share killed with its 95 % Clopper–Pearson interval, a row per module, every survivor and every
    mutant set aside by a rule."""
    started, load = time.monotonic(), os.getloadavg()
    print(f"whole-map sample, seed {seed} (--seed {seed} draws the same), budget {budget_s / 60:.0f} min, "
          f"load average {load[0]:.2f}", flush=True)
    texts = {m: (ROOT / m).read_text(encoding="utf-8") for m in TESTS}
    population: dict[str, list[Spot]] = {}
    listed: dict[str, int] = {}
    set_aside: list[Mutant] = []
    for m, text in texts.items():
        lines, found = text.splitlines(), spots(m, text)
        set_aside += [x for x in (build(m, text, s) for s in found if s.rule) if x is not None]
        scored = [s for s in found if not s.rule]
        population[m] = [s for s in scored if f"{m}: {lines[s.line - 1].strip()} | {s.what}" not in EQUIVALENT]
        listed[m] = len(scored) - len(population[m])
    total = sum(len(v) for v in population.values())
    print(f"{total} scored mutants in {len(population)} modules; not scored: {sum(listed.values())} listed in "
          f"EQUIVALENT, {len(set_aside)} equivalent by rule", flush=True)
    results: dict[str, list[tuple[Mutant, bool]]] = {}
    with tempfile.TemporaryDirectory(prefix="ycsbctl-mutation-") as tmp:
        tree = copy_tree(Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(tree), "YCSBCTL_TRUTH_CACHE": str(Path(tmp) / "truth-cache")}
        env.pop("YCSBCTL_NO_SKIP", None)
        (Path(tmp) / "truth-cache").mkdir()
        runner = mutation_sample.Unprobed(PYTHON, tree, env, Path(tmp))
        for module, spot in mutation_sample.draw_order(population, seed):
            left = budget_s - (time.monotonic() - started)
            if left <= 0:
                break
            x = build(module, texts[module], spot)
            if x is None:
                continue
            limit = min(timeout_s, left + 60)
            killed = runner.killed(tree / module, x.source, _mapped_tests(tree, module), limit)
            if killed is None and limit < timeout_s:
                print(f"  the budget ran out during {module}:{x.line}: {x.what} (not scored)", flush=True)
                break
            results.setdefault(module, []).append((x, killed is not False))  # past its time limit: a hang, a kill
            n = sum(len(v) for v in results.values())
            if killed is False:
                print(f"  [{n}] SURVIVED {module}:{x.line}: {x.what}", flush=True)
            elif n % 10 == 0:
                print(f"  [{n}] {(time.monotonic() - started) / 60:.1f} min", flush=True)
    k = sum(ok for v in results.values() for _, ok in v)
    n = sum(len(v) for v in results.values())
    low, high = mutation_sample.interval(k, n)
    print(f"\n{'module':52} {'killed':>6} {'drawn':>6} {'of':>5} {'listed':>6}")
    for m in TESTS:
        got = results.get(m, [])
        print(f"{m:52} {sum(ok for _, ok in got):6d} {len(got):6d} {len(population[m]):5d} {listed[m]:6d}")
    untouched = [m for m in TESTS if population[m] and m not in results]
    minutes, load = (time.monotonic() - started) / 60, os.getloadavg()
    print(f"\nwhole map: {k} of {n} sampled mutants killed, {100 * k / n if n else 0:.1f} % (95 % Clopper-Pearson "
          f"{100 * low:.1f}-{100 * high:.1f} %), {len(results)} of {sum(1 for v in population.values() if v)} modules "
          f"sampled, seed {seed}, {minutes:.1f} min, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    if untouched:
        print(f"not reached within the budget: {', '.join(untouched)}")
    survivors = [x for v in results.values() for x, ok in v if not ok]
    if survivors:
        print("\nsurviving mutants")
        for x in survivors:
            print(f"  {x.module}:{x.line}: {x.what}    | {texts[x.module].splitlines()[x.line - 1].strip()[:100]}")
    print_ruled(set_aside, texts)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*", help="modules to mutate, every mutant of each (default: a sample of the whole map)")
    ap.add_argument("--max", type=int, default=0,
                    help="at most N mutants per module, a random sample (the same each time; --seed draws another)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant's tests (a hang is a kill)")
    ap.add_argument("--survivors-of", type=Path, metavar="LOG",
                    help="run only the mutants a previous run's output lists as surviving (after adding tests)")
    ap.add_argument("--all", action="store_true", help="every mutant of every module (hours), not a sample")
    ap.add_argument("--seed", type=int, default=None,
                    help="the whole-map sample's seed (default: a new one, printed); with --max, another draw per module")
    ap.add_argument("--budget-min", type=float, default=25.0,
                    help="the whole-map sample's time budget, minutes: it stops drawing when spent (default 25)")
    args = ap.parse_args(argv)
    if not (args.modules or args.max or args.list or args.all or args.survivors_of):
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        return run_sample(seed, 60 * args.budget_min, args.timeout)
    wanted: set[tuple[str, int, str]] | None = None
    if args.survivors_of:
        wanted = set()
        for line in args.survivors_of.read_text(encoding="utf-8").splitlines():
            if "SURVIVED " in line:
                where, what = line.split("SURVIVED ", 1)[1].split(": ", 1)
                module, lineno = where.rsplit(":", 1)
                wanted.add((module, int(lineno), what.strip()))
        args.modules = args.modules or sorted({w[0] for w in wanted})
    modules = args.modules or list(TESTS)
    unknown = [m for m in modules if m not in TESTS]
    if unknown:
        print(f"no tests mapped for {', '.join(unknown)}; known: {', '.join(TESTS)}", file=sys.stderr)
        return 2
    plan = {}
    for m in modules:
        ms = mutants(m, 0 if wanted is not None else args.max, args.seed)
        if wanted is not None:
            ms = [x for x in ms if (x.module, x.line, x.what) in wanted]
        plan[m] = ms
    if args.list:
        for m, ms in plan.items():
            for x in ms:
                print(f"{m}:{x.line}: {x.what}")
        print(f"{sum(len(ms) for ms in plan.values())} mutants")
        return 0

    scores: dict[str, tuple[int, int, int]] = {}  # module -> killed, scored, equivalent
    survivors: list[Mutant] = []
    set_aside: list[Mutant] = []
    started = time.monotonic()
    texts = {m: (ROOT / m).read_text(encoding="utf-8") for m in plan}
    with tempfile.TemporaryDirectory(prefix="ycsbctl-mutation-") as tmp:
        tree = copy_tree(Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(tree), "YCSBCTL_TRUTH_CACHE": str(Path(tmp) / "truth-cache")}
        env.pop("YCSBCTL_NO_SKIP", None)
        (Path(tmp) / "truth-cache").mkdir()
        baselines: dict[tuple[str, ...], Baseline | None] = {}
        for module, ms in plan.items():
            tests = _mapped_tests(tree, module)
            key = tuple(tests)
            if key not in baselines:  # modules with the same tests share one run (coverage of them all)
                sharing = [m for m in plan if tuple(TESTS[m]) == tuple(TESTS[module])]
                baselines[key] = baseline(tree, tests, sharing, env, Path(tmp), args.timeout)
            base = baselines[key]
            if base is None:
                print(f"{module}: no test of it passes without any mutant; skipped", flush=True)
                continue
            equivalent = [x for x in ms if x.rule or x.key(texts[module]) in EQUIVALENT]
            set_aside += [x for x in ms if x.rule]
            ms = [x for x in ms if not x.rule and x.key(texts[module]) not in EQUIVALENT]
            print(f"{module}: {len(ms)} mutants (+{len(equivalent)} equivalent), its {len(base.passing())} tests "
                  f"take {sum(base.durations.values()):.0f} s"
                  + (f"; failing without any mutant, left out: {', '.join(base.failed)}" if base.failed else ""), flush=True)
            target = tree / module
            original = target.read_bytes()
            at_import = import_lines(texts[module])
            killed = 0
            for i, x in enumerate(ms, 1):
                # the tests that ran the mutated line in pytest's own process; else (a line run at import
                # or in a spawned worker) every test of the module
                chosen = (base.passing() if x.line in at_import else
                          base.covering(module, x.line, x.end_line or x.line) or base.passing())
                budget = min(args.timeout, 60.0 + 3 * sum(base.durations[t] for t in chosen))
                try:
                    target.write_text(x.source, encoding="utf-8")
                    rc, _ = _pytest(tree, chosen, env, budget)
                finally:
                    target.write_bytes(original)
                if rc == 0:
                    survivors.append(x)
                    print(f"  [{i}/{len(ms)}] SURVIVED {module}:{x.line}: {x.what}", flush=True)
                else:
                    killed += 1
            scores[module] = (killed, len(ms), len(equivalent))
    print("\nmutation score")
    print(f"{'module':48} {'killed':>7} {'total':>6} {'score':>7} {'equiv':>6}")
    total_k = total_n = total_e = 0
    for m, (k, n, e) in scores.items():
        total_k, total_n, total_e = total_k + k, total_n + n, total_e + e
        print(f"{m:48} {k:7d} {n:6d} {100 * k / n if n else 100:6.1f}% {e:6d}")
    print(f"{'all':48} {total_k:7d} {total_n:6d} {100 * total_k / total_n if total_n else 100:6.1f}% {total_e:6d}")
    print(f"took {time.monotonic() - started:.0f} s")
    if survivors:
        print("\nsurviving mutants")
        for x in survivors:
            line = texts[x.module].splitlines()[x.line - 1].strip()
            print(f"  {x.module}:{x.line}: {x.what}    | {line[:100]}")
    print_ruled(set_aside, texts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
