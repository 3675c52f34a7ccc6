"""ycsbctl compare: points aligned by target, workload and threads; each change a ratio with its interval (at the level
that agrees with the verdicts) and a tested verdict; one folder compares its targets; a control target takes the host's
drift out."""

from __future__ import annotations

import io
import json
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner
from rich.console import Console

from tests.fixtures.experiments import build_experiment, in_memory_experiment
from tests.fixtures.full_disk import full_disk
from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.report.compare import compare, print_table
from ycsbctl.results import host_drift
from ycsbctl.results.frames import Experiment, load

SMALL = {"workloads": ("workloadb",), "threads": (8, 16), "repetitions": 3, "failed": False, "skipped": False}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    base = build_experiment(root, "before", **SMALL)
    after = build_experiment(root, "after", speedup={"redis": 1.5}, **SMALL)
    return base, after


def test_a_real_speedup_is_flagged_and_identical_points_are_equivalent_within_the_hosts_drift(pair):
    c = compare(list(pair))
    t = c.table.set_index(["target", "threads"])
    assert len(t) == 4
    for threads in (8, 16):
        redis, mongo = t.loc[("redis", threads)], t.loc[("mongodb", threads)]
        assert redis["ops_ratio"] == pytest.approx(1.5, rel=0.01)
        assert redis["ops_ci_low"] < redis["ops_ratio"] < redis["ops_ci_high"]
        assert redis["ops_verdict"] == "better"
        assert redis["latency_verdict"] == "better"  # a closed loop: 1.5× the rate is 1/1.5 the latency
        assert redis["latency_ratio"] < 0.75
        assert mongo["ops_ratio"] == pytest.approx(1.0, abs=1e-9)
        assert mongo["ops_verdict"] == mongo["latency_verdict"] == "equivalent"
        # no target's server changed: nothing tells the change from the host's drift, and each row says so
        assert redis["caveat"].startswith("no control target")
    assert c.differences == [] and c.control is None
    assert not [n for n in c.notes if "round in some cells" in n]  # 3 rounds a side: enough
    assert len(c.verdicts) == 8 and set(c.verdicts["metric"]) == {"throughput", "p99"}


def test_one_repetition_a_side_leaves_every_cell_undecided_between_folders(tmp_path):
    one = {**SMALL, "repetitions": 1}
    a = build_experiment(tmp_path, "a", **one)
    b = build_experiment(tmp_path, "b", speedup={"redis": 2.0}, **one)
    c = compare([a, b])
    assert set(c.table["ops_verdict"]) == {"undecided"}
    assert c.table["ops_ratio"].max() == pytest.approx(2.0, rel=0.02)
    # every undecided cell still carries its interval (the host's drift margin around the ratio: no record in the
    # test session, so the default ±10 %) and the size it could have detected, and says why it is held
    margin = host_drift.read().of("throughput")
    assert (c.table["ops_ci_low"] * (1 + margin)).tolist() == pytest.approx(c.table["ops_ratio"].tolist())
    assert (c.table["ops_ci_high"] / (1 + margin)).tolist() == pytest.approx(c.table["ops_ratio"].tolist())
    assert c.table["ops_detectable_pct"].tolist() == pytest.approx([100 * ((1 + margin) ** 2 - 1)] * len(c.table))
    assert c.verdicts["decided_by"].str.contains("one round a side and no record of this host's drift").all()
    # and the notes say why, once a folder: one round a side, read against what, and what narrows it
    few = [n for n in c.notes if "round in some cells" in n]
    assert [n.split(" has ")[0] for n in few] == ["a", "b"]
    assert all("its interval says what that supports" in n and "--repeat 5" in n for n in few)


