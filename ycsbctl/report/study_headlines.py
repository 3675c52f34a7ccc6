"""The answer of each kind of experiment, in a sentence or two, for the report's first screen and the
console's closing lines: a disturbance study's stall and operations lost per action and target (and
which target lost fewest), a variant sweep's bytes and records (users) per second per variant and
target (and which variant is smallest and fastest), then a thread ladder's verdicts
(:func:`ycsbctl.report.verdict_table.ladder_headlines`) and why a target was not compared. Reads the
result folder only.

**Adding a kind of experiment** (the many-store study: per query, the fastest store and the stores that
cannot answer): write ``def my_headlines(exp: Experiment, verdicts: pd.DataFrame) -> list[str]`` — one
sentence per answer, each with the figures that back it, and ``[]`` for an experiment of another kind —
and add it to :data:`KINDS` where it should be read (the study's own answer before the ladder's verdicts).
The report, the console and the notebook read :func:`study_headlines`; nothing else changes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ycsbctl.report.unlike import serverless_targets
from ycsbctl.report.variant_study import study_rows
from ycsbctl.report.verdict_table import ladder_headlines
from ycsbctl.results.events import charge_role, cost_text, event_label, is_open
from ycsbctl.results.events import seconds_text as seconds_text  # the headline tests read it here
from ycsbctl.results.frames import Experiment
from ycsbctl.results.verdicts import baseline_of, uncompared

# A disturbance's cost is the operations lost over its whole affected window (ycsbctl.results.disturbance): a target
# "wins" an action only when every other target lost at least COST_RATIO times as many operations, and at least
# COST_MARGIN_S seconds of the higher of the two reference rates more (a window's edges move by an interval or two
# with where the event fell). A target whose series stayed below half its rate for more than QUIET_RUN_S at a
# stretch (or stalled) is never said not to have stalled.
COST_RATIO = 1.5
COST_MARGIN_S = 0.2
QUIET_RUN_S = 0.2
STALL_MARGIN_S = 0.2  # a stall counted in whole 100 ms intervals moves by one with where it fell across their edges
# Variants whose bytes or rates are this close to the best are named beside it: a used_memory delta
# moves by a few percent with the allocator's page and bucket boundaries.
TIE = 0.05


Headlines = Callable[[Experiment, pd.DataFrame], list[str]]


def study_headlines(exp: Experiment, verdicts: pd.DataFrame) -> list[str]:
    """Every headline of the experiment (``verdicts``: ``exp.verdicts(latency)``), kind by kind in the
    order of :data:`KINDS`: the study's own answer first, then the ladder's. A many-store study measured at one
    thread count gets no ladder sentences nor "not compared" ones: its per-test answer already gives every store's
    ratio there (against the fastest, not the baseline), and says once which were degraded and why."""
    out: list[str] = []
    said: set[str] = set()
    for kind, headlines in KINDS:
        if kind in ("ladder", "not compared") and "many stores" in said and _one_thread_count(exp):
            continue
        lines = headlines(exp, verdicts)
        if lines:
            said.add(kind)
        out.extend(lines)
    return out


def _one_thread_count(exp: Experiment) -> bool:
    runs = exp.runs[exp.runs["phase"] == "run"] if len(exp.runs) else exp.runs
    return len(runs) == 0 or runs["threads"].nunique() <= 1


def ladder_study_headlines(exp: Experiment, verdicts: pd.DataFrame) -> list[str]:
    """Each target against the baseline (:func:`ladder_headlines`); in a disturbance study each sentence
    says that its throughput includes the disturbances' stalls (a ratio of two disturbed ladders); an embedded
    store against a networked one says so on its line."""
    stand_ins = {sub.used: sub.wanted for sub in exp.manifest.substitutions}
    lines = ladder_headlines(verdicts, serverless_targets(exp), stand_ins)
    if len(exp.events) and lines:
        return [f"{line[:-1]} (throughput with the disturbances' stalls in it)." for line in lines]
    return lines


def _median(rows: pd.DataFrame, col: str) -> float:
    return float(pd.to_numeric(rows[col], errors="coerce").median()) if col in rows else math.nan


def _role(rows: pd.DataFrame) -> tuple[str, pd.Series]:
    """How the event's rows are charged (:func:`ycsbctl.results.events.charge_role`): the most common role among
    them, and a row of that role."""
    roles = [charge_role(event_label(r["event"], int(r["occurrence"])), r.get("overlaps"), r.get("charged_to"))
             for _, r in rows.iterrows()]
    role = max(dict.fromkeys(roles), key=roles.count)
    return role, rows.iloc[roles.index(role)]


def _overlap_text(role: str, row: pd.Series, runs: int) -> str:
    """What an overlap did to the event's charge, for prose (empty alone)."""
    of = f" (in {runs} runs)" if runs > 1 else ""
    if role == "charged":
        return f"; overlapped {row['overlaps']}{of}, charged here by the server's evidence ({_strongest(row)})"
    if role == "joint":
        return f" ({row['overlaps']}{of}: the server's evidence does not tell them apart)"
    return ""


