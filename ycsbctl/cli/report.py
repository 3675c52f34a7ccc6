"""``ycsbctl report DIR`` and ``ycsbctl compare A B […]``: render result folders."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from ycsbctl.cli import FiniteFloatRange, WholeRange, main
from ycsbctl.errors import UserError
from ycsbctl.results.frames import LATENCY_CHOICES
from ycsbctl.user_input import writable_file

_LATENCY = click.option("--latency", type=click.Choice(LATENCY_CHOICES), default="p99", show_default=True,
                        help="Latency statistic on the figures' right axis and in the comparison.")


@main.command()
@click.argument("directory", type=click.Path(path_type=Path))
@_LATENCY
@click.option("--spectrum-threads", type=WholeRange(min=1), default=None,
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


def _refuse_copies(experiments: list) -> None:
    """UserError when two folders hold one experiment (the same id and start: a copy). Each cell was compared
    with itself, and --calibrate recorded a drift of 0 % that every later comparison tested against (campaign)."""
    seen: dict[tuple[str, str], Path] = {}
    for e in experiments:
        key = (e.manifest.experiment_id, e.manifest.started_at)
        if key[1] and key in seen:
            raise UserError(f"compare: {seen[key]} and {e.path} hold the same experiment ({key[0]}, started "
                            f"{key[1]}): a copy, not another run", fix="give result folders of different runs")
        seen[key] = e.path


@main.command()
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))
@_LATENCY
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("compare.html"),
              show_default=True, help="Where to write the HTML comparison.")
@click.option("--control", default=None, metavar="TARGET",
              help="A target run with the same build and settings in both experiments: its change is taken as "
                   "the host's drift between them [default: the one unchanged target, when another changed].")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: an array on stdout, one object per cell and metric (ratio, interval, p value, verdict, "
                   "compared: true); a cell with no verdict (e.g. its points degraded by a busy host in a folder "
                   "whose targets ran one after the other) is an object too, with compared: false, verdict null and "
                   "why (its points' statuses and causes), and a stderr line counts them; the exit code is 0 either "
                   "way (2 only when no cell matched at all).")
@click.option("--alpha", type=FiniteFloatRange(0, 1, min_open=True, max_open=True), default=None,
              help="Significance level of the verdicts [default: the first experiment's --alpha, 0.05].")
@click.option("--calibrate", is_flag=True,
              help="The folders are an A/A pair (the same plan run twice, nothing changed): record how far each cell "
                   "drifted as this host's drift between experiments, the margin that comparisons without a control "
                   "target test against (in ~/.cache/ycsbctl/host_drift.json).")
def compare(directories: tuple[Path, ...], latency: str, output: Path, control: str | None, fmt: str,
            alpha: float | None, calibrate: bool) -> None:
    """Compare result folders cell by cell (the first is the baseline), or one folder's targets with its
    baseline target: ratio with its interval (at the level that agrees with the verdicts) and a tested verdict (better,
    worse, equivalent within the margin, or undecided); differing environments or plans are listed first.

    \b
    Examples:
      ycsbctl compare reports/before reports/after -o compare.html
      ycsbctl compare reports/redis-vs-valkey            # one folder: each target against the first
      ycsbctl compare reports/aa-1 reports/aa-2 --calibrate   # the same plan twice: record the host's drift
    """
    from ycsbctl.report.compare import compare as run_compare
    from ycsbctl.report.compare import json_cells, nothing_to_compare, print_table, render_compare_html
    from ycsbctl.report.compare_json import not_compared_note
    from ycsbctl.report.drift_record import calibrate as record_drift

    if fmt == "json" and click.get_current_context().get_parameter_source("output") == ParameterSource.COMMANDLINE:
        # was silently ignored: no page written, nothing said (campaign, 27 Nov)
        raise UserError(f"compare: --format json prints the cells on stdout and writes no page, so -o {output} "
                        "would be ignored", fix="drop -o, or drop --format json to write the HTML page")
    if fmt == "text":  # the page is written last: a path it cannot take is said before the folders are read
        writable_file(output, "the comparison page (-o)", creates_folders=True)
    seen = [d.resolve() for d in directories]
    twice = next((d for i, d in enumerate(directories) if seen[i] in seen[:i]), None)
    if twice is not None:  # each cell against itself: every ratio 1, a drift of 0 recorded by --calibrate
        raise UserError(f"compare: {twice} is given twice: give different result folders (or one folder alone, to "
                        "compare its targets with its first)")
    c = run_compare(list(directories), latency, control, alpha)
    _refuse_copies(c.experiments)
    for warning in c.warnings:
        click.echo(f"warning: {warning}", err=True)
    refusal = nothing_to_compare(c)
    if refusal is not None:  # was a "nothing to compare" line, exit 0 and a compare.html of no cell (fault43g)
        raise refusal
    if calibrate:
        path, lines = record_drift(c)
        for line in lines:
            click.echo(f"host drift recorded: {line}", err=True)
        click.echo(f"host drift record: {path} (later comparisons without a control target test against it)", err=True)
        c = run_compare(list(directories), latency, control, alpha)
    if fmt == "json":
        import json

        cells = json_cells(c)
        click.echo(json.dumps(cells, indent=1, default=str))
        note = not_compared_note(cells)
        if note:
            click.echo(note, err=True)
        for d in c.differences:
            click.echo(f"note: the experiments differ: {d}", err=True)
        return
    print_table(c)
    click.echo(f"compare: {render_compare_html(c, output)}")