def test_a_control_target_takes_the_hosts_drift_out(tmp_path):
    """The host ran 15 % slower the second time for both targets: without a control both read worse (beyond
    the default ±10 % margin of the host's drift); with redis as the control, mongodb reads equivalent and redis's rows
    are the drift."""
    a = build_experiment(tmp_path, "a", **SMALL)
    b = build_experiment(tmp_path, "b", speedup={"redis": 0.85, "mongodb": 0.85}, **SMALL)
    plain = compare([a, b])
    assert set(plain.table["ops_verdict"]) == {"worse"}
    r = CliRunner().invoke(main, ["compare", str(a), str(b), "-o", str(tmp_path / "c.html")], env={"COLUMNS": "250"})
    # no control: a 15 % drift is beyond the default ±10 % margin of the host's drift, and the note says so
    assert r.exit_code == 0 and "worse" in r.output and "only beyond the host's drift" in r.output, r.output
    assert "compared with a: ratio" in r.output  # the baseline is the first folder given, not the last
    assert (
        "wholly beyond the host's drift between experiments (throughput ±10.0 %)" in (tmp_path / "c.html").read_text()
    )
    c = compare([a, b], control="redis")
    assert c.control == "redis"
    t = c.table.set_index(["target", "threads"])
    for threads in (8, 16):
        assert t.loc[("mongodb", threads), "ops_verdict"] == "equivalent"
        assert t.loc[("mongodb", threads), "ops_ratio"] == pytest.approx(1.0, abs=0.01)
        assert t.loc[("redis", threads), "ops_verdict"] == "host drift"
        assert t.loc[("redis", threads), "ops_ratio"] == pytest.approx(0.85, rel=0.01)
    with pytest.raises(UserError, match="--control dragonfly: not a target of both"):
        compare([a, b], control="dragonfly")


def _ordered(root, name: str, order: str, renumber: dict[int, int] | None = None, **kwargs):
    """A folder of ``SMALL``'s plan run in ``order`` (the manifest's run_order: ``interleaved`` pairs its targets by
    round, ``target`` runs them one after another); ``renumber``: redis's rounds given other numbers."""
    from dataclasses import replace

    from tests.fixtures.experiments import build_runs
    from ycsbctl.results.folder import ResultFolder, RunRecord

    manifest, runs = build_runs(**SMALL, **kwargs)
    folder = ResultFolder.create(root, name, replace(manifest, experiment_id=name,
                                                     plan={**manifest.plan, "run_order": order}))
    for r in runs:
        if renumber and r.target == "redis" and r.phase == "run":
            rep = renumber[r.repetition]
            r = replace(r, repetition=rep, run_id=RunRecord.make_id(r.target, r.workload, r.phase, r.threads, rep))
        folder.add_run(r)
    return folder.finalize("complete")


def test_a_control_in_a_folder_whose_rounds_did_not_pair_the_targets_is_divided_out_by_its_geometric_mean(tmp_path):
    """A (interleaved) against B (run target by target: round r of redis and round r of mongodb were not measured
    together), redis the control: pairing by round needs both folders' rounds to pair the targets, so each mongodb
    value is divided by its folder's control's geometric mean. The row is then, by hand from runs.parquet, scipy's
    Welch t of mongodb's log throughputs in the two folders (at the row's level) moved by the log ratio of redis's
    geometric means; and B's control rounds renumbered (a numbering that means nothing there) change nothing."""
    import math

    import numpy as np
    from scipy import stats as sps

    a = _ordered(tmp_path, "a", "interleaved")
    b = _ordered(tmp_path, "b", "target", seed=2, speedup={"mongodb": 0.9})
    b2 = _ordered(tmp_path, "b2", "target", renumber={0: 1, 1: 2, 2: 0}, seed=2, speedup={"mongodb": 0.9})
    assert load(a).interleaved and not load(b).interleaved

    def logs(folder, target: str, threads: int) -> np.ndarray:
        r = pd.read_parquet(folder / "runs.parquet")
        return np.log(r[(r["target"] == target) & (r["threads"] == threads) & (r["phase"] == "run")]
                      ["throughput_ops"].to_numpy(float))

    rows = []
    for other in (b, b2):
        c = compare([a, other], control="redis")
        t = c.table.set_index(["target", "threads"])
        v = c.verdicts
        rows.append(t.loc["mongodb", ["ops_ratio", "ops_ci_low", "ops_ci_high", "ops_verdict"]])
        for threads in (8, 16):
            row = v[(v["target"] == "mongodb") & (v["threads"] == threads) & (v["metric"] == "throughput")].iloc[0]
            ma, mb = logs(a, "mongodb", threads), logs(other, "mongodb", threads)
            shift = logs(a, "redis", threads).mean() - logs(other, "redis", threads).mean()
            ci = sps.ttest_ind(mb, ma, equal_var=False).confidence_interval(row["ci_level"])
            assert row["ratio"] == pytest.approx(math.exp(mb.mean() - ma.mean() + shift), rel=1e-9)
            assert (row["ci_low"], row["ci_high"]) == pytest.approx((math.exp(ci.low + shift),
                                                                     math.exp(ci.high + shift)), rel=1e-9)
            assert t.loc[("mongodb", threads), "ops_ci_low"] == pytest.approx(row["ci_low"], rel=1e-12)
            assert row["verdict"] == "worse"  # 10 % slower in B, the host's drift taken out by the control
    pd.testing.assert_frame_equal(rows[0], rows[1])


