"""When a sequential run (``--repeat auto``) looks at its rounds, and what part of ``alpha`` each look spends.

The rounds are looked at as they come and the experiment stops once its cells are decided; each look spends
a part of ``alpha`` (:func:`spent_alpha`: the parts sum to at most ``alpha``), so that stopping on the data
keeps the error rate (a union bound over the looks). The tests themselves are :mod:`ycsbctl.results.stats`.
"""

from __future__ import annotations

# Sequential looks (--repeat auto): the rounds after which a running experiment asks whether its cells are
# decided; an analysis after round r spends the weight of look 1 + (looks scheduled before r), so the final
# analysis of a run stopped between two looks (its time budget spent) spends the next look's weight.
LOOK_ROUNDS = (1, 2, 3, 5, 8, 12, 18, 27, 40, 60, 90)
SPENDING_POWER = 1.5  # weight of look k ∝ 1/k^1.5, normalised by ζ(1.5): Σ over every look = 1
_ZETA = 2.612375348685488  # ζ(1.5)


def look_index(rounds: int) -> int:
    """The look an analysis after ``rounds`` rounds is (1-based): 1 + the scheduled looks before it."""
    return 1 + sum(1 for r in LOOK_ROUNDS if r < rounds) + max(0, rounds - 1 - LOOK_ROUNDS[-1])


def spent_alpha(alpha: float, rounds: int, sequential: bool) -> float:
    """The level an analysis after ``rounds`` rounds tests at: ``alpha`` for a fixed number of rounds (one
    look); in a sequential run ``alpha · w_k`` with ``w_k = k^-1.5 / ζ(1.5)`` for look ``k``
    (:func:`look_index`), so that the looks together spend at most ``alpha`` whatever stops the run."""
    if not sequential:
        return alpha
    k = look_index(max(rounds, 1))
    return alpha * k ** -SPENDING_POWER / _ZETA
