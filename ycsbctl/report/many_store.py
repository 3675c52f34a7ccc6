"""The many-store study (``workloads/media-items``): each test of the study against each store — the
throughput (ops/s) and p99 (µs) at the study's concurrency (50 client threads, else the highest measured),
a "cannot" cell with its reason where the store cannot answer the test (never a zero), the store's memory
per item after its loads — as a table, a grouped bar figure like the study's
(:mod:`ycsbctl.report.many_store_figure`), and one headline per test
(the fastest store, every other store's ratio to it with its interval and verdict from
:mod:`ycsbctl.results.verdicts`, and the stores that cannot). Reads the result folder only."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ycsbctl.report.unlike import embedded_note, serverless_targets, unlike_bases
from ycsbctl.results import stats
from ycsbctl.results.causes import cause
from ycsbctl.results.frames import Experiment
from ycsbctl.results.variants import split_variant, test_of, variant_name
from ycsbctl.results.verdicts import interval_text, plan_judging, target_verdicts, verdict_text

STUDY_THREADS = 50  # the study's concurrency: wrk -c50
TEST_NAMES = {"byid": "GET-BY-ID", "1cond": "QUERY-1COND", "2cond": "QUERY-2COND", "text": "FULLTEXT",
              "text_prefix": "FULLTEXT-PREFIX", "update": "UPDATE"}


@dataclass
class Cell:
    """One test on one store: measured (ops/s, p99 µs), or why not (``cannot`` / ``failed`` / ``not measured``)."""

    test: str
    workload: str  # the variant's name in run ids (media-items-text)
    target: str
    throughput: float = math.nan
    p99_us: float = math.nan
    status: str = "not measured"
    why: str = ""
    # the throughput's 95 % interval (ops/s) from the cell table; ``within_run``: one run's batch means
    low: float = math.nan
    high: float = math.nan
    within_run: bool = False


@dataclass
class StoreStudy:
    threads: int
    tests: list[str]
    targets: list[str]
    cells: list[Cell]
    bytes_per_item: dict[str, float] = field(default_factory=dict)
    memory_basis: dict[str, str] = field(default_factory=dict)  # target -> what its bytes per item grew from

    def memory_caveat(self) -> str:
        """The caveat for the stores' memory per item side by side when their figures are of unlike kinds
        (Redis ``used_memory``, SQLite's file, FerretDB's dbStats); empty when every figure is of one kind."""
        return unlike_bases({t: {"basis": b} for t, b in self.memory_basis.items()}, list(self.bytes_per_item))

    def cell(self, test: str, target: str) -> Cell | None:
        return next((c for c in self.cells if c.test == test and c.target == target), None)


def _tests(exp: Experiment) -> list[tuple[str, str]]:
    """(test, workload name) of each of the plan's variants that is a study test."""
    out = []
    given = dict(p.partition("=")[::2] for p in exp.manifest.plan.get("properties") or [])  # -p key=value
    for w in exp.manifest.workloads:
        base, settings = split_variant(w)
        test = test_of(settings) or test_of({k: v for k, v in given.items() if "," not in v})
        if test is not None:
            out.append((test, variant_name(os.path.basename(base), settings)))
    return out


