"""``--repeat auto``: rounds until the plan's comparisons are decided, or its time budget is spent.

After each round that is a scheduled look (:data:`ycsbctl.results.looks.LOOK_ROUNDS`: 1, 2, 3, 5, 8, …) the
verdicts are computed as the report will compute them — the same runs table, the same family, at the level
this look tests at (:func:`ycsbctl.results.looks.spent_alpha`) — and the sweep stops once every compared
throughput cell is ``better``, ``worse`` or ``equivalent``. Latency cells are reported with their own verdicts
but do not hold the run open (tails need far more rounds than rates to be called equivalent). A round is not
started when the rounds so far, at their mean length, say it would end past ``--budget``, nor past the rounds
the budget was planned to hold after the first one (:func:`ycsbctl.results.looks.planned_rounds`: the looks
spend alpha over those); the cells still open are then left ``undecided``, with the difference they could
have detected. A compared target that is gone (skipped after a point failed and its server could not restart)
gains no more rounds: its cells no longer hold the rounds open, and once no compared cell can gain a round (the
baseline gone, or every other target) the rounds stop and the line says which target went and why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ycsbctl.results import looks, stats
from ycsbctl.results.cells import THROUGHPUT
from ycsbctl.results.folder import RunRecord, run_doc, slice_rows
from ycsbctl.results.tables import run_row
from ycsbctl.results.verdict_words import verdict_text
from ycsbctl.results.verdicts import plan_verdicts


def runs_of(records: list[RunRecord]) -> pd.DataFrame:
    """The runs table of ``records`` as a folder would hold it (:func:`ycsbctl.results.tables.run_row`)."""
    return pd.DataFrame([run_row(run_doc(r)) for r in records])


def slices_of(records: list[RunRecord]) -> pd.DataFrame | None:
    """The slices table of ``records`` as a folder would hold it (:func:`ycsbctl.results.folder.slice_rows`): the
    slices of those measured in an alternated session; None when none was."""
    frames = [slice_rows(r, r.result.slices) for r in records
              if r.result is not None and r.result.slices is not None and len(r.result.slices)]
    return pd.concat(frames, ignore_index=True) if frames else None


def kept_runs(sink: object, records: list[RunRecord], keys: set[tuple]) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """(the runs table of the cells ``keys`` ((target, workload, phase, threads, rate or None), a cell's key), their
    slices) of every run ``sink`` keeps — a resumed folder's earlier rounds included (its runs/*.json and parts, as
    :func:`ycsbctl.results.tables.read_run_docs` reads them) — else of ``records`` (a sink in memory: this
    process's runs are all it has)."""
    from pathlib import Path

    from ycsbctl.results.tables import read_run_docs, read_slices

    path = getattr(sink, "path", None)
    if isinstance(path, Path):
        docs = read_run_docs(path)
        runs, slices = pd.DataFrame([run_row(d) for d in docs]), read_slices(path, docs)
    else:
        runs, slices = runs_of(records), slices_of(records)
    if not len(runs):
        return runs, slices
    rates = pd.to_numeric(runs["target_rate"], errors="coerce")
    return runs[[(t, w, p, int(n), None if r != r else float(r)) in keys for t, w, p, n, r in
                 zip(runs["target"], runs["workload"], runs["phase"], runs["threads"], rates)]], slices


@dataclass(frozen=True)
class OpenCell:
    """A compared throughput cell still undecided at a look: ``text`` (``redis workload-b 8 threads: 1.04× [0.91,
    1.19] undecided (…)``), and how many times the rounds so far would decide it at its spread, were its ratio to
    hold (:func:`ycsbctl.results.looks.narrowing_needed`)."""

    text: str
    narrowing: float = math.inf


def open_cells(records: list[RunRecord] | pd.DataFrame, plan: dict, gone: Collection[str] = (),
               slices: pd.DataFrame | None = None) -> list[OpenCell]:
    """The compared throughput cells not yet decided (:class:`OpenCell`), from ``records`` (or their runs table,
    with its ``slices``) and the manifest's ``plan``; empty when all are decided (or none is compared: one target).
    A cell of a target (or against a baseline) in ``gone`` is left out: no round can decide it now. Cells measured
    in alternated sessions are judged slice by slice, as the report judges them (:func:`slices_of`), so one round
    may decide them."""
    if not len(records):
        return []
    if not isinstance(records, pd.DataFrame):
        records, slices = runs_of(records), slices_of(records) if slices is None else slices
    v = plan_verdicts(plan, records, slices=slices)
    if not len(v):
        return []
    tp = v[(v["metric"] == THROUGHPUT) & ~v["at_peak"].astype(bool) & (v["verdict"] == stats.UNDECIDED)
           & ~v["target"].isin(list(gone)) & ~v["baseline"].isin(list(gone))]
    return [OpenCell(f"{r['target']} {r['workload']} {int(r['threads'])} threads: {verdict_text(r)}",
                     looks.narrowing_needed(_num(r["ci_low"]), _num(r["ci_high"]), _num(r["margin_pct"]) / 100,
                                            _num(r["drift_margin_pct"]) / 100))
            for r in tp.to_dict("records")]


def _num(x: Any) -> float:
    """A verdict row's number; NaN where it has none (None, NaN)."""
    return math.nan if x is None else float(x)


@dataclass(frozen=True)
class Gone:
    """The compared targets gone during the rounds (label -> why: a failed point, no restart), among the
    ``targets`` (labels) compared with ``baseline``."""

    why: Mapping[str, str] = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    baseline: str = ""

    @property
    def stuck(self) -> bool:
        """No compared cell can gain a round: the baseline is gone, or every other target is."""
        others = [t for t in self.targets if t != self.baseline]
        return bool(self.why) and (self.baseline in self.why or all(t in self.why for t in others))

    def text(self) -> str:
        """``valkey is gone (could not restart after a crash: …)``."""
        names = "; ".join(f"{t} ({w})" for t, w in self.why.items())
        return f"{names} {'is' if len(self.why) == 1 else 'are'} gone"


def gone_of(skipped: Iterable[Any], stopped: Collection[str], targets: Iterable[str], baseline: str) -> Gone:
    """The :class:`Gone` of a sweep: its ``stopped`` targets (labels), each with the reason its ``skipped``
    entry gives (:class:`ycsbctl.results.schema.SkippedTarget`), among ``targets`` and ``stopped``."""
    reasons = {s.target: s.reason for s in skipped}
    return Gone({t: reasons.get(t, "skipped") for t in sorted(stopped)},
                tuple(dict.fromkeys([*targets, *sorted(stopped)])), baseline)


@dataclass
class Rounds:
    """The sequential stop of one sweep: ``budget_s`` seconds of rounds at most, ``most`` rounds at most."""

    budget_s: float
    most: int
    started: float | None = None  # time.monotonic() when the first round began
    stopped: str | None = None  # why the rounds stopped, once they did
    planned: int | None = None  # the rounds the budget holds, once the first round's length says (looks.planned_rounds)
    round_s: float | None = None  # the first round's length (s), which planned them
    # the whole --budget (s) when ``budget_s`` is one stage's share of it (a variant sweep: one stage per dataset)
    whole_budget_s: float | None = None

    @property
    def budget_text(self) -> str:
        """``the --budget of 300 s``, or a stage's share: ``this stage's share of the --budget (100 s of 300 s)``."""
        if self.whole_budget_s is None:
            return f"the --budget of {self.budget_s:g} s"
        return f"this stage's share of the --budget ({self.budget_s:.0f} s of {self.whole_budget_s:g} s)"

    def plan_from_first_round(self) -> None:
        """After the first round: the rounds the budget holds at its length (:func:`looks.planned_rounds`); the
        looks spend alpha over them, and the rounds stop there."""
        self.round_s = time.monotonic() - (self.started or time.monotonic())
        self.planned = looks.planned_rounds(self.budget_s, self.round_s, self.most)

    def planned_line(self) -> str:
        """What the plan of rounds is, in a line."""
        held = (f"{self.budget_text} holds {self.planned} at ~{self.round_s:.0f} s a round"
                if self.round_s and self.planned is not None and self.planned < self.most else
                f"--max-repeat {self.most}")
        each = " a stage, for every stage" if self.whole_budget_s is not None else ""
        return (f"rounds planned: {self.planned}{each} ({held}); the looks spend alpha by the share of those rounds "
                "each has seen (Lan–DeMets), so stopping on the data keeps the error rate")

    def another(self, done: int, open_now: list[OpenCell] | None,
                gone: Gone | None = None) -> tuple[bool, str | None]:
        """(whether to run round ``done + 1``, a line to show) after ``done`` rounds; ``open_now``: the cells
        still open when round ``done`` was a look, None when it was not; ``gone``: the compared targets gone."""
        now = time.monotonic()
        if gone is not None and gone.stuck:
            self.stopped = f"{gone.text()}: no compared cell can gain a round"
            return False, (f"rounds stop: {self.stopped}; the cells still undecided stay so (see the report: the "
                           "difference each could have detected)")
        if open_now is not None and not open_now:
            self.stopped = f"every compared cell is decided after {done} round{'s' if done != 1 else ''}"
            if gone is not None and gone.why:
                self.stopped += f" ({gone.text()}: its cells stay as its last round left them)"
            return False, self.stopped
        spent = now - (self.started or now)
        per_round = spent / done if done else 0.0
        if done >= self.most:
            self.stopped = f"{done} rounds ran (--max-repeat)"
            return False, self._left(open_now, self.stopped, done, per_round)
        if self.planned is not None and done >= self.planned:
            self.stopped = f"the {done} round{'s' if done != 1 else ''} planned from the --budget ran"
            return False, self._left(open_now, self.stopped, done, per_round)
        if done and spent + per_round > self.budget_s:
            self.stopped = (f"{self.budget_text} would be passed by another round "
                            f"({spent:.0f} s spent, ~{per_round:.0f} s a round)")
            return False, self._left(open_now, self.stopped, done, per_round)
        if open_now:
            shown = "; ".join(c.text for c in open_now[:3]) + (" …" if len(open_now) > 3 else "")
            return True, f"round {done}: {len(open_now)} cell(s) still undecided, round {done + 1} next ({shown})"
        return True, None

    @staticmethod
    def _left(open_now: list[OpenCell] | None, why: str, done: int, round_s: float) -> str:
        """The closing line of rounds stopped with cells open: why, how many, and what would decide them."""
        n = f"{len(open_now)} cell(s)" if open_now else "the cells open at the last look"
        line = f"rounds stop: {why}; {n} left undecided (see the report: the difference each could have detected)"
        return line + (need_text(open_now, done, round_s) if open_now else "")


def need_text(open_now: list[OpenCell], done: int, round_s: float) -> str:
    """``; at their spread, about 12 rounds in all (~10 min at ~50 s a round) would decide the last of them, were its
    ratio to hold`` — what the open cells' intervals say the rounds they need are (:class:`OpenCell`), to be read as
    an estimate: the next rounds move the ratio too. Empty where nothing can be said (no interval, no room)."""
    need = max(c.narrowing for c in open_now)
    rounds = looks.rounds_needed(need, done)
    if rounds is None:
        return "" if not math.isfinite(need) or done < 1 else (
            f"; at their spread, more than {looks.NEED_SHOWN}× the {done} round{'s' if done != 1 else ''} run would be "
            "needed to decide the last of them: a quieter host or longer points narrow it sooner")
    took = rounds * round_s
    length = f"~{took / 60:.0f} min" if took >= 120 else f"~{took:.0f} s"
    when = f" ({length} at ~{round_s:.0f} s a round)" if round_s > 0 else ""
    return (f"; at their spread, about {rounds} rounds in all{when} would decide the last of them, were its ratio to "
            "hold")
