"""What a plan produced, and the accounting of how it ended (exit code, folder status)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.schema import SkippedTarget


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
    def exit_code(self) -> int:
        """130 after Ctrl-C; 1 when a target was skipped or any point is not ``ok`` — a ``degraded``
        point (stalled server, short dataset, busy host) too: its numbers are not a healthy server's."""
        if self.interrupted:
            return 130
        return 0 if self.all_ok else 1

    def folder_status(self, refused: bool = False) -> FolderStatus:
        """``interrupted`` (Ctrl-C, or the disk ``refused`` a write), else ``complete`` or ``partial``."""
        if self.interrupted or refused:
            return FolderStatus.INTERRUPTED
        return FolderStatus.COMPLETE if self.all_ok else FolderStatus.PARTIAL
