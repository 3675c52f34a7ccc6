"""The map of ``make mutation``: which modules are mutated and which tests judge each (TESTS), and which modules of
the folders that compute figures compute none (NOT_FIGURES, each with why). It is data, one entry per module, and
over 400 lines: tests/test_sizes.py exempts it by name (the before-stop check reads this one file).

The engine is elsewhere in scripts/: the mutants (mutation_ops.py), the exact run of named modules
(mutation_exact.py), the whole-map sample (mutation_sample.py), the copied tree (mutation_tree.py), the
equivalent mutants (mutation_equivalent.py and mutation_rules.py) and the command line (mutation_cli.py,
``python scripts/mutation.py --help``). docs/development/mutation.md says why it is ours and not mutmut's
or cosmic-ray's. tests/test_mutation_map.py checks that every module of those folders is in one list.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Module -> its tests (pytest arguments; -x stops at the first failure, so a killed mutant is cheap).
# "-k not test_cli_" leaves out the tests that run the CLI in a subprocess (a plain "not cli" also
# dropped every test with "client" in its name). test_truth_report reuses two experiments made once
# (YCSBCTL_TRUTH_CACHE): the report code is what is mutated, not the measurements. test_report.py renders plots
# (~25 s): the report modules' mutants that survive the truth tests cost that much each.
TESTS: dict[str, list[str]] = {
    "ycsbctl/results/histogram.py": ["tests/results/test_histogram_truth.py", "tests/engine/test_measurements.py"],
    "ycsbctl/urls.py": ["tests/provision/test_local.py", "tests/stores/test_store_urls.py"],
    "ycsbctl/results/quota_held.py": ["tests/results/test_quota_held.py", "tests/report/test_compare.py"],
    "ycsbctl/report/folder_differences.py": ["tests/results/test_folder_verdicts.py",
                                             # redaction: the secret-property pattern's reference test
                                             "tests/report/test_compare.py"],
    "ycsbctl/telemetry/bottleneck.py": ["tests/telemetry/test_bottleneck_truth.py",
                                        "tests/telemetry/test_bottleneck.py"],
    "ycsbctl/telemetry/network.py": ["tests/telemetry/test_network_truth.py", "tests/telemetry/test_network.py",
                                    "tests/telemetry/test_baseline_memo.py"],
    "ycsbctl/report/summary.py": ["tests/report/test_summary_truth.py", "tests/report/test_report_truth.py",
                                  "tests/report/test_report.py",
                                  "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/knee.py": ["tests/report/test_summary_truth.py", "tests/report/test_knee_truth.py", "-k",
                               "not two_folders"],
    "ycsbctl/telemetry/cpu_limit.py": ["tests/telemetry/test_cpu_points_truth.py", "tests/telemetry/test_process.py",
                                      "-k", "not confined and not held_by"],
    "ycsbctl/telemetry/frame_figures.py": ["tests/telemetry/test_frame_figures.py",
                                           "tests/telemetry/test_capture_truth.py",
                                           "tests/telemetry/test_samplers.py"],
    "ycsbctl/report/html.py": ["tests/report/test_report_truth.py", "tests/report/test_report.py", "-k",
                               "not test_cli_ and not chromium"],
    # runs.parquet's row per run: errors (ERROR + TIMEOUT), timeouts, not_found, error_rate, client µs per operation.
    "ycsbctl/results/tables.py": ["tests/results/test_tables.py", "tests/experiment/test_judge.py",
                                  "tests/results/test_csv_tables.py",
                                  "tests/results/test_folder.py", "tests/results/test_frames_truth.py", "-k",
                                  "not test_cli_"],
    "ycsbctl/results/frames.py": ["tests/results/test_frames_truth.py", "tests/report/test_report_truth.py",
                                  "tests/results/test_folder.py",
                                  "-k", "not test_cli_"],
    "ycsbctl/engine/measurements.py": ["tests/engine/test_measurements.py", "tests/engine/test_measurements_truth.py",
                                       "tests/engine/test_engine_truth.py"],
    # Every worker's counts added per second, per 100 ms and over the measured seconds (the phase's totals).
    "ycsbctl/engine/aggregate.py": ["tests/engine/test_measurements.py", "tests/engine/test_measurements_truth.py",
                                    "tests/engine/test_engine_truth.py"],
    "ycsbctl/results/ycsb_text.py": ["tests/results/test_ycsb_text.py", "tests/results/test_ycsb_text_truth.py",
                                     "tests/engine/test_engine_truth.py"],
    # YCSB's final block written line for line (Java's long and Double.toString values, its JSON exporters).
    "ycsbctl/results/ycsb_format.py": ["tests/results/test_ycsb_text.py", "tests/results/test_ycsb_text_truth.py",
                                       "tests/engine/test_engine_truth.py"],
    "ycsbctl/experiment/rate_search.py": ["tests/experiment/test_rate_search.py",
                                          "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/results/slo.py": ["tests/experiment/test_rate_search.py", "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/engine/throttle.py": ["tests/engine/test_throttle.py", "tests/engine/test_timerfd.py",
                                   "tests/engine/test_pacing_chains.py", "tests/engine/test_engine.py",
                                   "-k", "target or paced or pacer or lag"],
    # test_measurements: the next batch drawn a slice or two per take, ready before this one runs out.
    "ycsbctl/engine/worker.py": ["tests/engine/test_worker.py", "tests/engine/test_engine_truth.py",
                                 "tests/engine/test_engine.py",
                                 "tests/engine/test_measurements.py"],
    "ycsbctl/engine/batches.py": ["tests/engine/test_worker.py", "tests/engine/test_engine_truth.py",
                                  "tests/engine/test_engine.py", "tests/engine/test_measurements.py"],
    # A worker process's entry: its last message always sent, its exit when the phase's process is gone.
    "ycsbctl/engine/worker_process.py": ["tests/engine/test_worker.py", "tests/engine/test_engine_truth.py",
                                         "tests/engine/test_engine.py", "tests/engine/test_measurements.py"],
    # An alternated session: the slice schedule, each slice's counts to its own target, per-target results.
    "ycsbctl/engine/alternation.py": ["tests/engine/test_alternation.py", "tests/engine/test_alternation_plugins.py"],
    "ycsbctl/engine/alternating_worker.py": ["tests/engine/test_alternation.py",
                                             "tests/engine/test_alternation_plugins.py"],
    "ycsbctl/engine/alternating_plugin_worker.py": ["tests/engine/test_alternation_plugins.py"],
    "ycsbctl/engine/alternated_session.py": ["tests/engine/test_alternation.py"],
    # A point's verdict: stall, client-stall, data gone missing during the point.
    "ycsbctl/experiment/judge.py": ["tests/experiment/test_judge.py"],
    # A deployment variant's settings as the server reads them back (CONFIG GET, psql, the mariadb client), and its
    # processes (shards, replicas, a standby) as the deployment's own tests count them.
    "ycsbctl/provision/variants.py": ["tests/provision/test_persistence_variants.py",
                                      "tests/stores/test_redis_cluster.py",
                                      "tests/stores/test_redis_replicas.py", "tests/stores/test_postgresql_standby.py"],
    # A cell a store cannot do at the plan's scale, refused before its points (FerretDB's scans against --timeout).
    "ycsbctl/experiment/cannot.py": ["tests/experiment/test_cannot.py"],
    # How a run ended: its exit code and its folder's status (complete, partial, interrupted).
    "ycsbctl/experiment/outcome.py": ["tests/experiment/test_outcome.py"],
    "ycsbctl/experiment/missing.py": ["tests/experiment/test_judge.py"],
    # Whether a point's host was busy (the claim's other benchmark, or foreign CPU during it) and its why line.
    "ycsbctl/experiment/explain.py": ["tests/experiment/test_explain.py", "tests/telemetry/test_why.py",
                                      "tests/experiment/test_point_runner.py"],
    "ycsbctl/telemetry/stall.py": ["tests/telemetry/test_stall.py", "tests/experiment/test_judge.py"],
    "ycsbctl/results/held_slices.py": ["tests/results/test_held_slices.py", "tests/results/test_slice_pairs.py",
                                       "tests/engine/test_alternation.py", "tests/experiment/test_alternated_sweep.py"],
    # Which replica a point lost, when (the first 1 Hz sample counting fewer), and what its figures are true of.
    "ycsbctl/telemetry/replicas_lost.py": ["tests/experiment/test_faults_replica_unread.py"],
    # The disturbance study's events table: stall, operations lost, p99 before/during/after.
    "ycsbctl/results/disturbance.py": ["tests/results/test_disturbance.py", "tests/results/test_disturbance_window.py",
                                      "tests/results/test_overlap.py"],
    # Overlapping events: one window, the cost charged once, to the event the server's evidence blames.
    "ycsbctl/results/overlap.py": ["tests/results/test_overlap.py"],
    # The words of an event's cost (stall, slowdown, ops lost) and of its charge (alone, here, there, jointly).
    "ycsbctl/results/events.py": ["tests/report/test_study_figures.py"],
    # What a result folder keeps of a point: its overall summary, its histograms (whole, decodable), its run docs.
    "ycsbctl/results/folder.py": ["tests/results/test_folder.py", "tests/results/test_frames_truth.py"],
    # A folder's files written whole (or not at all) and their JSON and parquet forms (mixed columns as numbers or
    # text).
    "ycsbctl/results/durable.py": ["tests/results/test_folder.py", "tests/results/test_frames_truth.py"],
    # A point's figures: its overall summary (every operation merged), throughput, error rate, client CPU per op.
    "ycsbctl/results/model.py": ["tests/results/test_model.py", "tests/results/test_tables.py",
                                 "tests/results/test_folder.py", "tests/results/test_frames_truth.py",
                                 "tests/experiment/test_judge.py"],
    # What compare calls a real change, and what it says makes two experiments differ.
    "ycsbctl/report/compare.py": ["tests/results/test_verdict_edges.py", "tests/report/test_compare.py",
                                  "tests/results/test_host_drift.py"],
    # What compare --calibrate records as the host's drift, and the A/A pairs it refuses.
    "ycsbctl/report/drift_record.py": ["tests/results/test_host_drift.py"],
    # The 100 ms series (series_100ms.parquet: ops_per_s, p50/p99 per interval) the disturbance table reads.
    "ycsbctl/results/fine.py": ["tests/results/test_disturbance.py", "tests/engine/test_fine_series_truth.py"],
    # The client's own loop lag (CLIENT-LAG) and the rule that calls a point's client lagging.
    "ycsbctl/results/client_lag.py": ["tests/results/test_client_lag.py", "tests/engine/test_measurements.py",
                                      "tests/experiment/test_judge.py",
                                      "tests/experiment/test_client_lag_in_client.py"],
    # Intervals, tests and verdicts between targets (issue 42).
    "ycsbctl/results/stats.py": ["tests/results/test_stats.py",
                                "tests/results/test_decisions.py"],
    # A cell over its rounds: its drift first to last, the rounds a 5 % difference would need.
    "ycsbctl/results/over_rounds.py": ["tests/results/test_stats.py", "tests/results/test_verdict_edges.py"],
    # Group-sequential boundaries: the nominal level of each look (Lan–DeMets, numerical integration).
    "ycsbctl/results/spending.py": ["tests/results/test_decisions.py"],
    # When a sequential run (--repeat auto) looks, and the level each look tests at.
    "ycsbctl/results/looks.py": ["tests/results/test_stats.py",
                                "tests/results/test_decisions.py", "tests/experiment/test_sequential.py"],
    # --repeat auto's rounds: when they stop, the rounds the budget was planned to hold.
    "ycsbctl/experiment/sequential.py": ["tests/experiment/test_sequential.py", "tests/experiment/test_slice_looks.py",
                                         "tests/experiment/test_variant_stages.py"],
    # The run order: rounds of shuffled blocks (the targets at one thread count together).
    "ycsbctl/experiment/rounds.py": ["tests/experiment/test_rounds.py", "tests/experiment/test_variant_stages.py"],
    "ycsbctl/results/verdicts.py": ["tests/results/test_verdict_edges.py", "tests/results/test_verdicts.py",
                                    "tests/results/test_cost_verdicts.py",
                                  "tests/results/test_percentiles.py", "tests/results/test_decisions.py",
                                    "tests/results/test_uncompared.py"],
    # Each cell's centre, interval, CV and drift over its rounds (of throughput, latency and every percentile).
    "ycsbctl/results/cells.py": ["tests/results/test_verdict_edges.py", "tests/results/test_verdicts.py",
                                 "tests/results/test_cost_verdicts.py", "tests/results/test_percentiles.py",
                                 "tests/results/test_decisions.py", "tests/results/test_uncompared.py"],
    # Two experiments compared cell by cell: through a control target, the yardsticks' host speed, or the drift margin.
    "ycsbctl/results/folder_verdicts.py": ["tests/results/test_folder_verdicts.py",
                                           "tests/results/test_verdict_edges.py", "tests/results/test_verdicts.py",
                                           "tests/results/test_yardstick.py", "tests/results/test_host_drift.py",
                                           "tests/results/test_reference_pairs.py"],
    # The four verdicts as one line (ratio, interval with the digits its verdict needs, margin), and the host's
    # noise bound that decides a far gap from one round (issue 60).
    "ycsbctl/results/verdict_words.py": ["tests/results/test_verdicts.py", "tests/results/test_verdict_edges.py",
                                         "tests/report/test_summary_table.py", "tests/results/test_decisions.py"],
    "ycsbctl/results/noise.py": ["tests/results/test_decisions.py"],
    # Slice-paired verdicts of alternated sessions: block ratios by hand, scipy's t on the blocks, coverage;
    # the slices table a folder keeps.
    "ycsbctl/results/slice_pairs.py": ["tests/results/test_slice_pairs.py", "tests/results/test_slice_verdicts.py"],
    "ycsbctl/results/reference_pairs.py": ["tests/results/test_reference_pairs.py"],
    "ycsbctl/results/reference_cells.py": ["tests/results/test_reference_pairs.py"],
    "ycsbctl/report/compare_reference.py": ["tests/report/test_compare_reference.py",
                                            "tests/results/test_reference_pairs.py", "tests/report/test_compare.py"],
    "ycsbctl/results/slice_table.py": ["tests/results/test_slice_verdicts.py"],
    # Why a point was not compared, counted by cause; the host-busy findings said once; compare's JSON of cells
    # with no verdict.
    "ycsbctl/results/causes.py": ["tests/results/test_uncompared.py"],
    "ycsbctl/report/host_busy.py": ["tests/report/test_host_busy.py", "tests/report/test_degraded_readers.py",
                                    "tests/report/test_summary_truth.py"],
    "ycsbctl/report/folder_status.py": ["tests/report/test_summary_truth.py", "tests/report/test_degraded_readers.py"],
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
    "ycsbctl/report/verdict_table.py": ["tests/report/test_verdict_table.py", "tests/report/test_report_truth.py",
                                        "tests/report/test_summary_table.py",
                                        "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/summary_table.py": ["tests/report/test_summary_table.py"],
    "ycsbctl/report/plots.py": ["tests/report/test_plots.py", "tests/report/test_peak_truth.py",
                                "tests/report/test_plot_labels.py",
                                "tests/report/test_scaling_report.py", "tests/report/test_report.py"],
    # The variant study's names and values (which variant a row is).
    "ycsbctl/results/variants.py": ["tests/experiment/test_sweep_axis.py", "-k", "not test_cli_"],
    # Other load on the host: who is foreign, whose CPU counts.
    "ycsbctl/experiment/host_claim.py": ["tests/experiment/test_host_claim.py"],
    # ycsbctl calibrate: the comparisons against redis-benchmark, the verdict on the client, redis-benchmark's report
    # read
    "ycsbctl/experiment/calibrate.py": ["tests/experiment/test_calibrate.py"],
    "ycsbctl/experiment/calibrate_text.py": ["tests/experiment/test_calibrate.py"],
    # Footprints: bytes per record (server's own memory, RSS less the empty server), a container's memory.
    "ycsbctl/telemetry/footprint.py": ["tests/telemetry/test_footprint.py", "tests/telemetry/test_samplers.py",
                                       "tests/telemetry/test_container.py"],
    "ycsbctl/telemetry/container.py": ["tests/telemetry/test_container_sampler.py",
                                       "tests/telemetry/test_container.py"],
    "ycsbctl/telemetry/process.py": ["tests/telemetry/test_process.py", "tests/telemetry/test_process_cpu_truth.py",
                                     "tests/telemetry/test_samplers.py"],
    # Where the time went, per point, and the why line built from it (issue 46).
    "ycsbctl/telemetry/why.py": ["tests/telemetry/test_process.py", "tests/telemetry/test_why.py",
                                 "tests/telemetry/test_why_planted.py"],
    "ycsbctl/telemetry/threads.py": ["tests/telemetry/test_process.py", "tests/telemetry/test_threads.py",
                                     "tests/telemetry/test_where_time_went.py", "tests/telemetry/test_why_planted.py"],
    "ycsbctl/telemetry/host.py": ["tests/telemetry/test_host.py", "tests/telemetry/test_where_time_went.py",
                                  "tests/telemetry/test_why.py"],
    # The run table's telemetry figures over the measured window (server/client CPU mean and max, memory, shard
    # balance, replication lag, forks), from the samplers' frame.
    "ycsbctl/telemetry/capture.py": ["tests/telemetry/test_capture_truth.py", "tests/telemetry/test_bottleneck.py",
                                     "tests/telemetry/test_samplers.py"],
    # which local processes are a target's server, and an alternated session's other targets' (ours, not foreign)
    "ycsbctl/telemetry/server_processes.py": ["tests/telemetry/test_capture_truth.py",
                                              "tests/experiment/test_faults_new_stores.py"],
    "ycsbctl/telemetry/wire.py": ["tests/telemetry/test_wire.py", "tests/telemetry/test_evidence.py",
                                  "tests/telemetry/test_why.py"],
    "ycsbctl/telemetry/evidence.py": ["tests/telemetry/test_evidence.py", "tests/telemetry/test_why_planted.py",
                                      "tests/telemetry/test_cpu_points_truth.py"],
    "ycsbctl/telemetry/profiler.py": ["tests/telemetry/test_why.py", "tests/telemetry/test_profile.py"],
    "ycsbctl/report/deployment_findings.py": ["tests/report/test_deployment_findings_edges.py",
                                              "tests/report/test_deployment_findings.py"],
    # The structure study (online-status): users loaded, members stored, the study's peak.
    "ycsbctl/workload/online_status/workload.py": ["tests/workload/test_study_rules.py",
                                                   "tests/workload/test_online_status.py"],
    "ycsbctl/workload/online_status/ops.py": ["tests/workload/test_online_status.py"],
    # The many-store study (media-items): the truth every answer is checked against, the checks, its headlines.
    "ycsbctl/workload/media_items/truth.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/executor.py": ["tests/workload/test_study_rules.py",
                                                 "tests/workload/test_media_items.py"],
    # Each store's media-items executor: its answers, checked against the truth by the executor (a wrong one
    # fails the point), on real servers; the data set, the query pools, the operation mix and settings.
    "ycsbctl/workload/media_items/dataset.py": ["tests/workload/test_study_rules.py",
                                                "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/pool.py": ["tests/workload/test_study_rules.py",
                                             "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/sources.py": ["tests/workload/test_study_rules.py",
                                                "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/settings.py": ["tests/workload/test_study_rules.py",
                                                 "tests/workload/test_media_items.py"],
    "ycsbctl/workload/media_items/workload.py": ["tests/workload/test_study_rules.py",
                                                 "tests/workload/test_media_items.py"],
    "ycsbctl/report/many_store.py": ["tests/report/test_many_store_headline.py", "tests/workload/test_media_items.py",
                                    "-k", "run_marks or many_store_headline"],
    # the many-store figure: a colour per store, texts apart and inside the page (issue 72)
    "ycsbctl/report/many_store_figure.py": ["tests/report/test_many_store_figure.py", "-k", "not real_small"],
    "ycsbctl/report/text_fit.py": ["tests/report/test_many_store_figure.py", "-k", "not real_small"],
    # Which operation's latency a point's one line and the report name (workload E: SCAN, not its INSERTs).
    "ycsbctl/results/exit_codes.py": ["tests/results/test_exit_codes.py", "tests/experiment/test_outcome.py"],
    "ycsbctl/results/names.py": ["tests/experiment/test_judge.py", "tests/report/test_summary_truth.py",
                                 "tests/telemetry/test_bottleneck.py",
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
    "ycsbctl/report/server_traits.py": ["tests/report/test_server_traits.py", "tests/provision/test_target_labels.py",
                                        "tests/report/test_report.py",
                                        "tests/report/test_deployment_findings.py", "-k",
                                        "not test_cli_ and not chromium"],
    "ycsbctl/report/rate_plots.py": ["tests/report/test_rate_plot_bars.py", "tests/report/test_rate_plot_intervals.py",
                                     "tests/experiment/test_rate_ladder.py",
                                     "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/report/resource_plots.py": ["tests/report/test_resource_plots.py", "tests/report/test_report_rules.py",
                                         "tests/report/test_footprint_table.py", "tests/report/test_report.py",
                                         "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/plot_style.py": ["tests/report/test_plots.py", "tests/report/test_plot_style.py",
                                     "tests/report/test_report_rules.py",
                                     "tests/report/test_plot_labels.py", "tests/report/test_report.py",
                                     "-k", "not test_cli_ and not chromium"],
    # a URL a `ycsbctl load` would load twice, or a run would read empty: refused before anything starts
    "ycsbctl/experiment/url_datasets.py": ["tests/experiment/test_faults_load_twice.py"],
    # Each operation's timing and count, and which operations a client runs (chains, their takes).
    "ycsbctl/stores/chain.py": ["tests/stores/test_chain.py", "tests/stores/test_memcached_binding.py",
                                "tests/stores/test_mariadb_wire.py", "tests/stores/test_redis_binding.py",
                                "tests/stores/test_mongodb_wire_chain.py",
                                "tests/engine/test_engine_truth.py", "tests/engine/test_batched_writes.py"],
    # What a deployment is (its settings, one process or several), as the same tests start and count it.
    "ycsbctl/stores/catalog_entry.py": ["tests/provision/test_persistence_variants.py",
                                        "tests/stores/test_redis_cluster.py",
                                        "tests/stores/test_redis_replicas.py",
                                        "tests/stores/test_postgresql_standby.py",
                                        "tests/provision/test_server_kinds.py"],
    # Each reply's status (OK, NOT_FOUND, ERROR) as the server's own counters count it.
    "ycsbctl/stores/memcached/binding.py": ["tests/stores/test_chain.py", "tests/stores/test_watchdog.py",
                                            "tests/stores/test_memcached_binding.py",
                                            "tests/stores/test_memcached_truth.py"],
    "ycsbctl/stores/postgresql/wire.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_sql_stores.py",
                                          "-k", "postgresql or wire"],
    # A reply's rows, tag and error as the wire path reads them (the endings that decide a point operation's status).
    "ycsbctl/stores/postgresql/messages.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_sql_stores.py",
                                              "-k", "postgresql or wire"],
    "ycsbctl/stores/mariadb/wire.py": ["tests/stores/test_mariadb_wire.py", "tests/stores/test_sql_stores.py",
                                       "tests/stores/test_mariadb_sql_truth.py", "-k", "mariadb or wire"],
    "ycsbctl/stores/redis/benchmark.py": ["tests/experiment/test_calibrate.py", "tests/stores/test_redis_tls.py"],
    # The stores' samplers: each figure the server's own counters over the span.
    "ycsbctl/stores/memcached/stats.py": ["tests/stores/test_memcached_stats.py",
                                          "tests/stores/test_memcached_truth.py"],
    "ycsbctl/stores/postgresql/stats.py": ["tests/stores/test_postgresql_stats.py",
                                           "tests/stores/test_postgresql_stats_truth.py",
                                           "tests/stores/test_sql_stores.py", "-k", "postgresql"],
    "ycsbctl/stores/mariadb/stats.py": ["tests/stores/test_sql_stores.py", "tests/stores/test_mariadb_stats_truth.py",
                                        "tests/experiment/test_faults_sql.py", "-k", "mariadb and not killed"],
    "ycsbctl/stores/tarantool/stats.py": ["tests/stores/test_tarantool.py"],
    "ycsbctl/stores/clickhouse/stats.py": ["tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/sphinx/stats.py": ["tests/stores/test_sphinx.py"],
    "ycsbctl/stores/elasticsearch/stats.py": ["tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/redis/info.py": ["tests/stores/test_redis_info_sampler.py", "tests/stores/test_redis_info.py",
                                     "tests/telemetry/test_samplers.py",
                                     "tests/provision/test_persistence_variants.py"],
    # A cluster point's operations per shard and its redirections (checked against the shards' commandstats).
    "ycsbctl/stores/redis/cluster_chain.py": ["tests/stores/test_redis_cluster_slots.py",
                                              "tests/stores/test_redis_cluster.py"],
    "ycsbctl/stores/mongodb/status.py": ["tests/stores/test_mongodb_status.py", "tests/telemetry/test_samplers.py"],
    # SQL: YCSB's jdbc layout (scan bounds, row counts) and the shared reply path.
    "ycsbctl/stores/sql/layout.py": ["tests/stores/test_sql_layout.py", "tests/stores/test_sql_stores.py",
                                     "tests/stores/test_sql_ycsb_interop.py"],
    "ycsbctl/stores/sql/wire.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_mariadb_wire.py",
                                  "tests/stores/test_sql_stores.py"],
    "ycsbctl/stores/sql/chain.py": ["tests/stores/test_sql_stores.py", "tests/stores/test_postgresql_wire.py",
                                   "tests/stores/test_mariadb_wire.py"],
    # The records count of a SQL store (count and clear).
    "ycsbctl/stores/sql/protocol.py": ["tests/stores/test_sql_stores.py"],
    "ycsbctl/stores/sqlite/binding.py": ["tests/stores/test_sqlite_wal_switch.py", "tests/stores/test_sql_stores.py",
                                        "tests/experiment/test_faults_sqlite_lock.py", "-k", "sqlite"],
    "ycsbctl/stores/redis/online_status.py": ["tests/workload/test_online_status.py"],
    "ycsbctl/stores/mongodb/online_status.py": ["tests/workload/test_online_status.py"],
    "ycsbctl/stores/sql/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/sqlite/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/postgresql/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/mariadb/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/mongodb/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/redis/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/memcached/media_items.py": ["tests/workload/test_media_items.py"],
    "ycsbctl/stores/tarantool/media_items.py": ["tests/workload/test_media_items_tarantool.py"],
    "ycsbctl/stores/clickhouse/media_items.py": ["tests/workload/test_media_items_clickhouse.py"],
    "ycsbctl/stores/sphinx/media_items.py": ["tests/workload/test_media_items_sphinx.py"],
    "ycsbctl/stores/elasticsearch/media_items.py": ["tests/workload/test_media_items_elasticsearch.py"],
    # The stores' shared pieces: each sampler's per-second rates, a reply's timeout, HTTP and MySQL framing.
    "ycsbctl/stores/sampler.py": ["tests/stores/test_sampler.py", "tests/stores/test_sampler_cost.py",
                                  "tests/telemetry/test_samplers.py", "tests/stores/test_memcached_truth.py",
                                  "tests/stores/test_tarantool.py"],
    "ycsbctl/stores/binding.py": ["tests/stores/test_wire_binding.py", "tests/stores/test_elasticsearch_binding.py",
                                  "tests/stores/test_mariadb_wire.py", "tests/stores/test_chain.py",
                                  "tests/stores/test_postgresql_wire.py", "tests/stores/test_mongodb_wire_chain.py",
                                  "tests/stores/test_redis_binding.py",
                                  "tests/stores/test_memcached_binding.py"],
    "ycsbctl/stores/binding_set.py": ["tests/stores/test_watchdog.py", "tests/stores/test_mongodb_wire_chain.py",
                                      "tests/stores/test_redis_binding.py"],
    "ycsbctl/stores/http1.py": ["tests/stores/test_http1.py", "tests/stores/test_clickhouse.py",
                                "tests/stores/test_elasticsearch.py", "tests/stores/test_slow_reply_deadline.py"],
    "ycsbctl/stores/deadline.py": ["tests/stores/test_slow_reply_deadline.py"],
    "ycsbctl/stores/redis/admin.py": ["tests/stores/test_slow_reply_deadline.py", "tests/stores/test_redis_tls.py",
                                      "tests/stores/test_redis_admin_client.py"],
    "ycsbctl/stores/mysql_admin.py": ["tests/stores/test_slow_reply_deadline.py",
                                      "tests/stores/test_mariadb_sql_truth.py"],
    # MariaDB's wire path and SphinxQL: packets, length-encoded integers, text rows, ERR packets, quoting.
    "ycsbctl/stores/mysql41.py": ["tests/stores/test_sphinx_wire.py", "tests/stores/test_mariadb_wire.py",
                                  "tests/stores/test_sphinx.py",
                                  "tests/stores/test_sql_stores.py", "-k", "mariadb or sphinx"],
    # Disturbances: the spec's second and size, the command's own duration (the events table's command_s).
    "ycsbctl/stores/disturb.py": ["tests/stores/test_disturb_spec.py", "tests/stores/test_redis_disturb.py"],
    "ycsbctl/stores/redis/disturb.py": ["tests/stores/test_redis_disturb.py",
                                        "tests/stores/test_redis_disturb_evidence.py"],
    "ycsbctl/stores/mongodb/disturb.py": ["tests/stores/test_mongodb_disturb.py",
                                          "tests/experiment/test_disturb_truth.py",
                                          "-k", "mongo"],
    # Each store's bindings (each reply's status: OK, NOT_FOUND, ERROR; scan rows) and its reading (memory
    # and records: the footprint per record).
    "ycsbctl/stores/redis/binding.py": ["tests/stores/test_redis_requests.py", "tests/stores/test_redis_binding.py"],
    # The chained path (each reply's status, WAIT's count of replicas) and a URL's settings and refusals.
    "ycsbctl/stores/redis/reply_chain.py": ["tests/stores/test_redis_requests.py", "tests/stores/test_redis_binding.py",
                                            "tests/stores/test_chain.py"],
    "ycsbctl/stores/redis/options.py": ["tests/stores/test_redis_requests.py", "tests/stores/test_redis_binding.py",
                                        "tests/stores/test_redis_tls.py"],
    "ycsbctl/stores/tls_wire.py": ["tests/stores/test_tls_wire.py"],
    "ycsbctl/stores/tls_socket.py": ["tests/stores/test_tls_wire.py"],
    "ycsbctl/stores/redis/cluster.py": ["tests/stores/test_redis_cluster_slots.py",
                                        "tests/stores/test_redis_cluster.py"],
    "ycsbctl/stores/redis/replica_reads.py": ["tests/stores/test_redis_replica_routing.py",
                                              "tests/stores/test_redis_replicas.py"],
    "ycsbctl/stores/redis/store.py": ["tests/stores/test_redis_store.py", "tests/stores/test_store_urls.py",
                                      "tests/telemetry/test_samplers.py", "tests/stores/test_redis_cluster.py",
                                      "tests/stores/test_redis_info.py"],
    # A Redis URL checked, rewritten (TLS, -p redis.password) and made into YCSB's binding properties.
    "ycsbctl/stores/redis/urls.py": ["tests/stores/test_redis_store.py", "tests/stores/test_store_urls.py",
                                     "tests/telemetry/test_samplers.py", "tests/stores/test_redis_cluster.py",
                                     "tests/stores/test_redis_info.py"],
    "ycsbctl/stores/mongodb/wire.py": ["tests/stores/test_mongodb_wire_handshake.py",
                                       "tests/stores/test_mongodb_native_reader.py",
                                       "tests/stores/test_mongodb_wire_chain.py",
                                       "tests/stores/test_mongodb_bindings.py", "tests/stores/test_mongodb_truth.py",
                                       "tests/stores/test_mongo_tls.py"],
    "ycsbctl/stores/mongodb/wire_chain.py": ["tests/stores/test_mongodb_wire_chain.py",
                                             "tests/stores/test_mongodb_truth.py"],
    # test_mongodb_wire_chain: the wire path's requests against bson of this module's record_document and projection
    "ycsbctl/stores/mongodb/pymongo_binding.py": ["tests/stores/test_mongodb_bindings.py",
                                                  "tests/stores/test_mongodb_truth.py",
                                                 "tests/stores/test_mongodb_wire_chain.py"],
    "ycsbctl/stores/mongodb/store.py": ["tests/stores/test_mongodb_store.py", "tests/stores/test_store_urls.py",
                                        "tests/telemetry/test_samplers.py",
                                       "tests/stores/test_mongo_tls.py", "tests/experiment/test_faults_new_stores.py",
                                       "-k", "mongo"],
    "ycsbctl/stores/memcached/record.py": ["tests/stores/test_memcached_record.py",
                                           "tests/stores/test_memcached_binding.py",
                                           "tests/stores/test_memcached_ycsb_interop.py"],
    "ycsbctl/stores/memcached/store.py": ["tests/stores/test_store_urls.py", "tests/stores/test_memcached_binding.py",
                                          "tests/provision/test_memcached_provision.py"],
    "ycsbctl/stores/postgresql/binding.py": ["tests/stores/test_postgresql_binding_failures.py",
                                             "tests/stores/test_sql_stores.py",
                                             "tests/stores/test_postgresql_password.py",
                                             "-k", "postgresql"],
    "ycsbctl/stores/postgresql/store.py": ["tests/stores/test_postgresql_stats_truth.py",
                                           "tests/stores/test_postgresql_store.py", "tests/stores/test_store_urls.py",
                                           "tests/stores/test_sql_stores.py",
                                           "tests/stores/test_postgresql_password.py", "-k", "postgresql"],
    "ycsbctl/stores/mariadb/binding.py": ["tests/stores/test_mariadb_binding_failures.py",
                                          "tests/stores/test_sql_stores.py",
                                          "tests/stores/test_mariadb_sql_truth.py", "-k", "mariadb"],
    "ycsbctl/stores/mariadb/store.py": ["tests/stores/test_mariadb_store.py", "tests/stores/test_store_urls.py",
                                        "tests/stores/test_sql_stores.py",
                                        "tests/stores/test_mariadb_stats_truth.py",
                                        "tests/provision/test_local_sql.py", "-k", "mariadb"],
    # SQLite's kind: embedded, which says its points have no server and no network round trip (the report's
    # "unlike quantities" and the provisioner's no-port path read it).
    "ycsbctl/stores/sqlite/store.py": ["tests/stores/test_sqlite_store.py", "tests/stores/test_store_urls.py",
                                       "tests/stores/test_sqlite_open.py", "tests/stores/test_sql_stores.py",
                                       "tests/experiment/test_faults_sqlite_lock.py", "-k", "sqlite"],
    "ycsbctl/stores/tarantool/iproto.py": ["tests/stores/test_tarantool_iproto.py", "tests/stores/test_tarantool.py",
                                           "tests/experiment/test_faults_new_stores.py"],
    "ycsbctl/stores/tarantool/binding.py": ["tests/stores/test_tarantool_binding.py",
                                            "tests/stores/test_tarantool_iproto.py", "tests/stores/test_tarantool.py",
                                            "tests/experiment/test_tarantool_dying_port.py"],
    "ycsbctl/stores/tarantool/store.py": ["tests/stores/test_store_urls.py", "tests/stores/test_tarantool.py"],
    "ycsbctl/stores/clickhouse/http.py": ["tests/stores/test_clickhouse_http.py", "tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/clickhouse/binding.py": ["tests/stores/test_clickhouse_http.py", "tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/clickhouse/layout.py": ["tests/stores/test_clickhouse.py"],
    # its admin calls, and the records it counts: distinct keys (a key loaded twice is two MergeTree rows)
    "ycsbctl/stores/clickhouse/admin.py": ["tests/stores/test_clickhouse.py",
                                           "tests/experiment/test_faults_load_twice.py",
                                          "-k", "clickhouse"],
    "ycsbctl/stores/clickhouse/store.py": ["tests/stores/test_clickhouse_store.py", "tests/stores/test_store_urls.py",
                                           "tests/stores/test_clickhouse.py"],
    "ycsbctl/stores/elasticsearch/rest.py": ["tests/stores/test_elasticsearch_binding.py",
                                             "tests/stores/test_elasticsearch_rest.py",
                                             "tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/elasticsearch/binding.py": ["tests/stores/test_elasticsearch_binding.py",
                                                "tests/stores/test_elasticsearch_rest.py",
                                                "tests/stores/test_elasticsearch.py"],
    "ycsbctl/stores/elasticsearch/store.py": ["tests/stores/test_elasticsearch_store.py",
                                              "tests/stores/test_store_urls.py", "tests/stores/test_elasticsearch.py"],
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
    "ycsbctl/results/documents.py": "document shapes and validation (a dataclass as JSON and back, checked)",
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
    **{f"ycsbctl/stores/{_store}/server.py": "its servers' command lines, data-folder preparation, catalogue "
                                            "entries and deployments: no figure; tests/provision/ start them"
       for _store in ("redis", "mongodb", "memcached", "postgresql", "mariadb", "tarantool", "clickhouse",
                      "sphinx", "elasticsearch")},
    "ycsbctl/stores/sqlite/server.py": "SQLite's embedded catalogue entry and kind: no server, no port, no figure",
    "ycsbctl/stores/basic/binding.py": "BasicDB: every call OK at once, nothing to decide",
    "ycsbctl/stores/basic/store.py": "BasicDB's store: no server, no reading",
    "ycsbctl/stores/redis/tls.py": "the one line said when TLS is why a connection failed",
    "ycsbctl/stores/mongodb/admin.py": "opens a pymongo client for admin calls",
    "ycsbctl/stores/memcached/admin.py": "memcached's admin commands on a blocking connection, answers as the server "
                                         "gives them",
    "ycsbctl/stores/tarantool/admin.py": "Tarantool's admin EVAL calls, answers as the server gives them",
    "ycsbctl/stores/elasticsearch/admin.py": "Elasticsearch's admin HTTP calls, answers as the server gives them",
    "ycsbctl/stores/sphinx/admin.py": "Sphinx's admin statements through PyMySQL, answers as the server gives them",
    "ycsbctl/workload/media_items/contract.py": "the executor contract: declarations (Item, Query, MediaStore) and the "
                                                "study's JSON of an item (json.dumps without spaces)",
    "ycsbctl/workload/media_items/__init__.py": "MediaItems, imported when first asked for (a module __getattr__)",
    "ycsbctl/workload/online_status/__init__.py": "OnlineStatus, imported when first asked for (a module __getattr__)",
    "ycsbctl/workload/store_executors.py": "the stores' executor classes by workload and store name: a look-up table",
    "ycsbctl/workload/media_items/ops.py": "operation codes and names",
    "ycsbctl/stores/postgresql/session.py": "an asyncpg connection of its own for admin calls",
    "ycsbctl/stores/mariadb/session.py": "a PyMySQL connection of its own for admin calls",
}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # scripts/ is no package
    import mutation_cli

    sys.exit(mutation_cli.main(TESTS))
