"""The console summary after a sweep: NOT_FOUND and timeouts are columns, reasons are shown."""

from __future__ import annotations

import io
import math
from types import SimpleNamespace

import pandas as pd
from rich.console import Console

from tests.fixtures.experiments import FAILED_ERROR, SKIPPED, build_experiment
from ycsbctl.report.summary_table import print_summary


def test_the_summary_has_not_found_and_timeout_columns_and_names_why_a_point_failed(tmp_path, monkeypatch):
    import dataclasses

    import ycsbctl.results as results

    folder = build_experiment(tmp_path, "exp", repetitions=1)
    # an SLO search is said under its own workload's table only, not under every table
    exp = results.load(folder)
    search = {"target": "redis", "threads": 8, "slo": "p99<=50ms", "found_rate": 1500.0, "tried": []}
    searches = [{**search, "workload": exp.runs["workload"].iloc[0]}, {**search, "workload": "elsewhere",
                                                                       "slo": "p99<=7ms"}]
    monkeypatch.setattr(results, "load", lambda _: dataclasses.replace(exp, manifest=dataclasses.replace(
        exp.manifest, slo_searches=searches)))
    buf = io.StringIO()
    print_summary(folder, Console(file=buf, width=250))
    text = buf.getvalue()
    slo = [ln.strip() for ln in text.splitlines() if ln.startswith("  SLO ")]
    assert len(slo) == 1 and slo[0].startswith("SLO redis 8 threads: p99<=50ms"), slo
    header = next(line for line in text.splitlines() if "threads" in line and "status" in line)
    assert "NOT_FOUND" in header and "timeouts" in header
    assert f"mongodb 32 threads: failed — {FAILED_ERROR}" in text
    # only the points with an error are said below the table: the failed one and the skipped target's three
    said = [ln.strip() for ln in text.splitlines() if ln.startswith("  ") and " threads: " in ln and "⚠" not in ln
            and not ln.startswith("  SLO ")]
    assert said == [f"dragonfly {t} threads: skipped — {SKIPPED['reason']}" for t in (8, 16, 32)] + [
        f"mongodb 32 threads: failed — {FAILED_ERROR}"]
    # a point never run counted no NOT_FOUND and no timeout: its cells are blank, not 0
    cells = [c.strip() for c in next(line for line in text.splitlines() if "dragonfly" in line and "skipped" in line
                                     and line.lstrip("│ ").startswith("8 ")).split("│")]
    names = [c.strip() for c in header.split("┃")]
    assert (cells[names.index("NOT_FOUND")], cells[names.index("timeouts")]) == ("—", "—"), cells
    mongo8 = [c.strip() for c in next(line for line in text.splitlines() if "│ mongodb" in line
                                      and line.lstrip("│ ").startswith("8 ")).split("│")]
    assert (mongo8[names.index("NOT_FOUND")], mongo8[names.index("timeouts")]) == ("4", "0"), mongo8


def test_the_console_shows_each_points_interval_and_says_what_its_warning_means(tmp_path):
    import math

    import numpy as np
    from scipy import stats as sps

    from ycsbctl.results.frames import load

    folder = build_experiment(tmp_path, "three", workloads=("workloadb",), threads=(8, 16), repetitions=3,
                              failed=False, skipped=False)
    buf = io.StringIO()
    print_summary(folder, Console(file=buf, width=250))
    lines = buf.getvalue().splitlines()
    assert "95 %" in next(line for line in lines if "threads" in line and "status" in line)
    runs = load(folder).runs
    runs = runs[runs["phase"] == "run"]
    for (target, threads), g in runs.groupby(["target", "threads"]):
        logs = np.log(g["throughput_ops"].to_numpy())  # the t interval of the mean log, by hand
        half = sps.t.ppf(0.975, len(logs) - 1) * logs.std(ddof=1) / math.sqrt(len(logs))
        row = next(line for line in lines if f"│ {target} " in line and line.split("│")[1].strip() == str(threads))
        assert f"±{math.expm1(half) * 100:.1f}%" in row, row
    one = build_experiment(tmp_path, "one", workloads=("workloadb",), threads=(8,), repetitions=1, failed=False,
                           skipped=False)
    buf = io.StringIO()
    print_summary(one, Console(file=buf, width=250))
    text = buf.getvalue()  # one run: an interval of its seconds at best, and the console says what it cannot see
    assert "⚠ redis 8 threads: within one run only: batch means of its seconds, blind to the noise between runs" in text
    assert "redis: undecided at 8 threads" in text and "more rounds decide it: --repeat auto" in text