def test_compare_json_is_one_object_per_cell_and_metric(pair):
    r = CliRunner().invoke(main, ["compare", *map(str, pair), "--format", "json"])
    assert r.exit_code == 0, r.output
    cells = json.loads(r.stdout)
    assert len(cells) == 8
    for cell in cells:
        assert {"workload", "target", "threads", "metric", "baseline", "ratio", "ci_low", "ci_high", "p_value",
                "verdict"} <= set(cell)
    redis = next(x for x in cells if x["target"] == "redis" and x["metric"] == "throughput" and x["threads"] == 8)
    assert redis["verdict"] == "better" and redis["ci_low"] < redis["ratio"] < redis["ci_high"]
    assert redis["experiment"] == "after" and redis["p_value"] < 0.05


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
    assert "better" in r.output and "equivalent" in r.output and "host drift ±10.0 %" in r.output, r.output
    assert f"compare: {out}" in r.output
    html = out.read_text()
    assert "Baseline: <b>before</b>" in html and html.count("<tr") >= 1 + 2 + 4
    assert "1.50× [" in html


def test_a_squeezed_table_keeps_a_header_of_up_to_ten_characters_on_one_line(pair):
    """On a terminal too narrow for the whole table (120 columns) each column keeps the width of its header up to
    ten characters: "base ops/s" (ten) stays one line, above its figures, rather than wrapping to "base" and
    "ops/s"."""
    out = io.StringIO()
    print_table(compare(list(pair)), Console(file=out, width=120, color_system=None))
    assert "┃ base ops/s ┃" in out.getvalue(), out.getvalue()


def test_one_folder_compares_its_targets_with_its_baseline(pair, tmp_path):
    c = compare([pair[0]])
    assert c.within and set(c.table["target"]) == {"mongodb"} and set(c.table["threads"]) == {8, 16}
    ratio = c.table.set_index("threads")["ops_ratio"]
    pts = load(pair[0]).points().set_index(["target", "threads"])
    for threads in (8, 16):  # the ratio of the geometric means: within the repetitions' small noise of the means'
        assert ratio[threads] == pytest.approx(pts.loc[("mongodb", threads), "throughput_mean"]
                                               / pts.loc[("redis", threads), "throughput_mean"], rel=0.01)
    assert set(c.table["ops_verdict"]) == {"worse"}  # mongodb is far slower than redis
    runs = load(pair[0]).runs
    runs = runs[(runs["phase"] == "run") & (runs["status"] == "ok")]

    def gmean(target: str, threads: int, column: str) -> float:
        from scipy.stats import gmean as scipys

        return float(scipys(runs[(runs["target"] == target) & (runs["threads"] == threads)][column]))

    for threads, r in c.table.set_index("threads").iterrows():
        # a row's figures are what its ratio is made of: each side's geometric mean over its compared rounds
        assert (r["base_ops"], r["ops"]) == pytest.approx((gmean("redis", threads, "throughput_ops"),
                                                           gmean("mongodb", threads, "throughput_ops")))
        assert r["ops_ratio"] == pytest.approx(r["ops"] / r["base_ops"])
        assert (r["base_latency_us"], r["latency_us"]) == pytest.approx((gmean("redis", threads, "all_p99_us"),
                                                                         gmean("mongodb", threads, "all_p99_us")))
    with pytest.raises(UserError, match="--control separates"):
        compare([pair[0]], control="redis")
    r = CliRunner().invoke(main, ["compare", str(pair[0]), "-o", str(tmp_path / "one.html")], env={"COLUMNS": "250"})
    assert r.exit_code == 0 and "compared with redis" in r.output, r.output


