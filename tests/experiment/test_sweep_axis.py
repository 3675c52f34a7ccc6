"""A property given several values is a sweep axis (``-p online.structure=hash,set,zset``): each value is
a variant of the workload, swept like targets, each loading its own dataset, and the report compares
them. On real servers: Debian's Redis 7 and Valkey 9.1 (the ``[peers]`` extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.cli import ycsbctl_in
from tests.fixtures.servers import ROOT
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import expand_axes, resolve_study, workload_name
from ycsbctl.provision import catalog
from ycsbctl.report.variant_study import study_rows
from ycsbctl.results import load
from ycsbctl.workload.properties import PropertySources

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)

STRUCTURES = ("hash", "set", "zset")
TARGETS = ("redis", "valkey")


def test_each_combination_of_the_axes_values_is_a_variant_with_its_own_name_and_properties() -> None:
    props = ["-p", "online.structure=hash,set,zset", "-p", "online.batchsize=10,100", "-p", "online.key=a,b"]
    overrides = props[1::2]
    variants = expand_axes(["online-status", "workload-b"], PropertySources.read(["online-status", "workload-b"],
                                                                                 [], overrides))
    assert [workload_name(v) for v in variants] == [
        f"online-status-{s}-{b}" for s in STRUCTURES for b in (10, 100)] + ["workloadb"]
    plan = Plan(workloads=variants, targets=["redis"], properties=overrides)  # resolved only: nothing starts
    study = resolve_study(plan)
    assert [c.name for c in study.cases] == [workload_name(v) for v in variants]
    p = study.cases[3].properties  # set, 100: the variant's values win over the -p lists
    assert (p["online.structure"], p["online.batchsize"]) == ("set", "100")
    assert p["online.key"] == "a,b"  # not an axis of the workload: one value, as given


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for kind in TARGETS:
        if catalog.find_server(catalog.get_target(kind))[0] is None:
            pytest.skip(f"no {kind} server: {catalog.get_target(kind).install_hint}")
    tmp = tmp_path_factory.mktemp("study")
    out = tmp / "study"
    # --allow-concurrent: this host is shared; a point another benchmark ran beside is kept, labelled host-busy
    p = ycsbctl_in(tmp, "run", "online-status", "-p", "online.structure=hash,set,zset", "--targets", ",".join(TARGETS),
                   "--records", "3000", "--threads", "2", "--duration", "0.5", "--warmup", "0", "--backend", "local",
                   "--allow-concurrent", "--out", str(out), timeout=600)
    assert p.returncode in (0, 1, 3), p.stderr[-3000:]
    (tmp / "stderr.txt").write_text(p.stderr)  # the console's closing lines, for the headline's test
    return out


def test_a_property_with_several_values_makes_one_series_per_value_on_each_target(study: Path) -> None:
    exp = load(study)
    runs = exp.runs
    want = {(f"online-status-{s}", t) for s in STRUCTURES for t in TARGETS}
    for phase in ("load", "run"):
        got = runs[runs["phase"] == phase]
        assert set(zip(got["workload"], got["target"])) == want, phase
        assert set(got["status"]) <= {"ok", "degraded"}, got[["run_id", "status", "error"]]
    ops = exp.ops[exp.ops["phase"] == "run"]
    assert {"STORE", "BATCH-STORE", "COUNT"} <= set(ops["op"])
    fps = exp.manifest.workload_footprints  # each variant loaded its own users
    assert {(w, t) for w, per in fps.items() for t in per} == want
    assert all(f["records"] == 3000 and f["bytes_per_record"] > 0 for per in fps.values() for f in per.values())


def test_the_report_compares_the_values_across_targets_in_a_table_and_a_grouped_figure(study: Path) -> None:
    exp = load(study)
    rows = study_rows(exp)
    assert [(r["variant"], r["target"]) for r in rows] == [(s, t) for s in STRUCTURES for t in TARGETS]
    for r in rows:  # the table's figures are the runs' and the loads' own
        run = exp.runs[(exp.runs["workload"] == r["name"]) & (exp.runs["target"] == r["target"])
                       & (exp.runs["phase"] == "run")].iloc[0]
        assert r["throughput"] == pytest.approx(run["throughput_ops"]) and r["p99"] == pytest.approx(run["all_p99_us"])
        assert r["bytes_per_record"] == exp.manifest.workload_footprints[r["name"]][r["target"]]["bytes_per_record"]
    html = (study / "report.html").read_text(encoding="utf-8")
    assert "Variants of the sweep axis" in html and (study / "plots" / "variants.png").stat().st_size > 10_000


def test_the_headline_names_each_targets_smallest_and_fastest_structure_in_users(study: Path) -> None:
    """The report's first screen and the console's closing lines give bytes per user and users per second
    per structure and target; recomputed here from series.parquet (per-second STORE and BATCH-STORE
    counts, the batch size read from the workload file) and from the footprint's used_memory before and
    after the load, not from the figures the headline was made from."""
    import pandas as pd

    from ycsbctl.report.study_headlines import TIE, study_headlines
    from ycsbctl.report.summary import findings

    batch = next(int(line.split("=")[1]) for line in (ROOT / "workloads" / "online-status").read_text().splitlines()
                 if line.startswith("online.batchsize="))
    series, runs = pd.read_parquet(study / "series.parquet"), pd.read_parquet(study / "runs.parquet")
    exp = load(study)
    heads = study_headlines(exp, exp.verdicts())
    html = (study / "report.html").read_text(encoding="utf-8")
    stderr = " ".join((study.parent / "stderr.txt").read_text().split())
    for target in TARGETS:
        users_s, per_user = {}, {}
        for s in STRUCTURES:
            run = runs[
                (runs["workload"] == f"online-status-{s}") & (runs["target"] == target) & (runs["phase"] == "run")
            ]
            x = series[(series["run_id"] == run["run_id"].iloc[0]) & ~series["warmup"]]
            stored = x.loc[x["op"] == "STORE", "operations"].sum() + batch * x.loc[x["op"] == "BATCH-STORE",
                                                                                   "operations"].sum()
            users_s[s] = stored / (run["runtime_ms"].iloc[0] / 1000)
            fp = exp.manifest.workload_footprints[f"online-status-{s}"][target]
            per_user[s] = (fp["db_memory_after_bytes"] - fp["db_memory_before_bytes"]) / fp["records"]
        line = next(h for h in heads if h.startswith(f"online-status on {target}: "))
        for s in STRUCTURES:
            assert f"{s} {per_user[s]:,.0f} B/user, {users_s[s]:,.0f} users/s" in line, line
        smallest, fastest = min(per_user, key=per_user.__getitem__), max(users_s, key=users_s.__getitem__)
        assert f"smallest {smallest}" in line and f"fastest {fastest}" in line, line
        for s in STRUCTURES:  # a structure within TIE of the best is named beside it, and only such
            named = line.split("smallest ")[1].split(";")[0].replace("(", " ").replace(",", " ").split()
            assert (s in named) == (per_user[s] <= (1 + TIE) * per_user[smallest]), line
        answer = html.index('id="answer"')
        assert answer < html.index(line[:50].replace("'", "&#39;"), answer) < html.index('id="findings"')
        assert " ".join(line.split()) in stderr  # the console's closing lines say it too
        findings_text = " ".join(findings(exp, exp.points()))
        for s in STRUCTURES:  # each point's console line and its peak sentence give users beside commands
            assert f"ops/s ({users_s[s]:,.0f} users/s), p99 " in stderr
            assert f"storing {users_s[s]:,.0f} users/s at 2 threads" in findings_text
    assert "No footprint measured" not in html and "users / s" in html
