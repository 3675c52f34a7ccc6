"""``ycsbctl rerun FOLDER``: a result folder's experiment run again into a new folder, then compared with it."""

from __future__ import annotations

from pathlib import Path

import click

from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.results.exit_codes import exit_codes_epilog


@main.command(epilog=exit_codes_epilog())
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--target", "targets", multiple=True, metavar="LABEL=URL|URL",
              help="A server you run in place of the stored target LABEL (LABEL=redis://127.0.0.1:6379), or a stored "
                   "URL again with its password (the manifest keeps none). Repeatable.")
@click.option("--binary", "binaries", multiple=True, metavar="NAME=PATH",
              help="Run this server build for a stored target's label or kind (repeatable, local backend).")
@click.option("-p", "--property", "properties", multiple=True, metavar="KEY=VALUE",
              help="A password property of the stored plan again (the manifest keeps none). Repeatable.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="The new result folder [default: reports/<experiment-id>].")
@click.option("--quiet", is_flag=True, help="No progress display.")
@click.option("--allow-concurrent", is_flag=True,
              help="Measure even while another ycsbctl measures on this host (points are labelled host-busy).")
@click.option("--report/--no-report", "report", default=None,
              help="Draw the new folder's report.html [default: yes, unless YCSBCTL_REPORT=off].")
def rerun(folder: Path, targets: tuple[str, ...], binaries: tuple[str, ...], properties: tuple[str, ...],
          out: Path | None, quiet: bool, allow_concurrent: bool, report: bool | None) -> None:
    """Run FOLDER's experiment again (its manifest's plan: targets, settings, seed, ladder, rounds and budget) into
    a new folder, then compare FOLDER with it, saying first what of the host and servers differs.

    \b
    Examples:
      ycsbctl rerun reports/20261128-101500-b
      ycsbctl rerun reports/old --target redis=redis://127.0.0.1:6379 --out reports/again
      ycsbctl rerun reports/old --binary valkey=/opt/valkey/bin/valkey-server
    """
    from ycsbctl.cli.experiment import run_and_report
    from ycsbctl.cli.option_values import report_wanted
    from ycsbctl.experiment.rerun import cannot_start, host_differences, read_manifest, stored_plan

    draw = report_wanted(report)
    before = read_manifest(folder)
    plan = stored_plan(folder, before, targets, binaries, properties)
    why = cannot_start(plan)
    if why:
        raise UserError(why)
    outcome = run_and_report(plan, out, False, quiet, allow_concurrent=allow_concurrent, report=draw)
    if outcome.folder is None:
        raise SystemExit(outcome.exit_code)
    click.echo(f"results: {outcome.folder}", err=True)
    now = read_manifest(outcome.folder)
    differs = host_differences(before, now)
    if differs:
        click.echo(f"this run's host differs from {folder}'s: " + "; ".join(differs))
    else:
        click.echo(f"host: as in {folder} (CPU, cores, kernel and server versions alike)")
    from ycsbctl.cli.report import compare

    try:
        click.get_current_context().invoke(compare, directories=(folder, outcome.folder),
                                           output=outcome.folder / "compare.html")
    except UserError as exc:  # the run went as it went: its folder is kept and its exit code stands (not 2)
        click.echo(f"rerun: {outcome.folder} is not compared with {folder}: "
                   f"{exc.message.removeprefix('compare: ')}", err=True)
    raise SystemExit(outcome.exit_code)
