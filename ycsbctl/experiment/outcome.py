"""What a plan produced, and the accounting of how it ended (exit code, folder status).

A ``degraded`` point is a property of the point (measured, its numbers kept and marked, its why said), not a failure
of the run: a folder whose every planned point was measured is ``complete`` whatever their status, and the exit
code tells a script what it can rely on (:mod:`ycsbctl.results.exit_codes`: ``run``, ``load`` and ``rerun`` share
this one rule; the manual's "Exit codes" section says the same)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ycsbctl.results.exit_codes import EXIT_DEGRADED, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.schema import SkippedTarget

MEASURED = (RunStatus.OK, RunStatus.DEGRADED)  # a point whose numbers are there


@dataclass
class Outcome:
    """The folder, every point measured now, skipped targets, and how it ended."""

    folder: Path | None
    experiment_id: str = ""
    records: list[RunRecord] = field(default_factory=list)
    skipped: list[SkippedTarget] = field(default_factory=list)
    interrupted: bool = False
    report_failed: bool = False  # the data is complete but report.html could not be written

    @property
    def all_ok(self) -> bool:
        """No target skipped and every point ``ok``."""
        return not self.skipped and all(r.status == RunStatus.OK for r in self.records)

    @property
    def all_measured(self) -> bool:
        """No target skipped and every point measured (``ok`` or ``degraded``): the plan's numbers are all there."""
        return not self.skipped and all(r.status in MEASURED for r in self.records)

    @property
    def exit_code(self) -> int:
        """The one rule (:data:`~ycsbctl.results.exit_codes.EXIT_CODES`): 130 after Ctrl-C; 1 when a target was
        skipped or a point failed (or was cut short); 3 when every point was measured but one is ``degraded``
        (stalled server, short dataset, busy host: its numbers are kept and marked, its why says what to read them
        as); else 0."""
        if self.interrupted:
            return EXIT_INTERRUPTED
        if self.all_ok:
            return EXIT_OK
        return EXIT_DEGRADED if self.all_measured else EXIT_FAILED

    def folder_status(self, refused: bool = False) -> FolderStatus:
        """``interrupted`` (Ctrl-C, or the disk ``refused`` a write); ``complete`` when every planned point was
        measured (ok or degraded) and no target was skipped; else ``partial``. A sweep that stopped early on an
        error is made ``partial`` by its caller (:func:`ycsbctl.experiment.run._sweep`)."""
        if self.interrupted or refused:
            return FolderStatus.INTERRUPTED
        return FolderStatus.COMPLETE if self.all_measured else FolderStatus.PARTIAL
