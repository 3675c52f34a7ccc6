"""The options ``ycsbctl run`` and ``ycsbctl load`` share: targets, properties, engine, backend, output and
telemetry (the YCSB ones keep YCSB's spelling)."""

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
