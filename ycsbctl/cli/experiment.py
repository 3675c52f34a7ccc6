"""``ycsbctl run`` and ``ycsbctl load``: one point against a URL, or a whole provisioned sweep."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ycsbctl.cli import (
    MAX_POINT_S,
    FiniteFloatRange,
    WholeRange,
    docker_host_option,
    image_option,
    main,
    target_spec_maps,
)
from ycsbctl.cli.help_panels import panelled
from ycsbctl.cli.option_values import (
    DEFAULT_BUDGET_S,
    SEQUENTIAL_MAX_ROUNDS,
    duration_option,
    fraction_option,
    one_rate,
    repeat_option,
    report_wanted,
    switch_wanted,
)
from ycsbctl.cli.run_options import common_options, round_options
from ycsbctl.cli.study_file import named_in_file, refuse_with_resume, with_study_file
from ycsbctl.cli.wait_line import WaitLine
from ycsbctl.errors import UserError, first_line
from ycsbctl.experiment.plan import (
    DEFAULT_LADDER,
    DEFAULT_TARGETS,
    PROFILES,
    Plan,
    is_url,
    parse_rates,
    parse_threads,
    split_targets,
)
from ycsbctl.experiment.resolve import expand_axes
from ycsbctl.results.exit_codes import EXIT_DEGRADED, EXIT_FAILED, EXIT_OK, exit_codes_epilog
from ycsbctl.urls import command_line
from ycsbctl.workload.properties import PropertySources


def _targets(target: tuple[str, ...], targets: str | None, default: list[str] | None, listed=None) -> list[str]:
    """--targets-file's targets (``listed``), then --target and --targets, in order, without duplicates."""
    given = [*(listed.targets if listed else []), *target, *([targets] if targets is not None else [])]
    chosen = split_targets(given)
    for t in chosen:
        if "://" in t and not is_url(t):
            from ycsbctl.stores.registry import protocol_of

            protocol_of(t)  # a URL of another scheme (http://…) is bad input: one line, exit 2
    return chosen or list(default or [])


def _read_targets_file(path: str | None):
    from ycsbctl.provision.target_spec import read_targets_file

    return read_targets_file(path) if path else None


def _warn_typos(sources: PropertySources, workloads: Sequence[str] = ()) -> None:
    """A ``-p``/``-P`` key close to a known YCSB property is most likely a typo, and proportions that
    do not sum to 1 are normalised: say so (YCSB would not)."""
    from ycsbctl.workload.core import proportion_hint
    from ycsbctl.workload.properties import typo_hints

    for line in typo_hints(sources.given()):
        click.echo(line, err=True)
    for workload in dict.fromkeys(workloads):
        try:
            hint = proportion_hint(sources.merged(workload))
        except UserError:  # the workload itself is checked, with its own message, when the plan is built
            continue
        if hint:
            click.echo(f"{workload}: {hint}" if len(workloads) > 1 else hint, err=True)


def _with_client_properties(sources: PropertySources, phase: str, **flags):
    """The plan's settings: the flags given, then YCSB's client properties from -P/-p for the rest."""
    from ycsbctl.workload.client_properties import fold_into_flags, read_client_properties

    return fold_into_flags(flags, read_client_properties(sources.user(), phase))


def _finish(outcome, show_summary: bool, quiet: bool = False, fmt: str = "text") -> None:
    code = outcome.exit_code
    if outcome.folder is not None:
        try:
            if show_summary:
                from ycsbctl.report.summary_table import print_summary

                print_summary(outcome.folder)
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted while printing the summary: the data is complete in {outcome.folder}", err=True)
            code = 130
        click.echo(f"results: {outcome.folder}", err=True)
    if quiet:  # otherwise the progress display said it when it happened
        for s in outcome.skipped:
            click.echo(f"skipped {s.target}: {s.reason}", err=True)
    if getattr(outcome, "report_failed", False) and code in (EXIT_OK, EXIT_DEGRADED):
        code = EXIT_FAILED  # the data is complete, the page is not: a step the user must still take
    if fmt == "json":
        from ycsbctl.results.json_summary import run_summary, to_json

        click.echo(to_json(run_summary(outcome.experiment_id, outcome.folder, outcome.records, code, outcome.skipped)),
                   nl=False)
    sys.exit(code)


