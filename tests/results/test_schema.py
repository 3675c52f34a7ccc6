"""The declared result schema (ycsbctl/results/schema.py): a real run's folder has exactly the
declared runs.parquet columns and types (read back with pyarrow and pandas), its report names the
scale a default run used, and a folder written before the schema (tests/data/folder-v0, written
by ycsbctl at commit a89e8b3 with ``run workload-b --targets redis,dragonfly --backend local
--records 200 --threads 2 --duration 0.5 --warmup 0 --processes 1``) still loads, renders and resumes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
import redis

from tests.fixtures.cli import YCSBCTL
from tests.fixtures.docs import docs_page
from tests.fixtures.servers import ROOT, start_redis
from ycsbctl.results import load
from ycsbctl.results.documents import SchemaError
from ycsbctl.results.folder import ResultFolder
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.run_columns import (
    RUN_COLUMN_NAMES,
    RUN_COLUMNS,
    conform_runs,
    run_columns_markdown,
    runs_table,
)
from ycsbctl.results.schema import SCHEMA_VERSION, Manifest, TelemetrySummary

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)

V0 = Path(__file__).parents[1] / "data" / "folder-v0"


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory):
    """``ycsbctl run workload-b --profile smoke`` against a redis-server of its own, scale left to the
    profile (no --records, no --duration), two thread counts (a sweep: it has a report), telemetry on."""
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    tmp = tmp_path_factory.mktemp("smoke")
    server = start_redis(tmp / "redis")
    try:
        out = tmp / "exp"
        proc = subprocess.run([YCSBCTL, "run", "workload-b", "--target", server.url, "--load", "--profile", "smoke",
                               "--threads", "1,2", "--processes", "1", "--quiet", "--out", str(out)],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        client = redis.Redis.from_url(server.url)
        stored = client.dbsize() - client.exists("_indices")  # YCSB's redis binding keeps a zset of keys beside
        yield out, stored
    finally:
        server.stop()


class _Figures(HTMLParser):
    """The report's subtitle and, per <figure>, the SVG file it links to."""

    def __init__(self) -> None:
        super().__init__()
        self.subtitle = ""
        self.svgs: list[str] = []
        self._in_sub = self._in_figure = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self._in_sub = self._in_sub or (tag == "p" and a.get("class") == "sub")
        self._in_figure = self._in_figure or tag == "figure"
        if self._in_figure and tag == "a" and str(a.get("href", "")).endswith(".svg"):
            self.svgs.append(str(a["href"]))

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_sub = False
        if tag == "figure":
            self._in_figure = False

    def handle_data(self, data):
        if self._in_sub:
            self.subtitle += data


def _svg_texts(path: Path) -> list[str]:
    """Texts of an SVG figure: matplotlib draws text as paths and keeps each string as a comment."""
    tree = ET.parse(path, parser=ET.XMLParser(target=ET.TreeBuilder(insert_comments=True)))
    return [str(e.text) for e in tree.iter() if e.tag is ET.Comment]


def test_a_default_scale_report_names_the_record_count_and_the_point_duration_in_its_figures(smoke_run):
    out, _ = smoke_run
    page = _Figures()
    page.feed((out / "report.html").read_text(encoding="utf-8"))
    assert "2,000 records · 2 s per point" in page.subtitle
    assert len(page.svgs) >= 3
    for svg in page.svgs:
        assert any("2,000 records · 2 s per point" in t for t in _svg_texts(out / svg)), svg


def test_runs_parquet_of_a_real_run_has_exactly_the_declared_columns_and_types(smoke_run):
    out, stored = smoke_run
    schema = pq.read_schema(out / "runs.parquet")
    assert schema.names == list(RUN_COLUMN_NAMES)
    assert [str(schema.field(c.name).type).replace("double", "float64") for c in RUN_COLUMNS] == \
        [c.dtype for c in RUN_COLUMNS]
    runs = pd.read_parquet(out / "runs.parquet")
    assert list(pd.read_csv(out / "runs.csv").columns) == list(RUN_COLUMN_NAMES)
    load_point = runs[runs["phase"] == "load"].iloc[0]
    # the load point inserted the records the server holds (its own DBSIZE, less the _indices zset)
    assert load_point["operations"] == stored == 2000
    assert load_point["insert_p50_us"] > 0 and pd.isna(load_point["read_p50_us"])
    sweep = runs[runs["phase"] == "run"]
    assert sorted(sweep["threads"]) == [1, 2] and set(sweep["status"]) == {"ok"} and (sweep["not_found"] == 0).all()
    assert set(sweep["server_cpu_source"]) == {"server-process"} and (sweep["server_cpu_pct_mean"] > 0).all()
    assert (sweep["samples"] >= 1).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["schema_version"] == SCHEMA_VERSION and manifest["plan"]["records"] is None
    assert Manifest.from_dict(manifest).record_count == 2000


def test_the_docs_list_the_declared_columns():
    block = docs_page("guide/result-folder.md").split("<!-- runs-columns:", 1)[1].split("-->",
                                                                                        1)[1].split("<!-- "
                                                                                            "/runs-columns -->", 1)[0]
    assert block.strip() == run_columns_markdown()


