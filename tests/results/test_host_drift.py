"""Comparisons of folders without a control target: a minimum-effect test against the host's drift
(results/host_drift.py, stats.beyond_margin), checked against scipy's own t test on fixed data; the
calibration record `compare --calibrate` and `bench verdicts` write, and what the docs say of it
(docs/studies/comparison.md)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from tests.fixtures.docs import docs_page
from tests.fixtures.full_disk import full_disk
from tests.fixtures.verdict_runs import runs_table
from ycsbctl.errors import UserError
from ycsbctl.results import folder_verdicts as fv
from ycsbctl.results import host_drift, stats
from ycsbctl.results import verdicts as vd

BASE = [10_000.0, 10_150.0, 9_900.0, 10_050.0, 9_950.0]  # ~1 % between rounds
NOISE = (1.005, 0.99, 1.01, 0.995, 1.0)


def _after(gap: float) -> list[float]:
    return [v * (1 - gap) * f for v, f in zip(BASE, NOISE)]


def _cell(gap: float, margins: host_drift.Margins) -> dict:
    before, after = runs_table({("a", 8): BASE}), runs_table({("a", 8): _after(gap)})
    v = fv.folder_verdicts(before, after, None, "after", margins=margins)
    return v[v["metric"] == "throughput"].iloc[0].to_dict()


def test_a_6pct_gap_is_called_by_the_plain_test_but_not_beyond_a_10pct_drift_and_30pct_still_is():
    none = host_drift.Margins({"throughput": 0.0, "p99": 0.0}, "none")
    default = host_drift.Margins({}, "default")
    assert _cell(0.06, none)["verdict"] == "worse"  # the plain Welch test: a 6 % gap in ~1 % noise
    six = _cell(0.06, default)
    # its interval lies inside the host's drift either way: no larger than what the host does by itself
    assert six["verdict"] == "equivalent" and six["drift_margin_pct"] == pytest.approx(100 * host_drift.DEFAULT_MARGIN)
    assert vd.verdict_text(six).endswith("equivalent (host drift ±10.0 %)")
    thirty = _cell(0.30, default)
    assert thirty["verdict"] == "worse" and thirty["ci_high"] < 1 / 1.1  # its interval wholly beyond the margin
    # the p value is scipy's Welch t on the logs, moved to the margin: 2 · t.sf((|mean log ratio| - log 1.1) / se)
    for gap, cell in ((0.06, six), (0.30, thirty)):
        a, b = np.log(BASE), np.log(_after(gap))
        t = sps.ttest_ind(b, a, equal_var=False)
        se = (b.mean() - a.mean()) / t.statistic
        want = min(1.0, 2 * sps.t.sf((abs(b.mean() - a.mean()) - math.log(1.1)) / se, t.df))
        assert cell["p_value"] == pytest.approx(want, rel=1e-9)


def test_called_exactly_where_the_family_interval_lies_beyond_the_margin():
    """BH at alpha calls a cell exactly when its interval at the family's level clears the margin."""
    rng = np.random.default_rng(7)
    comps = [stats.beyond_margin(stats.compare(list(rng.normal(0, 0.03, 5) + 9),
                                               list(rng.normal(g, 0.03, 5) + 9)), 0.10)
             for g in np.linspace(-0.25, 0.25, 21)]
    for c in stats.decide(comps, [True] * len(comps)):
        beyond = c.high < 1 / 1.1 or c.low > 1.1
        assert (c.verdict in (stats.BETTER, stats.WORSE)) == beyond, c


def test_the_record_keeps_the_largest_drift_per_metric_and_a_broken_one_reads_as_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path))
    assert host_drift.read().of("throughput") == host_drift.DEFAULT_MARGIN and "default" in host_drift.read().source
    path = host_drift.record([("throughput", 1.05), ("throughput", 1 / 1.08), ("p99", 1.3)], "test")
    assert path == tmp_path / "host_drift.json"
    m = host_drift.read()
    assert m.of("throughput") == pytest.approx(0.08, abs=1e-6) and m.of("p99") == pytest.approx(0.3, abs=1e-6)
    assert m.of("p50") == host_drift.DEFAULT_MARGIN and "2 A/A cells" in m.source
    host_drift.record([("throughput", 1.12)], "again")
    assert host_drift.read().of("throughput") == pytest.approx(0.12, abs=1e-6)
    path.write_text("{not json")
    assert host_drift.read().of("throughput") == host_drift.DEFAULT_MARGIN
    assert (
        host_drift.read().warning == f"the calibration record at {path} is damaged (not JSON); using the default ±10 %"
    )