def run_and_report(plan: Plan, out: Path | None, single: bool, quiet: bool, resume: Path | None = None,
              allow_concurrent: bool = False, fmt: str = "text", resume_targets: bool = False,
              sources: PropertySources | None = None, report: bool = True):
    from ycsbctl.experiment.resolve import resolve_study

    # the plan resolved (and bad input refused) before the sweep's modules and pandas are imported
    study = resolve_study(plan, sources) if resume is None else None
    from ycsbctl.experiment.run import run_plan

    write = out is not None or not single or resume is not None
    # --format json keeps stdout for its document: YCSB's block only goes to an exportfile
    print_ycsb = single and (fmt == "text" or bool(plan.exportfile))
    outcome = run_plan(
        plan, out, command_line(sys.argv[1:]), resume=resume, write=write, print_ycsb=print_ycsb,
        quiet=quiet, allow_concurrent=allow_concurrent, resume_targets=resume_targets, sources=sources, study=study,
    )
    if outcome.folder is not None and not single and not report:
        click.echo(f"report: not drawn (--no-report or YCSBCTL_REPORT=off): `ycsbctl report {outcome.folder}` "
                   "draws it", err=True)
    elif outcome.folder is not None and not single:
        wait = WaitLine()
        try:
            if wait.live and not quiet:  # seconds of imports and plots: said on a terminal's live line (wiped after)
                wait.say(f"drawing the report of {outcome.folder} (its plots and tables)…")
            from ycsbctl.report.html import render_report

            path = render_report(outcome.folder)
            wait.clear()
            click.echo(f"report: {path}", err=True)
        except KeyboardInterrupt:
            wait.clear()
            click.echo(f"\ninterrupted while writing the report: the data is complete in {outcome.folder}; "
                       f"draw the report later with `ycsbctl report {outcome.folder}`", err=True)
            sys.exit(130)
        except Exception as exc:  # noqa: BLE001 - the data is safe; say why the page is missing
            wait.clear()
            first = first_line(exc)
            click.echo(f"error: the HTML report could not be written ({first}); the data is complete in "
                       f"{outcome.folder}: run `ycsbctl report {outcome.folder}` once that is fixed", err=True)
            outcome.report_failed = True
    return outcome


@main.command(**panelled(epilog=exit_codes_epilog()))
@click.argument("workloads", nargs=-1)
@common_options
@click.option("--threads", default=None, metavar="N|A,B|A..B",
              help=f"Client threads: 32, a list 8,16,32, or a doubling range [default: {DEFAULT_LADDER}].")
@click.option("--load-threads", type=WholeRange(min=1), default=None, metavar="N",
              help="Client threads of the load phase [default: the first --threads, at least 8 and at most 32].")
@round_options
@click.option("--operations", type=WholeRange(min=1), default=None,
              help="operationcount per point (instead of --duration).")
@click.option("--duration", "duration_s", type=FiniteFloatRange(min=0.1, max=MAX_POINT_S), default=None,
              help="Seconds per point (YCSB's maxexecutiontime), measured from the first operation unless --warmup "
                   "is given [default: the profile's, after its warm-up].")
@click.option("--warmup", "warmup_s", type=FiniteFloatRange(min=0, max=MAX_POINT_S), default=None,
              help="Seconds at the start of each point kept in the per-second series but not in the totals "
                   "[default: the profile's (2 s) with the profile's point length; none with --duration or "
                   "--operations].")
@click.option("--target-rate", default=None, metavar="R|A,B|A..B[/S]",
              help="Offered ops/s over all threads (YCSB -target), records intended latency too: 5k, a list "
                   "10k,20k,40k, a doubling range 1k..16k or a stepped range 10k..80k/10k (a sweep axis).")
@click.option("--slo", default=None, metavar="[OP:]pNN<LIMIT",
              help="Search the highest offered rate meeting a latency objective, e.g. 'p99<1ms', 'READ:p99.9<2ms' "
                   "(p50, p95, p99, p99.9; us, ms, s; default: all operations).")
@click.option("--slo-start", default=None, metavar="RATE",
              help="The search's first rate (ops/s, e.g. 5k); it then goes up or down by 4× [default: "
                   "measure one unpaced point and start at half its throughput].")