def test_experiments_without_a_common_point_say_so_in_one_line(pair, tmp_path):
    """Was the line among others, exit 0 and a compare.html of no cell (fault43g): one line, exit 2 (the folders
    given cannot be compared; nothing failed), no report written, in either format."""
    other = build_experiment(tmp_path, "other-workload", **{**SMALL, "workloads": ("workloada",)})
    for fmt in ("text", "json"):
        page = ["-o", str(tmp_path / "c.html")] if fmt == "text" else []  # json writes no page: -o is refused
        r = CliRunner().invoke(main, ["compare", str(pair[0]), str(other), *page, "--format", fmt],
                               env={"COLUMNS": "200"})
        assert r.exit_code == 2, r.output
        assert r.output == ("error: compare: nothing to compare: no point (target × workload × threads) is in two of "
                            "these experiments (workloads: workloada, workloadb): give folders that measured the same "
                            "target, workload and threads\n"), r.output
        assert not (tmp_path / "c.html").exists()


def test_two_repetitions_a_side_are_enough_for_a_verdict_and_each_row_names_its_point(tmp_path):
    two = {**SMALL, "repetitions": 2}
    a = build_experiment(tmp_path, "a", **two)
    b = build_experiment(tmp_path, "b", speedup={"redis": 2.0}, **two)
    c = compare([a, b])
    assert c.latency == "p99"  # the default latency compared
    t = c.table.set_index(["target", "threads"])
    assert set(c.table["experiment"]) == {"b"} and set(c.table["workload"]) == {"workloadb"}
    assert t.loc[("redis", 8), "ops_verdict"] == "better" and t.loc[("mongodb", 8), "ops_verdict"] == "equivalent"
    assert (c.table["base_ok"] == "2/2").all()
    one = compare([build_experiment(tmp_path, "c", **{**SMALL, "repetitions": 1}), a])
    assert one.table["ops_ci_low"].notna().all() and set(one.table["ops_verdict"]) == {"undecided"}


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


def test_skipped_targets_that_differ_are_listed_on_either_side_and_none_is_said():
    """Skipped targets named on the side that skipped them, 'none' on the side that skipped nothing, either way."""
    from ycsbctl.report.folder_differences import differences

    def exp(skipped: list[str]) -> Experiment:
        return in_memory_experiment({"skipped_targets": [{"target": t, "reason": "no binary"} for t in skipped]})

    assert differences(exp(["dragonfly", "keydb"]), exp([])) == ["skipped targets: dragonfly, keydb vs none"]
    assert differences(exp([]), exp(["keydb"])) == ["skipped targets: none vs keydb"]
    assert differences(exp(["keydb"]), exp(["keydb"])) == []


def test_a_placement_that_differs_is_a_difference_and_a_folder_without_one_is_not():
    """Pinned against floating moves a point (docs/benchmarks.md): the resolved placements' words, both sides, when
    their mode or CPU sets differ; a manifest written before ycsbctl recorded the placement is no difference."""
    from ycsbctl.experiment.placement import resolve_placement
    from ycsbctl.report.folder_differences import differences

    def exp(placed: dict | None) -> Experiment:
        return in_memory_experiment({"plan": {} if placed is None else {"placement_resolved": placed}})

    split = resolve_placement("auto", [], None, "native", False, [0, 1], alternates=True).to_dict()
    off = resolve_placement("auto", [], None, "native", False, [0, 1]).to_dict()
    assert differences(exp(split), exp(off)) == [f"placement: {split['text']} vs {off['text']}"]
    assert split["text"].startswith("servers on CPU 0, client on CPU 1 (") and off["text"].startswith("servers and")
    other_cpus = resolve_placement("split", [], [1], "native", False, [0, 1]).to_dict()
    assert differences(exp(split), exp(other_cpus)) == [f"placement: {split['text']} vs {other_cpus['text']}"]
    assert differences(exp(split), exp(dict(split, why="another why", text="other words"))) == []  # same CPUs
    assert differences(exp(split), exp(None)) == differences(exp(None), exp(off)) == []


