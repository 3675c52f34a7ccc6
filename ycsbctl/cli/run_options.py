"""The options ``ycsbctl run`` and ``ycsbctl load`` share: targets, properties, engine, backend, output and
telemetry (the YCSB ones keep YCSB's spelling); and ``run``'s rounds and verdicts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ycsbctl.cli import FiniteFloatRange, WholeRange, target_spec_option_list, targets_file_option


def common_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by ``run`` and ``load`` (the YCSB ones keep YCSB's spelling)."""
    opts = [
        click.option("--target", "target", multiple=True, metavar="T",
                     help="A catalogue name or a URL (both listed above), or a label beginning with a catalogue name "
                          "(redis-lazyfree, valkey-io2: the same server under another name, with its own "
                          "--server-config). Repeatable."),
        click.option("--targets", "targets", default=None, metavar="A,B", help="Comma-separated targets."),
        targets_file_option(),
        *target_spec_option_list(),
        click.option("-P", "--property-file", "prop_files", multiple=True, metavar="FILE",
                     help="Extra YCSB property file (later ones win)."),
        click.option("-p", "--property", "props", multiple=True, metavar="KEY=VALUE",
                     help="YCSB property override (wins over files)."),
        click.option("--records", type=WholeRange(min=1), default=None,
                     help="recordcount [default: the profile's]."),
        click.option("--engine", type=click.Choice(["native", "ycsb"]), default="native", show_default=True,
                     help="native: ycsbctl's own load generator; ycsb: the real Java YCSB (--ycsb-home)."),
        click.option("--ycsb-home", envvar="YCSB_HOME", default=None, metavar="DIR",
                     help="YCSB release folder or folder of jars, for --engine ycsb [env: YCSB_HOME]."),
        click.option("--backend", type=click.Choice(["auto", "docker", "local"]), default="auto", show_default=True,
                     help="How to start catalogue targets."),
        click.option("--docker-host", "docker_hosts", multiple=True, metavar="[TARGET=]URL",
                     help="Docker engine to start catalogue targets on: tcp://DBHOST:2375, ssh://user@DBHOST or "
                          "unix:///path; TARGET=URL for one target (repeatable). Implies --backend docker; a server "
                          "on another host gets a generated password and iperf3 runs next to it."),
        click.option("--out", type=click.Path(path_type=Path), default=None,
                     help="Result folder to write [run: reports/<experiment-id>; a single point: none]."),
        click.option("--timeout", "timeout_s", type=FiniteFloatRange(min=0.001), default=10.0, show_default=True,
                     help="Per-operation timeout in seconds (counted as TIMEOUT, never fatal)."),
        click.option("--processes", type=WholeRange(min=1), default=None,
                     help="Engine worker processes [default: one per core, capped by threads]."),
        click.option("--seed", type=WholeRange(min=0), default=None,
                     help="Random seed of the workload streams (≥ 0)."),
        click.option("--telemetry/--no-telemetry", default=True, show_default=True,
                     help="Sample server/client CPU, memory, DB counters and network at 1 Hz."),
        click.option("--cluster", default=None, metavar="tls://HOST:8786",
                     help="Dask scheduler: one engine shard on each of its workers (client hosts) "
                          "[default: the local engine]. --processes is then per client host."),
        click.option("--quiet", is_flag=True, help="No progress display."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                     help="json: one JSON document on stdout (experiment, folder, every point's numbers); "
                          "progress and notes stay on stderr, YCSB's block is not printed."),
        click.option("--allow-concurrent", is_flag=True,
                     help="Measure even while another ycsbctl measures on this host (points are labelled host-busy)."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def round_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``run``'s rounds and verdicts: how many rounds, in which order, judged how (the "Rounds and verdicts" panel
    of ``run --help``)."""
    from ycsbctl.cli.option_values import DEFAULT_BUDGET_S, SEQUENTIAL_MAX_ROUNDS
    from ycsbctl.experiment.plan import SLICE_RANGE_S, SLICE_S

    opts = [
        click.option("--repeat", default=None, metavar="N|auto",
            help="Rounds: each visits every point once (see --order). auto: add interleaved rounds until every "
                 "compared cell is decided — better, worse or equivalent within --margin — or --budget is spent "
                 "(a sequential test: stopping on the data keeps the error rate) [default: auto for the default "
                 "plan (no target named), else 1]."),
        click.option("--budget", default=None, metavar="TIME",
            help=f"With --repeat auto: the time the rounds may take, e.g. 10m [default: {DEFAULT_BUDGET_S / 60:g}m]; "
                 "cells still open then are left undecided, with the difference they could have detected. Refused "
                 "where it would bound nothing (--repeat N, --precision, one target)."),
        click.option("--margin", default=None, metavar="P%",
            help="The equivalence margin: a ratio whose interval lies within ±P is 'equivalent' [default: 10%]."),
        click.option("--precision", default=None, metavar="P%",
            help="With --repeat: add rounds until every point's 95 % throughput interval is within ±P "
                 "(e.g. 3%) instead of until decided."),
        click.option("--max-repeat", type=WholeRange(min=1), default=None,
            help=f"The most rounds --repeat auto / --precision may run [default: {SEQUENTIAL_MAX_ROUNDS} with "
                 "--repeat auto, 10 with --precision]."),
        click.option("--order", type=click.Choice(["auto", "alternate", "interleaved", "blocks", "target"]),
            default="auto", show_default=True,
            help="alternate: every target's server stays up, and each round measures a cell's targets in one "
                 "engine session, all clients switching target together every --slice (A B B A …), so the "
                 "host's noise lands on both sides of a ratio; "
                 "interleaved: every target's server stays up, each round visits every point in an order "
                 "shuffled from --seed, the targets' points of one thread count next to each other; blocks: rounds "
                 "run target by target, one server up at a time, the "
                 "targets' order reversed every other round (A B B A); target: each target's points in turn, "
                 "repetitions back to back [auto: alternate with more than one target (interleaved where the "
                 "plan cannot alternate: it says why), interleaved with one target and several repetitions; "
                 "blocks where the servers' --server-memory together exceeds the host's available memory]."),
        click.option("--slice", "slice_s", type=FiniteFloatRange(min=SLICE_RANGE_S[0], max=SLICE_RANGE_S[1]),
            default=SLICE_S, show_default=True, metavar="SECONDS",
            help="With --order alternate: seconds on one target before every client switches to the next."),
        click.option("--placement", type=click.Choice(["auto", "split", "off"]), default="auto", show_default=True,
            help="split: the servers ycsbctl starts run on half the CPUs, the client's workers on the others "
                 "(2 CPUs: one each); off: both float over all CPUs [auto: split where every target's server "
                 "is started here and there are 4 CPUs or more, or 2 or more where the targets alternate; "
                 "off otherwise]."),
        click.option("--baseline", default=None, metavar="TARGET",
            help="The target the others are compared with (ratio, interval, verdict) [default: the first]."),
        click.option("--alpha", type=FiniteFloatRange(0, 1, min_open=True, max_open=True), default=0.05,
            show_default=True,
            help="Significance level of the verdicts (false discovery rate over the cells of a comparison)."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f
