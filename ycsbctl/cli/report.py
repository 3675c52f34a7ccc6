"""``ycsbctl report DIR`` and ``ycsbctl compare A B […]``: render result folders."""

from __future__ import annotations

from pathlib import Path

import click

from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.results.frames import LATENCY_CHOICES

_LATENCY = click.option("--latency", type=click.Choice(LATENCY_CHOICES), default="p99", show_default=True,
                        help="Latency statistic on the figures' right axis and in the comparison.")


@main.command()
@click.argument("directory", type=click.Path(path_type=Path))
@_LATENCY
@click.option("--spectrum-threads", type=click.IntRange(min=1), default=None,
              help="Thread count of the latency-percentile spectrum [default: where the first target peaks].")
def report(directory: Path, latency: str, spectrum_threads: int | None) -> None:
    """Draw the plots and write DIRECTORY/report.html (self-contained, readable offline).

    \b
    Example:
      ycsbctl report reports/2024-05-02-workloadb --latency p999
    """
    try:
        from ycsbctl.report.html import render_report

        click.echo(f"report: {render_report(directory, latency, spectrum_threads=spectrum_threads)}")
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the report was not written; the data in {directory} is untouched — run "
                   f"`ycsbctl report {directory}` again", err=True)
        raise SystemExit(130) from None
    except OSError as exc:  # a full or read-only disk: the data is untouched, the report is not written
        raise UserError(f"cannot write the report in {directory}: {exc.strerror or exc}; free space (or copy the "
                        "folder somewhere writable) and run `ycsbctl report` again", exit_code=1) from None


@main.command()
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))
@_LATENCY
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("compare.html"),
              show_default=True, help="Where to write the HTML comparison.")
def compare(directories: tuple[Path, ...], latency: str, output: Path) -> None:
    """Compare result folders point by point (the first is the baseline): change in throughput and latency,
    judged against the spread of the repetitions; differing environments or plans are listed first.

    \b
    Example:
      ycsbctl compare reports/before reports/after -o compare.html
    """
    from ycsbctl.report.compare import compare as run_compare
    from ycsbctl.report.compare import print_table, render_compare_html

    c = run_compare(list(directories), latency)
    print_table(c)
    click.echo(f"compare: {render_compare_html(c, output)}")
