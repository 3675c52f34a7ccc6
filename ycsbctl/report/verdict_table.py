"""The report's first screen for a thread ladder: each target against the baseline, per workload, at each
thread count and at its peak — ratio [interval at the family's level, :func:`level_text`] and verdict — and the headline
sentence that answers "which is faster, by how much, and is that real?" (verdicts: :mod:`ycsbctl.results.verdicts`)."""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.report.unlike import standin_note, unlike_note
from ycsbctl.results import looks, stats
from ycsbctl.results.cells import THROUGHPUT
from ycsbctl.results.frames import Experiment, latency_label
from ycsbctl.results.slice_pairs import TEST as SLICE_TEST
from ycsbctl.results.verdict_words import digits_for, level_words, verdict_phrase
from ycsbctl.results.verdicts import alternated, interval_text


def ratio_text(r: pd.Series | dict) -> str:
    """``1.12× [1.05, 1.19]`` (``1.12×`` without an interval), with as many decimals as its verdict needs
    (:func:`ycsbctl.results.verdict_words.digits_for`)."""
    ratio, lo, hi = r["ratio"], r["ci_low"], r["ci_high"]
    if pd.isna(ratio):
        return "—"
    m = r.get("margin_pct")
    d = digits_for(float(lo), float(hi), str(r.get("verdict", "")), float(m) / 100 if m == m and m is not None else 0.0)
    return f"{ratio:.{d}f}×" + interval_text(lo, hi, d)


def level_text(verdicts: pd.DataFrame) -> str:
    """The confidence level of a family's intervals, ``99.7 % (an equivalent cell's: 90 %)``
    (:func:`ycsbctl.results.verdict_words.level_words` on the table's rows)."""
    return level_words(verdicts.to_dict("records"))


def verdict_word(r: pd.Series | dict) -> str:
    """The verdict with the margin it was judged against, and beside ``undecided`` the smallest difference
    the test could have detected: ``undecided (margin ±10 %; could detect ±25 %)``; one decided by the host's
    noise bound alone says so (:func:`ycsbctl.results.verdict_words.verdict_phrase`)."""
    return verdict_phrase(r, noise=True)


def decision_text(plan: dict, verdicts: pd.DataFrame) -> str:
    """How the table's verdicts were reached, for the paragraph above it: the four verdicts, the margin and where it
    came from, the sequential looks (with the part of alpha the last one spent), and the host's noise bound."""
    alpha = float(plan.get("alpha") or stats.ALPHA)
    m = pd.to_numeric(verdicts.get("margin_pct", pd.Series(dtype=float)), errors="coerce").dropna()
    source = verdicts["margin_source"].dropna().iloc[0] if "margin_source" in verdicts and \
        verdicts["margin_source"].notna().any() else "the default"
    margin = f"±{m.max():.0f} %" if len(m) else f"±{100 * stats.EQUIVALENCE_MARGIN:.0f} %"
    parts = [f"<b>better</b> or <b>worse</b> when the interval leaves 1.00 out, <b>equivalent</b> when the interval "
             f"of the two one-sided tests (each at α: 1 − 2α) lies within {margin} ({source}), <b>undecided</b> when "
             "it is too wide for either (beside it, the smallest difference these rounds could have detected, 80 % "
             "power)"]
    rounds = int(pd.to_numeric(verdicts.get("n", pd.Series(dtype=float)),
                               errors="coerce").max() or 1) if len(verdicts) else 1
    if plan.get("sequential"):
        planned = plan.get("planned_rounds")
        spent = looks.plan_spent_alpha(plan, alpha, rounds)
        how = ("by the information each look had, with the O'Brien–Fleming-like Lan–DeMets function and the looks' "
               f"correlation, over the {int(planned or 1)} rounds the budget was planned to hold after the first"
               if plan.get("spending") == looks.SPENDING else
               "a part each (a union bound)" + (f", over the looks of the {int(planned)} rounds the budget was planned "
                                                "to hold after the first" if planned else ""))
        parts.append(f"rounds were added until every throughput cell was decided or the --budget was spent (--repeat "
                     f"auto); the looks spent α = {alpha:g} {how}; the last one tested at α = {spent:.2g}, so stopping "
                     "on the data keeps the error rate")
    else:
        parts.append(f"tested at α = {alpha:g}")
    parts.append("the p values of a difference adjusted together (Benjamini–Hochberg) and the intervals stated at the "
                 "level that agrees with them (1 − α × called ÷ tested); an equivalent cell's interval is its own "
                 "test's")
    by = verdicts.get("decided_by", pd.Series(dtype=object)).dropna().astype(str)
    if by.str.contains("ANCOVA", regex=False).any():
        parts.append("where the share of the host that other programs and the hypervisor took varied between the "
                     "points of a pair, the paired test is adjusted for it (analysis of covariance: each round's log "
                     "ratio regressed on the difference, the ratio read at an equal share), so what the host took from "
                     "one side and not the other is not noise around the ratio")
    if by.str.contains(SLICE_TEST, regex=False).any():
        parts.append("where a cell's targets took turns in one engine session (alternated slices), each pair is "
                     "compared block by block — the log ratio of their rates, or of their slices' latency, in each "
                     "block — with a t interval over the blocks (their correlation in time counted), so the host's "
                     "noise that hits both sides cancels and one round gives an interval")
    if by.str.contains("noise").any():
        parts.append("an interval is also bounded by the host's own noise — what two runs of one server differ by here "
                     "(the calibration record, else ±20 % for a rate and three-fold for a latency), widened by the "
                     "share of the host other programs took during each point — so a gap far beyond it is decided "
                     "from one round, and a busy host widens the bound instead of taking the answer away")
    return "; ".join(parts) + "."