def test_compare_calibrate_records_the_pairs_drift_and_later_comparisons_test_against_it(tmp_path, monkeypatch):
    from tests.fixtures.experiments import build_experiment
    from ycsbctl.report.compare import compare
    from ycsbctl.report.drift_record import calibrate

    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path / "cache"))
    small = {"workloads": ("workloadb",), "threads": (8,), "repetitions": 3, "failed": False, "skipped": False}
    a = build_experiment(tmp_path, "a", **small)
    b = build_experiment(tmp_path, "b", speedup={"redis": 0.85, "mongodb": 0.85}, **small)
    before = compare([a, b])
    assert set(before.verdicts["drift_margin_pct"]) == {10.0}
    path, lines = calibrate(before)
    ratio = before.verdicts.query("metric == 'throughput'")
    assert host_drift.read(path).of("throughput") == pytest.approx(
        max(host_drift.drift(r) for r in ratio["value"] / ratio["base_value"]), abs=1e-6)
    assert lines[0] == "throughput: 2 cells drifted up to 17.6 % (median 17.6 %)"  # 1/0.85 - 1, both cells
    after = compare([a, b])  # the same pair, now at the edge of the host's recorded drift: not beyond it
    assert set(after.verdicts["verdict"]) == {"undecided"}
    from click.testing import CliRunner

    from ycsbctl.cli import main

    r = CliRunner().invoke(main, ["compare", str(a), str(b), "--calibrate", "--format", "json"])
    assert r.exit_code == 0 and "host drift recorded: throughput: 2 cells drifted up to 17.6 %" in r.stderr, r.output
    one = CliRunner().invoke(main, ["compare", str(a), "--calibrate"])
    assert one.exit_code == 2 and len(one.output.strip().splitlines()) == 1 and "two folders" in one.output


def test_the_docs_state_the_default_margin():
    section = docs_page("studies/comparison.md")  # How sure is this?
    said = re.search(r"default margin of ±(\d+) %", section)
    assert said and float(said.group(1)) / 100 == host_drift.DEFAULT_MARGIN
    assert "--calibrate" in section and "host_drift.json" in section


def test_from_twenty_recorded_cells_the_margin_is_their_95th_percentile_not_one_wild_cell(tmp_path, monkeypatch):
    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path))
    host_drift.record([("throughput", 1.02)] * 28 + [("throughput", 1.04), ("throughput", 1.9)], "test")
    assert host_drift.read().of("throughput") == pytest.approx(0.04, abs=1e-6)  # 30 cells: the 29th (ceil .95·29)
    m = host_drift.margin_of([0.02] * 18 + [0.04])  # 19 cells: the largest
    assert m == pytest.approx(0.04) and host_drift.margin_of([0.01, 0.03]) == pytest.approx(0.03)
    assert host_drift.margin_of([0.01] * 38 + [0.03, 1.5]) == pytest.approx(0.03)  # 40: the 39th (ceil .95·39)
    assert host_drift.margin_of([0.01] * 19 + [1.5]) == pytest.approx(1.5)  # 20: the 20th (ceil .95·19)


