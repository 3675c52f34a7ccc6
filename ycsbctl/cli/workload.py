"""``ycsbctl dry-run``: the workload without a database."""

from __future__ import annotations

import sys

import click

from ycsbctl.cli import WholeRange, main
from ycsbctl.workload.core import CoreWorkload, proportion_hint
from ycsbctl.workload.dryrun import dry_run_lines, plugin_dry_run_lines
from ycsbctl.workload.plugin import load_workload
from ycsbctl.workload.properties import load_properties


@main.command("dry-run")
@click.argument("workload", required=False)
@click.option("--phase", type=click.Choice(["load", "run"]), default="run", show_default=True,
              help="load: the inserts of the load phase; run: the transaction phase.")
@click.option("-P", "prop_files", multiple=True, metavar="FILE", help="Extra YCSB property file (later ones win).")
@click.option("-p", "props", multiple=True, metavar="KEY=VALUE", help="Property override (wins over files).")
@click.option("--count", type=WholeRange(min=0), default=None,
              help="Operations to print [default: operationcount, or the load count].")
@click.option("--seed", type=WholeRange(min=0), default=None, help="Random seed (≥ 0), for a repeatable stream.")
@click.option("--values", is_flag=True, help="Print what inserts and updates write (field=value), as BasicDB.")
def dry_run(workload: str | None, phase: str, prop_files: tuple[str, ...], props: tuple[str, ...],
            count: int | None, seed: int | None, values: bool) -> None:
    """Print the operations the engine would issue, one per line, like YCSB's BasicDB
    (basicdb.verbose=true): INSERT/READ/UPDATE/SCAN, table, key, fields. With no WORKLOAD, the
    first -P file is the workload (YCSB's way, as for run and load)."""
    if workload is None:
        if not prop_files:
            raise click.UsageError("name a workload (e.g. workload-b or -P workloads/workloadb)")
        workload = prop_files[0]
    properties = load_properties(workload, prop_files, props)
    plugin = load_workload(properties)
    if plugin.builtin_ycsb:
        w = CoreWorkload.from_properties(properties)
        hint = proportion_hint(properties)
        if hint:
            click.echo(hint, err=True)
        lines = dry_run_lines(w, phase, count, seed, values=values)
    else:  # a workload plug-in: its operations' names and arguments
        lines = plugin_dry_run_lines(plugin, phase, count, seed)
    out = sys.stdout
    try:
        for line in lines:
            out.write(line + "\n")
    except BrokenPipeError:  # `| head` closed the pipe: not an error
        sys.stderr.close()
