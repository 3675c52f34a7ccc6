"""Cells a target's store cannot do: a workload plug-in that refuses cells (``refuses_cells``, media-items)
says why a store cannot run one of its variants (Redis has no full-text search); that target × case
cell is refused before anything starts — one line each, kept in the manifest — and the sweep runs the
target's other cells (:attr:`ycsbctl.experiment.study.Study.cannot`, resolved once by
:func:`ycsbctl.experiment.resolve.resolve_study`). Any other refusal still refuses the plan
(:func:`~ycsbctl.workload.plugin.require_executor`)."""

from __future__ import annotations

from ycsbctl.results.schema import CannotCell
from ycsbctl.workload.plugin import Workload


def refusal(built: Workload, protocol: str, kind: str | None, connections: int, timeout_s: float) -> str | None:
    """Why the store of ``protocol`` (a catalogue ``kind`` such as ``ferretdb``; None for a URL: its server
    is the user's) cannot run the workload ``built`` at the plan's scale (``connections``: its most client
    threads; ``timeout_s``: its operation timeout, s) — refused before any point rather than
    failing after its timeouts; None when it can (or the workload refuses no cell)."""
    if not built.refuses_cells:
        return None
    return built.refusal(protocol, kind or "", connections, timeout_s) or None


def cannot_line(c: CannotCell) -> str:
    return f"{c.target} {c.workload}: cannot — {c.reason}"
