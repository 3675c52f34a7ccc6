"""What ``ycsbctl calibrate`` prints: each metric's table (ycsbctl against the reference client per
thread count, a ratio with its interval and verdict), the verdict on the client, and how it was run."""

from __future__ import annotations

import math
from typing import Any

from ycsbctl.experiment.calibrate import PROBE_REQUESTS, YCSBCTL, Calibration
from ycsbctl.results import stats
from ycsbctl.results.verdict_words import level_words
from ycsbctl.results.verdicts import interval_text


def _ratio(c: dict[str, Any]) -> str:
    return "—" if c["ratio"] != c["ratio"] else f"{c['ratio']:.2f}×{interval_text(c['ci_low'], c['ci_high'])}"


def _verdict(c: dict[str, Any]) -> str:
    v = str(c["verdict"])
    d = c["detectable_pct"]
    return f"{v} (could detect ±{d:.0f} %)" if v == stats.UNDECIDED and d == d else v


def _value(c: dict[str, Any], key: str) -> str:
    x = c[key]
    if x != x:
        return "—"
    return f"{x / 1000:,.2f} ms" if c["metric"] == "READ p99" else f"{x:,.1f}" if c["unit"] == "µs" else f"{x:,.0f}"


def _level(cells: list[dict[str, Any]]) -> str:
    """The family's level, and an equivalent cell's beside it (:func:`level_words`)."""
    return level_words(cells)


# "Not the bottleneck" needs every throughput interval to rule out a shortfall larger than this (5 %).
ENOUGH = 0.95


def _and(items: list[str]) -> str:
    return ", ".join(items[:-1]) + (" and " if len(items) > 1 else "") + items[-1]


def verdict_sentence(cal: Calibration, cells: list[dict[str, Any]]) -> str:
    """Whether the client limited ycsbctl's throughput, from the throughput verdicts: a shortfall called
    (``worse``) at some thread count; none, with every interval ruling out one above 5 %; or none called
    but not ruled out either (intervals too wide: more rounds)."""
    ref = cal.reference
    tp = [c for c in cells if c["metric"] == "throughput"]
    threads = _and([str(c["threads"]) for c in tp])
    got = _and([f"{_ratio(c)} at {c['threads']}" for c in tp])
    if any(c["ci_low"] != c["ci_low"] for c in tp):  # no interval: a single round
        return (f"Not decided: one round gives no interval (ycsbctl got {got} threads of {ref}'s rate); "
                "run --rounds 5 for a verdict.")
    worse = [c for c in tp if c["verdict"] == stats.WORSE]
    if worse:
        return (f"The client limits what ycsbctl measures at {_and([str(c['threads']) for c in worse])} threads: "
                f"from the same server it got {got} threads of {ref}'s rate ({_level(cells)} intervals); read "
                "ycsbctl's points with that many threads as a lower bound of the server's.")
    floor = min(c["ci_low"] for c in tp)
    if floor >= ENOUGH:
        return (f"ycsbctl's client is not the bottleneck at {threads} threads: from the same server it got {got} "
                f"threads of {ref}'s rate — at least {floor:.2f}× of it ({_level(cells)} intervals).")
    margin = cal.plan.margin
    if all(c["verdict"] in (stats.EQUIVALENT, stats.BETTER) for c in tp):
        within = f"within ±{100 * margin:g} % of {ref}"
        said = (f"{within} (equivalent)" if all(c["verdict"] == stats.EQUIVALENT for c in tp) else
                f"{within} or above it (equivalent or better)")
        return (f"ycsbctl's client is {said} at {threads} threads: from the same server it got {got} threads of "
                f"{ref}'s rate ({_level(cells)}); a shortfall of up to {100 * (1 - floor):.0f} % is not ruled out.")
    return (f"No shortfall detected at {threads} threads (ycsbctl got {got} threads of {ref}'s rate from the same "
            f"server), but the intervals ({_level(cells)}) leave room for one down to {floor:.2f}×: not decided, "
            f"neither a shortfall nor within ±{100 * margin:g} %{_rounds_needed(cal, tp)}.")


def _rounds_needed(cal: Calibration, tp: list[dict[str, Any]]) -> str:
    """`` — at their spread about 24 rounds (~5 min of --budget) would decide it``, from the open throughput cells'
    intervals (:func:`ycsbctl.results.looks.narrowing_needed`: an estimate, were the ratios to hold); else the
    options that narrow them."""
    from ycsbctl.results.looks import narrowing_needed, rounds_needed

    need = max((narrowing_needed(c["ci_low"], c["ci_high"], cal.plan.margin) for c in tp
                if c["verdict"] == stats.UNDECIDED), default=math.inf)
    rounds = rounds_needed(need, cal.rounds_run)
    if rounds is None:
        return " — more rounds (--rounds, --budget) or longer ones (--duration) narrow them"
    each = cal.round_s if cal.round_s else _round_s(cal)
    return (f" — at their spread about {rounds} rounds would decide it (--rounds {rounds}, or --budget "
            f"{math.ceil(rounds * each / 60)}m at ~{each:.0f} s a round), were the ratios to hold")


