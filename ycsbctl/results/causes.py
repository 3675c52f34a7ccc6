"""Why points were not ok, grouped by cause: a short name per cause and a count per status × cause.

A point's reason (its ``error``) carries its own figures — "other programs used 44% of a core (22% of
the host's 2 cores …)", "no reply for 11.9 s, from 7.0 s into …" — so grouping by the exact text makes
one group per percentage. :func:`cause` maps the reasons ycsbctl itself writes to a short name (the
host-busy ones by the point's bottleneck label first), and any other text (a server's or a driver's
words) to its first clause cut at its first figure or parenthesis: ``ServerSelectionTimeoutError:
127.0.0.1:27017: …`` is ``ServerSelectionTimeoutError``. :func:`by_cause` counts them, most first.
"""

from __future__ import annotations

import re

import pandas as pd

HOST_BUSY = "host-busy"
# Our own reasons (experiment/judge.py, experiment/explain.py, telemetry/why.py, telemetry/stall.py,
# experiment/missing.py), found anywhere in the text: the one that begins first names the cause.
KNOWN: tuple[tuple[str, str], ...] = (
    ("another benchmark ran on this host", "host busy: another benchmark"),
    ("other programs used", "host busy: other programs used CPU"),
    ("the hypervisor gave", "host busy: the hypervisor took CPU (steal)"),
    ("no reply for", "no reply (stall)"),
    ("the client itself did not run", "the client stalled"),
    ("the client's calls waited", "the client waited on the store's lock"),
    ("of operations failed (ERROR/TIMEOUT)", "errors above --max-error-rate"),
    ("no operation was measured", "no operation measured"),
    ("lookups found no record", "records missing (NOT_FOUND)"),
    ("timed out", "timed out"),
    ("did not connect", "did not connect"),
    ("lost the server", "lost the server"),  # a connection closed mid-point (its reconnect's words come after)
    ("cannot connect to", "could not connect"),  # a binding's connect: "cannot connect to HOST:PORT: …"
)
_HOST_BUSY_CAUSES = tuple(name for _, name in KNOWN[:3])
_FIGURE = re.compile(r"[\d(\[]|\b[a-z][a-z0-9+.-]*://")  # a figure, or a URL (its address is no cause)


def cause(status: str, bottleneck: object = None, error: object = None) -> str:
    """A short name for why a point has ``status`` (empty when its reason is unknown): a host-busy point's
    (label ``host-busy``) names what kept the host busy; a reason of ycsbctl's own its :data:`KNOWN` name;
    any other text its first clause up to its first figure, parenthesis or URL."""
    text = error if isinstance(error, str) else ""
    found = [(text.find(needle), name) for needle, name in KNOWN if needle in text]
    if bottleneck == HOST_BUSY:
        busy = [f for f in found if f[1] in _HOST_BUSY_CAUSES]
        return min(busy)[1] if busy else "host busy"
    if found:
        return min(found)[1]
    first = text.split("; ", 1)[0]
    cut = _FIGURE.split(first, 1)[0].rstrip(" :,;-–—")
    if len(cut) >= 3:
        return cut
    return re.sub(r"\d[\d.,:%]*", "N", first.split(" (", 1)[0]).strip()[:80]


def by_cause(rows: pd.DataFrame) -> list[tuple[str, str, int]]:
    """(status, cause, points) of ``rows`` (a runs table: ``status``, with ``bottleneck`` and ``error``
    where it has them), most points first, then in the order first seen."""
    if not len(rows):
        return []
    labels = rows["bottleneck"] if "bottleneck" in rows else pd.Series(None, index=rows.index, dtype=object)
    errors = rows["error"] if "error" in rows else pd.Series(None, index=rows.index, dtype=object)
    counts: dict[tuple[str, str], int] = {}
    for status, label, error in zip(rows["status"], labels, errors):
        key = (str(status), cause(str(status), label, error))
        counts[key] = counts.get(key, 0) + 1
    order = {k: i for i, k in enumerate(counts)}
    return [(s, c, n) for (s, c), n in sorted(counts.items(), key=lambda kv: (-kv[1], order[kv[0]]))]


def counts_text(rows: pd.DataFrame) -> str:
    """``12 degraded (host busy: other programs used CPU), 2 failed (timed out)``: :func:`by_cause` in
    words; empty for no rows."""
    return ", ".join(f"{n} {status}" + (f" ({c})" if c else "") for status, c, n in by_cause(rows))