def _table_rows(text: str, workload: str) -> tuple[list[str], list[list[str]]]:
    """The header and body cells of ``workload``'s table as the console printed it."""
    lines = text.splitlines()[next(i for i, line in enumerate(text.splitlines()) if line.startswith(workload)):]
    header = next(line for line in lines if line.startswith("┃"))
    body = [line for line in lines[:next(i for i, line in enumerate(lines) if line.startswith("└"))]
            if line.startswith("│")]
    return ([c.strip() for c in header.strip("┃").split("┃")],
            [[c.strip() for c in line.strip("│").split("│")] for line in body])


def test_each_cell_of_the_console_table_is_the_runs_mean_in_its_unit(tmp_path):
    """Two repetitions per point (their mean ≠ their max), the latencies in ms (µs ÷ 1000), NOT_FOUND and
    timeouts summed over the repetitions, the CPU columns' mean, the statuses of the repetitions: each
    checked against the runs table, computed here with pandas; only the operations the workload ran."""
    from ycsbctl.results.frames import load

    # mongodb 100× slower than the fixture's own: latencies of tens of ms, where ms to two decimals tells ÷ 1000
    # from ÷ 999
    folder = build_experiment(tmp_path, "truth", workloads=("workloada",), threads=(8, 16), repetitions=2,
                              skipped=False, speedup={"mongodb": 0.01}, cpu_spread=0.3)
    runs = load(folder).runs
    runs = runs[runs["phase"] == "run"]
    assert (runs.loc[runs["target"] == "mongodb", ["read_p50_us", "update_p50_us"]] > 10_000).all().all()
    buf = io.StringIO()
    print_summary(folder, Console(file=buf, width=250))
    header, rows = _table_rows(buf.getvalue(), "workloada")
    col = {name: i for i, name in enumerate(header)}
    assert [h for h in header if "p50/p99" in h] == ["read p50/p99 ms", "update p50/p99 ms"]
    assert not (pd.to_numeric(runs["target_rate"]).fillna(0) > 0).any() and "offered ops/s" not in header  # unpaced
    assert len(rows) == runs.groupby(["threads", "target"]).ngroups == 4
    for (threads, target), pts in runs.groupby(["threads", "target"]):
        row = next(r for r in rows if r[col["threads"]] == str(threads) and r[col["target"]] == target)
        cut = pts["status"].eq("failed")  # the fixture's failed repetition was cut short: no rate in its row
        assert pts.loc[cut, "throughput_ops"].isna().all() and pts.loc[~cut, "throughput_ops"].notna().all()
        assert cut.any() or pts["throughput_ops"].mean() != pts["throughput_ops"].max()
        assert row[col["ops/s"]] == f"{pts.loc[~cut, 'throughput_ops'].mean():,.0f}"
        for op in ("read", "update"):
            want = f"{pts[f'{op}_p50_us'].mean() / 1000:.2f}/{pts[f'{op}_p99_us'].mean() / 1000:.2f}"
            assert row[col[f"{op} p50/p99 ms"]] == want, (op, row)
        assert (
            row[col["NOT_FOUND"]] == f"{pts['not_found'].sum():,.0f}"
            and pts["not_found"].sum() > pts["not_found"].max()
        )
        assert row[col["timeouts"]] == f"{pts['timeouts'].sum():,.0f}"
        for name, column in (("server CPU", "server_cpu_pct_mean"), ("client CPU", "client_cpu_pct_mean")):
            assert f"{pts[column].mean():.0f}" != f"{pts[column].max():.0f}"  # the repetitions' CPU differs
            assert row[col[name]] == f"{pts[column].mean():.0f}%"
        assert row[col["status"]] == ",".join(sorted(set(pts["status"])))
        assert row[col["bottleneck"]] == (",".join(sorted(set(pts["bottleneck"].dropna()) - {""})) or "—")


