"""A verdict as a person reads it, on one line: ``0.04× [0.03, 0.05] worse (margin ±10 %)`` — the ratio
(other ÷ baseline), its interval, the verdict and the margin it was judged against, with the size the
test could have detected beside ``undecided``. Never "nan"; never a printed bound that contradicts its
verdict (a ``worse`` interval printed as ending at 1.00: more digits are shown until it reads right)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from ycsbctl.results import stats

# An interval bound past these says no more than "huge" (two rounds give bounds such as 4.7e7: t(0.995, 1) = 64).
BOUND_LOW, BOUND_HIGH = 0.01, 1000.0
MAX_DIGITS = 4


def _num(x: object) -> float:
    """``x`` as a float, NaN for None, text or NaN."""
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    return v


def _bound(x: float, digits: int, low: bool) -> str:
    floor = min(BOUND_LOW, 10.0 ** -digits)  # "<0.01" only where the digits cannot show the bound
    if low and x < floor:
        return f"<{floor:g}"
    if not low and x > BOUND_HIGH:
        return f">{BOUND_HIGH:,.0f}"
    return f"{x:.{digits}f}"


def interval_text(low: float, high: float, digits: int = 2) -> str:
    """`` [1.05, 1.19]`` for a ratio's interval, a bound beyond :data:`BOUND_LOW` (or below what ``digits``
    decimals show, if smaller) / :data:`BOUND_HIGH` as ``<0.01``/``>1,000`` (still true, and readable); empty
    without an interval."""
    lo, hi = _num(low), _num(high)
    if math.isnan(lo) or math.isnan(hi):
        return ""
    return f" [{_bound(lo, digits, True)}, {_bound(hi, digits, False)}]"


def _reads(text: str) -> float:
    return float(text.lstrip("<>").replace(",", ""))


def _agrees(lo: float, hi: float, verdict: str, margin: float, digits: int) -> bool:
    """Whether ``lo``..``hi`` printed with ``digits`` decimals still reads as ``verdict``."""
    a, b = _reads(_bound(lo, digits, True)), _reads(_bound(hi, digits, False))
    if verdict in (stats.BETTER, stats.WORSE):
        return a > 1 or b < 1 if lo > 1 or hi < 1 else True
    if verdict == stats.EQUIVALENT and margin > 0:
        return a >= round(1 / (1 + margin), digits) and b <= round(1 + margin, digits)
    return True


def digits_for(lo: float, hi: float, verdict: str, margin: float = 0.0, digits: int = 2) -> int:
    """The fewest decimals from ``digits`` on (at most :data:`MAX_DIGITS`) at which the interval reads as its
    verdict: ``[1.004, 1.09]`` of a ``better`` cell is not printed ``[1.00, 1.09]``."""
    if math.isnan(lo) or math.isnan(hi):
        return digits
    for d in range(digits, MAX_DIGITS + 1):
        if _agrees(lo, hi, verdict, margin, d):
            return d
    return MAX_DIGITS


def margin_words(r: Mapping[str, Any] | Any) -> str:
    """``margin ±10 %`` (the equivalence margin), or ``within the host's drift ±9.3 %`` for a comparison of two
    folders tested against the host's drift; empty without a margin."""
    drift = _num(r.get("drift_margin_pct"))
    if drift == drift:
        return f"host drift ±{drift:.1f} %"
    m = _num(r.get("margin_pct"))
    return f"margin ±{m:.0f} %" if m == m and m > 0 else ""


def detectable_words(pct: float) -> str:
    """``could detect ±6 %``; past 100 % as the factor it is on the ratio's scale (a 0.04× ratio is a 25-fold
    difference): ``could detect only beyond 3.2× either way``."""
    if pct <= 100:
        return f"could detect ±{pct:.0f} %"
    factor = 1 + pct / 100
    if factor > BOUND_HIGH:  # past any figure worth printing: two rounds of a wild cell
        return f"could detect only beyond {BOUND_HIGH:,.0f}× either way"
    return f"could detect only beyond {factor:,.0f}× either way" if factor >= 10 else \
        f"could detect only beyond {factor:.1f}× either way"