@click.option("--slo-points", type=WholeRange(min=2, max=30), default=8, show_default=True,
              help="Points the SLO search may run per target × workload × threads (the unpaced one included).")
@click.option("--profile", type=click.Choice(sorted(PROFILES)), default="default", show_default=True,
              help="Scale: default (100k records, 10 s points), smoke, percona2017 (the reference study).")
@click.option("--cpu-profile", "cpu_profile", type=click.Choice(["peak", "all"]), is_flag=False, flag_value="peak",
              default=None, help="Record the on-CPU stacks (perf for the server, py-spy for the client) and draw flame "
                                 "graphs: 'peak' (the value when none is given) re-runs the best point of each target "
                                 "and workload profiled; 'all' profiles every point as it is measured.")
@click.option("--max-error-rate", type=FiniteFloatRange(0, 1), default=0.01, show_default=True,
              help="A point with more ERROR/TIMEOUT than this fraction is recorded as failed.")
@click.option("--load/--no-load", "load", default=None,
              help="Load the dataset before the run-phase points [default: yes for targets we start, no for URLs].")
@click.option("--resume", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Finish the experiment in this result folder: run the missing, failed and degraded points again "
                   "(a degraded point is measured anew, e.g. on a quieter host); the ok ones are kept.")
@click.option("--server-cpus", default=None, metavar="CPUSET",
              help="Pin provisioned servers to these CPUs (e.g. 1 or 0-1).")
@click.option("--server-memory", default=None, metavar="SIZE", help="Memory for provisioned servers (e.g. 4g).")
@click.option("--image", "images", multiple=True, metavar="TARGET=IMAGE", help="Docker image for a target.")
@click.option("--iperf-server", default=None, metavar="HOST[:PORT]",
              help="iperf3 server for the baseline of an external host.")
@click.option("--disturb", "disturb", multiple=True, metavar="ACTION:TYPE:SIZE@AT[/EVERY]",
              help="A disturbance in every run-phase point: a big key built before it, the action at AT s into the "
                   "measured window (repeated every EVERY s), e.g. del:set:2M@5s, unlink:set:2M@5s, "
                   "expire:hash:1M@5s, lrem:list:1M@5s, hgetall:hash:200k@5s/1s (types: hash, set, zset, list; "
                   "sizes k/M). Disturbed points record a 100 ms series and events.parquet. Repeatable.")
@click.option("--yardstick/--no-yardstick", "yardstick", default=None,
              help="Time the host yardstick (a fixed CPU and loopback workload, ~1 s) at the start of every round and "
                   "keep it in yardstick.parquet, so `compare` can divide the host's speed out [default: yes, unless "
                   "YCSBCTL_YARDSTICK=off].")
@click.option("--reference/--no-reference", "reference", default=None,
              help="Measure a small fixed redis-server that ycsbctl starts in every alternated session, as one more "
                   "target kept only as slices, so that `compare A B` reads each target against its own folder's "
                   "reference [default: yes where the plan alternates and redis-server runs here, unless "
                   "YCSBCTL_REFERENCE=off].")
@click.option("--report/--no-report", "report", default=None,
              help="Draw report.html when the sweep ends [default: yes, unless YCSBCTL_REPORT=off]; the data is "
                   "written either way, and `ycsbctl report DIR` draws the report later.")
@click.option("--save-study", "save_study", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="Write the study file this command line means (TOML: every option given, "
                                   "as a key) and run nothing; `ycsbctl run FILE` runs it.")