def store_study(exp: Experiment, latency: str = "p99") -> StoreStudy | None:
    """The study's table from the folder; None when it holds no study test."""
    tests = _tests(exp)
    if not tests:
        return None
    names = {name for _, name in tests}
    runs = exp.runs[exp.runs["workload"].isin(names) & (exp.runs["phase"] == "run")] if len(exp.runs) else exp.runs
    ladder = sorted({int(t) for t in runs["threads"]}) if len(runs) else [STUDY_THREADS]
    threads = STUDY_THREADS if STUDY_THREADS in ladder else ladder[-1]
    cannot = {(c.target, c.workload): c.reason for c in exp.manifest.cannot}
    targets = list(dict.fromkeys([*exp.targets, *(c.target for c in exp.manifest.cannot)]))
    cells_df = exp.cells(latency)
    out = []
    for test, name in tests:
        for target in targets:
            c = Cell(test, name, target)
            if (target, name) in cannot:
                c.status, c.why = "cannot", cannot[(target, name)].split(": ", 1)[-1]
            else:
                got = cells_df[(cells_df["workload"] == name) & (cells_df["target"] == target)
                               & (cells_df["threads"] == threads)] if len(cells_df) else cells_df
                ok = runs[(runs["workload"] == name) & (runs["target"] == target) & (runs["threads"] == threads)
                          & (runs["status"] == "ok")] if len(got) else runs.iloc[:0]
                if len(ok):  # the points' own ops/s and p99 (what the verdicts compare, round by round)
                    c.throughput = float(ok["throughput_ops"].astype(float).mean())
                    c.p99_us, c.status = float(ok["all_p99_us"].astype(float).mean()), "ok"
                    g = got.iloc[0]
                    c.low, c.high = float(g["throughput_low"]), float(g["throughput_high"])
                    c.within_run = bool(g["within_run"])
                else:
                    mine = runs[(runs["workload"] == name) & (runs["target"] == target)] if len(runs) else runs
                    degraded = (
                        mine[(mine["status"] == "degraded") & (mine["threads"] == threads)] if len(mine) else mine
                    )
                    if len(degraded):  # measured, but not a healthy point: its numbers, marked
                        c.throughput = float(degraded["throughput_ops"].astype(float).mean())
                        c.p99_us = float(degraded["all_p99_us"].astype(float).mean())
                        c.low, c.high, c.within_run = _interval_of(exp, degraded)
                    if len(mine):
                        c.status = str(mine.iloc[-1]["status"])
                        c.why = str(mine.iloc[-1].get("error") or "")
            out.append(c)
    fps = exp.manifest.workload_footprints or {}
    per_item: dict[str, float] = {}
    basis: dict[str, str] = {}
    for target in targets:
        loads = [fp[target] for _, name in tests for fp in [fps.get(name, {})]
                 if isinstance((fp.get(target) or {}).get("bytes_per_record"), int | float)]
        firsts = [f for f in loads if f["bytes_per_record"] > 0]
        if firsts:  # the first load's, into an empty store (a SQLite file keeps the pages a dropped table freed)
            per_item[target] = float(firsts[0]["bytes_per_record"])
            basis[target] = str(firsts[0].get("basis") or "unknown")
    return StoreStudy(threads, [t for t, _ in tests], targets, out, per_item, basis)


def _interval_of(exp: Experiment, runs: pd.DataFrame) -> tuple[float, float, bool]:
    """(low, high, within_run) of a degraded cell's throughput (ops/s): the 95 % interval of its runs, or with
    one run the batch means of its measured seconds (warm-up and the last, partial second left out)."""
    if len(runs) > 1:
        i = stats.interval([float(v) for v in runs["throughput_ops"]])
        return i.low, i.high, False
    s = exp.series_of(str(runs["run_id"].iloc[0]))
    s = s[s["op"] == "OVERALL"].sort_values("second") if len(s) else s
    if "warmup" in s:
        s = s[~s["warmup"].fillna(False).astype(bool)]
    per_s = [float(v) for v in pd.to_numeric(s.get("operations", pd.Series(dtype=float)), errors="coerce") if v == v]
    i = stats.batch_interval(per_s[:-1] if len(per_s) > 2 else per_s)
    return i.low, i.high, True


def store_study_rows(study: StoreStudy | None) -> list[dict[str, Any]]:
    """The report's table: one row per test × store."""
    if study is None:
        return []
    return [{"test": TEST_NAMES.get(c.test, c.test), "target": c.target, "throughput": c.throughput,
             "p99_us": c.p99_us, "status": c.status, "why": c.why,
             "bytes_per_item": study.bytes_per_item.get(c.target, math.nan)} for c in study.cells]


WITHIN_RUN_NOTE = ("Untested ratios (those without a verdict word): no test compared them — one repetition, or a "
                   "degraded point (†) its rounds could not pair; their interval is from each run's own seconds, batch "
                   "means in quadrature, blind to the noise between runs.")


def within_run_ratio(c: Cell, best: Cell) -> str:
    """``c``'s throughput against ``best``'s where no test compared them (one repetition each): the ratio with
    an interval made of the two cells' within-run intervals (batch means of each run's seconds), their log
    half-widths added in quadrature — an approximation (:data:`WITHIN_RUN_NOTE` says so once for the study);
    without both intervals, no ratio at all (never a bare one)."""
    spans = [(x.low, x.high) for x in (c, best)]
    if not all(0 < lo <= hi for lo, hi in spans):  # NaN compares False; an interval's low is never above its high
        return f"{c.throughput:,.0f} ops/s (no ratio: one repetition and no interval of its own seconds)"
    ratio = c.throughput / best.throughput
    half = math.sqrt(sum((math.log(hi / lo) / 2) ** 2 for lo, hi in spans))
    digits = 2 if ratio >= 0.1 else 3 if ratio >= 0.01 else 4  # two significant figures down to 0.001×
    return f"{ratio:.{digits}f}×{interval_text(ratio * math.exp(-half), ratio * math.exp(half), digits)}"