def detectable_text(pct: float) -> str:
    """``±6 %``; above 100 % the figure says nothing more than "huge": ``> ±100 %``."""
    return f"±{pct:.0f} %" if pct <= 100 else "> ±100 %"


def detectable_sentence(pct: float, rounds: int) -> str:
    """What an ``undecided`` cell could have seen: ``a difference of ±6 % would have been seen``; past
    100 % as the factor it is on the ratio's (log) scale, since a 0.04× ratio is a 25-fold difference that
    ``> ±100 %`` hides: ``with 2 rounds only a difference beyond 786× either way would have been seen``."""
    if pct <= 100:
        return f"a difference of {detectable_text(pct)} would have been seen"
    factor = 1 + pct / 100
    rounds_text = f"with {rounds} round{'s' if rounds != 1 else ''}"
    if factor > 1000:  # as the peak line's "[<0.01, >1,000]": "beyond 1,341,723,148,682,526,464×" was printed
        return (
            f"{rounds_text} no difference under 1,000× either way would have been seen (more "
            "rounds, --repeat, narrow it)"
        )
    shown = f"{factor:,.0f}×" if factor >= 10 else f"{factor:.1f}×"
    return (
        f"{rounds_text} only a difference beyond {shown} either way would have been seen (more "
        "rounds, --repeat, narrow it)"
    )


def _threads(values: list[int]) -> str:
    return ", ".join(str(t) for t in values[:-1]) + (" and " if len(values) > 1 else "") + str(values[-1])


def verdict_sections(exp: Experiment, verdicts: pd.DataFrame, latency: str) -> list[dict]:
    """Per workload: the baseline and one row per target × thread count (then its peak row) with the
    throughput and latency verdicts side by side."""
    out: list[dict] = []
    if not len(verdicts):
        return out
    lat = latency_label(latency)
    for workload in exp.workloads:
        v = verdicts[verdicts["workload"] == workload]
        if not len(v):
            continue
        rows = []
        for target in dict.fromkeys(v["target"]):
            t = v[v["target"] == target]
            for threads in sorted(set(t.loc[~t["at_peak"].astype(bool), "threads"])):
                cell = t[(t["threads"] == threads) & ~t["at_peak"].astype(bool)]
                tp = cell[cell["metric"] == THROUGHPUT]
                lt = cell[cell["metric"] != THROUGHPUT]
                rows.append(_row(target, str(threads), tp, lt))
            peak = t[t["at_peak"].astype(bool)]
            if len(peak):
                rows.append(_row(target, f"peak ({int(peak.iloc[0]['threads'])})", peak, peak.iloc[:0],
                                 note=str(peak.iloc[0]["caveat"] or "")))
        first = v.iloc[0]
        out.append({"workload": workload, "baseline": first["baseline"], "latency": lat, "rows": rows,
                    "test": str(first["test"])})
    return out


