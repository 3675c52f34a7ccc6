"""ycsbctl compare: points aligned by target, workload and threads; changes judged against the noise band."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tests.fixtures.experiments import build_experiment
from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.report.compare import compare

SMALL = {"workloads": ("workloadb",), "threads": (8, 16), "repetitions": 3, "failed": False, "skipped": False}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    base = build_experiment(root, "before", **SMALL)
    after = build_experiment(root, "after", speedup={"redis": 1.5}, **SMALL)
    return base, after


def test_a_real_speedup_is_flagged_and_identical_points_are_within_noise(pair):
    c = compare(list(pair))
    t = c.table.set_index(["target", "threads"])
    assert len(t) == 4
    for threads in (8, 16):
        redis, mongo = t.loc[("redis", threads)], t.loc[("mongodb", threads)]
        assert redis["ops_change_pct"] == pytest.approx(50.0, abs=0.5)
        assert redis["ops_verdict"] == "better"
        assert redis["latency_verdict"] == "better"  # a closed loop: 1.5× the rate is 1/1.5 the latency
        assert redis["latency_change_pct"] < -25
        assert mongo["ops_change_pct"] == pytest.approx(0.0, abs=1e-9)
        assert mongo["ops_verdict"] == mongo["latency_verdict"] == "within noise"
    assert c.differences == []


def test_one_repetition_gives_no_noise_estimate(tmp_path):
    one = {**SMALL, "repetitions": 1}
    a = build_experiment(tmp_path, "a", **one)
    b = build_experiment(tmp_path, "b", speedup={"redis": 2.0}, **one)
    c = compare([a, b])
    assert set(c.table["ops_verdict"]) == {"no noise estimate"}
    assert c.table["ops_change_pct"].max() == pytest.approx(100.0, abs=1)


def test_different_environments_and_unmatched_points_are_pointed_out(tmp_path):
    a = build_experiment(tmp_path, "a", **SMALL)
    b = build_experiment(tmp_path, "b", **{**SMALL, "threads": (8, 32)})
    m = json.loads((b / "manifest.json").read_text())
    m["host"]["cores"] = 8
    m["plan"]["disturb"] = ["bigkey:hash:10MB@5"]  # a disturbed run against an undisturbed one
    m["plan"]["properties"] = ["readproportion=0.5"]
    (b / "manifest.json").write_text(json.dumps(m))
    c = compare([a, b])
    assert "b: host.cores: 2 vs 8" in c.differences
    assert "b: plan.disturb: none vs ['bigkey:hash:10MB@5']" in c.differences
    assert "b: plan.properties: none vs ['readproportion=0.5']" in c.differences
    m["plan"]["disturb"], m["plan"]["properties"] = [], []  # as a manifest without them: no difference
    (b / "manifest.json").write_text(json.dumps(m))
    assert not [d for d in compare([a, b]).differences if "disturb" in d or "properties" in d]
    assert any(d.startswith("b: plan.threads") for d in c.differences)
    assert "redis/workloadb/16 threads only in a" in c.unmatched
    assert "redis/workloadb/32 threads only in b" in c.unmatched
    assert set(c.table["threads"]) == {8}


def test_compare_command_prints_a_table_and_writes_html(pair, tmp_path):
    out = tmp_path / "cmp" / "compare.html"
    r = CliRunner().invoke(main, ["compare", *map(str, pair), "-o", str(out)], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "better" in r.output and "within noise" in r.output and f"compare: {out}" in r.output
    html = out.read_text()
    assert "Baseline: <b>before</b>" in html and html.count("<tr") >= 1 + 2 + 4
    assert "+50." in html


def test_compare_needs_two_folders(pair):
    with pytest.raises(UserError, match="at least two"):
        compare([pair[0]])
    r = CliRunner().invoke(main, ["compare", str(pair[0])])
    assert r.exit_code == 2 and "error: compare needs at least two result folders" in r.output


def test_experiments_without_a_common_point_say_so_in_one_line(pair, tmp_path):
    other = build_experiment(tmp_path, "other-workload", **{**SMALL, "workloads": ("workloada",)})
    r = CliRunner().invoke(main, ["compare", str(pair[0]), str(other), "-o", str(tmp_path / "c.html")],
                           env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "nothing to compare: no point (target × workload × threads) is in two of these experiments" in r.output
    assert "workloada" in r.output and "Δ ops/s" not in r.output  # no empty table


def test_two_repetitions_a_side_are_a_noise_estimate_and_each_row_names_its_point(tmp_path):
    two = {**SMALL, "repetitions": 2}
    a = build_experiment(tmp_path, "a", **two)
    b = build_experiment(tmp_path, "b", speedup={"redis": 2.0}, **two)
    c = compare([a, b])
    assert c.latency == "p99"  # the default latency compared
    t = c.table.set_index(["target", "threads"])
    assert set(c.table["experiment"]) == {"b"} and set(c.table["workload"]) == {"workloadb"}
    assert t.loc[("redis", 8), "ops_verdict"] == "better" and t.loc[("mongodb", 8), "ops_verdict"] == "within noise"
    assert (c.table["base_ok"] == "2/2").all()
    spread = t.loc[("redis", 8)]  # half the min–max range over the mean, in %: a number with 2 repetitions
    assert 0 < spread["base_ops_spread_pct"] < 50 and 0 < spread["ops_spread_pct"] < 50
    one = compare([build_experiment(tmp_path, "c", **{**SMALL, "repetitions": 1}), a])
    assert one.table["base_ops_spread_pct"].isna().all() and set(one.table["ops_verdict"]) == {"no noise estimate"}


def test_the_scale_skipped_targets_and_servers_of_one_side_only_are_differences(tmp_path):
    a = build_experiment(tmp_path, "a", **SMALL)
    b = build_experiment(tmp_path, "b", **{**SMALL, "skipped": True, "records": 20_000})
    m = json.loads((b / "manifest.json").read_text())
    m["servers"]["extra"] = m["servers"]["redis"]  # a server the baseline did not have: nothing to set beside it
    (b / "manifest.json").write_text(json.dumps(m))
    diffs = compare([a, b]).differences
    assert "b: plan.records: 10000 vs 20000" in diffs
    assert any(d.startswith("b: skipped targets: none vs ") for d in diffs), diffs
    assert not any("server extra" in d for d in diffs)


def test_a_failed_point_on_either_side_shows_its_status(tmp_path):
    a = build_experiment(tmp_path, "a", **{**SMALL, "failed": True})
    b = build_experiment(tmp_path, "b", **SMALL)
    t = compare([a, b]).table
    assert "ok" in set(t["status"]) and set(t["status"]) - {"ok"}, t["status"]  # the baseline's failed point
    assert set(compare([b, a]).table["status"]) == set(t["status"])  # and the other side's