@dataclass(frozen=True)
class _Cost:
    """One event's cost on one target, the median over its runs: stall and the longest run below half (s), operations
    lost over the affected window, the reference rate (ops/s), and whether any run's window was still open."""

    stall_s: float
    slow_run_s: float
    ops_lost: float
    pre_ops_per_s: float
    open: bool


def _effect(rows: pd.DataFrame) -> tuple[_Cost | None, str]:
    """(cost, words) of one event on one target: the median over its runs (and occurrences) when it ran more than
    once; NaN figures when every run of it failed, None when its cost was charged to another event. An event that
    overlapped another says so and where the cost went (:mod:`ycsbctl.results.overlap`)."""
    good = rows[rows["error"].map(lambda e: not (isinstance(e, str) and e))]
    if not len(good):
        return _Cost(math.nan, math.nan, math.nan, math.nan, False), f"failed ({rows.iloc[0]['error']})"
    role, row = _role(good)
    if role == "elsewhere":
        return None, f"overlapped {row['charged_to']}: charged there by the server's evidence ({_own(row)})"
    if role == "shared":
        first = str(row["charged_to"]).split("+")[0]
        return None, f"overlapped {row['overlaps']}: charged jointly with {first}"
    stall, slow, lost = _median(good, "stall_s"), _median(good, "slow_s"), _median(good, "ops_lost")
    run, during = _median(good, "slow_run_s"), _median(good, "during_s")
    opened = "window_open" in good and any(is_open(v) for v in good["window_open"])
    cost = cost_text(stall, None if "slow_s" not in good else slow, lost,
                     f"median of {len(good)} runs" if len(good) > 1 else "", run, during, opened)
    # an older folder has no longest run below half: its time below half stands in (never shorter)
    said = _Cost(stall, run if run == run else (slow if slow == slow else 0.0), lost, _median(good, "pre_ops_per_s"),
                 opened)
    if role == "joint":
        actions = "+".join(a.upper() for a in [row["action"], *_actions(row)])
        return said, f"{actions} overlapped: {cost} together{_overlap_text(role, row, len(good))}"
    return said, cost + _overlap_text(role, row, len(good))


def _own(row: pd.Series) -> str:
    """The evidence's record that held the server longest (``LATENCY expire-del 579 ms``); ``none`` without any."""
    return _strongest(row) if isinstance(row.get("evidence"), str) and row["evidence"] else "none of this one"


def _strongest(row: pd.Series) -> str:
    """Of the evidence's records (``SLOWLOG EXISTS 579 ms; LATENCY expire-del 579 ms; INFO expired_keys +1``), the
    one quoting the longest time (the first of equals); the whole evidence when none quotes one."""
    parts = str(row.get("evidence") or "").split("; ")
    timed = [(float(m.group(1).replace(",", "")), -i, part) for i, part in enumerate(parts)
             if (m := re.search(r" ([\d,.]+) ms$", part))]
    return max(timed)[2] if timed else "; ".join(parts)


