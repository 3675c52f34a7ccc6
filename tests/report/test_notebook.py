"""notebooks/explore.ipynb runs top to bottom on a result folder and draws its figures."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures.cli import ycsbctl_in
from tests.fixtures.notebook import execute_notebook as _execute
from tests.fixtures.notebook import run_as_the_docs_say


@pytest.fixture(scope="module")
def executed(synthetic_experiment_template, tmp_path_factory):
    """The notebook run once on a copy of the small experiment, as docs/guide/result-folder.md says, for the checks
    below."""
    folder = tmp_path_factory.mktemp("nb") / synthetic_experiment_template.name
    shutil.copytree(synthetic_experiment_template, folder)
    return folder, run_as_the_docs_say(folder, tmp_path_factory.mktemp("nb-out"))


def test_explore_notebook_runs_top_to_bottom_as_the_docs_say(executed):
    """`jupyter nbconvert --to … --execute notebooks/explore.ipynb` with YCSBCTL_RESULT set: what the set-up
    installs for `make demo` (the notebook extra) runs every cell, and a cell that raised fails it."""
    _, nb = executed
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2 + 2  # the study's figure per workload, then the two explorations
    text = "".join(o.get("text", "") for o in outputs)
    assert "exp-small: complete" in text
    last = nb.cells[-1].outputs[0]["data"]["text/plain"]
    assert "latency (µs) over" in last and "p99.99" in last


def test_explore_notebook_reads_the_structure_study(redis_server, tmp_path, monkeypatch):
    """A study with a sweep axis (online-status, Hash and Set, each loaded into a real Redis): the
    notebook's study section tabulates each variant's bytes per record and draws the grouped figure."""
    out = tmp_path / "study"
    p = ycsbctl_in(tmp_path, "run", "online-status", "-p", "online.structure=hash,set", "--target", redis_server.url,
                   "--load", "--records", "500", "--threads", "2", "--duration", "1", "--warmup", "0",
                   "--allow-concurrent", "--out", str(out))
    assert p.returncode in (0, 3), p.stderr[-3000:]  # 3: a point another benchmark ran beside (host-busy)
    nb = _execute(out, tmp_path, monkeypatch)
    cell = next(c for c in nb.cells if c.cell_type == "code" and "variant_study.study_rows" in c.source)
    assert not [o for o in cell.outputs if o.output_type == "error"]
    text = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
    assert "bytes per record (user)" in text and "hash" in text and "set" in text
    assert any("image/png" in o.get("data", {}) for o in cell.outputs)  # the grouped bar figure


def test_the_notebook_shows_the_reports_verdicts(executed):
    from ycsbctl.results.frames import load

    synthetic_experiment, nb = executed
    cell = next(c for c in nb.cells if c.cell_type == "code" and "exp.verdicts(LATENCY)" in c.source)
    assert not [o for o in cell.outputs if o.output_type == "error"]
    text = "".join(o.get("data", {}).get("text/plain", "") + o.get("text", "") for o in cell.outputs)
    verdicts = load(synthetic_experiment).verdicts("p99")
    if verdicts.empty:
        assert "nothing to test" in text
    else:  # the same rows as the report's first screen, verdict for verdict
        for v in set(verdicts["verdict"]):
            assert v in text
        assert text.count("throughput") >= int((verdicts["metric"] == "throughput").sum())
    assert "repetitions_for_5pct" in text  # each cell's interval and warnings


@pytest.mark.parametrize("kind", ["busy", "one", "failed"])
def test_the_notebook_runs_top_to_bottom_on_a_degraded_a_one_point_and_a_failed_folder(reader_folders, kind, tmp_path,
                                                                                        monkeypatch):
    """Every point host-busy (degraded), a single point, or one target's points all failed
    (:mod:`tests.fixtures.reader_folders`): no cell raises, the study's figure and the explorations are drawn from
    what was measured (a degraded point's own figures), and the last cell gives the peak point's latency
    distribution; where nothing was compared, the verdicts cell says why, by cause."""
    nb = _execute(reader_folders[kind], tmp_path, monkeypatch)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"], [o.get("evalue") for o in outputs]
    # the study's figure, then the two explorations
    assert len([o for o in outputs if "image/png" in o.get("data", {})]) >= 3
    assert "latency (µs) over" in nb.cells[-1].outputs[0]["data"]["text/plain"]
    text = "".join(o.get("text", "") for o in outputs)
    expected = {"busy": "degraded (host busy: other programs used CPU)", "one": "nothing to test",
                "failed": "2 failed (errors above --max-error-rate)"}[kind]
    assert expected in text
    if kind == "busy":  # the peak shown second by second is a degraded run, and says so
        assert ": degraded — other programs used" in text
