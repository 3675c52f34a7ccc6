"""Where a sweep puts what it measures: the :class:`ResultSink` seam.

:class:`~ycsbctl.results.folder.ResultFolder` is the sink of every real run (crash-safe, on disk);
:class:`MemorySink` keeps the same things in memory — for a single point printed and not kept
(``ycsbctl run --target URL --threads N`` without ``--out``), and for in-process tests.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import RunStatus
from ycsbctl.results.schema import Manifest


class ResultSink(Protocol):
    """A manifest to read and update, and runs to add (each kept before the next point starts).
    ``durable``: what it keeps outlives the process (facts worth an extra query are measured for it)."""

    durable: bool

    @property
    def manifest(self) -> Manifest: ...

    def update_manifest(self, **fields: Any) -> None:
        """Set manifest fields (``servers``, ``footprints``, ``network``, ``skipped_targets`` …)."""
        ...

    def add_run(self, run: RunRecord) -> None: ...

    def add_yardstick(self, row: dict[str, Any]) -> None:
        """Keep one reading of the host yardstick (a row of :data:`ycsbctl.results.yardstick.COLUMNS`)."""
        ...

    def add_reference_slices(self, session: str, rows: Any) -> None:
        """Keep the reference server's slices of one alternated session (rows of the slices table, role
        ``reference``): :meth:`ycsbctl.results.folder.ResultFolder.add_reference_slices`."""
        ...

    def run_ids(self, status: str | None = None) -> set[str]:
        """Runs kept so far, optionally only those with ``status`` (``--resume`` skips the ``ok`` ones)."""
        ...


class MemorySink:
    """A :class:`ResultSink` in memory: ``runs`` in the order they were added (a run added again
    replaces the earlier one, as in a folder)."""

    def __init__(self, manifest: Manifest, runs: list[RunRecord] | None = None, durable: bool = False) -> None:
        self.durable = durable
        self._manifest = manifest
        self.runs: dict[str, RunRecord] = {r.run_id: r for r in runs or []}
        self.yardstick: list[dict[str, Any]] = []  # the host yardstick's rows, in order
        self.reference: dict[str, Any] = {}  # session -> the reference server's slice rows

    @property
    def manifest(self) -> Manifest:
        return self._manifest

    def update_manifest(self, **fields: Any) -> None:
        self._manifest = replace(self._manifest, **fields)

    def add_run(self, run: RunRecord) -> None:
        RunStatus(run.status)  # as strict as a folder: ValueError for a status that is not one
        self.runs[run.run_id] = run

    def add_yardstick(self, row: dict[str, Any]) -> None:
        self.yardstick.append(row)

    def add_reference_slices(self, session: str, rows: Any) -> None:
        self.reference[session] = rows

    def run_ids(self, status: str | None = None) -> set[str]:
        return {r for r, run in self.runs.items() if status is None or run.status == status}