def run(**given: Any) -> None:
    """Run WORKLOAD… (workload-b, workload-a, insert, or a property file) against targets, or the study file
    STUDY.toml (its keys are these options; options given here override them).

    \b
    With no target: provision redis and mongodb, load, sweep 8..128 threads,
    write reports/<experiment-id>/ with report.html.
    With one URL and one thread count: run that point against a server you run
    and print YCSB's own output block (add --out DIR to keep a result folder).
    A server kind may run under several labels with their own settings:
      --targets redis,redis-lazyfree
      --server-config redis-lazyfree:lazyfree-lazy-user-del=yes
    """
    ctx = click.get_current_context()
    p, from_file = with_study_file(ctx, given)
    if p["save_study"] is not None:
        from ycsbctl.cli.study_write import write_study

        path = write_study(p["save_study"], ctx, p, from_file, command_line(sys.argv[1:]))
        click.echo(f"study: {path} (nothing was run; `ycsbctl run {path}` runs it)", err=True)
        return
    draw = report_wanted(p["report"])  # a bad YCSBCTL_REPORT is one line before anything starts
    timed = switch_wanted(p["yardstick"], "YCSBCTL_YARDSTICK")
    quiet, fmt, allow_concurrent = p["quiet"], p["fmt"], p["allow_concurrent"]
    if p["resume"] is not None:
        refuse_with_resume(ctx, from_file)  # --budget, --repeat … beside it were ignored without a word
        given_targets = _targets(p["target"], p["targets"], None)
        secrets = Plan(workloads=["b"], targets=given_targets or ["basic://"], properties=list(p["props"]))
        _finish(run_and_report(secrets, None, False, quiet, resume=p["resume"], allow_concurrent=allow_concurrent,
                          fmt=fmt, resume_targets=bool(given_targets), report=draw), True, quiet, fmt)
    try:
        plan, sources = plan_of(p, timed)
    except UserError as exc:
        raise named_in_file(exc, ctx, from_file, given["workloads"]) from None
    single = all(is_url(t) for t in plan.targets) and plan.points() == 1  # the default targets are no URLs
    if plan.exportfile and not single:
        raise UserError(f"exportfile={plan.exportfile}: YCSB's exportfile holds one point's block; a sweep keeps "
                        "every point's in <folder>/ycsb/ — drop -p exportfile, or run one point (one URL, one "
                        "--threads)")
    _finish(run_and_report(plan, p["out"], single, quiet, allow_concurrent=allow_concurrent, fmt=fmt, sources=sources,
                      report=draw), not single, quiet, fmt)


def plan_of(p: dict[str, Any], yardstick: bool) -> tuple[Plan, PropertySources]:
    """The :class:`Plan` of ``run``'s parameters ``p`` (click's, a study file's merged in) and the property files
    as read once for it: the one place where options become a plan."""
    workloads = tuple(p["workloads"])
    if not workloads and p["prop_files"]:  # YCSB's way: the first -P file is the workload
        workloads = p["prop_files"][:1]
    if not workloads:
        raise click.UsageError("name at least one workload (e.g. workload-b or -P workloads/workloadb), a study "
                               "file (STUDY.toml), or --resume DIR")
    sources = PropertySources.read(workloads, p["prop_files"], p["props"])  # each property file read once, here
    _warn_typos(sources, workloads)
    workloads = tuple(expand_axes(list(workloads), sources))  # -p key=a,b,c: a sweep axis
    listed = _read_targets_file(p["targets_file"])
    chosen = _targets(p["target"], p["targets"], None, listed)
    settings = _with_client_properties(
        sources, "run", threads=parse_threads(p["threads"]) if p["threads"] else None,
        records=p["records"], operations=p["operations"], duration_s=p["duration_s"], warmup_s=p["warmup_s"],
        target_rates=parse_rates(p["target_rate"]) if p["target_rate"] else None)
    settings["threads"] = settings["threads"] or parse_threads(DEFAULT_LADDER)
    settings["target_rates"] = settings["target_rates"] or []
    rounds, precision_f, sequential = repeat_option(p["repeat"], p["precision"],
                                                    default_plan=not chosen and not p["slo"])
    most = p["max_repeat"] or (SEQUENTIAL_MAX_ROUNDS if sequential else 10)
    budget_s = duration_option(p["budget"], "--budget")
    if p["iperf_server"]:  # its host:port checked before anything starts (it is used after the servers are up)
        from ycsbctl.telemetry.network import parse_server  # (here: telemetry imports pandas)

        parse_server(p["iperf_server"])
    plan = Plan(
        workloads=list(workloads), targets=chosen or list(DEFAULT_TARGETS), load_threads=p["load_threads"],
        repeat=rounds, precision=precision_f, max_repeat=max(most, rounds), order=p["order"],
        slice_s=p["slice_s"], placement=p["placement"], baseline=p["baseline"], alpha=p["alpha"], sequential=sequential,
        margin=fraction_option(p["margin"], "--margin"),
        budget_s=(budget_s or DEFAULT_BUDGET_S) if sequential else budget_s,
        profile=p["profile"], cpu_profile=p["cpu_profile"], timeout_s=p["timeout_s"],
        max_error_rate=p["max_error_rate"], backend=p["backend"], engine=p["engine"], ycsb_home=p["ycsb_home"],
        processes=p["processes"], seed=p["seed"], telemetry=p["telemetry"], load=p["load"],
        property_files=list(p["prop_files"]), properties=list(p["props"]), images=image_option(p["images"], []),
        docker_hosts=docker_host_option(p["docker_hosts"]), server_cpus=p["server_cpus"],
        server_memory=p["server_memory"], iperf_server=p["iperf_server"], cluster=p["cluster"], slo=p["slo"],
        slo_start=one_rate(p["slo_start"], "--slo-start") if p["slo_start"] else None, slo_points=p["slo_points"],
        disturb=list(p["disturb"]), yardstick=yardstick,
        reference=p["reference"], **settings,
        **target_spec_maps(p["server_config"], p["target_kind"], p["binary"], listed, p["tls"]),
    )
    budget = p["budget"]
    if budget is not None and not (plan.sequential and len(plan.targets) > 1):  # a bound on nothing, once silent
        why = ("with one target there is nothing to decide" if plan.sequential else "--precision stops at its width "
               "or --max-repeat" if plan.precision is not None else f"--repeat {plan.repeat} runs its rounds whole")
        raise UserError(f"--budget {budget!r} bounds the rounds --repeat auto adds to decide between two or more "
                        f"targets; {why}: drop --budget")
    return plan, sources