def test_a_missing_figure_is_a_dash_and_a_piped_console_keeps_wide_rows(capsys):
    from ycsbctl.report.summary_table import _num, wide_console

    assert _num(None) == "—" and _num(float("nan")) == "—" and _num(float("nan"), "{:.2f}") == "—"
    assert _num(1234.4) == "1,234" and _num(0.0) == "0" and _num(12.345, "{:.2f}") == "12.35"
    console = wide_console(stderr=True)  # stderr is not a terminal under pytest: as when piped to a file
    console.print("x" * 200, markup=False, highlight=False)
    assert capsys.readouterr().err.splitlines() == ["x" * 200]  # 200 columns: not folded
    assert console.width == 200  # as wide as that, no wider: a pipe's reader still gets lines of a set width


# -- the verdict texts of the report's first screen and of the console (ycsbctl.report.verdict_table) -------------

NAN = float("nan")


def _verdict(workload: str, threads: int, metric: str, ratio: float, verdict: str, at_peak: bool = False,
             detectable: float = NAN, caveat: str | None = None, n: int = 5, wide: bool = False) -> dict:
    lo, hi = (NAN, NAN) if n < 2 else (ratio - 0.3, ratio + 0.4) if wide else (ratio - 0.04, ratio + 0.06)
    return {"workload": workload, "target": "b", "baseline": "a", "threads": threads, "metric": metric, "ratio": ratio,
            "ci_low": lo, "ci_high": hi, "ci_level": 0.99, "p_adjusted": 0.5 if lo == lo else NAN, "verdict": verdict,
            "detectable_pct": detectable, "n": n, "test": "paired t (log ratio per round)", "caveat": caveat,
            "at_peak": at_peak, "margin_pct": 10.0}


def test_ratio_level_and_verdict_words():
    import pandas as pd

    from ycsbctl.report.verdict_table import detectable_text, level_text, ratio_text, verdict_word

    assert ratio_text({"ratio": 1.123, "ci_low": 1.05, "ci_high": 1.191}) == "1.12× [1.05, 1.19]"
    assert ratio_text({"ratio": 1.1, "ci_low": NAN, "ci_high": 1.2}) == "1.10×"  # half an interval is none
    assert ratio_text({"ratio": 1.1, "ci_low": 1.0, "ci_high": NAN}) == "1.10×"
    assert ratio_text({"ratio": NAN, "ci_low": 1.0, "ci_high": 1.2}) == "—"
    levels = {0.95: "95 %", 0.9: "90 %", 0.995: "99.5 %", 0.925: "92.5 %", 0.9999: "99.99 %", 0.99875: "99.9 %"}
    for level, text in levels.items():
        frame = pd.DataFrame({"p_adjusted": [0.2, NAN], "ci_level": [level, 0.5]})  # the untested row's level ignored
        assert level_text(frame) == text, level
    assert level_text(pd.DataFrame({"p_adjusted": [NAN], "ci_level": [0.99]})) == "95 %"  # nothing tested
    assert level_text(pd.DataFrame({"verdict": ["x"], "ci_level": [0.99]})) == "95 %"  # no test made: no family level
    assert level_text(pd.DataFrame({"p_adjusted": [0.1], "ci_level": [1 - 1e-9]})) == "100.0000 %"
    # an equivalent cell shows its two one-sided tests' interval (1 − 2α): said beside the family's level
    mixed = pd.DataFrame({"p_adjusted": [0.2, 0.3, 0.01], "ci_level": [0.9, 0.9, 0.99375],
                          "verdict": ["equivalent", "equivalent", "worse"]})
    assert level_text(mixed) == "99.4 % (an equivalent cell's: 90 %)"
    assert level_text(mixed.iloc[:2]) == "90 %" and level_text(mixed.iloc[2:]) == "99.4 %"
    open_ = {"verdict": "undecided", "detectable_pct": 6.2, "margin_pct": 10.0}
    assert verdict_word(open_) == "undecided (margin ±10 %; could detect ±6 %)"
    assert verdict_word({**open_, "detectable_pct": None}) == "undecided (margin ±10 %)"
    assert verdict_word({**open_, "detectable_pct": NAN, "margin_pct": NAN}) == "undecided"
    assert verdict_word({"verdict": "equivalent", "detectable_pct": 6.2,
                         "margin_pct": 5.0}) == "equivalent (margin ±5 %)"
    assert verdict_word({"verdict": "worse", "margin_pct": 10.0, "decided_by": "one round against the host's noise "
                         "bound"}) == "worse (margin ±10 %; beyond the host's noise)"
    assert (
        detectable_text(100.0) == "±100 %"
        and detectable_text(100.4) == "> ±100 %"
        and detectable_text(99.6) == "±100 %"
    )