def _actions(row: pd.Series) -> list[str]:
    """The actions of the events a jointly charged row overlapped (from their labels)."""
    return [str(label).split(":", 1)[0] for label in str(row["overlaps"]).split(", ")]


def _winner(effects: dict[str, _Cost | None]) -> str:
    """Which target lost fewest operations over its affected window, when every other lost at least
    :data:`COST_RATIO` times as many and :data:`COST_MARGIN_S` seconds of its reference rate more, and its own window
    closed; otherwise why none wins (a target whose cost went to another event that overlapped it, None, leaves no
    race to win). "No target stalled" only when none stalled nor stayed below half for more than
    :data:`QUIET_RUN_S` at a stretch."""
    if any(c is None for c in effects.values()):
        return ""
    measured = {t: c for t, c in effects.items() if c is not None and not math.isnan(c.ops_lost)}
    if len(measured) < 2:
        return ""
    quiet = all(c.stall_s == 0 and c.slow_run_s <= QUIET_RUN_S + 1e-9 for c in measured.values())
    best = min(measured, key=lambda t: measured[t].ops_lost)
    lost = measured[best].ops_lost

    def clearly_more(c: _Cost) -> bool:
        rates = [r for r in (c.pre_ops_per_s, measured[best].pre_ops_per_s) if r == r]
        return c.ops_lost >= COST_RATIO * lost and c.ops_lost - lost >= COST_MARGIN_S * max(rates, default=0.0)

    if not all(clearly_more(c) for t, c in measured.items() if t != best):
        within = (f"operations lost within {COST_RATIO:g}× or {COST_MARGIN_S:g} s of the reference rate of each "
                  "other")
        return f" — no target stalled ({within})" if quiet else f" — no clear winner ({within})"
    if measured[best].open:
        return f" — no clear winner ({best} lost fewest, but was not back when its point ended)"
    stalls = {t: c.stall_s for t, c in measured.items()}
    though = (f", though it stalled {seconds_text(stalls[best])} and {min(stalls, key=lambda t: stalls[t])} did not"
              if stalls[best] >= min(stalls.values()) + STALL_MARGIN_S - 1e-9 else "")
    return f" — {best} wins: fewest operations lost over the whole affected window{though}"


def disturbance_headlines(exp: Experiment, verdicts: pd.DataFrame | None = None) -> list[str]:
    """One sentence per disturbance (``del:set:5M@4s``): each target's stall, slowdown and operations lost over its
    affected window (``no stall; slowed: below 50 % for 4.2 s, 61,000 ops lost over 4.6 s``), what overlapped it and
    where its cost went, and the target that lost fewest operations (:func:`_winner`)."""
    ev = exp.events
    if not len(ev):
        return []
    out = []
    targets = [t for t in exp.targets if (ev["target"] == t).any()]
    for event in dict.fromkeys(ev.sort_values("at_s", kind="stable")["event"]):
        rows = ev[ev["event"] == event]
        effects = {t: _effect(rows[rows["target"] == t]) for t in targets if (rows["target"] == t).any()}
        action = str(rows.iloc[0]["action"]).upper()
        parts = [f"{t} {words}" for t, (_, words) in effects.items()]
        out.append(f"{action} ({event}): " + ", ".join(parts) + _winner({t: c for t, (c, _) in effects.items()}) + ".")
    return out


def _extreme(g: pd.DataFrame, col: str, smallest: bool) -> str:
    """The variant with the smallest (largest) ``col``, with those within :data:`TIE` of it (``set, hash
    (within 5 %)``); empty with fewer than two measured."""
    vals = pd.to_numeric(g[col], errors="coerce")
    if vals.notna().sum() < 2:
        return ""
    best = vals.min() if smallest else vals.max()
    near = g.loc[(vals - best).abs() <= TIE * abs(best), "variant"].astype(str).tolist()
    first = str(g.loc[vals.idxmin() if smallest else vals.idxmax(), "variant"])
    rest = [v for v in near if v != first]
    return first + (f" ({', '.join(rest)} within {TIE:.0%})" if rest else "")