def test_the_control_is_the_first_unchanged_common_target_in_plan_order():
    """redis and keydb unchanged, valkey upgraded: the control is redis, the first of the plan's unchanged ones; with
    nothing changed there is none (no drift to tell apart)."""
    import pandas as pd

    from ycsbctl.report.compare import control_target

    def exp(valkey: str) -> Experiment:
        servers = {t: {"server_name": t, "server_version": v, "kind": t, "settings": {}}
                   for t, v in (("redis", "7.2"), ("keydb", "6.3"), ("valkey", valkey))}
        return in_memory_experiment({"plan": {"targets": ["redis", "keydb", "valkey"]}, "servers": servers},
                                    pd.DataFrame({"target": ["valkey", "keydb", "redis"]}))

    assert control_target(exp("7.2"), exp("8.0")) == "redis"
    assert control_target(exp("7.2"), exp("7.2")) is None
    # a --control that is no target of both is refused naming the targets they have in common (plan order)
    with pytest.raises(UserError) as refused:
        control_target(exp("7.2"), exp("8.0"), "dragonfly")
    assert str(refused.value) == "--control dragonfly: not a target of both experiments (common: redis, keydb, valkey)"



def test_nothing_to_compare_names_the_workloads_of_the_points_only_one_side_has():
    """Two folders without a common point: the refusal names the workloads of the points only one of them has
    (the second field of target/workload/threads), each once, sorted; one folder says what it lacks."""
    from pathlib import Path

    import pandas as pd

    from ycsbctl.report.compare import Comparison, nothing_to_compare
    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    exps = [Experiment(Path(n), Manifest.from_dict({"experiment_id": n}), pd.DataFrame([{"target": "redis"}]),
                       pd.DataFrame(), pd.DataFrame(), pd.DataFrame()) for n in ("a", "b")]
    unmatched = ["redis/workloadb/8 threads only in a", "redis/workloada/16 threads only in b",
                 "mongodb/workloadb/8 threads only in b"]
    told = nothing_to_compare(Comparison(exps, "p99", pd.DataFrame(), unmatched=unmatched))
    assert told is not None and told.exit_code == 2
    assert told.message == ("compare: nothing to compare: no point (target × workload × threads) is in two of these "
                            "experiments (workloads: workloada, workloadb)")
    alone = nothing_to_compare(Comparison(exps[:1], "p99", pd.DataFrame()))
    assert alone is not None and alone.message == "compare: nothing to compare: no target besides the baseline"
    assert nothing_to_compare(Comparison(exps, "p99", pd.DataFrame([{"target": "redis"}]))) is None
    # a folder that lost every run (runs/ and runs.parquet gone) is named: "no point in two" alone hid why
    empty = Experiment(Path("gone"), Manifest.from_dict({"experiment_id": "gone"}), pd.DataFrame(), pd.DataFrame(),
                       pd.DataFrame(), pd.DataFrame())
    lost = nothing_to_compare(Comparison([exps[0], empty], "p99", pd.DataFrame()))
    assert lost is not None and lost.message == ("compare: nothing to compare: no point (target × workload × threads) "
                                                 "is in two of these experiments; gone holds no run at all")


def test_a_folder_compared_with_itself_is_refused_in_one_line(tmp_path):
    """Was a table of 'not compared' cells and exit 0 (fault43f); with --calibrate it would record a drift of 0."""
    one = tmp_path / "one"
    one.mkdir()
    for twice in ([str(one), str(one)], [str(one), f"{one}/", str(tmp_path / ".." / tmp_path.name / "one")]):
        r = CliRunner().invoke(main, ["compare", *twice, "--calibrate"])
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert r.output.startswith("error: compare: ") and r.output.endswith(
            "one is given twice: give different result folders (or one folder alone, to compare its targets with its "
            "first)\n"), r.output
    assert list(one.iterdir()) == []