MEASURED = ("ok", "degraded")  # a cell with figures of its own: ranked and compared in the headline


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


DEGRADED_MARK = "†"  # after the store's name in a degraded cell's place; one sentence for the study says what it means


def _mark(c: Cell) -> str:
    return DEGRADED_MARK if c.status == "degraded" else ""


def degraded_sentence(study: StoreStudy) -> str:
    """The one sentence that explains :data:`DEGRADED_MARK` for the whole study: each cause (the cells' own,
    :func:`~ycsbctl.results.causes.cause`) once, with the stores it degraded — ``on every test`` or the tests named —
    instead of the cause after every ratio; empty when no measured cell is degraded."""
    by_cause: dict[str, dict[str, list[str]]] = {}
    for c in study.cells:
        if c.status == "degraded" and c.throughput == c.throughput:
            why = cause("degraded", None, c.why) or "cause not recorded"
            by_cause.setdefault(why, {}).setdefault(c.target, []).append(TEST_NAMES.get(c.test, c.test))
    if not by_cause:
        return ""
    said = []
    for why, stores in by_cause.items():
        where: dict[str, list[str]] = {}  # "on every test" or the tests -> the stores degraded there
        for t, tests in stores.items():
            where.setdefault("every test" if len(tests) == len(study.tests) > 1 else ", ".join(tests), []).append(t)
        said.append(f"{why} ({'; '.join(f'{_and(ts)} on {w}' for w, ts in where.items())})")
    return f"{DEGRADED_MARK} degraded — {'; '.join(said)}."


def store_study_headlines(exp: Experiment, latency: str = "p99") -> list[str]:
    """One sentence per test: the fastest store at the study's concurrency, each other store's throughput
    against it (ratio, interval, verdict: :func:`~ycsbctl.results.verdicts.target_verdicts`) — with the
    caveat when embedded and networked stores are compared (:func:`~ycsbctl.report.unlike.embedded_note`) —
    and the stores that cannot answer the test."""
    study = store_study(exp, latency)
    if study is None:
        return []
    serverless = serverless_targets(exp)
    out = []
    untested = False  # a ratio without a test: said once, after the tests' sentences
    for test in study.tests:
        cells = [c for c in study.cells if c.test == test]
        # a degraded measurement is still one: ranked with the others, said degraded (and why, by cause)
        measured = [c for c in cells if c.status in MEASURED and c.throughput == c.throughput]
        cannot = [c.target for c in cells if c.status == "cannot"]
        failed = [f"{c.target} ({c.status}{f', {c.throughput:,.0f} ops/s' if c.throughput == c.throughput else ''})"
                  for c in cells if c.status != "cannot" and c not in measured]
        head = f"{TEST_NAMES.get(test, test)} at {study.threads} threads: "
        parts = []
        if measured:
            best = max(measured, key=lambda c: c.throughput)
            parts.append(f"fastest {best.target}{_mark(best)}, {best.throughput:,.0f} ops/s "
                         f"(p99 {best.p99_us / 1000:,.2f} ms)")
            others = [c for c in measured if c is not best]
            if others:
                runs = exp.runs[exp.runs["workload"] == best.workload]
                v = target_verdicts(runs, best.target, latency, how=plan_judging(exp.manifest.plan, runs),
                                    slices=exp.slices())
                v = v[(v["metric"] == "throughput") & (v["threads"] == study.threads) & ~v["at_peak"].astype(bool)] \
                    if len(v) else v
                words = []
                for c in others:
                    row = v[v["target"] == c.target] if len(v) else v
                    tested = bool(len(row)) and not pd.isna(row.iloc[0]["ci_low"])
                    said = verdict_text(row.iloc[0]) if tested else within_run_ratio(c, best)
                    untested |= not tested and "×" in said
                    words.append(f"{c.target}{_mark(c)} {said}")
                parts.append("against it " + "; ".join(words)
                             + embedded_note([best.target, *(c.target for c in others)], serverless))
        else:
            parts.append("no store measured")
        if failed:
            parts.append("not compared: " + ", ".join(failed))
        if cannot:
            parts.append("cannot: " + ", ".join(cannot))
        out.append(head + " — ".join(parts) + ".")
    notes = [WITHIN_RUN_NOTE if untested else "", degraded_sentence(study)]
    return [*out, *(n for n in notes if n)]