def verdict_text(r: Mapping[str, Any] | Any, digits: int = 2) -> str:
    """``1.12× [1.05, 1.19] better (margin ±10 %)``, ``1.01× [0.97, 1.05] equivalent (margin ±10 %)``,
    ``1.04× [0.80, 1.35] undecided (margin ±10 %; could detect ±25 %)``; ``—`` without a ratio."""
    ratio, lo, hi = _num(r.get("ratio")), _num(r.get("ci_low")), _num(r.get("ci_high"))
    if math.isnan(ratio):
        return "—"
    v = str(r.get("verdict") or stats.UNDECIDED)
    margin = _num(r.get("margin_pct"))
    drift = _num(r.get("drift_margin_pct"))
    eq = (drift if drift == drift else margin) / 100
    d = digits_for(lo, hi, v, eq if eq == eq else 0.0, digits)
    return f"{ratio:.{d}f}×{interval_text(lo, hi, d)} {verdict_phrase(r)}"


HELD = "undecided: "  # a decided_by of a cell held undecided (its host reading not trusted), the why after it


def verdict_phrase(r: Mapping[str, Any] | Any, noise: bool = False) -> str:
    """The verdict and its notes: ``undecided (margin ±10 %; could detect ±25 %)`` — the margin it was judged
    against, beside ``undecided`` what the test could have detected (and why it was held undecided, where its host
    reading could not be trusted: a ``decided_by`` of :data:`HELD`), and with ``noise`` that a ``better``/``worse``
    was decided by the host's noise bound alone (``worse (margin ±10 %; beyond the host's noise)``)."""
    v = str(r.get("verdict") or stats.UNDECIDED)
    notes = [w for w in (margin_words(r),) if w]
    det = _num(r.get("detectable_pct"))
    if v == stats.UNDECIDED and det == det:
        notes.append(detectable_words(det))
    by = r.get("decided_by")
    if v == stats.UNDECIDED and isinstance(by, str) and by.startswith(HELD):  # a host reading it cannot rest on
        notes.insert(0, by.removeprefix(HELD))
    if noise and v in (stats.BETTER, stats.WORSE) and isinstance(by, str) and by.startswith(stats.NOISE_ONLY):
        notes.append("beyond the host's noise")
    return v + (f" ({'; '.join(notes)})" if notes else "")


def percent(level: float) -> str:
    """``99.7 %``: a confidence level (0..1) with as few digits as tell it from 100 %."""
    for digits in range(0, 4):
        text = f"{100 * level:.{digits}f}"
        if float(text) < 100 and (digits or float(text) == round(100 * level, 6)):
            return f"{text} %"
    return f"{100 * level:.4f} %"


def level_words(rows: Iterable[Mapping[str, Any]]) -> str:
    """The confidence level of a family's intervals as ``99.7 %``: its tested cells' (a ``p_adjusted`` that is a
    number; the level :func:`ycsbctl.results.stats.family_level` sets), ``95 %`` where no cell was tested, and beside
    it an equivalent cell's — the two one-sided tests' interval, ``99.7 % (an equivalent cell's: 90 %)`` — where
    there are both; ``host-noise bound`` where no cell was tested and one was decided by that bound alone."""
    rows = list(rows)
    tested = [r for r in rows if _num(r.get("p_adjusted")) == _num(r.get("p_adjusted"))]
    if not tested and any(str(r.get("decided_by") or "").startswith(stats.NOISE_ONLY) for r in rows):
        return "host-noise bound"  # one round: no test, the intervals are the host's noise bound
    family = [_num(r.get("ci_level")) for r in tested if r.get("verdict") != stats.EQUIVALENT]
    equivalent = [_num(r.get("ci_level")) for r in tested if r.get("verdict") == stats.EQUIVALENT]
    family, equivalent = [x for x in family if x == x], [x for x in equivalent if x == x]
    if not family and equivalent:
        return percent(min(equivalent))
    text = percent(min(family) if family else stats.CONFIDENCE)
    return f"{text} (an equivalent cell's: {percent(min(equivalent))})" if equivalent else text
