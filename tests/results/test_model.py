"""The results model (results/model.py): a measurement's figures, the merged operations, records per
second and YCSB's facts of a newer document."""

from __future__ import annotations

import math

from tests.fixtures.summaries import op_summary


def test_every_operation_merges_only_the_base_operations_that_measured_something():
    from ycsbctl.results.model import PhaseResult, overall_summary

    # READ: 3 x 100 µs and 1 x 300 µs; a read-modify-write (its halves are READ and UPDATE) and an UPDATE that
    # measured nothing are left out: 4 operations, mean 150 µs, p50 100 µs, max 300 µs
    r = PhaseResult("run", 8, 1000.0, 4, ops={"READ": op_summary("READ", {100: 3, 300: 1}),
                                               "READ-MODIFY-WRITE": op_summary("READ-MODIFY-WRITE", {900: 2}),
                                               "UPDATE": op_summary("UPDATE", {})})
    o = overall_summary(r)
    assert o is not None and (o.operations, o.mean_us, o.min_us, o.max_us) == (4, 150.0, 100.0, 300.0)
    assert (o.percentiles_us[50.0], o.percentiles_us[99.0]) == (100.0, 300.0)


def test_a_measurement_keeps_its_p95_and_a_result_its_throughput_over_its_own_runtime():
    from ycsbctl.results.model import PhaseResult

    # 100 values: 1..100 µs once each; HDR's p95 is 95 µs, p99 99 µs (no neighbour shares a value)
    s = op_summary("READ", {v: 1 for v in range(1, 101)})
    assert s.percentiles_us == {50.0: 50.0, 95.0: 95.0, 99.0: 99.0, 99.9: 100.0, 99.99: 100.0}
    # 1,234 operations in 2,000 ms: 617 ops/s; a result built without a warm-up or late replies says none
    r = PhaseResult("run", 8, 2000.0, 1234)
    assert r.throughput_ops == 617.0
    # half a millisecond still has a rate; no runtime has none (not a division by zero)
    assert PhaseResult("run", 8, 0.5, 3).throughput_ops == 6000.0 and math.isnan(PhaseResult("run", 8, 0.0,
                                                                                             3).throughput_ops)
    d = r.to_dict()
    assert (d["throughput_ops"], d["warmup_s"], d["late_replies"]) == (617.0, 0.0, 0)


def test_records_per_second_counts_each_kinds_records_over_a_runtime_under_a_second():
    from ycsbctl.results.model import records_per_second

    # 30 OK BATCH-STOREs of 10 records and 5 OK STOREs of 1 in 0.5 s: 610 records per second
    assert records_per_second({"BATCH-STORE": 30, "STORE": 5, "READ": 7}, {"BATCH-STORE": 10, "STORE": 1}, 0.5) == 610.0
    assert math.isnan(records_per_second({"STORE": 5}, {"STORE": 1}, 0.0))
    assert math.isnan(records_per_second({"STORE": 5}, {}, 1.0))
    # a run's own: its OK counts (not its errors) over runtime_ms read as seconds, 250 ms here
    from ycsbctl.results.model import OpSummary, PhaseResult
    r = PhaseResult("load", 4, 250.0, 42, ops={"BATCH-STORE": OpSummary("BATCH-STORE", 40, 1.0, 1.0, 1.0, returns={
        "OK": 30, "ERROR": 10}), "STORE": OpSummary("STORE", 2, 1.0, 1.0, 1.0, returns={"OK": 2})})
    assert r.records_per_s({"BATCH-STORE": 10, "STORE": 1}) == (30 * 10 + 2) / 0.25
    # a kind whose every operation failed stored nothing: 0 OK, not a negative count
    failed = PhaseResult("load", 4, 250.0, 42, ops={**r.ops, "STORE": OpSummary("STORE", 2, 1.0, 1.0, 1.0,
                                                                                returns={"ERROR": 2})})
    assert failed.records_per_s({"BATCH-STORE": 10, "STORE": 1}) == 30 * 10 / 0.25


def test_the_real_ycsbs_facts_keep_what_this_version_knows_of_a_newer_documents():
    from ycsbctl.results.model import YcsbFacts

    f = YcsbFacts.from_dict({"exit_code": 0, "version": "0.17.0", "a_later_field": [1]})
    assert (f.exit_code, f.version) == (0, "0.17.0")


def test_client_cpu_per_operation_is_in_microseconds_of_cpu_over_the_operations():
    from ycsbctl.results.model import PhaseResult

    # 2.5 s of the engine's CPU over 1,000,000 operations: 2.5 µs each; no operation: no figure
    r = PhaseResult("run", 8, 1000.0, 1_000_000, client_cpu_s=2.5)
    assert r.client_us_per_op() == 2.5
    assert math.isnan(PhaseResult("run", 8, 1000.0, 0, client_cpu_s=2.5).client_us_per_op())


def test_a_result_document_without_a_warm_up_reads_as_a_result_made_without_one():
    """``from_dict`` of a result document that does not say ``warmup_s`` (edited by hand, or written by another
    tool) gives the warm-up a result built without one has (the model's own default, 0 s), not a second of
    warm-up it never had (Experiment.phase_result hands it to a folder's reader). One that says it keeps it,
    through to_dict and back."""
    from ycsbctl.results.model import PhaseResult

    made = PhaseResult("run", 8, 2000.0, 1234)  # no warm-up given
    d = made.to_dict()
    del d["warmup_s"]
    back = PhaseResult.from_dict(d)
    assert back.warmup_s == made.warmup_s == 0.0
    assert (back.phase, back.threads, back.runtime_ms, back.operations) == ("run", 8, 2000.0, 1234)
    warm = PhaseResult("run", 8, 2000.0, 1234, warmup_s=2.5)
    assert PhaseResult.from_dict(warm.to_dict()).warmup_s == 2.5
