"""A latency objective (``--slo 'p99<1ms'``) as data: its parser, the verdict of one measured point
against it at an offered rate (:class:`Trial`), and the one-line summary of a stored search. The
search itself (which rates to try) is :mod:`ycsbctl.experiment.rate_search`; a report needs only this.

A point **passes** when it is ``ok``, achieved ≥ 99 % of the offered rate (else the server — or the
client — is saturated and latency no longer describes that rate), and its latency percentile is
within the limit. The latency judged is the *intended* one (from each operation's due time, YCSB's
``measurement.interval=intended``: what a client sending at that rate sees, queueing included) when
the point recorded it, which paced points do by default; else the actual one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ycsbctl.errors import UserError
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.model import OpSummary, PhaseResult, overall_summary
from ycsbctl.results.names import ALL_OPS, OPERATIONS, RunStatus
from ycsbctl.results.run_columns import op_key

MIN_ACHIEVED = 0.99  # a point achieving less than 99 % of its offered rate is saturated: it fails
_UNITS = {"us": 1.0, "µs": 1.0, "μs": 1.0, "ms": 1e3, "s": 1e6}
_PERCENTILES = {50.0: "p50", 95.0: "p95", 99.0: "p99", 99.9: "p999", 99.99: "p9999"}
_HELP = ("write the objective as [OPERATION:]pNN<LIMIT, e.g. 'p99<1ms', 'READ:p99.9<500us', 'UPDATE:p95<2ms' "
         "(percentiles p50, p95, p99, p99.9, p99.99; units us, µs, ms, s; OPERATION one of "
         + ", ".join(OPERATIONS) + "; default: all operations)")


@dataclass(frozen=True)
class Slo:
    """A latency objective: ``percentile`` of ``operation`` (None: all operations merged) ≤ ``limit_us`` µs."""

    percentile: float
    limit_us: float
    operation: str | None = None

    def __str__(self) -> str:
        op = f"{self.operation}:" if self.operation else ""
        limit = f"{self.limit_us / 1e3:g}ms" if self.limit_us >= 1000 else f"{self.limit_us:g}us"
        return f"{op}p{self.percentile:g}<{limit}"

    @property
    def column(self) -> str:
        """The runs.parquet column of the (actual) latency it judges, e.g. ``read_p99_us``."""
        return f"{op_key(self.operation or ALL_OPS)}_{_PERCENTILES[self.percentile]}_us"

    def latency_us(self, result: PhaseResult) -> tuple[float | None, str]:
        """The judged latency (µs) of a measured point and which it is: ``intended`` or ``actual``."""
        plain = "intended" if result.measurement == "intended" else "actual"  # YCSB's names for each interval
        for kind, prefix in (("intended", "Intended-"), (plain, "")):
            s = result.ops.get(prefix + self.operation) if self.operation else _merged(result, prefix)
            if s is not None and s.operations:
                return s.percentile(self.percentile), kind
        return None, "actual"

    def __post_init__(self) -> None:
        if self.percentile not in _PERCENTILES:
            raise UserError(f"--slo: percentile p{self.percentile:g} is not kept: {_HELP}")


def _merged(result: PhaseResult, prefix: str) -> OpSummary | None:
    """Every base operation's ``prefix`` series (``Intended-READ`` …, or ``READ`` …) merged exactly."""
    ops = {n.removeprefix(prefix): s for n, s in result.ops.items() if n.startswith(prefix) and n != prefix}
    return overall_summary(PhaseResult(result.phase, result.threads, 0, 0, ops=ops))


def parse_slo(text: str) -> Slo:
    """``'p99<1ms'``, ``'READ:p99.9<500us'`` → :class:`Slo`; a :class:`UserError` naming the fix otherwise."""
    m = re.fullmatch(r"\s*(?:([A-Za-z-]+)\s*:\s*)?p(\d+(?:\.\d+)?)\s*<=?\s*(\d+(?:\.\d+)?)\s*(us|µs|μs|ms|s)\s*",
                     text or "", re.ASCII)  # ASCII digits: the one rule for a number typed (ycsbctl.user_input)
    if m is None:
        raise UserError(f"--slo {text!r}: {_HELP}")
    op = m.group(1).upper() if m.group(1) else None
    if op in ("ALL", "OVERALL"):
        op = None
    if op is not None and op not in OPERATIONS:
        raise UserError(f"--slo {text!r}: unknown operation {m.group(1)}: {_HELP}")
    limit = float(m.group(3)) * _UNITS[m.group(4)]
    if not 0 < limit < math.inf:  # 400 digits are an infinite limit: nothing would ever miss it
        raise UserError(f"--slo {text!r}: the limit must be > 0 and finite")
    return Slo(float(m.group(2)), limit, op)