def test_the_records_place_its_rounding_its_version_and_a_ratio_without_a_drift(tmp_path, monkeypatch):
    """Survivors of a sampled mutation run: $XDG_CACHE_HOME is honoured when $YCSBCTL_CACHE_DIR is not set;
    a drift is kept to 6 decimals; the record says its format's version (1); no ratio, no drift; a record
    without metrics counts 0 cells."""
    import json
    import math

    monkeypatch.delenv("YCSBCTL_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert host_drift.cache_dir() == tmp_path / "xdg" / "ycsbctl"
    path = host_drift.record([("throughput", 1.0512345678)], "test")
    assert path == tmp_path / "xdg" / "ycsbctl" / "host_drift.json"
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["metrics"]["throughput"]["drifts"] == [0.051235]
    assert math.isnan(host_drift.drift(0.0))
    path.write_text(json.dumps({"metrics": {}, "source": "empty"}))
    assert "(0 A/A cells" in host_drift.read(path).source


def test_calibrate_records_only_cells_measured_on_both_sides_with_a_positive_baseline_and_not_at_peak(
    tmp_path, monkeypatch
):
    """Cells of a zero or missing baseline, a missing value or the at-peak summary are no A/A pair: of five
    rows, the two measured ones (ratios 1.1 and 1/1.3) are recorded, the median the upper of the two."""
    from types import SimpleNamespace

    import pandas as pd

    from ycsbctl.report.compare import Comparison
    from ycsbctl.report.drift_record import calibrate

    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path / "cache"))
    v = pd.DataFrame({"metric": "throughput", "at_peak": [False, False, False, False, True, False],
                      "base_value": [100.0, 0.0, math.nan, 100.0, 100.0, 130.0],
                      "value": [110.0, 50.0, 50.0, math.nan, 500.0, 100.0]})
    exps = [SimpleNamespace(id="a"), SimpleNamespace(id="b")]
    path, lines = calibrate(Comparison(exps, "p99", pd.DataFrame(), v))  # type: ignore[arg-type]
    assert lines == ["throughput: 2 cells drifted up to 30.0 % (median 30.0 %)"]
    assert host_drift.read(path).of("throughput") == pytest.approx(0.3)


def test_the_suite_reads_no_record_and_none_can_be_written_where_it_looks():
    """The suite's own setting (tests/conftest.py): the default margin, from a folder nobody can create — a record
    left on the disk by an earlier run (a mutant's) once gave a later suite a ±2 % margin."""
    assert host_drift.read().source.startswith("the default, no calibration record at")
    assert host_drift.read().of("throughput") == host_drift.DEFAULT_MARGIN
    with pytest.raises(UserError, match="cannot write the calibration record .*: Not a directory"):
        host_drift.record([("throughput", 1.5)], "test")


UNUSABLE = [  # (the record's text, what the warning says in its brackets)
    ("{not json", "damaged (not JSON)"),
    ("[0.05, 0.08]", "damaged (no 'metrics' object)"),
    ('{"metrics": {"throughput": {"max": 0.05}}}', "damaged (throughput has no list of drifts)"),
    ('{"metrics": {"throughput": {"drifts": ["5 %"]}}}', "damaged (a throughput drift of '5 %' is not a number)"),
    ('{"metrics": {"throughput": {"drifts": [0.02, -0.9]}}}', "implausible (a throughput drift of -0.9: drifts lie"),
    ('{"metrics": {"throughput": {"drifts": [1e308]}}}', "implausible (a throughput drift of 1e+308"),
    ('{"metrics": {"p99": {"drifts": [Infinity]}}}', "implausible (a p99 drift of inf"),
    ('{"metrics": {"throughput": {"drifts": [NaN]}}}', "implausible (a throughput drift of nan"),
    ('{"metrics": {"throughput": {"drifts": [0.05, 1.5]}}}', "implausible (a throughput drift of 1.5"),
]


@pytest.mark.parametrize(("text", "says"), UNUSABLE, ids=[s for _, s in UNUSABLE])
def test_a_damaged_or_implausible_record_says_so_in_one_line_and_is_not_used(text: str, says: str, tmp_path: Path):
    """Was read as "no calibration record" (damaged) or used as given (−0.9 printed "±-90.0 %" and turned the margin
    off; 1e308 or Infinity made every difference uncallable)."""
    path = tmp_path / "host_drift.json"
    path.write_text(text)
    m = host_drift.read(path)
    assert dict(m.by_metric) == {} and m.of("throughput") == m.of("p99") == host_drift.DEFAULT_MARGIN
    assert m.warning is not None and m.warning.startswith(f"the calibration record at {path} is {says}"), m.warning
    assert m.warning.endswith("; using the default ±10 %") and "\n" not in m.warning
    assert "not used" in m.source and "no calibration record" not in m.source