def busy_note(r: pd.Series | dict | None) -> str:
    """``2 of 5 rounds on a busy host (others took up to 62 % of it)`` for a cell some of whose compared points
    were degraded by a busy host; empty otherwise."""
    if r is None:
        return ""
    busy, n, top = r.get("busy_rounds"), r.get("n"), r.get("host_busy_max_pct")
    if not isinstance(busy, (int, float)) or busy != busy or not busy:
        return ""
    took = f" (others took up to {top:.0f} % of it)" if isinstance(top, float) and top == top else ""
    rounds = int(n) if isinstance(n, (int, float)) and n == n else int(busy)
    return f"{int(busy)} of {rounds} round{'s' if rounds != 1 else ''} on a busy host{took}"


def _row(target: str, threads: str, tp: pd.DataFrame, lt: pd.DataFrame, note: str = "") -> dict:
    a = tp.iloc[0] if len(tp) else None
    b = lt.iloc[0] if len(lt) else None
    note = "; ".join(x for x in (note, busy_note(a)) if x)
    return {"target": target, "threads": threads,
            "ops": ratio_text(a) if a is not None else "—", "ops_verdict": verdict_word(a) if a is not None else "—",
            "ops_class": str(a["verdict"]) if a is not None else "",
            "lat": ratio_text(b) if b is not None else "—", "lat_verdict": verdict_word(b) if b is not None else "—",
            "lat_class": str(b["verdict"]) if b is not None else "", "n": int(a["n"]) if a is not None else 0,
            "note": note}


def ladder_headlines(verdicts: pd.DataFrame, serverless: frozenset[str] | set[str] = frozenset(),
                     stand_ins: dict[str, str] | None = None) -> list[str]:
    """One sentence per workload × target: where it is faster or slower than the baseline (with the
    interval of the largest difference), where no difference was detected (and how small a difference
    could have been), and peak against peak; with the caveat when one of the two is embedded and the
    other networked (``serverless``: :func:`ycsbctl.report.unlike.serverless_targets`), or stands in for
    the store the plan asked for (``stand_ins``: used -> wanted)."""
    out: list[str] = []
    if not len(verdicts):
        return out
    tp = verdicts[verdicts["metric"] == THROUGHPUT]
    for (workload, target), g in tp.groupby(["workload", "target"], sort=False):
        base = g.iloc[0]["baseline"]
        cells = g[~g["at_peak"].astype(bool)].sort_values("threads")
        parts = []
        for verdict, words in ((stats.BETTER, "faster"), (stats.WORSE, "slower")):
            hit = cells[cells["verdict"] == verdict]
            if len(hit):
                far = hit.loc[(hit["ratio"].map(math.log).abs()).idxmax()]
                parts.append(f"{words} than {base} at {_threads(list(hit['threads']))} threads "
                             f"(up to {ratio_text(far)} at {int(far['threads'])})")
        same = cells[cells["verdict"] == stats.EQUIVALENT]
        if len(same):
            parts.append(f"equivalent to {base} within ±{same['margin_pct'].max():.0f} % at "
                         f"{_threads(list(same['threads']))} threads ({_ratios(same)})")
        few = cells[cells["verdict"] == stats.UNDECIDED]
        if len(few):
            d = few["detectable_pct"].max()
            could = f"; {detectable_sentence(d, int(few['n'].min()))}" if not pd.isna(d) else ""
            parts.append(f"undecided at {_threads(list(few['threads']))} threads ({_ratios(few)}: the interval "
                         f"holds both 1 and a difference beyond the margin{could}; more rounds decide it: "
                         "--repeat auto)")
        peak = g[g["at_peak"].astype(bool)]
        if len(peak):
            p = peak.iloc[0]
            bound = str(p.get("decided_by") or "").startswith(stats.NOISE_ONLY)
            level = ("" if not interval_text(p["ci_low"], p["ci_high"]) else " (the host's noise bound)" if bound
                     else f" ({level_text(peak)} interval)")
            parts.append(f"peak against peak {ratio_text(p)}{level}, {verdict_word(p)}")
        if parts:
            out.append(
                f"{workload}: {target} against {base}: "
                + "; ".join(parts)
                + unlike_note(target, base, serverless)
                + standin_note(target, base, stand_ins or {})
                + "."
            )
    return out


