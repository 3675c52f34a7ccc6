"""``ycsbctl list``: the experiments under reports/, newest first (as ``esrally list races``)."""

from __future__ import annotations

from pathlib import Path

import click

from ycsbctl.cli import main
from ycsbctl.results.listing import ExperimentEntry, list_experiments

HEADER = ("experiment", "started", "workloads", "targets", "ok", "not ok", "status")


def _printable(text: str) -> str:
    """``text`` with control characters escaped: a folder named with a newline split its row in two."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _row(e: ExperimentEntry) -> tuple[str, ...]:
    started = e.started_at.replace("T", " ")[:19] or "?"
    state = e.state + (f" — {e.note}" if e.note else "")
    return tuple(_printable(c) for c in (e.experiment_id, started, ",".join(e.workloads) or "?",
                                         ",".join(e.targets) or "?", str(e.ok), str(e.not_ok), state))


@main.command("list")
@click.option("--reports", type=click.Path(file_okay=False, path_type=Path), default=Path("reports"),
              show_default=True, help="Folder holding the result folders.")
def list_cmd(reports: Path) -> None:
    """List past experiments: id, start, workloads, targets, points ok / not ok, status.

    \b
    A folder still being written is `running`; one whose ycsbctl stopped before the end is
    `abandoned` (finish it with `ycsbctl run --resume DIR`); one that cannot be read is `damaged`.
    """
    entries = list_experiments(reports)
    if not entries:
        click.echo(f"no experiments in {reports}", err=True)
        return
    rows = [HEADER, *(_row(e) for e in entries)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER) - 1)]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
