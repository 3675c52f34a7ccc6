"""The result folder: crash-safe writing, exact round trip, recovery of a stopped experiment."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from tests.fixtures.experiments import build_experiment, build_runs
from ycsbctl.errors import UserError
from ycsbctl.results import histogram as hdr
from ycsbctl.results import load
from ycsbctl.results.folder import ResultFolder, RunRecord, run_doc
from ycsbctl.results.schema import Manifest


def _write(root, runs, manifest, experiment_id="exp"):
    folder = ResultFolder.create(root, experiment_id, manifest)
    for r in runs:
        folder.add_run(r)
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    manifest, runs = build_runs(workloads=("workloadb",), threads=(8, 16), repetitions=2)
    folder = _write(tmp_path_factory.mktemp("store"), runs, manifest)
    return folder.finalize(), runs


def test_round_trip_gives_the_same_numbers(built):
    path, runs = built
    exp = load(path)
    assert set(exp.runs["run_id"]) == {r.run_id for r in runs}
    for r in runs:
        row = exp.runs.set_index("run_id").loc[r.run_id]
        assert row["status"] == r.status
        if r.result is None:
            assert math.isnan(row["throughput_ops"])
            continue
        if r.result.cut_short:  # its clients stopped before its end: no rate, what it measured kept
            assert math.isnan(row["throughput_ops"]) and row["runtime_ms"] == pytest.approx(r.result.runtime_ms)
        else:
            assert row["throughput_ops"] == pytest.approx(r.result.throughput_ops)
        assert row["operations"] == r.result.operations
        assert row["errors"] == r.result.returns("ERROR") + r.result.returns("TIMEOUT")
        assert row["not_found"] == r.result.returns("NOT_FOUND")
        main = "INSERT" if r.phase == "load" else "READ"
        assert row[f"{main.lower()}_p99_us"] == r.result.ops[main].percentiles_us[99.0]
        assert row[f"{main.lower()}_mean_us"] == pytest.approx(r.result.ops[main].mean_us)
        back = exp.phase_result(r.run_id)
        assert back.to_dict() == _jsonable(r.result.to_dict())
        for op, s in r.result.ops.items():
            h = exp.histogram(r.run_id, op)
            assert h.get_total_count() == s.histogram.get_total_count()
            assert h.get_value_at_percentile(99.9) == s.histogram.get_value_at_percentile(99.9)
        pd.testing.assert_frame_equal(back.series.reset_index(drop=True), r.result.series.reset_index(drop=True),
                                      check_dtype=False)


def _jsonable(d):
    return json.loads(json.dumps(d))


def test_ops_table_has_one_row_per_measurement_with_percentiles_and_returns(built):
    path, runs = built
    exp = load(path)
    failed = next(r for r in runs if r.status == "failed")
    rows = exp.ops[exp.ops["run_id"] == failed.run_id].set_index("op")
    assert set(rows.index) == set(failed.result.ops)  # READ, UPDATE and READ-FAILED
    assert rows.loc["READ", "return_ERROR"] == failed.result.ops["READ"].returns["ERROR"]
    assert rows.loc["READ", "p99_us"] == failed.result.ops["READ"].percentiles_us[99.0]
    assert rows.loc["READ", "p9999_us"] == failed.result.ops["READ"].percentiles_us[99.99]


def test_runs_table_carries_telemetry_summary_bottleneck_and_server(built):
    path, runs = built
    exp = load(path)
    bound = next(r for r in runs if r.bottleneck and r.bottleneck["label"] == "server-cpu")
    row = exp.runs.set_index("run_id").loc[bound.run_id]
    assert row["bottleneck"] == "server-cpu"
    assert row["bottleneck_text"] == bound.bottleneck["text"]
    assert row["server_cpu_pct_mean"] == pytest.approx(bound.telemetry_summary.server_cpu_pct_mean)
    assert row["server"] == "FerretDB (mongo-wire, SQLite) 1.24.0"
    assert row["client_us_per_op"] == pytest.approx(1e6 * bound.result.client_cpu_s / bound.result.operations)


def test_finished_folder_has_csv_twins_ycsb_text_and_telemetry(built):
    path, runs = built
    assert len(pd.read_csv(path / "runs.csv")) == len(runs)
    assert len(pd.read_csv(path / "ops.csv")) == len(pd.read_parquet(path / "ops.parquet"))
    some = next(r for r in runs if r.result is not None)
    assert (path / "ycsb" / f"{some.run_id}.txt").read_text().startswith("[OVERALL], RunTime(ms), ")
    tel = pd.read_parquet(path / "telemetry.parquet")
    assert set(tel["source"]) >= {"server-process", "client"}
    assert not any(path.parent.glob(".*.partial"))


def test_histograms_of_repetitions_merge_exactly(built):
    path, runs = built
    exp = load(path)
    reps = [r for r in runs if r.target == "redis" and r.phase == "run" and r.threads == 8]
    merged = exp.merged_histogram([r.run_id for r in reps], "READ")
    expected = hdr.merge(r.result.ops["READ"].histogram for r in reps)
    assert merged.get_total_count() == sum(r.result.ops["READ"].operations for r in reps)
    for p in (50, 99, 99.99):
        assert merged.get_value_at_percentile(p) == expected.get_value_at_percentile(p)
    every_op = exp.histogram(reps[0].run_id, "ALL")
    assert every_op.get_total_count() == reps[0].result.ops["READ"].operations + reps[0].result.ops["UPDATE"].operations


def test_crash_before_finalize_keeps_every_run_and_reopen_recovers_them(tmp_path):
    manifest, runs = build_runs(workloads=("workloadb",), threads=(8,), repetitions=2, skipped=False)
    folder = _write(tmp_path, runs[:3], manifest)  # then the process dies: no finalize
    partial = tmp_path / ".exp.partial"
    assert partial.is_dir() and not (tmp_path / "exp").exists()
    (partial / "runs" / "half-written.json.tmp").write_text("{")  # a write the crash interrupted
    del folder

    seen = load(tmp_path / "exp")  # a report of the crashed experiment reads the parts
    assert seen.status == "running"
    assert set(seen.runs["run_id"]) == {r.run_id for r in runs[:3]}

    again = ResultFolder.reopen(tmp_path / "exp")
    assert again.run_ids() == {r.run_id for r in runs[:3]}
    assert not list(partial.rglob("*.tmp"))
    for r in runs[3:]:
        again.add_run(r)
    final = again.finalize("partial")
    assert final == tmp_path / "exp" and not partial.exists()
    exp = load(final)
    assert exp.status == "partial" and exp.manifest.resumed_at
    assert set(exp.runs["run_id"]) == {r.run_id for r in runs}
    assert exp.manifest.run_counts["ok"] == sum(r.status == "ok" for r in runs)


@pytest.mark.parametrize("name", ["done", "done.partial"])  # a name the user gave may end as a part does
def test_reopen_of_a_finished_folder_moves_it_back_and_stale_tables_are_not_read(tmp_path, name):
    path = build_experiment(tmp_path, name, workloads=("workloadb",), threads=(8,), repetitions=1, skipped=False)
    folder = ResultFolder.reopen(path)
    assert folder.path == tmp_path / f".{name}.partial" and not path.exists()
    extra = RunRecord("redis.workloadb.run.t64.r0", "redis", "workloadb", "run", 64, 0, "interrupted",
                      error="interrupted by Ctrl-C")
    folder.add_run(extra)
    assert extra.run_id in set(load(path).runs["run_id"])  # read from the parts, not the old runs.parquet
    folder.finalize("interrupted")
    assert load(path).runs.set_index("run_id").loc[extra.run_id, "status"] == "interrupted"


def test_adding_a_run_again_replaces_the_earlier_attempt(tmp_path):
    manifest, runs = build_runs(workloads=("workloadb",), threads=(8,), repetitions=1, skipped=False, failed=False)
    folder = _write(tmp_path, runs, manifest)
    first = next(r for r in runs if r.phase == "run")
    assert any((folder.path / "histograms").glob(f"{first.run_id}.*.hdr"))
    folder.add_run(RunRecord(first.run_id, first.target, first.workload, "run", first.threads, 0, "failed",
                             error="server died"))
    assert folder.run_ids("failed") == {first.run_id}
    assert not any((folder.path / "histograms").glob(f"{first.run_id}.*.hdr"))
    exp = load(folder.finalize())
    assert (exp.runs["run_id"] == first.run_id).sum() == 1
    assert exp.runs.set_index("run_id").loc[first.run_id, "error"] == "server died"


def test_url_targets_get_safe_file_names(tmp_path):
    manifest, runs = build_runs(workloads=("workloadb",), threads=(8,), repetitions=1, skipped=False)
    r = next(r for r in runs if r.phase == "run" and r.target == "redis")
    r.target = "redis://127.0.0.1:6380/0"
    r.run_id = RunRecord.make_id(r.target, r.workload, r.phase, r.threads, r.repetition)
    folder = _write(tmp_path, [r], manifest)
    assert all("/" not in p.name and ":" not in p.name for p in folder.path.rglob("*"))
    exp = load(folder.finalize())
    assert exp.histogram(r.run_id, "READ").get_total_count() == r.result.ops["READ"].operations


def test_create_refuses_an_existing_experiment(tmp_path):
    manifest, _ = build_runs(workloads=("workloadb",), threads=(8,), repetitions=1)
    ResultFolder.create(tmp_path, "exp", manifest)
    with pytest.raises(UserError, match="already exists"):
        ResultFolder.create(tmp_path, "exp", manifest)


def test_load_of_a_missing_folder_says_what_to_do(tmp_path):
    with pytest.raises(UserError, match="no result folder"):
        load(tmp_path / "nope")


def test_a_folder_has_one_writer_until_it_is_finalized(tmp_path):
    from ycsbctl.errors import UserError

    folder = ResultFolder.create(tmp_path, "exp", Manifest(experiment_id="exp"))
    with pytest.raises(UserError, match="is being written by another ycsbctl") as refused:
        ResultFolder.reopen(folder.path)
    assert refused.value.exit_code == 1  # not bad input (2): the same command succeeds once the writer is done
    folder.finalize("complete")
    again = ResultFolder.reopen(tmp_path / "exp")  # the writer is done: --resume may take it
    again.finalize("complete")


def test_a_histogram_whose_base64_reads_like_a_password_property_is_stored_as_it_is(tmp_path):
    """Found by a full test run: a stored histogram that would not decode. Text the folder stores
    is stripped of passwords (``name=value`` named like a secret), and this histogram's base64 has
    ``…yPWdlEmW6y…nw==`` in it, which that rule read as a ``pwd`` property: its padding became ``***``."""
    import random

    from ycsbctl.urls import redact_text

    rng = random.Random(2422)  # found by trying seeds: 20 values whose encoding has the pattern
    h = hdr.new_histogram()
    for _ in range(20):
        h.record_value(rng.randint(10, 100_000))
    assert redact_text(hdr.encode(h)) != hdr.encode(h)  # the case this test is about
    manifest, runs = build_runs(workloads=("workloadb",), threads=(8,), repetitions=1, skipped=False)
    run = next(r for r in runs if r.result is not None and "READ" in r.result.ops)
    run.result.ops["READ"].histogram = h
    folder = _write(tmp_path, [run], manifest)
    back = load(folder.finalize()).histogram(run.run_id, "READ")
    assert hdr.counts_of(back).tolist() == hdr.counts_of(h).tolist()


def test_the_overall_summary_is_every_operation_merged_and_without_histograms_the_main_one_stands_in(built):
    """The ``overall`` a run document keeps (the report's ALL row): counts, min and max over READ and
    UPDATE, percentiles of their histograms merged by the HdrHistogram library itself; an imported
    result without histograms keeps the main operation's percentiles, and still the extremes of all."""
    from dataclasses import replace

    from hdrh.histogram import HdrHistogram

    from ycsbctl.results.model import overall_summary

    _, runs = built
    r = next(x.result for x in runs if x.result is not None and {"READ", "UPDATE"} <= set(x.result.ops))
    read, update = r.ops["READ"], r.ops["UPDATE"]
    o = overall_summary(r)
    assert o is not None and o.operations == read.operations + update.operations
    assert (o.min_us, o.max_us) == (min(read.min_us, update.min_us), max(read.max_us, update.max_us))
    reference = HdrHistogram(1, 3_600_000_000, 3)
    reference.add(read.histogram)
    reference.add(update.histogram)
    for p in (50, 99, 99.9):
        assert o.percentiles_us[float(p)] == reference.get_value_at_percentile(p)
    bare = replace(r, ops={**r.ops, "READ": replace(read, histogram=None), "UPDATE": replace(update, histogram=None)})
    o2 = overall_summary(bare)
    main = max((read, update), key=lambda s: s.operations)
    assert o2 is not None and o2.percentiles_us == main.percentiles_us and o2.max_us == o.max_us


def test_resuming_a_folder_whose_manifest_is_damaged_names_the_file_and_the_runs_and_changes_nothing(tmp_path):
    manifest, runs = build_runs(workloads=("workloadb",), threads=(8,), repetitions=1, skipped=False)
    folder = _write(tmp_path, runs[:1], manifest)
    folder.close()
    partial = tmp_path / ".exp.partial"
    (partial / "manifest.json").write_text('{"experiment_id": ')
    before = sorted(p.name for p in partial.rglob("*"))
    with pytest.raises(UserError) as e:
        ResultFolder.reopen(tmp_path / "exp")
    said = str(e.value)
    assert said.startswith(f"{partial}/manifest.json is damaged (") and e.value.exit_code == 1
    assert said.endswith(f"): the runs are in {partial}/runs; restore the manifest from a copy to resume this folder")
    assert sorted(p.name for p in partial.rglob("*")) == before and not (tmp_path / "exp").exists()


def _manifest(experiment_id: str):
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.results.schema import Manifest

    return Manifest(experiment_id=experiment_id, plan=Plan(workloads=["b"], targets=["basic://"]).to_dict())


def test_a_taken_id_gets_a_suffix_up_to_999_and_then_one_line_saying_so(tmp_path):
    from ycsbctl.errors import UserError
    from ycsbctl.results.folder import ResultFolder

    (tmp_path / "x").mkdir()
    for n in range(2, 999):  # x, x-2 … x-998 taken (one of them still being written: its .partial)
        (tmp_path / (f".x-{n}.partial" if n == 500 else f"x-{n}")).mkdir()
    last = ResultFolder.create(tmp_path, "x", _manifest("x"), unique=True)
    try:
        assert last.path.name == ".x-999.partial" and last.manifest.experiment_id == "x-999"
    finally:
        last.close()
    with pytest.raises(UserError, match="result folders x to x-999 all exist"):
        ResultFolder.create(tmp_path, "x", _manifest("x"), unique=True)


def test_a_folder_being_written_is_refused_by_its_own_path_or_its_final_name(tmp_path):
    from ycsbctl.errors import UserError
    from ycsbctl.results.folder import ResultFolder

    writing = ResultFolder.create(tmp_path, "w", _manifest("w"))
    try:
        for path in (writing.path, tmp_path / "w"):  # .w.partial, and the name it will have
            with pytest.raises(UserError, match="is being written by another ycsbctl"):
                ResultFolder.check_free(path)
    finally:
        writing.close()
    ResultFolder.check_free(tmp_path / "w")


def test_mixed_columns_become_what_parquet_stores_numbers_booleans_or_text():
    from ycsbctl.results.durable import arrow_safe

    df = pd.DataFrame({"n": pd.Series([1, 2.5, None], dtype=object), "b": pd.Series([True, None, False], dtype=object),
                       "t": pd.Series(["a", {"k": 1}, math.nan], dtype=object), "f": [0.5, 1.5, 2.5]})
    out = arrow_safe(df)
    assert str(out["n"].dtype) == "float64" and out["n"].tolist()[:2] == [1.0, 2.5] and math.isnan(out["n"][2])
    assert str(out["b"].dtype) == "boolean" and out["b"].tolist() == [True, pd.NA, False]
    assert out["t"].tolist()[:2] == ["a", '{"k": 1}'] and pd.isna(out["t"][2]) and out["f"].tolist() == [0.5, 1.5, 2.5]
    assert df["n"].dtype == object  # the caller's frame is left as it was


def test_a_new_folder_keeps_the_start_time_its_manifest_gives_and_is_stamped_now_when_it_gives_none(tmp_path):
    import json
    from dataclasses import replace
    from datetime import datetime

    from ycsbctl.results.folder import ResultFolder

    def stored(folder: ResultFolder) -> str:  # the manifest as written to disk
        folder.close()
        return json.loads((folder.path / "manifest.json").read_text(encoding="utf-8"))["started_at"]

    given = "2021-03-04T05:06:07+00:00"  # a resumed plan's own start
    assert stored(ResultFolder.create(tmp_path, "given", replace(_manifest("given"), started_at=given))) == given
    before = datetime.now().astimezone().replace(microsecond=0)
    stamped = datetime.fromisoformat(stored(ResultFolder.create(tmp_path, "new", _manifest("new"))))
    assert before <= stamped <= datetime.now().astimezone()


def test_a_runs_disturbance_events_are_written_to_its_own_events_part_with_its_run_id_and_target(tmp_path):
    from ycsbctl.results.events import EVENT_COLUMNS
    from ycsbctl.results.folder import ResultFolder, RunRecord, file_stem

    row = dict.fromkeys(EVENT_COLUMNS) | {"event": "del:set:2M@5s", "action": "del", "size": 2_000_000,
                                          "occurrence": 1, "stall_s": 1.6, "ops_lost": 39_770.5}
    events = pd.DataFrame([row], columns=list(EVENT_COLUMNS))
    run_id = "redis.workloadb.run.t16.r1"
    folder = ResultFolder.create(tmp_path, "x", _manifest("x"))
    try:
        folder.add_run(RunRecord(run_id, "redis", "workloadb", "run", 16, 1, "ok", events=events))
        part = pd.read_parquet(folder.path / "parts" / "events" / f"{file_stem(run_id)}.parquet")
    finally:
        folder.close()
    assert list(part.columns) == [*EVENT_COLUMNS, "run_id", "target"]
    assert part[["event", "size", "stall_s", "ops_lost", "run_id", "target"]].to_dict("records") == [
        {"event": "del:set:2M@5s", "size": 2_000_000, "stall_s": 1.6, "ops_lost": 39_770.5, "run_id": run_id,
         "target": "redis"}]


def test_a_secrets_name_followed_by_a_word_is_left_whole_in_prose_and_hidden_after_a_flag_or_an_equals_sign():
    from ycsbctl.urls import redact_text

    assert redact_text("the password field stays as written") == "the password field stays as written"
    assert redact_text("--password hunter2 and redis.password=hunter2") == "--password *** and redis.password=***"


def test_a_run_without_its_compared_flag_is_compared_when_it_is_ok_and_only_then():
    """run_doc's ``compared`` where the sweep set none (an older record, a load): ok is compared; degraded, failed
    and interrupted are not; a flag given is kept as given."""
    from ycsbctl.results.names import RunStatus

    def doc(status: RunStatus, compared: bool | None = None) -> bool:
        run = RunRecord("r.w.run.t8.r1", "r", "w", "run", 8, 1, status)
        run.compared = compared
        return run_doc(run)["compared"]

    assert doc(RunStatus.OK) is True
    assert [doc(s) for s in (RunStatus.DEGRADED, RunStatus.FAILED, RunStatus.INTERRUPTED)] == [False] * 3
    assert doc(RunStatus.DEGRADED, True) is True and doc(RunStatus.OK, False) is False


def test_a_runs_100_ms_series_is_written_to_its_own_part_and_read_back_with_its_run_id(tmp_path):
    """A point with a disturbance keeps its 100 ms series (``r.fine``): written to ``parts/series_100ms`` under its
    own file stem, and read back in the folder's ``series_100ms`` table with the point's run id — the same rows as the
    series' own frame, interval by interval."""
    from dataclasses import replace

    from tests.fixtures.fine_series import fine_series

    manifest, runs = build_runs(targets=("redis",), threads=(8,), repetitions=1, skipped=False, failed=False)
    point = next(r for r in runs if r.phase == "run" and r.result is not None)
    fine = fine_series([40, 0, 35, 38], slow={2: 900})
    folder = ResultFolder.create(tmp_path, "fine", replace(manifest, experiment_id="fine"))
    for r in runs:
        folder.add_run(replace(r, result=replace(r.result, fine=fine)) if r is point else r)
    exp = load(folder.finalize("complete"))
    got = exp.series_100ms.drop(columns="run_id").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, fine.frame().reset_index(drop=True), check_dtype=False)
    assert set(exp.series_100ms["run_id"]) == {point.run_id}
    mine = exp.fine_series_of(point.run_id)
    assert mine[mine["op"] == "OVERALL"]["operations"].tolist() == [40, 0, 35, 38]
