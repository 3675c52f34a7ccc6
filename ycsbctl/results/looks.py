"""When a sequential run (``--repeat auto``) looks at its rounds, and what part of ``alpha`` each look spends.

The rounds are looked at as they come and the experiment stops once its cells are decided; each look spends
a part of ``alpha`` (:func:`spent_alpha`: the parts sum to at most ``alpha``), so that stopping on the data
keeps the error rate (a union bound over the looks). The tests themselves are :mod:`ycsbctl.results.stats`.

Look 1 (after the first round) spends :data:`FIRST_LOOK` of ``alpha``. Once the first round has run, the
sweep knows how long a round takes, so how many rounds its ``--budget`` (and ``--max-repeat``) holds: the
*planned rounds* (recorded in the manifest's plan as ``planned_rounds``, from a round's length only, never
from what was measured in it). The rest of ``alpha`` is then spread over the looks those rounds hold —
weight ∝ 1/k for look k, :data:`BEYOND_PLAN` of it kept for looks past the plan (a resumed run given more
rounds) — rather than over an endless series whose later looks the budget never reaches. A folder without
planned rounds (written before they existed) spends as it did: weight k^-1.5/ζ(1.5) for look k.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

# Sequential looks (--repeat auto): the rounds after which a running experiment asks whether its cells are
# decided; an analysis after round r spends the weight of look 1 + (looks scheduled before r), so the final
# analysis of a run stopped between two looks (its time budget spent) spends the next look's weight.
LOOK_ROUNDS = (1, 2, 3, 5, 8, 12, 18, 27, 40, 60, 90)
SPENDING_POWER = 1.5  # without planned rounds: weight of look k ∝ 1/k^1.5, normalised by ζ(1.5)
_ZETA = 2.612375348685488  # ζ(1.5)
FIRST_LOOK = 1.0 / _ZETA  # look 1's part of alpha, planned rounds or not (it comes before the plan)
BEYOND_PLAN = 0.05  # of what follows look 1: kept for looks past the planned rounds


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


def spent_alpha(alpha: float, rounds: int, sequential: bool, planned_rounds: int | None = None) -> float:
    """The level an analysis after ``rounds`` rounds tests at: ``alpha`` for a fixed number of rounds (one
    look); in a sequential run ``alpha`` times look k's weight (:func:`look_index`, :func:`look_weight`), so
    that the looks together spend at most ``alpha`` whatever stops the run."""
    if not sequential:
        return alpha
    return alpha * look_weight(look_index(max(rounds, 1)), planned_rounds)


def plan_spent_alpha(plan: Mapping[str, Any], alpha: float, rounds: int) -> float:
    """:func:`spent_alpha` of a folder's analysis after ``rounds`` rounds, from its manifest's ``plan`` (whether it
    ran ``sequential`` and its ``planned_rounds``, where it has them)."""
    planned = plan.get("planned_rounds")
    return spent_alpha(alpha, rounds, bool(plan.get("sequential")), int(planned) if planned else None)


def planned_rounds(budget_s: float, round_s: float, most: int) -> int:
    """The rounds a ``budget_s``-second budget holds at ``round_s`` seconds a round (the first round's length),
    at most ``most`` (``--max-repeat``) and at least 1."""
    if not round_s > 0 or not math.isfinite(budget_s):
        return max(1, most)
    return max(1, min(most, int(budget_s // round_s)))