def test_verdict_sections_give_each_workload_its_rows_and_the_peak_its_note():
    import pandas as pd

    from ycsbctl.report.verdict_table import verdict_sections

    rows = [_verdict("w1", 8, "throughput", 1.2, "better"), _verdict("w1", 8, "p99", 0.8, "better"),
            _verdict("w1", 16, "throughput", 1.01, "undecided", detectable=4.0, wide=True),
            _verdict("w1", 16, "throughput", 1.3, "better", at_peak=True, caveat="peak against peak: a at 32 threads"),
            _verdict("w2", 8, "throughput", 0.7, "worse", n=3)]
    exp = SimpleNamespace(workloads=["w1", "w2", "w3"])
    sections = verdict_sections(exp, pd.DataFrame(rows), "p99")  # type: ignore[arg-type]
    assert [s["workload"] for s in sections] == ["w1", "w2"]  # w3 has no verdicts
    w1 = sections[0]["rows"]
    assert [(r["threads"], r["ops"], r["lat"]) for r in w1] == [
        ("8", "1.20× [1.16, 1.26]", "0.80× [0.76, 0.86]"), ("16", "1.01× [0.71, 1.41]", "—"),
        ("peak (16)", "1.30× [1.26, 1.36]", "—")]
    assert w1[1]["ops_verdict"] == "undecided (margin ±10 %; could detect ±4 %)" and w1[1]["lat_verdict"] == "—"
    assert w1[1]["lat_class"] == "" and w1[0]["lat_class"] == "better" and w1[0]["ops_class"] == "better"
    assert w1[2]["note"] == "peak against peak: a at 32 threads" and w1[0]["note"] == ""
    assert sections[1]["rows"][0]["n"] == 3 and sections[1]["rows"][0]["ops_verdict"] == "worse (margin ±10 %)"
    assert verdict_sections(exp, pd.DataFrame(columns=list(rows[0])), "p99") == []  # type: ignore[arg-type]


def test_ladder_headlines_name_the_thread_counts_and_the_largest_difference():
    import pandas as pd

    from ycsbctl.report.verdict_table import ladder_headlines

    rows = [_verdict("w", t, "throughput", r, v, detectable=d) for t, r, v, d in (
        (4, 1.1, "better", NAN), (8, 1.5, "better", NAN), (16, 1.2, "better", NAN), (32, 0.9, "worse", NAN),
        (64, 0.5, "worse", NAN), (128, 1.0, "equivalent", 3.0), (256, 1.0, "equivalent", 7.0))]
    rows.append(_verdict("w", 512, "throughput", 1.0, "undecided", detectable=30.0, wide=True))
    rows.append(_verdict("w", 8, "throughput", 1.5, "better", at_peak=True))
    rows.append(_verdict("w", 8, "p99", 3.0, "worse"))  # latency rows are not in the sentence
    (line,) = ladder_headlines(pd.DataFrame(rows))
    assert line == ("w: b against a: faster than a at 4, 8 and 16 threads (up to 1.50× [1.46, 1.56] at 8); "
                    "slower than a at 32 and 64 threads (up to 0.50× [0.46, 0.56] at 64); "
                    "equivalent to a within ±10 % at 128 and 256 threads (1.00× at 128, 1.00× at 256); "
                    "undecided at 512 threads (1.00× at 512: the interval holds both 1 and a difference beyond the "
                    "margin; a difference of ±30 % would have been seen; more rounds decide it: --repeat auto); "
                    "peak against peak 1.50× [1.46, 1.56] (99 % interval), better (margin ±10 %).")
    one = ladder_headlines(pd.DataFrame([_verdict("w", 8, "throughput", 1.0, "equivalent")]))
    assert one == ["w: b against a: equivalent to a within ±10 % at 8 threads (1.00× at 8)."]


def test_a_ladder_headline_of_an_embedded_store_against_a_networked_one_carries_the_caveat_on_its_line():
    import pandas as pd

    from ycsbctl.report.verdict_table import ladder_headlines

    verdicts = pd.DataFrame([_verdict("w", 8, "throughput", 5.5, "better"),
                             _verdict("w", 8, "throughput", 5.5, "better", at_peak=True)])
    plain = "w: b against a: faster than a at 8 threads (up to 5.50× [5.46, 5.56] at 8); peak against peak 5.50× " \
            "[5.46, 5.56] (99 % interval), better (margin ±10 %)"
    for serverless in ({"b"}, {"a"}):
        (line,) = ladder_headlines(verdicts, serverless)
        (emb,) = serverless
        assert line == f"{plain} — unlike quantities: {emb} is embedded (no server), so it has no network round trip."
    assert ladder_headlines(verdicts, {"a", "b"}) == ladder_headlines(verdicts) == [f"{plain}."]


