"""``ycsbctl iperf TARGET_OR_URL``: the network baseline alone."""

from __future__ import annotations

import click

from ycsbctl.cli import WholeRange, main
from ycsbctl.errors import UserError
from ycsbctl.telemetry.network import iperf_baseline_for


@main.command()
@click.argument("target_or_url")
@click.option("--duration", "duration_s", type=WholeRange(min=1, max=60), default=3, show_default=True,
              help="seconds of iperf3 traffic.")
@click.option("--iperf-server", metavar="HOST[:PORT]",
              help="an iperf3 server next to an external database (iperf3 -s runs there; port 5201 by default).")
def iperf(target_or_url: str, duration_s: int, iperf_server: str | None) -> None:
    """Measure the network baseline (Gbit/s, iperf3) from this client to TARGET_OR_URL's host.

    A target name or a URL on this host starts its own `iperf3 -s` on a free loopback port;
    another host needs --iperf-server.
    """
    baseline = iperf_baseline_for(target_or_url, duration_s=duration_s, iperf_server=iperf_server)
    if baseline.gbit_s is None:
        raise UserError(baseline.note, exit_code=1)
    click.echo(f"{baseline.gbit_s:.2f} Gbit/s  ({baseline.server}, {duration_s} s: {baseline.note})")