def test_a_runs_table_with_an_undeclared_or_mistyped_column_is_refused():
    row = {c: None for c in RUN_COLUMN_NAMES} | {"run_id": "a", "threads": 8, "repetition": 1, "status": "ok"}
    assert runs_table(pd.DataFrame([row])).num_rows == 1
    with pytest.raises(SchemaError, match="undeclared column.*surprise"):
        runs_table(pd.DataFrame([row | {"surprise": 1.0}]))
    with pytest.raises(SchemaError, match="threads holds fractions"):
        runs_table(pd.DataFrame([row | {"threads": 8.5}, row | {"threads": None}]))
    assert list(conform_runs(pd.DataFrame([{"run_id": "a", "old": 1}]), strict=False).columns) == \
        [*RUN_COLUMN_NAMES, "old"]  # reading: an older folder's extra columns are kept after the declared ones


def test_a_conformed_runs_table_is_conformed_again_as_it_is_and_every_declared_type_is_still_checked():
    """conform_runs is met three times by a folder's finalize: a frame it made passes as it is (equal, a copy),
    and a frame with the declared columns but a value of another type is still made the declared one."""
    row = {c: None for c in RUN_COLUMN_NAMES} | {"run_id": "a", "threads": 8, "repetition": 1, "status": "ok",
                                                "compared": True, "throughput_ops": 10.0}
    once = conform_runs(pd.DataFrame([row, row | {"threads": None}]))
    again = conform_runs(once)
    pd.testing.assert_frame_equal(again, once)
    assert again is not once
    for column, value, made in [("threads", 8.0, 8), ("run_id", 7, "7"), ("compared", 1, True),
                                ("throughput_ops", 3, 3.0)]:
        frame = once.copy()
        frame[column] = pd.Series([value, value], dtype=object) if column != "threads" else [value, value]
        got = conform_runs(frame)[column].tolist()
        assert got == [made, made] and type(got[0]) is type(made), (column, got)
    with pytest.raises(SchemaError, match="threads holds fractions"):
        frame = once.copy()
        frame["threads"] = [8.5, None]
        conform_runs(frame)


def test_a_manifest_field_of_the_wrong_type_or_unknown_is_named():
    with pytest.raises(SchemaError, match=r"manifest\.status: 'done' is not one of running, complete"):
        Manifest.from_dict({"experiment_id": "x", "status": "done"})
    with pytest.raises(SchemaError, match=r"manifest\.skipped_targets\[0\]: unknown field\(s\) why"):
        Manifest.from_dict({"experiment_id": "x", "skipped_targets": [{"target": "a", "reason": "b", "why": "c"}]})
    with pytest.raises(SchemaError, match="manifest: unknown field"):
        Manifest.from_dict({"experiment_id": "x", "surprise": 1})
    with pytest.raises(SchemaError, match="newer than this ycsbctl reads"):
        Manifest.from_dict({"experiment_id": "x", "schema_version": SCHEMA_VERSION + 1})
    with pytest.raises(SchemaError, match=r"telemetry_summary\.samples: expected int"):
        TelemetrySummary.from_dict({"samples": "many"})


def test_a_plan_value_of_the_wrong_json_type_is_named_where_the_manifest_is_read_and_the_folder_still_reports(
        tmp_path: Path):
    """Every plan key readers compute with (PLAN_FIELDS), given a value of another JSON type, is a SchemaError naming
    it; the plan the writer itself makes (Plan.to_dict, JSON round trip) passes whole. A folder whose manifest says
    ``"alpha": "x"`` is named as damaged, once, and its report and comparison are drawn from its runs (was: a
    ValueError traceback from whichever reader met the alpha first)."""
    from click.testing import CliRunner

    from tests.fixtures.experiments import build_experiment
    from ycsbctl.cli import main
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.results.schema import PLAN_FIELDS

    written = json.loads(json.dumps(Plan(workloads=["b"], targets=["basic://", "redis"], margin=0.1).to_dict()))
    assert Manifest.from_dict({"experiment_id": "x", "plan": written}).plan == written
    assert set(PLAN_FIELDS) - {"planned_rounds", "round_s", "spending", "records", "operations", "duration_s",
                               "warmup_s", "budget_s", "precision"} <= set(written)  # the keys checked are keys written
    for key, (kind, _) in PLAN_FIELDS.items():
        wrong = 5 if kind == "text" else "x"
        with pytest.raises(SchemaError, match=rf"^manifest\.plan\.{key}: '{wrong}' is not {kind}$"):
            Manifest.from_dict({"experiment_id": "x", "plan": {**written, key: wrong}})
    from ycsbctl.results.schema import PLAN_ITEMS

    for key, kind in PLAN_ITEMS.items():  # an item of a list key of another JSON type; a thread count below 1
        for wrong in ([5] if kind == "text" else ["8", 0, True, 2.0]):
            with pytest.raises(SchemaError, match=rf"^manifest\.plan\.{key}: an item '{wrong}' is not "):
                Manifest.from_dict({"experiment_id": "x", "plan": {**written, key: [*written[key], wrong]}})
    for alpha in (0, 1, 1.5, -0.05):
        with pytest.raises(SchemaError, match="is no significance level"):
            Manifest.from_dict({"experiment_id": "x", "plan": {**written, "alpha": alpha}})
    small = {"workloads": ("workloadb",), "threads": (8,), "repetitions": 3, "failed": False, "skipped": False}
    a, b = build_experiment(tmp_path, "a", **small), build_experiment(tmp_path, "b", speedup={"redis": 0.85}, **small)
    manifest = json.loads((b / "manifest.json").read_text())
    (b / "manifest.json").write_text(json.dumps({**manifest, "plan": {**manifest["plan"], "alpha": "x"}}))
    for args in (["report", str(b)], ["compare", str(b), str(a), "-o", str(tmp_path / "c.html")]):
        r = CliRunner().invoke(main, args)
        warned = [x for x in r.stderr.splitlines() if x.startswith("warning:")]
        assert r.exit_code == 0 and warned == [
            f"warning: {b / 'manifest.json'} is damaged (SchemaError: manifest.plan.alpha: 'x' is not a number); "
            "plan and versions unknown; the runs are read from runs/*.json"], r.output
    assert (b / "report.html").exists() and (tmp_path / "c.html").exists()