def plan_of_args(args: list[str] | tuple[str, ...]) -> Plan:
    """The plan ``ycsbctl run ARGS…`` would run (a study file read as ``run`` reads it), built in this process
    without running anything."""
    with run.make_context("run", list(args)) as ctx:
        p, _ = with_study_file(ctx, dict(ctx.params))
        return plan_of(p, switch_wanted(p["yardstick"], "YCSBCTL_YARDSTICK"))[0]


@main.command(**panelled(epilog=exit_codes_epilog()))
@click.argument("workload", required=False)
@common_options
@click.option("--threads", type=WholeRange(), default=None, help="Client threads (≥ 1) [default: threadcount, else 1].")
def load(workload: str | None, target, targets, prop_files, props, records, engine, ycsb_home, backend,
         docker_hosts, out, targets_file, server_config, target_kind, binary, tls,
         timeout_s, processes, seed, cluster, telemetry, quiet, fmt, allow_concurrent, threads) -> None:
    """Load WORKLOAD's records into a target (YCSB's -load phase) and print YCSB's output block.

    \b
    ycsbctl load workload-b --target redis://127.0.0.1:6379 \\
        -p recordcount=100000 --threads 8
    ycsbctl load -P workloads/workloadb --target redis://127.0.0.1:6379 \\
        -p threadcount=8
    """
    if threads is not None and threads < 1:
        raise UserError(f"--threads {threads}: use a number ≥ 1")
    workload = workload or (prop_files[0] if prop_files else None)
    if workload is None:
        raise click.UsageError("name the workload (e.g. workload-b or -P workloads/workloadb)")
    sources = PropertySources.read([workload], prop_files, props)  # each property file read once, here
    _warn_typos(sources, [workload])
    listed = _read_targets_file(targets_file)
    chosen = _targets(target, targets, None, listed)
    if not chosen:
        raise click.UsageError("name the target to load with --target URL (or a catalogue name)")
    settings = _with_client_properties(sources, "load", threads=[threads] if threads else None, records=records)
    settings["threads"] = settings["threads"] or [1]
    plan = Plan(
        workloads=[workload], targets=chosen, profile="default", engine=engine,
        ycsb_home=ycsb_home, backend=backend, timeout_s=timeout_s, processes=processes, seed=seed,
        telemetry=telemetry, property_files=list(prop_files), properties=list(props), phase="load", cluster=cluster,
        yardstick=switch_wanted(None, "YCSBCTL_YARDSTICK"),
        docker_hosts=docker_host_option(docker_hosts),
        **settings, **target_spec_maps(server_config, target_kind, binary, listed, tls),
    )
    _finish(run_and_report(plan, out, True, quiet, allow_concurrent=allow_concurrent, fmt=fmt, sources=sources),
            False, quiet, fmt)