def test_a_copy_of_a_folder_compared_with_it_is_refused_and_calibrates_nothing(pair, tmp_path, monkeypatch):
    """A copy passed the 'given twice' check (another path): every cell was compared with itself, and --calibrate
    recorded a host drift of 0.0 % that made every later comparison without a control test against ±0 %."""
    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path / "cache"))
    copy = shutil.copytree(pair[0], tmp_path / "copy")
    r = CliRunner().invoke(main, ["compare", str(pair[0]), str(copy), "--calibrate"])
    started = json.loads((copy / "manifest.json").read_text())["started_at"]
    assert r.exit_code == 2 and r.output == (f"error: compare: {pair[0]} and {copy} hold the same experiment (before, "
                                             f"started {started}): a copy, not another run: give result folders of "
                                             "different runs\n"), r.output
    assert started and not (tmp_path / "cache").exists()


def test_the_first_folders_alpha_sets_the_verdicts_of_every_folder(pair, tmp_path):
    """Folders planned at different α: the first (the baseline, what the table says it compares with) sets the
    level of every verdict; the last one's would give narrower intervals."""
    folders = []
    for name, src, alpha in (("first", pair[0], 0.01), ("last", pair[1], 0.2)):
        dest = shutil.copytree(src, tmp_path / name)
        manifest = json.loads((dest / "manifest.json").read_text())
        manifest["plan"]["alpha"] = alpha
        (dest / "manifest.json").write_text(json.dumps(manifest))
        folders.append(dest)
    c = compare(folders)
    assert c.alpha == 0.01
    # Benjamini–Hochberg's intervals of a family tested at α are at 1 − α or wider (0.975 and 0.9 at the last's
    # 0.2); an equivalent cell's, the two one-sided tests' at α each, at 1 − 2α (0.6 at the last's)
    v = c.verdicts
    equivalent = v["verdict"] == "equivalent"
    assert v[~equivalent]["ci_level"].min() >= 1 - 0.01
    assert list(v[equivalent]["ci_level"]) == pytest.approx([1 - 2 * 0.01] * int(equivalent.sum()))


def test_a_cell_whose_baseline_point_was_not_ok_is_not_compared_though_its_peak_row_names_its_threads():
    """b peaks at 8 threads, where a's points were all degraded (a peaks at 16): the verdicts hold b's peak row at 8
    threads (against a at 16) and no cell row at 8; the 8-thread line of compare is "not compared", not the peak
    row's ratio."""
    import math

    import pandas as pd

    from ycsbctl.report.compare import _pick
    from ycsbctl.results import verdicts as vd

    rows = [{"run_id": f"{t}.{n}.{r}", "target": t, "workload": "w", "phase": "run", "threads": n, "repetition": r,
             "target_rate": math.nan, "status": "degraded" if (t, n) == ("a", 8) else "ok",
             "throughput_ops": tp * (1 + r / 100), "all_p99_us": 500.0}
            for (t, n), tp in {("a", 8): 900.0, ("a", 16): 1_000.0, ("b", 8): 2_000.0, ("b", 16): 1_500.0}.items()
            for r in (1, 2, 3)]
    v = vd.target_verdicts(pd.DataFrame(rows), "a")
    peak = v[v["at_peak"] & (v["metric"] == "throughput")]
    assert list(peak["threads"]) == [8] and "a at 16 threads" in peak["caveat"].iloc[0]
    assert _pick(v, "b", "w", 8, "throughput") == {}
    assert _pick(v, "b", "w", 16, "throughput")["ratio"] == pytest.approx(1.5)