def test_a_record_that_cannot_be_read_says_the_systems_words_or_else_the_errors_name(tmp_path: Path):
    """A folder where the record would be: the OS's own words for it (os.strerror); bytes that are not UTF-8 have no
    such words, their error's name instead (never "None")."""
    import errno
    import os

    folder = tmp_path / "host_drift.json"
    folder.mkdir()
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"metrics": "\xff\xfe"}')
    says = {p: host_drift.read(p).warning for p in (folder, binary)}
    assert says == {p: f"the calibration record at {p} is damaged (cannot be read: {why}); using the default ±10 %"
                    for p, why in ((folder, os.strerror(errno.EISDIR)), (binary, "UnicodeDecodeError"))}


def test_the_widest_plausible_drift_is_used_and_the_record_that_holds_it_warns_nothing(tmp_path: Path):
    path = tmp_path / "host_drift.json"
    path.write_text('{"metrics": {"throughput": {"drifts": [0, 1.0]}}}')  # a cell twice as fast: the bound, kept
    m = host_drift.read(path)
    assert m.warning is None and m.of("throughput") == 1.0


def test_recording_replaces_an_unusable_record_and_keeps_it_aside_and_refuses_a_ratio_no_host_drifts(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("YCSBCTL_CACHE_DIR", str(tmp_path))
    path = tmp_path / "host_drift.json"
    path.write_text('{"metrics": {"throughput": {"drifts": [-0.9]}}}')
    with pytest.raises(UserError, match=r"changed 2\.5× between the experiments.*nothing was recorded"):
        host_drift.record([("throughput", 1.05), ("throughput", 2.5)], "test")
    assert path.read_text() == '{"metrics": {"throughput": {"drifts": [-0.9]}}}'  # untouched by the refusal
    host_drift.record([("throughput", 1.05)], "test")
    assert (tmp_path / "host_drift.json.damaged").read_text() == '{"metrics": {"throughput": {"drifts": [-0.9]}}}'
    assert host_drift.read().warning is None and host_drift.read().of("throughput") == pytest.approx(0.05)


def test_compare_through_the_cli_warns_once_of_a_hostile_record_and_tests_against_the_default(tmp_path: Path):
    from tests.fixtures.cli import env, ycsbctl
    from tests.fixtures.experiments import build_experiment

    small = {"workloads": ("workloadb",), "threads": (8,), "repetitions": 3, "failed": False, "skipped": False}
    a, b = build_experiment(tmp_path, "a", **small), build_experiment(tmp_path, "b", speedup={"redis": 0.85}, **small)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "host_drift.json").write_text('{"metrics": {"throughput": {"drifts": [-0.9]}}}')
    r = ycsbctl("compare", str(a), str(b), "-o", str(tmp_path / "c.html"), cwd=tmp_path,
                environ=env(YCSBCTL_CACHE_DIR=str(tmp_path / "cache")))
    assert r.returncode == 0, r.stderr
    warnings = [x for x in r.stderr.splitlines() if x.startswith("warning:")]
    assert warnings == [f"warning: the calibration record at {tmp_path / 'cache' / 'host_drift.json'} is implausible "
                        "(a throughput drift of -0.9: drifts lie between 0 and 1); using the default ±10 %"], r.stderr
    assert "±-" not in r.stdout + r.stderr and "throughput ±10.0 %" in r.stdout


