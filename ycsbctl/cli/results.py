"""``ycsbctl import-ycsb``: existing YCSB logs → a result folder for ``report`` and ``compare``."""

from __future__ import annotations

import click

from ycsbctl.cli import WholeRange, main
from ycsbctl.results.ycsb_import import import_logs
from ycsbctl.stores import registry


@main.command("import-ycsb")
@click.argument("logs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Result folder to create (must not exist).")
@click.option("--target", default=None, help="Target name [default: from the log's -db class].")
@click.option("--workload", default=None, help="Workload name [default: the log's -P file name].")
@click.option("--threads", type=WholeRange(min=1), default=None,
              help="Client threads [default: the log's -threads].")
def import_ycsb(logs: tuple[str, ...], out: str, target: str | None, workload: str | None,
                threads: int | None) -> None:
    """Read YCSB output files (stdout and stderr of one run each, 0.17.0 or master) into a result folder.

    \b
    Example:
      ycsbctl import-ycsb run-16.log run-32.log --out reports/ycsb-redis
    """
    path, runs = import_logs(logs, out, target=target, workload=workload, threads=threads,
                             db_targets=registry.ycsb_log_targets())
    for r in runs:
        click.echo(f"{r.log}: {r.run_id} {r.status}, {r.operations} operations, {r.throughput_ops:.1f} ops/s")
    click.echo(f"wrote {path}")