def test_a_server_held_by_its_cpu_quota_in_one_folder_only_changed_and_the_unheld_one_is_the_control(tmp_path):
    """The host ran 2x faster the second time, and mongodb's server was held by a CPU quota set outside ycsbctl
    (no manifest names it; its points' cpu.stat does): read plainly mongodb is 1.4x better, but it is the
    changed server, so redis (held in neither) becomes the control and mongodb reads worse, 0.7x."""
    import pandas as pd

    a = build_experiment(tmp_path, "a", **SMALL)
    b = build_experiment(tmp_path, "b", speedup={"redis": 2.0, "mongodb": 1.4}, **SMALL)
    assert compare([a, b]).control is None  # nothing tells the change from the host: no control
    runs = pd.read_parquet(b / "runs.parquet")
    runs["server_throttled_pct"] = [100.0 if t == "mongodb" else float("nan") for t in runs["target"]]
    runs.to_parquet(b / "runs.parquet", index=False)
    c = compare([a, b])
    assert c.control == "redis"
    assert c.differences == ["b: server mongodb: held by its CPU quota in 0 % vs 100 % of periods (cpu.stat)"]
    t = c.table.set_index(["target", "threads"])
    for threads in (8, 16):
        assert t.loc[("mongodb", threads), "ops_verdict"] == "worse"
        assert t.loc[("mongodb", threads), "ops_ratio"] == pytest.approx(0.7, rel=0.01)
        assert t.loc[("redis", threads), "ops_verdict"] == "host drift"
    # the held server cannot be named the control: it changed
    with pytest.raises(UserError, match="--control mongodb: held by its CPU quota in 0 % vs 100 % of periods"):
        compare([a, b], control="mongodb")
    # held a little (under HELD_PCT of periods) in one folder is no change
    runs["server_throttled_pct"] = [5.0 if t == "mongodb" else float("nan") for t in runs["target"]]
    runs.to_parquet(b / "runs.parquet", index=False)
    assert compare([a, b]).control is None


def test_compare_onto_a_full_disk_is_one_line_and_leaves_no_temporary_file(pair, tmp_path):
    """``compare -o`` onto a tmpfs with room for no page (its check that the path is writable passes: the folder
    is): one line, exit 1, and the folder as it was, as os.listdir reads it (was: a traceback and a .tmp left)."""
    import os

    with full_disk(tmp_path / "disk") as disk:
        page = disk / "cmp" / "compare.html"
        r = CliRunner().invoke(main, ["compare", str(pair[0]), str(pair[1]), "-o", str(page)])
        assert r.exit_code == 1, r.output
        assert r.stderr.splitlines()[-1] == f"error: cannot write the comparison page {page}: No space left on device"
        assert "Traceback" not in r.output and os.listdir(disk) == ["filler"]


def test_compare_json_gives_each_not_compared_cell_its_own_metrics_figures(tmp_path):
    """A cell left uncompared (every round of the baseline's point failed): its throughput object holds the mean
    throughput of each side's ok rounds, its latency object the mean p99 of the same rounds (none on the baseline's
    side: null), each read from the folders' runs.parquet with pandas (was open to a latency object carrying the
    throughput's figures: no test read them)."""
    import pandas as pd

    a = build_experiment(tmp_path, "a", **SMALL)
    b = build_experiment(tmp_path, "b", **SMALL)
    runs = pd.read_parquet(a / "runs.parquet")
    cell = (runs["target"] == "redis") & (runs["threads"] == 8) & (runs["phase"] == "run")
    runs.loc[cell, "status"] = "failed"
    runs.to_parquet(a / "runs.parquet", index=False)
    r = CliRunner().invoke(main, ["compare", str(a), str(b), "--format", "json"])
    assert r.exit_code == 0, r.output
    left = [c for c in json.loads(r.stdout) if not c["compared"]]
    assert {(c["target"], c["threads"], c["metric"]) for c in left} == {("redis", 8, "throughput"), ("redis", 8, "p99")}

    def mean(folder, c, column: str) -> float:
        runs = pd.read_parquet(folder / "runs.parquet")
        ok = runs[(runs["target"] == c["target"]) & (runs["workload"] == c["workload"])
                  & (runs["threads"] == c["threads"]) & (runs["phase"] == "run") & (runs["status"] == "ok")]
        return float(ok[column].mean())

    for c in left:
        column = "throughput_ops" if c["metric"] == "throughput" else "all_p99_us"
        assert c["value"] == pytest.approx(mean(b, c, column)), c
        base = mean(a, c, column)
        assert c["base_value"] == pytest.approx(base) if base == base else c["base_value"] is None, c