def _rate_text(r: dict) -> str:
    if not math.isnan(r["records_per_s"]):
        return f"{r['records_per_s']:,.0f} {r['unit']}/s ({r['throughput']:,.0f} commands/s)"
    return "not measured" if math.isnan(r["throughput"]) else f"{r['throughput']:,.0f} ops/s"


def variant_headlines(exp: Experiment, verdicts: pd.DataFrame | None = None) -> list[str]:
    """One sentence per workload and target of a variant sweep: each variant's bytes per record (user)
    and records per second at its peak, the smallest and the fastest variant (within one target: two
    servers' allocators need not count bytes alike)."""
    rows = study_rows(exp)
    if not rows:
        return []
    df = pd.DataFrame(rows)
    df = df.assign(speed=df["records_per_s"].where(df["records_per_s"].notna(), df["throughput"]))
    out = []
    for (workload, target), g in df.groupby(["workload", "target"], sort=False):
        unit = str(g.iloc[0]["unit"])
        one = unit[:-1] if unit.endswith("s") else unit
        parts = [f"{r['variant']} {_bytes(r['bytes_per_record'])}/{one}, {_rate_text(r)}"
                 + (" (degraded)" if r["status"] == "degraded" else "") for r in g.to_dict("records")]
        small, fast = _extreme(g, "bytes_per_record", True), _extreme(g, "speed", False)
        # a degraded peak is still a measurement: the fastest is named from it, and said so
        if fast and g.loc[pd.to_numeric(g["speed"], errors="coerce").idxmax(), "status"] == "degraded":
            fast += " (its peak degraded)"
        answer = "; ".join(x for x in (f"smallest {small}" if small else "", f"fastest {fast}" if fast else "") if x)
        reps = int(exp.runs["repetition"].max()) if len(exp.runs) else 0
        # no verdict compares two variants of one target: each is its own workload, measured in rounds of its own
        # (the engine alternates targets, not workloads), so with repetitions the ranking is still by peaks
        caveat = (" (one repetition: the speed ranking is not tested)" if reps < 2 else
                  " (by peaks: the variants ran in rounds of their own, one after another, and no verdict compares "
                  "them)") if fast else ""
        out.append(f"{workload} on {target}: " + "; ".join(parts) + (f" — {answer}{caveat}" if answer else "") + ".")
    return out


def _bytes(v: float) -> str:
    return "? B" if v is None or math.isnan(v) else f"{v:,.0f} B"


# Each kind of experiment's headlines, in the order the first screen shows them; a function returns []
# for an experiment of another kind (see the module's docstring to add one).
def many_store_headlines(exp: Experiment, verdicts: pd.DataFrame) -> list[str]:
    """The many-store study's answer per test (:mod:`ycsbctl.report.many_store`: it reads this module)."""
    from ycsbctl.report.many_store import store_study_headlines

    return store_study_headlines(exp)


def uncompared_headlines(exp: Experiment, verdicts: pd.DataFrame) -> list[str]:
    """Why a target has no verdict against the baseline (:func:`ycsbctl.results.verdicts.uncompared`)."""
    return uncompared(exp.runs, baseline_of(exp.manifest.plan, exp.runs))


KINDS: tuple[tuple[str, Headlines], ...] = (
    ("disturbances", disturbance_headlines),  # --disturb: the events table's answer
    ("many stores", many_store_headlines),  # media-items: per test, the fastest store and who cannot
    ("variants", variant_headlines),  # a sweep axis: -p online.structure=hash,set,zset
    ("ladder", ladder_study_headlines),  # two or more targets: each against the baseline
    ("not compared", uncompared_headlines),  # a target with no verdict (its points degraded): why
)