def test_a_headline_of_a_stand_in_says_on_its_line_that_its_numbers_are_not_the_wanted_stores():
    import pandas as pd

    from ycsbctl.report.verdict_table import ladder_headlines

    def line(target: str, base: str, stand_ins: dict[str, str]) -> str:
        row = {**_verdict("w", 8, "throughput", 0.03, "worse"), "target": target, "baseline": base}
        (said,) = ladder_headlines(pd.DataFrame([row]), stand_ins=stand_ins)
        return said

    sub = {"ferretdb": "mongodb"}
    plain = line("ferretdb", "redis", {})
    assert plain.startswith("w: ferretdb against redis: slower than redis at 8 threads") and "stands in" not in plain
    assert line("ferretdb", "redis", sub) == (f"{plain[:-1]} — ferretdb stands in for mongodb: its "
                                              "numbers are not mongodb's.")
    assert line("redis", "ferretdb", sub).endswith("— ferretdb stands in for mongodb: its numbers are not mongodb's.")
    assert line("valkey", "redis", sub) == line("valkey", "redis", {})
    # a target whose name only contains the stand-in's is not it
    assert "stands in" not in line("ferretdb2", "redis", sub)


def test_an_undecided_cell_that_only_a_huge_difference_could_break_says_so_with_the_measured_ratio():
    """Two rounds of a 25-fold gap (0.04×): the test could only see a difference beyond 786× either way.
    '> ±100 % detectable' hid that a 0.04× ratio is not 'within 100 %' on the scale the test works on."""
    import pandas as pd

    from ycsbctl.report.verdict_table import detectable_sentence, ladder_headlines
    from ycsbctl.results.verdicts import interval_text

    row = {**_verdict("w", 8, "throughput", 0.04, "undecided", detectable=78_466.0, n=2),
           "ci_low": 5.8e-5, "ci_high": 27.0}
    (line,) = ladder_headlines(pd.DataFrame([row]))
    assert line == ("w: b against a: undecided at 8 threads (0.04× at 8: the interval holds both 1 and a difference "
                    "beyond the margin; with 2 rounds only a difference beyond 786× either way would have been seen "
                    "(more rounds, --repeat, narrow it); more rounds decide it: --repeat auto).")
    # two no-difference thread counts of 2 and 3 rounds: the widest detectable, said with the fewer rounds
    two = ladder_headlines(pd.DataFrame([row, {**row, "threads": 16, "detectable_pct": 150.0, "n": 3}]))
    assert "; with 2 rounds only a difference beyond 786× either way" in two[0]
    assert detectable_sentence(150.0, 3) .startswith("with 3 rounds only a difference beyond 2.5× either way")
    assert detectable_sentence(100.0, 3) == "a difference of ±100 % would have been seen"
    # 2 rounds of a 135 % CV (the campaign's valkey vs redis6): not a 19-digit factor, the cap the peak line uses
    assert detectable_sentence(1.34e20, 2) == ("with 2 rounds no difference under 1,000× either way would have been "
                                               "seen (more rounds, --repeat, narrow it)")
    assert "beyond 1,000× either way" in detectable_sentence(99_900.0, 2)  # at the cap: still the figure
    assert interval_text(5.8e-5, 4.7e7) == " [<0.01, >1,000]" and interval_text(0.01, 1000.0) == " [0.01, 1000.00]"
    assert interval_text(NAN, 2.0) == ""


