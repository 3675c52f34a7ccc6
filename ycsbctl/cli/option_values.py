"""The values of ``ycsbctl run``'s options that click's types do not parse: ``--repeat N|auto`` with
``--precision``, a share (``--margin 10%``), a time (``--budget 10m``), one rate (``--slo-start 5k``) and the
switches an environment variable may turn off (``YCSBCTL_REPORT``, ``YCSBCTL_YARDSTICK``). Each bad value is
a UserError: one line, exit 2, before anything starts."""

from __future__ import annotations

import math
import os

from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import parse_rates
from ycsbctl.user_input import decimal_number, whole_number


def one_rate(text: str, flag: str) -> float:
    """One rate in ops/s (``5000`` or ``5k``) from ``text``; UserError (exit 2) for a list or a range."""
    rates = parse_rates(text, flag)
    if len(rates) != 1:
        raise UserError(f"{flag} {text!r}: give one rate in ops/s (5000 or 5k)")
    return rates[0]


AUTO_MIN_ROUNDS = 3  # --repeat auto --precision P%: rounds before the precision is first checked
DEFAULT_BUDGET_S = 300.0  # --repeat auto: the time rounds may take after the first one began (s)
SEQUENTIAL_MAX_ROUNDS = 30  # --repeat auto: the most rounds without --max-repeat


def repeat_option(repeat: str | None, precision: str | None, default_plan: bool) -> tuple[int, float | None, bool]:
    """(rounds, precision, sequential) from ``--repeat N|auto`` and ``--precision P%``; UserError (exit 2)
    otherwise. ``auto`` alone is sequential: rounds until every compared cell is decided (better, worse or
    equivalent) or the budget is spent; with ``--precision``, until every cell's interval is that narrow.
    Without ``--repeat``: ``auto`` for the default plan (no target named), else one round."""
    text = (repeat if repeat is not None else ("auto" if default_plan else "1")).strip().lower()
    try:
        rounds = (AUTO_MIN_ROUNDS if precision is not None else 1) if text == "auto" else whole_number(text)
    except ValueError:
        rounds = 0
    if rounds < 1:
        raise UserError(f"--repeat {repeat!r}: give a number of rounds (≥ 1) or auto")
    if precision is None:
        return rounds, None, text == "auto"
    p = precision.strip()
    try:
        value = decimal_number(p[:-1]) / 100 if p.endswith("%") else decimal_number(p)
    except ValueError:
        raise UserError(f"--precision {precision!r}: give a relative half width such as 3% or 0.03") from None
    if not 0 < value < 1:
        raise UserError(f"--precision {precision!r}: give a relative half width such as 3% or 0.03")
    return max(rounds, 2), value, False


def fraction_option(text: str | None, flag: str) -> float | None:
    """``10%`` or ``0.1`` as 0.1 (a fraction strictly between 0 and 1); None when not given."""
    if text is None:
        return None
    t = text.strip()
    try:
        value = decimal_number(t[:-1]) / 100 if t.endswith("%") else decimal_number(t)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:  # NaN and infinities too
        raise UserError(f"{flag} {text!r}: give a share such as 10% or 0.1 (above 0, below 100 %)")
    return value


def duration_option(text: str | None, flag: str) -> float | None:
    """``90s``, ``10m``, ``1h`` or a number of seconds as seconds (> 0, finite); None when not given."""
    if text is None:
        return None
    t = text.strip().lower()
    scale = {"s": 1.0, "m": 60.0, "h": 3600.0}.get(t[-1:])
    try:
        value = decimal_number(t[:-1] if scale else t) * (scale or 1.0)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise UserError(f"{flag} {text!r}: give a time such as 90s, 10m or 1h")
    return value


def switch_wanted(flag: bool | None, variable: str) -> bool:
    """A switch's value: the flag the user gave, else the environment's ``variable`` (``off`` or ``0``: off;
    scripts that run many sweeps and read only the data, the test suite among them), else on. A value that is
    neither is one line (exit 2) before anything starts."""
    if flag is not None:
        return flag
    value = os.environ.get(variable, "on").strip().lower()
    if value not in ("on", "1", "off", "0", ""):
        raise UserError(f"{variable}={value!r}: give on or off")
    return value not in ("off", "0")


def report_wanted(flag: bool | None) -> bool:
    """Whether a sweep draws its HTML report when it ends: ``--report/--no-report``, else ``YCSBCTL_REPORT``,
    else yes. ``ycsbctl report DIR`` draws it later from the same files."""
    return switch_wanted(flag, "YCSBCTL_REPORT")
