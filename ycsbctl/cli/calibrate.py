"""``ycsbctl calibrate``: ycsbctl's client side by side with the store's own load generator
(``redis-benchmark``), to check that the client is not what a measurement measures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ycsbctl.cli import MAX_POINT_S, FiniteFloatRange, WholeRange, main
from ycsbctl.provision.auto import BACKENDS
from ycsbctl.provision.base import BackendChoice
from ycsbctl.urls import command_line
from ycsbctl.user_input import writable_file, write_whole


@main.command()
@click.option("--target", default="redis", show_default=True,
              help="a catalogue name ycsbctl starts (redis, valkey, …) or a redis://host:port/db URL whose "
                   "database is empty (the records are loaded there and removed at the end).")
@click.option("--threads", default="8,32", show_default=True,
              help="thread counts (connections) of both sides: 8,32 or 8..128.")
@click.option("--duration", "duration_s", type=FiniteFloatRange(min=0.1, max=MAX_POINT_S), default=3.0,
              show_default=True,
              help="seconds per side, thread count and round.")
@click.option("--rounds", type=WholeRange(min=1), default=5, show_default=True,
              help="rounds (each side once per thread count per round); two or more give intervals and verdicts.")
@click.option("--budget", default=None, metavar="TIME",
              help="instead of --rounds: as many rounds as TIME (90s, 5m) holds at the first round's length, at "
                   "least two (the load and warm-ups not counted).")
@click.option("--margin", default=None, metavar="P%",
              help="the equivalence margin: ycsbctl within ±P of the reference is 'equivalent' [default: 10%].")
@click.option("--records", type=WholeRange(min=1), default=10_000, show_default=True,
              help="records both sides read.")
@click.option("--warmup", "warmup_s", type=FiniteFloatRange(min=0, max=MAX_POINT_S), default=1.0, show_default=True,
              help="seconds of ycsbctl per thread count before the rounds, not measured (redis-benchmark's warm-up is "
                   "2,000 requests).")
@click.option("--processes", type=WholeRange(min=1), help="ycsbctl's worker processes [default: its own choice].")
@click.option("--backend", type=click.Choice(BACKENDS), default="auto", show_default=True)
@click.option("--seed", type=WholeRange(min=0), default=0, show_default=True,
              help="the order of thread counts and sides in each round.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="also write every sample and comparison to this file.")
@click.option("--allow-concurrent", is_flag=True, help="measure even when another benchmark runs on this host.")
@click.pass_context
def calibrate(ctx: click.Context, target: str, threads: str, duration_s: float, rounds: int, budget: str | None,
              margin: str | None, records: int, warmup_s: float, processes: int | None, backend: BackendChoice,
              seed: int, json_path: Path | None, allow_concurrent: bool) -> None:
    """Run ycsbctl's client and the store's own load generator (redis-benchmark) on one server, reading
    the same records, and say whether ycsbctl's client is the bottleneck: its throughput, client CPU
    per read and p99 over redis-benchmark's, each a ratio with its interval and verdict."""
    from ycsbctl.cli.option_values import duration_option, fraction_option
    from ycsbctl.errors import UserError
    from ycsbctl.experiment.calibrate import CalibratePlan
    from ycsbctl.experiment.calibrate import calibrate as run_calibration
    from ycsbctl.experiment.calibrate_text import calibration_lines
    from ycsbctl.experiment.plan import parse_threads
    from ycsbctl.results.stats import EQUIVALENCE_MARGIN

    budget_s = duration_option(budget, "--budget")
    if budget_s is not None and ctx.get_parameter_source("rounds") != click.core.ParameterSource.DEFAULT:
        raise UserError(f"--rounds {rounds} and --budget {budget} both say how many rounds to run: give one of them")
    if json_path is not None:  # written at the end: a path it cannot take is said before the minutes of measuring
        writable_file(json_path, "the --json file")
    plan = CalibratePlan(target=target, threads=tuple(parse_threads(threads)), duration_s=duration_s, rounds=rounds,
                         records=records, warmup_s=warmup_s, processes=processes, backend=backend, seed=seed,
                         budget_s=budget_s, margin=fraction_option(margin, "--margin") or EQUIVALENCE_MARGIN)

    def say(line: str) -> None:
        click.echo(line, err=True)

    cal = run_calibration(plan, say, command_line(sys.argv[1:]), allow_concurrent)
    for line in calibration_lines(cal):
        click.echo(line)
    if json_path is not None:
        write_whole(json_path, json.dumps(cal.to_dict(), indent=2, default=float) + "\n", "the calibration (--json)")
        click.echo(f"json: {json_path}")