def test_the_order_text_counts_rounds_and_names_the_seed():
    import pandas as pd

    from ycsbctl.report.verdict_table import order_text

    def exp(plan: dict, reps: list[int], interleaved: bool) -> SimpleNamespace:
        return SimpleNamespace(manifest=SimpleNamespace(plan=plan), runs=pd.DataFrame({"repetition": reps}),
                               interleaved=interleaved)
    text = order_text(exp({"repeat": 5}, [1, 3, 2], True))  # type: ignore[arg-type]
    assert text.startswith("3 round(s), each visiting every point once in an order shuffled from seed 0:")
    assert "seed 7:" in order_text(exp({"seed": 7}, [1], True))  # type: ignore[arg-type]
    assert order_text(exp({"repeat": 4, "placement_resolved": {"text": "client on c1"}}, [], True)).startswith(
        "4 round(s)")  # type: ignore[arg-type]
    assert order_text(exp({}, [], True)).startswith("1 round(s)")  # type: ignore[arg-type]
    assert order_text(exp({"placement_resolved": {"text": "client on c1"}}, [1], False)).endswith(
        "(Welch's t test on the log values); client on c1")  # type: ignore[arg-type]
    blocks = [order_text(exp({"run_order": "blocks", **seed}, [1, 2], True))  # type: ignore[arg-type]
              for seed in ({"seed": 7}, {}, {"seed": 0})]
    assert [b.split("shuffled from seed ")[1].split(":")[0] for b in blocks] == ["7", "0", "0"]
    assert all(b.startswith("2 round(s), each running the targets one after another") and "(A B "
        "B A)" in b for b in blocks)


def test_noise_text_of_an_interval_from_zero_is_a_dash():
    from ycsbctl.report.verdict_table import noise_text

    assert noise_text({"throughput_low": 0.0, "throughput_high": 110.0})[0] == "—"
    assert noise_text({"throughput_low": 90.0, "throughput_high": 0.0})[0] == "—"
    assert noise_text({"throughput_low": 81.0,
                       "throughput_high": 100.0})[0] == f"±{(math.sqrt(100 / 81) - 1) * 100:.1f}%"



def test_an_unstable_cells_note_names_the_figures_that_vary_by_more_than_10_percent_not_exactly_10():
    from ycsbctl.report.verdict_table import noise_text

    cell = {"throughput_low": 90.0, "throughput_high": 110.0, "unstable": True}
    assert noise_text({**cell, "throughput_cv": 0.10, "latency_cv": 0.1001})[1] == \
        "unstable: the repetitions vary by more than 10 % (latency CV 10.0%)"
    assert noise_text({**cell, "throughput_cv": 0.25, "latency_cv": 0.10})[1] == \
        "unstable: the repetitions vary by more than 10 % (throughput CV 25.0%)"


def test_each_headline_kind_says_nothing_of_an_experiment_of_another_kind(synthetic_experiment):
    """The registry of study_headlines: a plain two-target ladder gets the ladder's sentences only (the
    disturbance and variant kinds give nothing), and every kind is a function of (experiment, verdicts)."""
    from ycsbctl.report.study_headlines import KINDS, study_headlines
    from ycsbctl.report.verdict_table import ladder_headlines
    from ycsbctl.results import load

    exp = load(synthetic_experiment)
    verdicts = exp.verdicts()
    said = {name: kind(exp, verdicts) for name, kind in KINDS}
    assert said["disturbances"] == [] and said["variants"] == []
    assert said["ladder"] == ladder_headlines(verdicts) != []
    assert study_headlines(exp, verdicts) == said["ladder"]


def test_a_disturbed_ladders_sentences_say_their_throughput_holds_the_stalls_and_one_thread_count_is_the_run_phases(
        synthetic_experiment):
    """With events in the folder each ladder sentence ends, in place of its full stop, with what its throughput
    holds; a study of one thread count is judged by its run points (the load's own thread count aside)."""
    from types import SimpleNamespace

    import pandas as pd

    from ycsbctl.report.study_headlines import _one_thread_count, ladder_study_headlines
    from ycsbctl.report.verdict_table import ladder_headlines
    from ycsbctl.results import load

    exp = load(synthetic_experiment)
    plain = ladder_headlines(exp.verdicts())
    assert plain and all(line.endswith(".") for line in plain)
    exp.events = pd.DataFrame({"target": ["redis"], "stall_s": [0.3]})
    said = ladder_study_headlines(exp, exp.verdicts())
    assert said == [line[:-1] + " (throughput with the disturbances' stalls in it)." for line in plain]
    runs = pd.DataFrame({"phase": ["load", "run", "run"], "threads": [8, 1, 2]})
    assert not _one_thread_count(SimpleNamespace(runs=runs))  # two run thread counts: a ladder
    assert _one_thread_count(SimpleNamespace(runs=runs.iloc[:2]))  # one, beside the load's 8
    assert _one_thread_count(SimpleNamespace(runs=runs.iloc[:0]))