def test_an_import_folder_written_before_the_schema_keeps_its_version_under_versions():
    m = Manifest.from_dict({"source": "import-ycsb", "tool": {"ycsbctl": "0.1.0"}, "plan": {"targets": ["redis"]},
                            "experiment_id": "imp", "status": "complete", "imported_logs": [{"log": "a.log"}]})
    assert m.versions == {"ycsbctl": "0.1.0"} and m.source == "import-ycsb" and m.targets == ["redis"]


# -- a folder written by the code before the schema ----------------------------------------------------
def _same(new: pd.Series, old: pd.Series) -> None:
    """Equal values; a null is a null (the old file stored an all-empty text column as float NaN)."""
    assert new.isna().tolist() == old.isna().tolist(), new.name
    assert new.dropna().tolist() == old.dropna().tolist(), new.name


@pytest.fixture
def v0(tmp_path: Path) -> Path:
    dest = tmp_path / "main-folder"
    shutil.copytree(V0, dest)
    return dest


def test_a_folder_written_before_the_schema_loads_with_every_declared_column(v0: Path):
    old = pd.read_parquet(v0 / "runs.parquet")
    assert "schema_version" not in json.loads((v0 / "manifest.json").read_text())
    exp = load(v0)
    assert exp.manifest.status == FolderStatus.PARTIAL and exp.manifest.record_count == 200
    assert exp.manifest.point_duration_s == 0.5
    (skipped,) = exp.manifest.skipped_targets
    assert skipped.target == "dragonfly" and skipped.fix.startswith("download dragonfly")
    assert list(exp.runs.columns[:len(RUN_COLUMNS)]) == list(RUN_COLUMN_NAMES)
    for col in old.columns:  # every value it had is read as it was
        _same(exp.runs[col], old[col])
    run_id = "redis.workloadb.run.t2.r1"
    result = exp.phase_result(run_id)
    doc = json.loads((v0 / "runs" / f"{run_id}.json").read_text())["result"]
    assert (result.t_start_mono, result.processes) == (doc["extra"]["t_start_mono"], doc["extra"]["processes"])
    assert result.status == RunStatus.OK and result.ops["READ"].operations == doc["ops"]["READ"]["operations"]
    tel = exp.telemetry_of(run_id)
    assert len(tel) and (tel["t_s"] > -2).all()  # aligned on the engine's start the old JSON recorded


def test_a_folder_written_before_the_schema_rebuilds_its_tables_from_the_run_jsons(v0: Path):
    old = pd.read_parquet(v0 / "runs.parquet")
    for f in v0.glob("*.parquet"):
        f.unlink()
    rebuilt = load(v0).runs
    assert list(rebuilt.columns) == list(RUN_COLUMN_NAMES)
    for col in ("run_id", "status", "operations", "throughput_ops", "read_p99_us", "server_cpu_pct_mean"):
        _same(rebuilt[col], old[col])


def test_a_folder_written_before_the_schema_renders_and_resumes_into_this_version(v0: Path):
    from ycsbctl.report.html import render_report

    page = _Figures()
    page.feed(render_report(v0).read_text(encoding="utf-8"))
    assert "200 records · 0.5 s per point" in page.subtitle
    folder = ResultFolder.reopen(v0)
    final = folder.finalize(FolderStatus.PARTIAL)
    m = json.loads((final / "manifest.json").read_text())
    assert m["schema_version"] == SCHEMA_VERSION and len(m["resumed_at"]) == 1
    assert pq.read_schema(final / "runs.parquet").names == list(RUN_COLUMN_NAMES)
    assert len(load(final).runs) == 2