@dataclass
class Trial:
    """One tried rate: what was measured and the verdict."""

    rate: float  # offered ops/s
    passed: bool
    why: str  # "p99 812 µs ≤ 1 ms", "achieved 91 % of the offered rate", "failed: …"
    run_id: str | None = None
    achieved_ops: float | None = None
    latency_us: float | None = None
    latency: str = "intended"  # which latency was judged: intended or actual
    status: str = "ok"


def judge_trial(slo: Slo, rate: float, record: RunRecord) -> Trial:
    """A measured point's verdict against ``slo`` at offered ``rate``."""
    r = record.result
    base = Trial(rate, False, "", run_id=record.run_id, status=str(record.status))
    if r is None or not r.operations:
        base.why = f"{record.status}: {record.error or 'nothing measured'}"
        return base
    base.achieved_ops = r.throughput_ops
    base.latency_us, base.latency = slo.latency_us(r)
    if record.status != RunStatus.OK:
        base.why = f"{record.status}: {record.error or 'not ok'}"
    elif r.throughput_ops < MIN_ACHIEVED * rate:
        base.why = (
            f"saturated: achieved {r.throughput_ops:,.0f} ops/s, {r.throughput_ops / rate:.1%} of the offered rate"
        )
    elif base.latency_us is None:
        base.why = f"no {slo.operation or 'operation'} latency measured"
    elif base.latency_us > slo.limit_us:
        base.why = f"{base.latency} p{slo.percentile:g} {_us(base.latency_us)} > {_us(slo.limit_us)}"
    else:
        base.passed = True
        base.why = f"{base.latency} p{slo.percentile:g} {_us(base.latency_us)} ≤ {_us(slo.limit_us)}"
    return base


def _us(v: float) -> str:
    return f"{v / 1e3:.3g} ms" if v >= 1000 else f"{v:.0f} µs"


def ended_words(status: str) -> str:
    """How a point that is not ``ok`` ended, for a sentence: ``failed``, ``was degraded``, ``was interrupted``."""
    return "failed" if status == "failed" else f"was {status}"


def _missed(trial: dict[str, Any]) -> str:
    """Why a tried rate did not pass: the SLO failed there, or the point itself was not ok — a degraded
    (host-busy, stalled) or failed point is no evidence against the SLO; the search still counted it as
    a miss, and the line says so."""
    status = str(trial.get("status") or "ok")
    if status == "ok":
        return f"failed: {trial['why']}"
    why = str(trial["why"]).removeprefix(f"{status}: ")
    return f"not judged, the point {ended_words(status)} ({why}); the search counted it as a miss"


def summary_line(doc: dict[str, Any]) -> str:
    """``p99<1ms holds up to 42,000 ops/s (7 points; 43,700 failed: …)`` for a stored search."""
    tried = doc.get("tried") or []
    n = len(tried) + (1 if doc.get("unpaced_run_id") else 0)
    found = doc.get("found_rate")
    if doc.get("ended") == "unpaced-failed":
        return f"{doc['slo']}: not searched (the unpaced point {ended_words(doc.get('unpaced_status') or 'failed')})"
    if found is None:
        low = min((t["rate"] for t in tried), default=None)
        return f"{doc['slo']} not met at any rate tried (lowest {low:,.0f} ops/s; {n} points)" if low else \
            f"{doc['slo']}: no rate tried"
    above = [t for t in tried if not t["passed"] and t["rate"] > found]
    nxt = min(above, key=lambda t: t["rate"]) if above else None
    why = f"; {nxt['rate']:,.0f} ops/s {_missed(nxt)}" if nxt else (
        f"; the unpaced maximum is {doc['unpaced_ops']:,.0f} ops/s" if doc.get("unpaced_ops") else "")
    budget = ", point budget spent" if doc.get("ended") == "budget" else ""
    top = " (every rate tried passed: raise --slo-start)" if doc.get("ended") == "all-passed" else ""
    return f"{doc['slo']} holds up to {found:,.0f} ops/s{top} ({n} points{budget}{why})"
