"""The many-store study's answer against the runs table: per test, the fastest store and every other
store's ratio to it, computed here another way (pandas over runs.csv: the mean throughput per store for
the fastest, the ratio of geometric means for the ratio); a store that cannot answer a test is named
"cannot", never given a zero; and every comparison of the embedded SQLite with a networked store — the
headline, the ladder's, the memory per item — carries its caveat where it is made."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from tests.fixtures.experiments import make_result
from ycsbctl.results import load
from ycsbctl.results.folder import ResultFolder, RunRecord
from ycsbctl.results.frames import Experiment
from ycsbctl.results.schema import Manifest

pytestmark = [pytest.mark.truth, pytest.mark.report]

THREADS = 50
# ops/s per test and store (before each repetition's ±3 %): the fastest store differs from test to test
RATES = {"1cond": {"sqlite": 9_000.0, "postgres": 3_000.0},
         "2cond": {"sqlite": 2_000.0, "postgres": 6_000.0},
         "text": {"sqlite": 1_500.0, "postgres": 1_200.0}}
CANNOT = {"1cond": "QUERY-1COND: Redis has no secondary index", "2cond": "QUERY-2COND: Redis has no secondary index",
          "text": "FULLTEXT: Redis has no full-text search"}
NAMES = {"1cond": "QUERY-1COND", "2cond": "QUERY-2COND", "text": "FULLTEXT"}
BASIS = {"sqlite": "page_count*page_size", "postgres": "pg_total_relation_size"}
EMBEDDED = "unlike quantities: sqlite is embedded (no server), so it has no network round trip"


def _endpoint(target: str, protocol: str, has_server: bool) -> dict:
    return {"target": target, "protocol": protocol, "url": f"{protocol}://127.0.0.1/{target}", "backend": "local",
            "has_server": has_server, "server_name": target, "server_version": "1", "config": {}, "notes": []}


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Experiment:
    """A finished many-store study: three tests, SQLite and PostgreSQL measured (2 repetitions at 50
    threads), Redis refused on every test."""
    servers = {"sqlite": _endpoint("sqlite", "sqlite", False), "postgres": _endpoint("postgres", "postgresql", True)}
    manifest = Manifest.from_dict({
        "experiment_id": "", "plan": {"targets": ["sqlite", "postgres", "redis"], "threads": [THREADS], "repeat": 2,
                                      "workloads": [f"media-items[media.operation={t}]" for t in RATES]},
        "servers": servers,
        "cannot": [{"target": "redis", "workload": f"media-items-{t}", "reason": f"redis media-items-{t}: cannot — {r}"}
                   for t, r in CANNOT.items()],
        "workload_footprints": {f"media-items-{t}": {s: {"target": s, "records": 1000, "bytes_per_record": b,
                                                         "basis": BASIS[s]} for s, b in (("sqlite", 900),
                                                                                         ("postgres", 1400))}
                                for t in RATES}})
    folder = ResultFolder.create(tmp_path_factory.mktemp("many-store"), "store-study", manifest)
    rng = np.random.default_rng(44)
    for test, rates in RATES.items():
        for store, rate in rates.items():
            for rep in range(2):
                res = make_result(rng, "run", THREADS, rate * rng.uniform(0.97, 1.03), {"READ": 1.0}, duration_s=1,
                                  warmup_s=0)
                folder.add_run(RunRecord(RunRecord.make_id(store, f"media-items-{test}", "run", THREADS, rep), store,
                                         f"media-items-{test}", "run", THREADS, rep, "ok", res,
                                         endpoint=servers[store]))
    return load(folder.finalize("complete"))


def _answer(runs: pd.DataFrame) -> dict[str, tuple[str, dict[str, float]]]:
    """Per test: (the fastest store by mean ops/s, each other store's ratio of geometric means to it)."""
    ok = runs[(runs["phase"] == "run") & (runs["status"] == "ok") & (runs["threads"] == THREADS)]
    out = {}
    for test in RATES:
        g = ok[ok["workload"] == f"media-items-{test}"]
        mean = g.groupby("target")["throughput_ops"].mean()
        logs = np.log(g["throughput_ops"].astype(float)).groupby(g["target"]).mean()
        best = str(mean.idxmax())
        out[test] = (best, {str(t): math.exp(v - logs[best]) for t, v in logs.items() if t != best})
    return out


def _ladder_study(tmp_path, rates: dict[int, dict[str, float]], repeat: int, seed: int, spread: float) -> Experiment:
    """A QUERY-1COND study measured at each thread count of ``rates`` (threads -> store -> ops/s, each repetition
    within ±``spread``), finished and loaded."""
    stores = list(dict.fromkeys(s for by in rates.values() for s in by))
    servers = {s: _endpoint(s, "sqlite" if s == "sqlite" else "postgresql", s != "sqlite") for s in stores}
    manifest = Manifest.from_dict({
        "experiment_id": "", "plan": {"targets": stores, "threads": list(rates), "repeat": repeat,
                                      "workloads": ["media-items[media.operation=1cond]"]}, "servers": servers})
    folder = ResultFolder.create(tmp_path / "ladder", "ladder", manifest)
    rng = np.random.default_rng(seed)
    for threads, by in rates.items():
        for store, rate in by.items():
            for rep in range(repeat):
                res = make_result(rng, "run", threads, rate * rng.uniform(1 - spread, 1 + spread), {"READ": 1.0},
                                  duration_s=1, warmup_s=0)
                folder.add_run(RunRecord(RunRecord.make_id(store, "media-items-1cond", "run", threads, rep), store,
                                         "media-items-1cond", "run", threads, rep, "ok", res, endpoint=servers[store]))
    return load(folder.finalize("complete"))


def test_each_tests_headline_names_the_fastest_store_and_the_ratios_the_runs_table_gives(study):
    from ycsbctl.report.many_store import store_study_headlines

    runs = pd.read_csv(study.path / "runs.csv")  # the table a user reads, not the frame the report used
    answer = _answer(runs)
    assert {best for best, _ in answer.values()} == {"sqlite", "postgres"}  # the fastest differs between tests
    lines = store_study_headlines(study)
    assert len(lines) == len(RATES)
    for test, line in zip(RATES, lines):
        best, ratios = answer[test]
        assert line.startswith(f"{NAMES[test]} at {THREADS} threads: fastest {best}, ")
        mean = runs.loc[(runs["workload"] == f"media-items-{test}") & (runs["target"] == best), "throughput_ops"].mean()
        assert f"fastest {best}, {mean:,.0f} ops/s" in line
        said = {m[0]: float(m[1]) for m in re.findall(r"(\w+) (\d+\.\d+)×", line.split("against it ", 1)[1])}
        assert said.keys() == ratios.keys() and all(abs(said[t] - r) < 0.006 for t, r in ratios.items()), (said, ratios)
        # the store that cannot answer is said to, and is neither ranked nor given a figure
        assert line.endswith("— cannot: redis.") and line.count("redis") == 1
        assert not re.search(r"redis[^.]*\d", line) and " 0 ops/s" not in line
        assert EMBEDDED in line  # sqlite beside postgres, on the same line


def test_every_comparison_of_the_embedded_store_with_a_networked_one_says_so_where_it_is_made(study):
    from ycsbctl.report.many_store import store_study
    from ycsbctl.report.many_store_figure import store_study_figure
    from ycsbctl.report.study_headlines import study_headlines
    from ycsbctl.report.unlike import UNLIKE_MARK, serverless_targets

    assert serverless_targets(study) == {"sqlite"}
    lines = study_headlines(study, study.verdicts())
    # one thread count: the per-test answers say every ratio, each with the caveat on its line; no ladder
    # sentence repeats them against the baseline
    assert len(lines) == len(RATES) and all(EMBEDDED in line for line in lines)
    assert not [line for line in lines if " against sqlite: " in line or " against postgres: " in line]
    s = store_study(study)
    assert s is not None and s.bytes_per_item == {"sqlite": 900.0, "postgres": 1400.0}
    caveat = ("Unlike quantities, not comparable: sqlite's figure is page_count*page_size; postgres's figure is "
              "pg_total_relation_size.")
    assert s.memory_caveat() == caveat
    fig = store_study_figure(s, {"sqlite": "#E69F00", "postgres": "#0072B2"})
    assert fig is not None
    # the title wrapped to its narrow panel: the same words
    assert fig.axes[2].get_title().split() == ("memory per item after load" + UNLIKE_MARK).split()
    # throughput on a linear axis, p99 (tens of µs to seconds) on a log one
    assert [ax.get_yscale() for ax in fig.axes[:3]] == ["linear", "log", "linear"]
    note = next(t for t in fig.texts if t.get_text() == caveat)
    r = FigureCanvasAgg(fig).get_renderer()
    fig.draw(r)
    legend = fig.legends[-1].get_window_extent(r)
    assert not note.get_window_extent(r).overlaps(legend)
    assert abs((legend.x0 + legend.x1) / 2 - fig.bbox.width / 2) < 1.0  # lifted above the note, still centred
    s.memory_basis = {"sqlite": "used_memory", "postgres": "used_memory"}  # one kind of figure: no caveat
    same = store_study_figure(s, {})
    assert same is not None and same.axes[2].get_title() == "memory per item after load" and s.memory_caveat() == ""
    assert not [t for t in same.texts if t.get_text().startswith("Unlike")]


def test_the_reports_many_store_table_says_its_bytes_per_item_are_unlike_quantities(study):
    from markupsafe import escape

    from ycsbctl.report.html import build_context, environment

    html = environment().get_template("report.html.j2").render(**build_context(study, {}, study.points(), "p99"))
    table = html.split('<h2 id="store-study">', 1)[1].split("<h2", 1)[0]
    assert "<th>bytes / item</th>" in table
    assert (f'<p class="warn">Bytes / item: {escape("Unlike quantities, not comparable: sqlite")}' in table
            and "pg_total_relation_size.</p>" in table)


def test_one_repetition_gives_each_ratio_the_interval_of_its_runs_seconds_or_no_ratio(tmp_path):
    """With one repetition there is no test: a ratio is printed only with an interval made of the two runs'
    own seconds (batch means), said so once, never bare ("0.42× too few repetitions"). Checked against the
    per-second series of runs.csv's runs, read here: each run's second-by-second ops/s vary ±5 %, so the
    true ratio of the rates lies inside, and the interval is no narrower than either run's own."""
    from ycsbctl.report.many_store import WITHIN_RUN_NOTE, store_study_headlines

    servers = {"sqlite": _endpoint("sqlite", "sqlite", False), "postgres": _endpoint("postgres", "postgresql", True)}
    manifest = Manifest.from_dict({
        "experiment_id": "", "plan": {"targets": ["sqlite", "postgres"], "threads": [THREADS], "repeat": 1,
                                      "workloads": ["media-items[media.operation=1cond]"]}, "servers": servers})
    folder = ResultFolder.create(tmp_path / "one", "one-rep", manifest)
    rng = np.random.default_rng(48)
    for store, rate in RATES["1cond"].items():
        res = make_result(rng, "run", THREADS, rate, {"READ": 1.0}, duration_s=10, warmup_s=0)
        folder.add_run(RunRecord(RunRecord.make_id(store, "media-items-1cond", "run", THREADS, 0), store,
                                 "media-items-1cond", "run", THREADS, 0, "ok", res, endpoint=servers[store]))
    exp = load(folder.finalize("complete"))
    line, note = store_study_headlines(exp)
    m = re.search(r"postgres (\d+\.\d+)× \[(\d+\.\d+), (\d+\.\d+)\]", line)
    assert m, line
    ratio, lo, hi = map(float, m.groups())
    assert note == WITHIN_RUN_NOTE and "undecided" not in line and "untested" not in line
    assert lo < 3_000 / 9_000 < hi and lo < ratio < hi
    s = pd.read_csv(exp.path / "series.csv")
    per_s = s[(s["op"] == "OVERALL")].groupby("run_id")["operations"]
    spread = max(math.log(g.max() / g.min()) for _, g in per_s)  # a run's own second-to-second range
    assert math.log(hi / lo) / 2 < spread  # batch means of 5 narrow the range, the quadrature widens it
    # without a series to batch, no ratio is printed at all
    from ycsbctl.report.many_store import Cell, within_run_ratio

    bare = within_run_ratio(Cell("1cond", "w", "postgres", 3_000.0),
                            Cell("1cond", "w", "sqlite", 9_000.0, low=8e3, high=1e4))
    assert "×" not in bare and "no ratio" in bare


def test_a_store_whose_first_load_reads_0_bytes_per_item_takes_its_next_loads_figure(study):
    """Memory per item is the first load's into an empty store; a first load that reads 0 bytes per
    record (nothing measured) is no figure: the next load's is taken."""
    import copy

    from ycsbctl.report.many_store import store_study

    exp = copy.copy(study)
    exp.manifest = copy.deepcopy(study.manifest)
    first, second = (f"media-items-{t}" for t in list(RATES)[:2])
    exp.manifest.workload_footprints[first]["sqlite"]["bytes_per_record"] = 0
    exp.manifest.workload_footprints[second]["sqlite"]["bytes_per_record"] = 950
    exp.manifest.workload_footprints["media-items-text"]["sqlite"]["basis"] = "a later load's basis"
    s = store_study(exp)
    assert s is not None and s.bytes_per_item == {"sqlite": 950.0, "postgres": 1400.0}
    assert s.memory_basis["sqlite"] == BASIS["sqlite"]  # the basis of the load whose figure it is


def test_the_headlines_interval_is_welchs_or_the_paired_one_as_the_rounds_were_ordered(study):
    """The interval of postgres against the fastest (sqlite) on QUERY-1COND, computed here with scipy from
    runs.csv: Welch's t on the log rates when the rounds ran each target in turn, a paired t on the log
    ratio per round when they were interleaved."""
    import copy

    from scipy import stats as sps

    from ycsbctl.report.many_store import store_study_headlines
    from ycsbctl.results.verdicts import target_verdicts

    runs = pd.read_csv(study.path / "runs.csv")
    g = runs[runs["workload"] == "media-items-1cond"].sort_values("repetition")
    pg, sq = (np.log(g.loc[g["target"] == t, "throughput_ops"].to_numpy(float)) for t in ("postgres", "sqlite"))
    level = float(target_verdicts(study.runs[study.runs["workload"] == "media-items-1cond"],
                                  "sqlite")["ci_level"].iloc[0])
    welch = sps.ttest_ind(pg, sq, equal_var=False).confidence_interval(level)
    paired = sps.ttest_1samp(pg - sq, 0.0).confidence_interval(level)
    interleaved = copy.copy(study)
    interleaved.manifest = copy.deepcopy(study.manifest)
    interleaved.manifest.plan["run_order"] = "interleaved"
    for exp, ci in ((study, welch), (interleaved, paired)):
        m = re.search(r"postgres \d+\.\d+× \[(\d+\.\d+), (\d+\.\d+)\]", store_study_headlines(exp)[0])
        assert m, store_study_headlines(exp)[0]
        assert (m[1], m[2]) == (f"{math.exp(ci.low):.2f}", f"{math.exp(ci.high):.2f}")
    assert f"{math.exp(welch.low):.2f}" != f"{math.exp(paired.low):.2f}"


def test_a_store_not_measured_at_the_study_threads_tells_its_last_runs_status_and_error(study):
    """postgres's two QUERY-1COND rounds: the first degraded, the last failed: the cell's status is the last's, its
    figures the degraded round's; and a workload named by its file's path is the same study test."""
    import copy

    from ycsbctl.report.many_store import store_study

    exp = copy.copy(study)
    exp.manifest = copy.deepcopy(study.manifest)
    mine = (exp.runs["target"] == "postgres") & (exp.runs["workload"] == "media-items-1cond")
    exp.runs = exp.runs.copy()
    exp.runs.loc[mine, "status"] = ["degraded", "failed"]
    exp.runs.loc[mine, "error"] = ["another benchmark ran", "lost the server"]
    s = store_study(exp)
    assert s is not None
    c = s.cell("1cond", "postgres")
    assert c is not None and (c.status, c.why) == ("failed", "lost the server")
    # its figures are the degraded round's alone (measured, marked), not the failed one's nor their mean
    degraded = exp.runs[mine & (exp.runs["status"] == "degraded")].iloc[0]
    assert (c.throughput, c.p99_us) == (degraded["throughput_ops"], degraded["all_p99_us"])
    assert exp.runs.loc[mine, "throughput_ops"].nunique() == 2
    exp.manifest.plan["workloads"] = [f"studies/media/{w}" for w in study.manifest.workloads]
    by_path = store_study(exp)
    assert by_path is not None and [(c.test, c.workload) for c in by_path.cells] == [(c.test,
                                                                                      c.workload) for c in s.cells]


def test_a_ladder_without_the_study_threads_is_compared_at_its_largest_thread_count(tmp_path):
    """Measured at 8 and 32 threads (no 50): the table is the 32-thread point's, its cell that point's own
    ops/s and p99 as runs.csv holds them (the 8-thread point is four times slower)."""
    from ycsbctl.report.many_store import STUDY_THREADS, store_study

    servers = {"sqlite": _endpoint("sqlite", "sqlite", False)}
    ladder = (8, 32)
    assert STUDY_THREADS not in ladder
    exp = _ladder_study(tmp_path, {t: {"sqlite": 9_000.0 * t / 32} for t in ladder}, repeat=1, seed=49, spread=0.0)
    s = store_study(exp)
    assert s is not None and s.threads == 32
    runs = pd.read_csv(exp.path / "runs.csv")
    for store in servers:
        row = runs[(runs["target"] == store) & (runs["threads"] == 32)].iloc[0]
        c = s.cell("1cond", store)
        assert c is not None and c.status == "ok"
        assert (c.throughput, c.p99_us) == pytest.approx((row["throughput_ops"], row["all_p99_us"]))


def test_a_store_that_cannot_answer_is_a_hatched_bar_a_fixed_share_of_the_tallest_and_says_why(study):
    """Redis refused every test: its cell is "cannot" with the refusal's reason from its first operation's
    name on (the reason's own colons and later operations kept), and in the figure it is a hatched, empty bar 12 % of
    the tallest measured throughput (5 % of the largest p99), labelled "cannot"; every measured bar is its cell's mean,
    read back from the figure's patches against runs.csv."""
    import copy

    from ycsbctl.report.many_store import store_study
    from ycsbctl.report.many_store_figure import store_study_figure

    exp = copy.copy(study)
    exp.manifest = copy.deepcopy(study.manifest)
    # the refusal as media-items words it (op: why, "; " between ops): the cell says the first op's why onwards
    whys = {"1cond": ("QUERY-1COND: Redis has no secondary index", "Redis has no secondary index"),
            "2cond": ("QUERY-1COND: no index; QUERY-2COND: no index: none", "no index; QUERY-2COND: no index: none"),
            "text": ("FULLTEXT: Redis has no full-text search", "Redis has no full-text search")}
    for c in exp.manifest.cannot:
        c.reason = whys[c.workload.removeprefix("media-items-")][0]
    s = store_study(exp)
    assert s is not None
    for test, (_, shown) in whys.items():
        c = s.cell(test, "redis")
        assert c is not None and (c.status, c.why) == ("cannot", shown)
    fig = store_study_figure(s, {"sqlite": "#E69F00", "postgres": "#0072B2", "redis": "#D55E00"})
    assert fig is not None
    runs = pd.read_csv(study.path / "runs.csv")
    ok = runs[(runs["phase"] == "run") & (runs["status"] == "ok")]
    for ax, column, share in ((fig.axes[0], "throughput_ops", 0.12), (fig.axes[1], "all_p99_us", 0.05)):
        means = ok.groupby(["workload", "target"])[column].mean()
        hatched = [p.get_height() for p in ax.patches if p.get_hatch()]
        filled = sorted(p.get_height() for p in ax.patches if not p.get_hatch())
        assert hatched == pytest.approx([share * means.max()] * len(RATES))
        assert filled == pytest.approx(sorted(means))
        assert sorted(t.get_text() for t in ax.texts if t.get_text() == "cannot") == ["cannot"] * len(RATES)
        # each test's bars side by side, centred on its tick
        centres = sorted(p.get_x() + p.get_width() / 2 for p in ax.patches)
        for k, tick in enumerate(ax.get_xticks()):
            group = centres[3 * k:3 * k + 3]
            assert sum(group) / 3 == pytest.approx(tick) and group[0] < group[1] < group[2]
    w = [a.get_position().width for a in fig.axes[:3]]
    assert w[0] == pytest.approx(w[1]) and w[2] < w[0] / 2  # the two per-test panels alike, the memory one narrow


def test_a_ladder_through_the_study_threads_is_compared_there_not_at_its_other_counts(tmp_path):
    """Two stores at 8, 50 and 64 threads (2 repetitions): the study's table and headline are the 50-thread
    points' (the study's concurrency, though 64 was measured too), where sqlite is fastest and postgres a third of
    it; at 8 threads postgres is the faster and at 64 the ratio is 0.8: a ratio from another count, or another
    metric, would show. The ratio is checked against runs.csv's 50-thread runs (ratio of geometric means)."""
    from ycsbctl.report.many_store import STUDY_THREADS, store_study, store_study_headlines

    rates = {8: {"sqlite": 1_000.0, "postgres": 4_000.0}, STUDY_THREADS: {"sqlite": 9_000.0, "postgres": 3_000.0},
             64: {"sqlite": 5_000.0, "postgres": 4_000.0}}
    exp = _ladder_study(tmp_path, rates, repeat=2, seed=50, spread=0.03)
    s = store_study(exp)
    assert s is not None and s.threads == 50
    (line,) = store_study_headlines(exp)
    runs = pd.read_csv(exp.path / "runs.csv")
    at = runs[runs["threads"] == 50]
    logs = np.log(at["throughput_ops"].astype(float)).groupby(at["target"]).mean()
    assert line.startswith("QUERY-1COND at 50 threads: fastest sqlite, ")
    m = re.search(r"postgres (\d+\.\d+)×", line)
    assert m is not None and abs(float(m.group(1)) - math.exp(logs["postgres"] - logs["sqlite"])) < 0.006, line


def test_no_study_and_a_study_without_a_cell_draw_no_figure():
    """No study (not a many-store experiment) and a study whose tests measured nothing: no figure, not an
    empty one nor an error."""
    from ycsbctl.report.many_store import StoreStudy
    from ycsbctl.report.many_store_figure import store_study_figure

    assert store_study_figure(None, {"redis": "#D55E00"}) is None
    assert store_study_figure(StoreStudy(THREADS, ["1cond"], ["redis"], []), {"redis": "#D55E00"}) is None


def test_a_within_run_ratio_needs_both_intervals_above_zero_and_takes_one_of_no_width():
    """The ratio's interval, computed here: log half-widths in quadrature around the ratio of the means. An
    interval of no width (every batch alike) is an interval; one from 0 ops/s, or none, gives no ratio; a store
    under 1 ops/s still gets its ratio (three decimals under 0.1×)."""
    from ycsbctl.report.many_store import Cell, within_run_ratio

    best = Cell("1cond", "w", "sqlite", 9_000.0, low=8_000.0, high=10_000.0)
    half = math.log(10_000.0 / 8_000.0) / 2
    alike = within_run_ratio(Cell("1cond", "w", "postgres", 3_000.0, low=3_000.0, high=3_000.0), best)
    assert alike == f"0.33× [{math.exp(-half) / 3:.2f}, {math.exp(half) / 3:.2f}]"
    slow = within_run_ratio(Cell("1cond", "w", "postgres", 0.9, low=0.6, high=1.2),
                            Cell("1cond", "w", "sqlite", 90.0, low=80.0, high=100.0))
    half = math.sqrt(half ** 2 + (math.log(2) / 2) ** 2)
    assert slow == f"0.010× [{0.01 * math.exp(-half):.3f}, {0.01 * math.exp(half):.3f}]" == "0.010× [0.007, 0.014]"
    for low, high in ((0.0, 4_000.0), (math.nan, math.nan)):
        bare = within_run_ratio(Cell("1cond", "w", "postgres", 3_000.0, low=low, high=high), best)
        assert bare == "3,000 ops/s (no ratio: one repetition and no interval of its own seconds)"


def test_a_within_run_ratio_keeps_two_significant_figures_on_either_side_of_0_1_and_0_01():
    """0.1 and 0.01 themselves take 2 and 3 decimals (0.10×, 0.010×); just under each, one more (0.099×, 0.0099×)."""
    from ycsbctl.report.many_store import Cell, within_run_ratio

    best = Cell("1cond", "w", "sqlite", 10_000.0, low=9_000.0, high=11_000.0)
    for ops, shown in ((1_000.0, "0.10×"), (990.0, "0.099×"), (100.0, "0.010×"), (99.0, "0.0099×")):
        said = within_run_ratio(Cell("1cond", "w", "postgres", ops, low=ops * 0.9, high=ops * 1.1), best)
        assert said.startswith(f"{shown} ["), said


def test_a_study_test_set_with_p_makes_every_plain_workload_that_test_and_a_swept_list_makes_none():
    """``-p media.operation=items`` makes a plain workload the study's "items" test (a variant keeps its own);
    ``-p media.operation=items,keys`` is a sweep (the plan lists its variants), no one test of a plain workload."""
    from types import SimpleNamespace

    from ycsbctl.report.many_store import _tests
    from ycsbctl.results.variants import variant_name

    def tests(properties: list[str], workloads: list[str]) -> list[tuple[str, str]]:
        return _tests(SimpleNamespace(manifest=SimpleNamespace(plan={"properties": properties}, workloads=workloads)))

    keys = "media-items[media.operation=keys]"
    assert tests(["media.operation=items", "media.x=a,b"], ["media-items", keys]) == [
        ("items", "media-items"), ("keys", variant_name("media-items", {"media.operation": "keys"}))]
    assert [t for t, _ in tests(["media.operation=items,keys"], ["media-items", keys])] == ["keys"]
    assert tests([], ["media-items"]) == []


def test_each_cells_interval_is_the_cell_tables_of_its_own_test_and_store(study):
    """Every measured test × store of the study: its throughput interval is cells.csv's row of that workload
    and target (the tests' rates differ, so another row's interval is another)."""
    from ycsbctl.report.many_store import store_study

    s = store_study(study)
    cells = pd.read_csv(study.path / "cells.csv")
    assert s is not None
    for test, rates in RATES.items():
        for store in rates:
            row = cells[(cells["workload"] == f"media-items-{test}") & (cells["target"] == store)].iloc[0]
            c = s.cell(test, store)
            assert c is not None and c.status == "ok" and c.low < c.throughput < c.high
            assert (c.low, c.high) == pytest.approx((row["throughput_low"], row["throughput_high"]))


BUSY = (
    "other programs used {pct}% of a core ({share:.0%} of the host's 2 cores, above 10%) during the point: python "
    "{pct}%"
)


def test_an_all_degraded_study_still_names_the_fastest_store_and_says_it_is_degraded(tmp_path):
    """Every point host-busy (each with its own percentage): each test's headline ranks the stores by what they
    measured, marks each degraded store (†) — never "no store measured" — and gives each ratio an interval (its
    runs' own seconds); one sentence after them says what the mark means, the cause once for the study."""
    from ycsbctl.report.many_store import DEGRADED_MARK, WITHIN_RUN_NOTE, store_study_headlines

    servers = {"sqlite": _endpoint("sqlite", "sqlite", False), "postgres": _endpoint("postgres", "postgresql", True)}
    manifest = Manifest.from_dict({
        "experiment_id": "", "plan": {"targets": ["sqlite", "postgres"], "threads": [THREADS], "repeat": 1,
                                      "workloads": [f"media-items[media.operation={t}]" for t in RATES]},
        "servers": servers})
    folder = ResultFolder.create(tmp_path, "busy-study", manifest)
    rng = np.random.default_rng(7)
    for k, (test, rates) in enumerate(RATES.items()):
        for j, (store, rate) in enumerate(rates.items()):
            res = make_result(rng, "run", THREADS, rate, {"READ": 1.0}, duration_s=6, warmup_s=0)
            pct = 44 + 17 * k + 5 * j
            folder.add_run(RunRecord(RunRecord.make_id(store, f"media-items-{test}", "run", THREADS, 0), store,
                                     f"media-items-{test}", "run", THREADS, 0, "degraded", res, endpoint=servers[store],
                                     bottleneck={"label": "host-busy", "text": "host busy"},
                                     error=BUSY.format(pct=pct, share=pct / 200)))
    study = load(folder.finalize("partial"))
    runs = pd.read_csv(study.path / "runs.csv")
    *lines, untested, said = store_study_headlines(study)
    assert len(lines) == len(RATES) and not [line for line in lines if "no store measured" in line]
    assert untested == WITHIN_RUN_NOTE  # one repetition: no test, said once
    assert said == "† degraded — host busy: other programs used CPU (sqlite and postgres on every test)."
    for test, line in zip(RATES, lines):
        g = runs[runs["workload"] == f"media-items-{test}"].set_index("target")["throughput_ops"]
        best, other = str(g.idxmax()), str(g.idxmin())
        assert line.startswith(f"{NAMES[test]} at {THREADS} threads: fastest {best}†, {g[best]:,.0f} ops/s (p99 ")
        assert "degraded" not in line and "% of a core" not in line and line.count(DEGRADED_MARK) == 2
        ratio = float(re.search(rf"{other}† (\d+\.\d+)× \[", line).group(1))
        assert ratio == pytest.approx(g[other] / g[best], abs=0.006)


def test_the_fastest_store_is_chosen_by_throughput_among_ok_and_degraded_cells_alike(study):
    """QUERY-1COND with sqlite's rounds degraded (host busy) and postgres's ok: sqlite, faster by the runs table,
    is still named the fastest and said degraded; with postgres's throughput raised above sqlite's, postgres is
    (ok, no mark) — the choice is the higher mean ops/s whatever the cells' status, never the first ok one."""
    import copy

    from ycsbctl.report.many_store import store_study_headlines

    exp = copy.copy(study)
    exp.runs = study.runs.copy()
    sq = (exp.runs["target"] == "sqlite") & (exp.runs["workload"] == "media-items-1cond")
    exp.runs.loc[sq, "status"] = "degraded"
    exp.runs.loc[sq, "error"] = BUSY.format(pct=60, share=0.3)
    mean = exp.runs[sq]["throughput_ops"].astype(float).mean()
    line, *_, said = store_study_headlines(exp)
    assert line.startswith(f"QUERY-1COND at {THREADS} threads: fastest sqlite†, {mean:,.0f} ops/s (p99 ")
    assert said == "† degraded — host busy: other programs used CPU (sqlite on QUERY-1COND)."
    pg = (exp.runs["target"] == "postgres") & (exp.runs["workload"] == "media-items-1cond")
    exp.runs.loc[pg, "throughput_ops"] = exp.runs.loc[pg, "throughput_ops"].astype(float) * 4  # ~12,000 ops/s
    line = store_study_headlines(exp)[0]
    assert line.startswith(f"QUERY-1COND at {THREADS} threads: fastest postgres, ")
    fastest, against = line.split(" — ")[:2]
    assert "†" not in fastest and re.search(r"sqlite† \d+\.\d+× \[", against), against


def test_a_degraded_cell_of_one_run_takes_its_interval_from_its_measured_seconds_the_partial_last_left_out():
    """One run: the batch means of its measured seconds (warm-up out); the last second, partial, is left out only
    while two or more remain — a run of two measured seconds keeps both, or it would have no interval."""
    from types import SimpleNamespace

    from ycsbctl.report.many_store import _interval_of
    from ycsbctl.results import stats

    def interval(ops: list[int]) -> tuple[float, float, bool]:
        series = pd.DataFrame({"op": "OVERALL", "second": range(len(ops) + 1), "operations": [50, *ops],
                               "warmup": [True] + [False] * len(ops)})
        exp = SimpleNamespace(series_of=lambda run_id: series)
        return _interval_of(exp, pd.DataFrame({"run_id": ["r1"], "throughput_ops": [1000.0]}))  # type: ignore[arg-type]

    both = stats.batch_interval([900.0, 1100.0])
    assert math.isfinite(both.low) and interval([900, 1100]) == (both.low, both.high, True)
    assert interval([900, 1100, 300]) == (both.low, both.high, True)  # 300: the partial last second, left out
