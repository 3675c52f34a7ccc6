"""``ycsbctl lab up|down``: hosts made of network namespaces, to rehearse a multi-host plan here."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from ycsbctl.cli import WholeRange, main
from ycsbctl.errors import UserError
from ycsbctl.processes import sigterm_as_interrupt


def _state_file() -> Path:
    from ycsbctl.provision.state import state_dir

    return state_dir() / "lab.json"


@main.group()
def lab() -> None:
    """A server host and client hosts made of network namespaces on this machine (root)."""


@lab.command()
@click.option("--link", default=None, metavar="RATE",
              help="Shape the server's link (tc tbf), e.g. 1.29gbit or 200mbit.")
@click.option("--clients", type=WholeRange(1, 3), default=2, show_default=True, help="Client hosts (dask workers).")
def up(link: str | None, clients: int) -> None:
    """Start the lab: redis-server and iperf3 on srv, the Dask scheduler on ctl, a dask worker on each client host."""
    from ycsbctl.provision.lab import Lab, parse_rate

    state = _state_file()
    if state.exists():
        raise UserError(f"a lab is up already ({state}): `ycsbctl lab down` first")
    state.parent.mkdir(parents=True, exist_ok=True)
    checkout = Path(__file__).resolve().parents[2]  # a source checkout has the built mongo-wire here
    mongo_wire = checkout / "infra" / "bin" / "mongo-wire"
    # Its logs (servers, scheduler, workers) go next to its state, not to /tmp: one folder, reused by the next lab.
    try:
        with sigterm_as_interrupt():
            the_lab = Lab(clients=clients, link=parse_rate(link) if link else None, logs=str(state.parent / "lab-logs"),
                          pythonpath=":".join(p for p in sys.path if p and Path(p, "ycsbctl").is_dir()),
                          mongo_wire=str(mongo_wire) if mongo_wire.exists() else "").up(state)
    except KeyboardInterrupt:  # Lab.up removed what it had made before this is raised
        click.echo("ycsbctl: `lab up` interrupted: the namespaces and processes it had made were removed", err=True)
        raise SystemExit(130) from None
    ctl = " ".join(the_lab.exec_argv("ctl"))
    click.echo(f"lab {the_lab.tag} is up: hosts {', '.join(the_lab.hosts)}"
               + (f"; server link shaped to {the_lab.link}" if the_lab.link else "") + f"; logs in {the_lab.logs}")
    click.echo("run on its client hosts from its controller host:")
    click.echo(f"  {ctl} {shlex.quote(sys.argv[0])} run workload-b --target {the_lab.redis_url} "
               f"--cluster {the_lab.scheduler} --iperf-server {the_lab.redis_url.split('//')[1].split(':')[0]}")
    if the_lab.mongo_url:
        click.echo(f"  (a MongoDB-wire server too: --target {the_lab.mongo_url})")
    click.echo("then: ycsbctl lab down")


@lab.command()
def down() -> None:
    """Stop every process of the lab and delete its namespaces."""
    from ycsbctl.provision.lab import Lab

    state = _state_file()
    if not state.exists():
        click.echo("no lab is up")
        return
    the_lab = Lab.load(state)
    try:
        with sigterm_as_interrupt():
            the_lab.down()  # finishes before an interrupt is raised
    except KeyboardInterrupt:
        click.echo(f"ycsbctl: `lab down` interrupted after lab {the_lab.tag} was removed", err=True)
        raise SystemExit(130) from None
    click.echo(f"lab {the_lab.tag} is down")