def _ratios(cells: pd.DataFrame) -> str:
    """The measured ratios of some cells: ``0.04× at 8, 0.07× at 32`` (three or fewer), else their range."""
    r = cells.sort_values("threads")
    if len(r) <= 3:
        return ", ".join(f"{x:.2f}× at {int(t)}" for x, t in zip(r["ratio"], r["threads"]))
    return f"{r['ratio'].min():.2f}× to {r['ratio'].max():.2f}×"


def order_text(exp: Experiment) -> str:
    """How the points ran (their order, and where servers and client ran), as the report's first screen says it."""
    plan = exp.manifest.plan
    placed = (plan.get("placement_resolved") or {}).get("text")
    return _order(exp, plan) + (f"; {placed}" if placed else "")


def _order(exp: Experiment, plan: dict) -> str:
    reps = int(plan.get("repeat") or 1)
    rounds = int(exp.runs["repetition"].max()) if len(exp.runs) else reps
    if alternated(exp.runs):
        return (f"{rounds} round(s), each measuring a cell's targets in one engine session, taking turns every "
                "slice (A B B A): pairs compared slice by slice (t over blocks), where their slices "
                "were kept")
    if plan.get("run_order") == "blocks":
        return (f"{rounds} round(s), each running the targets one after another, one server up at a time, their "
                "order reversed every other round (A B B A), each target's points in an order shuffled from seed "
                f"{plan.get('seed') if plan.get('seed') is not None else 0}: repetitions pair by round "
                "(paired t test on the log ratios)")
    if exp.interleaved:
        return (f"{rounds} round(s), each visiting every point once in an order shuffled from seed "
                f"{plan.get('seed') if plan.get('seed') is not None else 0}: repetitions pair by round "
                "(paired t test on the log ratios)")
    return ("points ran target by target, repetitions back to back: the host's drift between targets cannot be "
            "excluded (Welch's t test on the log values)")


def noise_text(cell: dict | None) -> tuple[str, str]:
    """(the 95 % interval of a cell's throughput as ``±3.1 %``, its warnings: ``unstable``, ``within one run
    only``, drift) from a row of :func:`ycsbctl.results.cells.cell_table`; ("—", "") without one."""
    if not cell:
        return "—", ""
    lo, hi = cell.get("throughput_low"), cell.get("throughput_high")
    text = "—"
    if isinstance(lo, float) and isinstance(hi, float) and lo > 0 and hi > 0:
        half = (math.sqrt(hi / lo) - 1) * 100  # above 100 % it says nothing more than "huge" (two or three batches)
        text = f"±{half:.1f}%" if half <= 100 else "> ±100%"
    notes = []
    if cell.get("within_run"):
        notes.append("within one run only: batch means of its seconds, blind to the noise between runs")
    if cell.get("unstable"):
        # the figures that vary by more than the threshold (the cell is unstable when either does)
        shown = [f"{name} CV {cv:.1%}" for name in ("throughput", "latency")
                 if isinstance(cv := cell.get(f"{name}_cv"), float) and cv > stats.UNSTABLE_CV]
        # one run's interval is made of its seconds: "the repetitions" of a single run was said (campaign, 27 Nov)
        varied = "its seconds vary" if cell.get("within_run") else "the repetitions vary"
        notes.append(f"unstable: {varied} by more than 10 %" + (f" ({', '.join(shown)})" if shown else ""))
    if cell.get("drift"):
        notes.append(str(cell["drift"]))
    return text, "; ".join(notes)


def cells_by_point(cells: pd.DataFrame, workload: str) -> dict[tuple, dict]:
    """(target, threads, offered rate or None) -> the cell's row of :func:`ycsbctl.results.cells.cell_table`."""
    return {(c["target"], int(c["threads"]),
             c["target_rate"] if c["target_rate"] == c["target_rate"] and c["target_rate"] else None): c
            for c in cells[cells["workload"] == workload].to_dict("records")}
