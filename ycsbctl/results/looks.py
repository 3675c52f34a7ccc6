"""When a sequential run (``--repeat auto``) looks at its rounds, and at what level each look tests.

The rounds are looked at as they come and the experiment stops once its cells are decided. Once the first round
has run, the sweep knows how long a round takes, so how many rounds its ``--budget`` (and ``--max-repeat``) holds:
the *planned rounds* N (recorded in the manifest's plan as ``planned_rounds``, from a round's length only, never
from what was measured in it). The looks then spend ``alpha`` by their information — an analysis after r rounds
has r/N of the plan's — with the O'Brien–Fleming-like Lan–DeMets spending function, each look's boundary found
with the looks' true correlation (:mod:`ycsbctl.results.spending`): early looks decide only gaps far beyond the
noise, the last planned one tests at nearly ``alpha``, and stopping at any look keeps the error rate.
:data:`BEYOND_PLAN` of ``alpha`` is kept for looks past the plan (a resumed run given more rounds), split among
them by a union bound. The plan records this scheme as ``spending: "obf"``.

The two one-sided tests of equivalence spend their own ``alpha`` the same way, one-sided
(:func:`equivalence_alpha`): an ``equivalent`` verdict is made at the level of the interval ``1 − 2α`` for one look
(90 % at α = 0.05), the usual form of the test.

Folders written before (no ``spending`` in their plan) are read as they were judged: a union bound, look k
spending weight k^-1.5/ζ(1.5) of ``alpha`` (or, with planned rounds, look 1 1/ζ(1.5) and looks 2…K ∝ 1/k).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ycsbctl.results import spending

# Sequential looks (--repeat auto): the rounds after which a running experiment asks whether its cells are
# decided; an analysis after round r spends the weight of look 1 + (looks scheduled before r), so the final
# analysis of a run stopped between two looks (its time budget spent) spends the next look's weight.
LOOK_ROUNDS = (1, 2, 3, 5, 8, 12, 18, 27, 40, 60, 90)
SPENDING_POWER = 1.5  # without planned rounds: weight of look k ∝ 1/k^1.5, normalised by ζ(1.5)
_ZETA = 2.612375348685488  # ζ(1.5)
FIRST_LOOK = 1.0 / _ZETA  # look 1's part of alpha, planned rounds or not (it comes before the plan)
BEYOND_PLAN = 0.05  # kept for looks past the planned rounds (of what follows look 1, in the union-bound scheme)
SPENDING = "obf"  # the plan's ``spending`` of a run whose looks spend alpha by Lan–DeMets (spending.py)


def look_index(rounds: int) -> int:
    """The look an analysis after ``rounds`` rounds is (1-based): 1 + the scheduled looks before it."""
    return 1 + sum(1 for r in LOOK_ROUNDS if r < rounds) + max(0, rounds - 1 - LOOK_ROUNDS[-1])


def _tail_power(k: int, first: int) -> float:
    """k^-1.5 over Σ_{j ≥ first} j^-1.5 (ζ(1.5) less the terms below ``first``)."""
    return k ** -SPENDING_POWER / (_ZETA - sum(j ** -SPENDING_POWER for j in range(1, first)))


def look_weight(k: int, planned_rounds: int | None = None) -> float:
    """The part of alpha look ``k`` spends. Without ``planned_rounds``: k^-1.5/ζ(1.5). With them (K = the look
    an analysis after the planned rounds is): look 1 :data:`FIRST_LOOK`; looks 2…K share
    (1 − FIRST_LOOK)(1 − BEYOND_PLAN) ∝ 1/k; looks past K share the rest ∝ k^-1.5. Either way the weights of
    every look sum to at most 1."""
    if k <= 1:
        return FIRST_LOOK
    if planned_rounds is None:
        return k ** -SPENDING_POWER / _ZETA
    last = look_index(max(planned_rounds, 1))
    rest = 1.0 - FIRST_LOOK
    if k <= last:
        return rest * (1.0 - BEYOND_PLAN) * (1.0 / k) / math.fsum(1.0 / j for j in range(2, last + 1))
    return rest * BEYOND_PLAN * _tail_power(k, last + 1)


def looks_until(rounds: int) -> tuple[int, ...]:
    """The rounds after which the analyses up to one after ``rounds`` rounds were made: the scheduled looks before
    it (:data:`LOOK_ROUNDS`) and itself (a run stopped between two looks is analysed where it stopped)."""
    at = max(rounds, 1)  # an analysis after 0 rounds is look 1's (as look_index says)
    return (*[k for k in LOOK_ROUNDS if k < at], at)


def spent_alpha(alpha: float, rounds: int, sequential: bool, planned_rounds: int | None = None,
                scheme: str | None = None) -> float:
    """The two-sided level an analysis after ``rounds`` rounds tests at: ``alpha`` for a fixed number of rounds
    (one look). In a sequential run with planned rounds N and the Lan–DeMets ``scheme`` (:data:`SPENDING`): the
    nominal level of its boundary (:func:`ycsbctl.results.spending.nominal_levels` over the looks' fractions r/N,
    spending ``alpha`` × (1 − :data:`BEYOND_PLAN`)); past the plan, a union-bound part of the rest. Else (a folder
    written before): ``alpha`` times look k's weight (:func:`look_index`, :func:`look_weight`). Either way the
    looks together spend at most ``alpha`` whatever stops the run."""
    if not sequential:
        return alpha
    r = max(rounds, 1)
    if scheme != SPENDING or not planned_rounds:
        return alpha * look_weight(look_index(r), planned_rounds)
    n = max(planned_rounds, 1)
    if r <= n:
        return spending.nominal_levels(alpha * (1.0 - BEYOND_PLAN), tuple(k / n for k in looks_until(r)))[-1]
    return alpha * BEYOND_PLAN * _tail_power(look_index(r), look_index(n) + 1)


def equivalence_alpha(alpha: float, rounds: int, sequential: bool, planned_rounds: int | None = None,
                      scheme: str | None = None) -> float:
    """The two-sided level whose interval the two one-sided tests of equivalence read (each side at ``alpha``,
    spent over the looks like :func:`spent_alpha`): ``2 × alpha`` for one look — the 90 % interval at α = 0.05."""
    return spent_alpha(2 * alpha, rounds, sequential, planned_rounds, scheme)


def plan_spent_alpha(plan: Mapping[str, Any], alpha: float, rounds: int, equivalence: bool = False) -> float:
    """:func:`spent_alpha` (``equivalence``: :func:`equivalence_alpha`) of a folder's analysis after ``rounds``
    rounds, from its manifest's ``plan`` (whether it ran ``sequential``, its ``planned_rounds`` and ``spending``,
    where it has them)."""
    planned = plan.get("planned_rounds")
    how = equivalence_alpha if equivalence else spent_alpha
    return how(alpha, rounds, bool(plan.get("sequential")), int(planned) if planned else None, plan.get("spending"))


def planned_rounds(budget_s: float, round_s: float, most: int) -> int:
    """The rounds a ``budget_s``-second budget holds at ``round_s`` seconds a round (the first round's length),
    at most ``most`` (``--max-repeat``) and at least 1."""
    if not round_s > 0 or not math.isfinite(budget_s):
        return max(1, most)
    return max(1, min(most, int(budget_s // round_s)))


def narrowing_needed(ci_low: float, ci_high: float, equivalence: float, beyond: float = 0.0) -> float:
    """How many times the rounds behind the ratio interval [``ci_low``, ``ci_high``] would decide it, were its ratio
    to hold and its interval to narrow as 1/√rounds: the square of its half-width (in log) over the room it must fit
    — a difference once it lies wholly beyond ±``beyond`` (a minimum-effect test's margin, 0 for none), an
    equivalence once it lies inside ±``equivalence`` (0.05: 1/1.05 .. 1.05) — whichever comes first. An estimate
    (the looks' levels move with the rounds too, and the next rounds' ratio with them); ``inf`` without an interval,
    or where neither can fit."""
    if not (ci_low > 0 and ci_high >= ci_low and math.isfinite(ci_high)):
        return math.inf
    lo, hi = math.log(ci_low), math.log(ci_high)
    centre, half = (lo + hi) / 2, (hi - lo) / 2
    room = max(abs(centre) - (math.log1p(beyond) if beyond > 0 else 0.0),
               math.log1p(equivalence) - abs(centre) if equivalence > 0 else 0.0)
    return (half / room) ** 2 if room > 0 else math.inf


# Past this many times the rounds run, an estimate of the rounds needed is not given: its spread would swamp it.
NEED_SHOWN = 100


def rounds_needed(narrowing: float, done: int) -> int | None:
    """The rounds in all that would decide a cell needing ``narrowing`` (:func:`narrowing_needed`) after ``done``
    rounds: at least one more; None where no figure can be given (no interval, none after 0 rounds, or past
    :data:`NEED_SHOWN` × the rounds run)."""
    if not math.isfinite(narrowing) or done < 1 or narrowing > NEED_SHOWN:
        return None
    return max(done + 1, math.ceil(done * narrowing))