def test_the_verdict_tables_small_texts_at_their_edges():
    """The family's level: 95 % where no cell was tested (a level column alone is no test), 99.9999 % when only four
    digits tell it from 100 %; a detectable factor from 10× without decimals (10.4 reads 10×, 9.4 reads 9.4×); three
    ratios said one by one, four as their range."""
    import pandas as pd

    from ycsbctl.report.verdict_table import _ratios, detectable_sentence, level_text

    assert level_text(pd.DataFrame({"ci_level": [0.99, 0.99]})) == "95 %"
    assert level_text(pd.DataFrame({"p_adjusted": [0.01], "ci_level": [0.999999]})) == "99.9999 %"
    assert level_text(pd.DataFrame({"p_adjusted": [0.01, 0.02], "ci_level": [0.997, 0.99]})) == "99 %"
    assert "beyond 10× either way" in detectable_sentence(940.0, 2)
    assert "beyond 9.4× either way" in detectable_sentence(840.0, 2)
    three = pd.DataFrame({"ratio": [0.5, 0.25, 0.75], "threads": [8, 1, 4]})
    assert _ratios(three) == "0.25× at 1, 0.75× at 4, 0.50× at 8"
    four = pd.concat([three, pd.DataFrame({"ratio": [0.9], "threads": [16]})])
    assert _ratios(four) == "0.25× to 0.90×"


def test_the_console_summary_draws_nothing_so_imports_no_matplotlib(tmp_path):
    """Every `ycsbctl run` prints this summary, study headlines included; matplotlib (~0.3 s of CPU per
    command) loads only where a figure is drawn. In a fresh interpreter: this one has imported it already."""
    import subprocess
    import sys

    folder = build_experiment(tmp_path, "exp", repetitions=1)
    code = ("import io, sys\nfrom rich.console import Console\nfrom ycsbctl.report.summary_table import print_summary\n"
            f"buf = io.StringIO()\nprint_summary({str(folder)!r}, Console(file=buf, width=250))\n"
            "assert 'threads' in buf.getvalue(), buf.getvalue()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]"



def test_a_many_store_study_at_one_thread_count_gets_no_ladder_nor_not_compared_sentences_and_others_their_own(
        monkeypatch):
    """study_headlines' one skip, on stand-in kinds that each say one sentence: the ladder's and the "not compared"
    sentences are left out only when the many-store study said something and the runs have one thread count (its
    per-test answer gives every store's ratio against the fastest, and its degraded stores once); every other
    kind, the many-store one included, is said whatever the thread counts."""
    from types import SimpleNamespace

    from ycsbctl.report import study_headlines as sh

    def kinds(many: list[str]) -> tuple:
        return (("many stores", lambda e, v: many), ("ladder", lambda e, v: ["ladder"]),
                ("variants", lambda e, v: ["variants"]), ("not compared", lambda e, v: ["not compared"]))

    def said(many: list[str], threads: list[int]) -> list[str]:
        monkeypatch.setattr(sh, "KINDS", kinds(many))
        runs = pd.DataFrame({"phase": ["load", *["run"] * len(threads)], "threads": [8, *threads]})
        return sh.study_headlines(SimpleNamespace(runs=runs), pd.DataFrame())  # type: ignore[arg-type]

    assert said(["stores"], [4, 4]) == ["stores", "variants"]
    assert said(["stores"], [1, 4]) == ["stores", "ladder", "variants", "not compared"]
    assert said([], [4, 4]) == ["ladder", "variants", "not compared"]


def test_a_closing_line_longer_than_the_console_reaches_a_file_whole_and_a_terminal_folded():
    """A sentence of the closing lines into a file or pipe is one line however long (a fold at the console's width
    broke "SLOWLOG DEL 9.1 ms" across two lines, and a reader's grep with it); a terminal still folds it at words."""
    from ycsbctl.report.summary_table import print_line

    words = " ".join(f"word{i}" for i in range(120))  # ~800 characters
    piped = io.StringIO()
    print_line(Console(file=piped, width=200), words)
    assert piped.getvalue() == words + "\n"
    shown = io.StringIO()
    print_line(Console(file=shown, width=200, force_terminal=True), words)
    folded = shown.getvalue().splitlines()
    assert len(folded) >= math.ceil(len(words) / 200) and all(len(line) <= 200 for line in folded), folded
    assert " ".join(line.strip() for line in folded) == words, folded