def _round_s(cal: Calibration) -> float:
    """A round's length (s), from the plan: every thread count once a side."""
    return 2 * len(cal.plan.threads) * cal.plan.duration_s


def calibration_lines(cal: Calibration) -> list[str]:
    """The tables, the verdict and how it was run, as lines to print."""
    plan, ref = cal.plan, cal.reference
    cells = cal.comparisons()
    out = [f"ycsbctl against {ref} on {cal.server} ({cal.url}): {plan.records:,} records, {cal.rounds_run} round(s) "
           f"of about {plan.duration_s:g} s per side and thread count", ""]
    head = f"{'threads':>7}  {'ycsbctl':>12}  {ref:>16}  {'ycsbctl ÷ ' + ref + ' [' + _level(cells) + ']':<34}  verdict"
    for metric, unit, higher in _metrics(cells):
        out.append(f"{metric} ({unit}, {'higher' if higher else 'lower'} is better)")
        out.append(head)
        for c in (c for c in cells if c["metric"] == metric):
            out.append(f"{c['threads']:>7}  {_value(c, 'ycsbctl'):>12}  {_value(c, 'reference'):>16}  {_ratio(c):<34}  "
                       f"{_verdict(c)}")
        out.append("")
    out.append(verdict_sentence(cal, cells))
    out += ["", "How it was run:"] + [f"  - {line}" for line in how_it_ran(cal, cells)]
    return out


def _metrics(cells: list[dict[str, Any]]) -> list[tuple[str, str, bool]]:
    return list(dict.fromkeys((c["metric"], c["unit"], c["higher_is_better"]) for c in cells))


def how_it_ran(cal: Calibration, cells: list[dict[str, Any]]) -> list[str]:
    plan, ref, p = cal.plan, cal.reference, cal.properties
    pad = int(p.get("zeropadding", "1"))
    first, last = f"user{0:0{pad}d}", f"user{plan.records - 1:0{pad}d}"
    ours = sum(s.reads for s in cal.samples if s.side == YCSBCTL)
    theirs = sum(s.reads for s in cal.samples if s.side != YCSBCTL)
    same = (f"the same server: it counted {cal.reads_served:,} HGETALL calls over the warm-ups and rounds, the "
            f"{cal.reads_sent:,} both sides sent ({ours:,} by ycsbctl and {theirs:,} by {ref} in the rounds)"
            if cal.reads_served == cal.reads_sent else
            f"the server counted {cal.reads_served:,} HGETALL calls where both sides sent {cal.reads_sent:,}: another "
            "client used this server meanwhile, and these figures are not ycsbctl's and its alone")
    tested = sum(1 for c in cells if c["p_adjusted"] == c["p_adjusted"])
    lines = [
        f"both read the same {plan.records:,} records ({first} … {last}, 10 fields of 100 bytes) uniformly at random, "
        "one HGETALL per read",
        f"ycsbctl: workload C (readproportion=1, readallfields=true), requestdistribution=uniform, "
        f"insertorder={p.get('insertorder')}, zeropadding={pad}; each run {plan.duration_s:g} s, no warm-up, "
        f"{plan.processes or 'its default number of'} worker process(es)",
        *(f"{ref} at {t} threads: {cmd} (-n sized to about {plan.duration_s:g} s at its previous rate)"
          for t, cmd in sorted(cal.reference_commands.items())),
        f"order: thread counts and sides shuffled in each round from seed {plan.seed}, after an unmeasured warm-up "
        f"per thread count ({f'{plan.warmup_s:g} s of ycsbctl, ' if plan.warmup_s else 'none of ycsbctl, '}"
        f"{PROBE_REQUESTS:,} requests of {ref}); each side's rounds paired (paired t on the log ratios), "
        f"Benjamini–Hochberg over the {tested} cells tested, intervals at the family's level ({_level(cells)})",
        same,
        f"host: {cal.cores} cores shared by both clients and the server; 1-minute load average "
        f"{_num(cal.load_avg[0])} before the rounds, {_num(cal.load_avg[1])} after",
        f"{ref} starts a request's clock when its event loop writes it, ycsbctl when the read is issued: its "
        "p99 can be lower for that alone (see the Little's-law table in docs/benchmarks.md)",
    ]
    if cal.busy:
        lines.append(f"another benchmark ran on this host meanwhile ({cal.busy[0]}): every figure above shares "
                     "the cores with it")
    return lines


def _num(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.2f}"