def test_compare_calibrate_through_the_cli_refuses_folders_of_different_plans_and_records_nothing(tmp_path: Path):
    """Was: the differences listed, then a drift recorded anyway (13.1 % in the campaign)."""
    from tests.fixtures.cli import env, ycsbctl
    from tests.fixtures.experiments import build_experiment

    small = {"workloads": ("workloadb",), "threads": (8,), "repetitions": 3, "failed": False, "skipped": False}
    a, b = build_experiment(tmp_path, "a", **small), build_experiment(tmp_path, "b", duration_s=5, **small)
    r = ycsbctl("compare", str(a), str(b), "--calibrate", cwd=tmp_path, environ=env(YCSBCTL_CACHE_DIR=str(tmp_path)))
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr == ("error: --calibrate: the experiments differ (b: plan.duration_s: 3.0 vs 5.0), so they are no "
                        "A/A "
                        "pair; nothing was recorded: give two runs of one plan on this host, minutes apart, with "
                        "nothing changed\n")
    assert not (tmp_path / "host_drift.json").exists() and not (tmp_path / "compare.html").exists()


def test_the_host_drift_record_keeps_the_newest_200_drifts_per_metric(tmp_path):
    import json

    from ycsbctl.results import host_drift

    ratios = [("throughput", 1 + i / 10_000) for i in range(1, 206)]  # drifts 0.0001 … 0.0205, newest last
    path = host_drift.record(ratios, "test", tmp_path / "host_drift.json")
    kept = json.loads(path.read_text(encoding="utf-8"))["metrics"]["throughput"]["drifts"]
    assert len(kept) == 200 and kept[0] == pytest.approx(host_drift.drift(1 + 6 / 10_000), abs=1e-6)


def test_calibrate_into_a_cache_folder_it_cannot_write_is_one_line_and_leaves_nothing(tmp_path: Path):
    """``compare --calibrate`` with ``YCSBCTL_CACHE_DIR`` under a file, on a full tmpfs, and missing: the first two
    one line (exit 1), the file system as it was (os.listdir: no temporary file, no folder); a missing folder is made
    and holds the record, which reads back as the pair's drift."""
    import os

    from click.testing import CliRunner

    from tests.fixtures.experiments import build_experiment
    from ycsbctl.cli import main

    small = {"workloads": ("workloadb",), "threads": (8,), "repetitions": 3, "failed": False, "skipped": False}
    a, b = build_experiment(tmp_path, "a", **small), build_experiment(tmp_path, "b", speedup={"redis": 0.85}, **small)
    (tmp_path / "plain").write_text("a file")
    with full_disk(tmp_path / "disk") as disk:
        for cache, why in ((tmp_path / "plain" / "cache", "Not a directory"), (disk, "No space left on device")):
            before = {d: sorted(os.listdir(d)) for d in (tmp_path, disk)}
            r = CliRunner().invoke(main, ["compare", str(a), str(b), "--calibrate", "--format", "json"],
                                   env={"YCSBCTL_CACHE_DIR": str(cache)})
            assert r.exit_code == 1 and r.stderr.splitlines()[-1] == (
                f"error: cannot write the calibration record {cache / host_drift.FILE}: {why}"), r.output
            assert "Traceback" not in r.output and {d: sorted(os.listdir(d)) for d in before} == before
    missing = tmp_path / "new" / "cache"
    r = CliRunner().invoke(main, ["compare", str(a), str(b), "--calibrate", "--format", "json"],
                           env={"YCSBCTL_CACHE_DIR": str(missing)})
    assert r.exit_code == 0 and os.listdir(missing) == [host_drift.FILE], r.output
    assert host_drift.read(missing / host_drift.FILE).of("throughput") == pytest.approx(1 / 0.85 - 1, abs=1e-4)


def test_calibrate_refusing_folders_that_differ_names_the_first_three_differences_and_counts_the_rest():
    """Five differences: the line names three and says how many more (the mutant [:3] -> [:4] survived)."""
    from types import SimpleNamespace

    from ycsbctl.report.drift_record import calibrate

    differences = [f"b: plan.setting_{i}: {i} vs {i + 1}" for i in range(5)]
    with pytest.raises(UserError) as refused:
        calibrate(SimpleNamespace(within=False, differences=differences))  # type: ignore[arg-type]
    said = str(refused.value)
    assert "the experiments differ (b: plan.setting_0: 0 vs 1; b: plan.setting_1: 1 vs 2; b: plan.setting_2: 2 vs 3; " \
           "and 2 more)" in said, said
    assert "setting_3" not in said
