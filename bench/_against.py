"""The closing line of a bench that times this checkout against another one round by round (``--against``)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path


def ratio_line(against: Mapping[int, float], this: Mapping[int, float], what: str) -> str:
    """``this ÷ against, WHAT: ratio [low, high]``: the ratio of two checkouts' figures paired by round
    (:func:`ycsbctl.results.stats.compare`), its 95 % interval from two rounds on."""
    from ycsbctl.results.stats import compare

    c = compare(dict(against), dict(this), paired=True)
    span = f"[{c.low:.2f}, {c.high:.2f}]" if c.low == c.low else "(one round: no interval)"
    return f"this ÷ against, {what}: {c.ratio:.2f} {span}"


def checkouts(this: Path, against: Path | None) -> dict[str, Path] | None:
    """``{"this": this, "against": against}`` (``against`` resolved; left out when None), or None after one line on
    stderr where either is no ycsbctl checkout (the caller exits 2)."""
    trees = {"this": this} | ({"against": against.resolve()} if against else {})
    for tree in trees.values():
        if not (tree / "ycsbctl" / "__main__.py").is_file():
            print(f"error: {tree} is no ycsbctl checkout: name the folder that holds ycsbctl/", file=sys.stderr)
            return None
    return trees
