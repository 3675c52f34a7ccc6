"""``--repeat auto``: rounds until the plan's comparisons are decided, or its time budget is spent.

After each round that is a scheduled look (:data:`ycsbctl.results.looks.LOOK_ROUNDS`: 1, 2, 3, 5, 8, …) the
verdicts are computed as the report will compute them — the same runs table, the same family, at the level
this look tests at (:func:`ycsbctl.results.looks.spent_alpha`) — and the sweep stops once every compared
throughput cell is ``better``, ``worse`` or ``equivalent``. Latency cells are reported with their own verdicts
but do not hold the run open (tails need far more rounds than rates to be called equivalent). A round is not
started when the rounds so far, at their mean length, say it would end past ``--budget``, nor past the rounds
the budget was planned to hold after the first one (:func:`ycsbctl.results.looks.planned_rounds`: the looks
spend alpha over those); the cells still open are then left ``undecided``, with the difference they could
have detected.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from ycsbctl.results import looks, stats
from ycsbctl.results.cells import THROUGHPUT
from ycsbctl.results.folder import RunRecord, run_doc
from ycsbctl.results.tables import run_row
from ycsbctl.results.verdict_words import verdict_text
from ycsbctl.results.verdicts import plan_verdicts


def runs_of(records: list[RunRecord]) -> pd.DataFrame:
    """The runs table of ``records`` as a folder would hold it (:func:`ycsbctl.results.tables.run_row`)."""
    return pd.DataFrame([run_row(run_doc(r)) for r in records])


def kept_runs(sink: object, records: list[RunRecord], keys: set[tuple]) -> pd.DataFrame:
    """The runs table of the cells ``keys`` ((target, workload, phase, threads, rate or None), a cell's key) of
    every run ``sink`` keeps — a resumed folder's earlier rounds included (its runs/*.json, as
    :func:`ycsbctl.results.tables.read_run_docs` reads them) — else of ``records`` (a sink in memory: this
    process's runs are all it has)."""
    from pathlib import Path

    from ycsbctl.results.tables import read_run_docs

    path = getattr(sink, "path", None)
    runs = pd.DataFrame([run_row(d) for d in read_run_docs(path)]) if isinstance(path, Path) else runs_of(records)
    if not len(runs):
        return runs
    rates = pd.to_numeric(runs["target_rate"], errors="coerce")
    return runs[[(t, w, p, int(n), None if r != r else float(r)) in keys for t, w, p, n, r in
                 zip(runs["target"], runs["workload"], runs["phase"], runs["threads"], rates)]]


def open_cells(records: list[RunRecord] | pd.DataFrame, plan: dict) -> list[str]:
    """The compared throughput cells not yet decided, each as ``target workload N threads: 1.04× [0.91, 1.19]
    undecided (…)``, from ``records`` (or their runs table) and the manifest's ``plan``; empty when all are
    decided (or none is compared: one target)."""
    if not len(records):
        return []
    v = plan_verdicts(plan, records if isinstance(records, pd.DataFrame) else runs_of(records))
    if not len(v):
        return []
    tp = v[(v["metric"] == THROUGHPUT) & ~v["at_peak"].astype(bool) & (v["verdict"] == stats.UNDECIDED)]
    return [
        f"{r['target']} {r['workload']} {int(r['threads'])} threads: {verdict_text(r)}" for r in tp.to_dict("records")
    ]


@dataclass
class Rounds:
    """The sequential stop of one sweep: ``budget_s`` seconds of rounds at most, ``most`` rounds at most."""

    budget_s: float
    most: int
    started: float | None = None  # time.monotonic() when the first round began
    stopped: str | None = None  # why the rounds stopped, once they did
    planned: int | None = None  # the rounds the budget holds, once the first round's length says (looks.planned_rounds)
    round_s: float | None = None  # the first round's length (s), which planned them

    def begin(self) -> None:
        if self.started is None:
            self.started = time.monotonic()

    def plan_from_first_round(self) -> None:
        """After the first round: the rounds the budget holds at its length (:func:`looks.planned_rounds`); the
        looks spend alpha over them, and the rounds stop there."""
        self.round_s = time.monotonic() - (self.started or time.monotonic())
        self.planned = looks.planned_rounds(self.budget_s, self.round_s, self.most)

    def planned_line(self) -> str:
        """What the plan of rounds is, in a line."""
        held = (f"the --budget of {self.budget_s:g} s holds {self.planned} at ~{self.round_s:.0f} s a round"
                if self.round_s and self.planned is not None and self.planned < self.most else
                f"--max-repeat {self.most}")
        return (f"rounds planned: {self.planned} ({held}); the looks spend alpha by the share of those rounds each has "
                "seen (Lan–DeMets), so stopping on the data keeps the error rate")

    def another(self, done: int, open_now: list[str] | None) -> tuple[bool, str | None]:
        """(whether to run round ``done + 1``, a line to show) after ``done`` rounds; ``open_now``: the cells
        still open when round ``done`` was a look, None when it was not."""
        now = time.monotonic()
        if open_now is not None and not open_now:
            self.stopped = f"every compared cell is decided after {done} round{'s' if done != 1 else ''}"
            return False, self.stopped
        if done >= self.most:
            self.stopped = f"{done} rounds ran (--max-repeat)"
            return False, self._left(open_now, self.stopped)
        if self.planned is not None and done >= self.planned:
            self.stopped = f"the {done} round{'s' if done != 1 else ''} planned from the --budget ran"
            return False, self._left(open_now, self.stopped)
        spent = now - (self.started or now)
        per_round = spent / done if done else 0.0
        if done and spent + per_round > self.budget_s:
            self.stopped = (f"the --budget of {self.budget_s:g} s would be passed by another round "
                            f"({spent:.0f} s spent, ~{per_round:.0f} s a round)")
            return False, self._left(open_now, self.stopped)
        if open_now:
            shown = "; ".join(open_now[:3]) + (" …" if len(open_now) > 3 else "")
            return True, f"round {done}: {len(open_now)} cell(s) still undecided, round {done + 1} next ({shown})"
        return True, None

    @staticmethod
    def _left(open_now: list[str] | None, why: str) -> str:
        n = f"{len(open_now)} cell(s)" if open_now else "the cells open at the last look"
        return f"rounds stop: {why}; {n} left undecided (see the report: the difference each could have detected)"
