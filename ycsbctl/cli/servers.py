"""``ycsbctl targets | up | status | down | doctor``: manage the servers ycsbctl starts."""

from __future__ import annotations

import json
import time

import click

from ycsbctl.cli import (
    WholeRange,
    docker_host_option,
    image_option,
    main,
    target_spec_maps,
    target_spec_options,
    targets_file_option,
)
from ycsbctl.cli.wait_line import WaitLine
from ycsbctl.provision import auto, doctor
from ycsbctl.provision.auto import BACKENDS
from ycsbctl.provision.base import BackendChoice
from ycsbctl.provision.engines import ALL_TARGETS
from ycsbctl.urls import redact_url


def _describe(ep, with_password: bool = False) -> str:
    where = f"container {ep.container_id[:12]}" if ep.container_id else (
        f"pid {ep.pid}" if ep.pid else ("embedded (no process)" if ep.backend == "local" else "external"))
    if ep.host:
        where += f" on {ep.host}"
    settings = "".join(f", {k}={v}" for k, v in ep.settings.items())
    return (f"{ep.target}\t{ep.url if with_password else redact_url(ep.url)}\t{ep.backend}, {where}, "
            f"{ep.server_name}{settings}")


DOCKER_HOST_HELP = ("Docker engine to start servers on: tcp://HOST:2375, ssh://user@HOST or unix:///path; TARGET=URL "
                    "for one target (repeatable). Implies --backend docker. A server on another host listens on "
                    "its addresses with a generated password (`ycsbctl status --with-passwords` shows it).")


@main.command()
def targets() -> None:
    """The target catalogue, and whether docker or a local binary can provide each one here."""
    from ycsbctl.provision.variants import VARIANTS

    wait = WaitLine()
    for row in doctor.availability(on_wait=wait.say):
        wait.clear()
        click.echo(f"{row.target} ({row.protocol})")
        click.echo(f"  docker {row.image}: {row.docker}")
        click.echo(f"  local: {row.local}")
    click.echo("deployments (each runs its base kind's server, as above):")
    for v in VARIANTS.values():
        settings = ", ".join(f"{k}={val}" for k, val in v.settings)
        click.echo(f"  {v.name} ({v.base}): {v.what}" + (f" [{settings}]" if settings else ""))


@main.command()
@click.argument("target_names", metavar="[TARGET...]", nargs=-1)
@click.option("--backend", type=click.Choice(BACKENDS), default="auto", show_default=True,
              help="auto: docker when a daemon answers and the image is present or pullable, else local.")
@click.option("--image", "images", multiple=True, metavar="[TARGET=]IMAGE",
              help="Docker image instead of the catalogue's: TARGET=IMAGE, repeatable (IMAGE alone for one target).")
@click.option("--server-cpus", help="cpuset the server may run on, e.g. 0-1 (docker --cpuset-cpus, local taskset).")
@click.option("--server-memory", help="memory for the server, e.g. 2g (container limit; 80% of it as the "
                                      "server's data limit).")
@click.option("--host-network", is_flag=True, help="docker: run with --network host instead of publishing a port.")
@click.option("--port", type=WholeRange(1, 65535),
              help="port on 127.0.0.1 (one target only; default: a free port).")
@click.option("--experiment-id", default=lambda: time.strftime("manual-%Y%m%d-%H%M%S"),
              help="label for the servers (default: manual-<time>).")
@click.option("--docker-host", "docker_hosts", multiple=True, metavar="[TARGET=]URL", help=DOCKER_HOST_HELP)
@target_spec_options
@targets_file_option()
def up(target_names: tuple[str, ...], backend: BackendChoice, images: tuple[str, ...], server_cpus: str | None,
       server_memory: str | None, host_network: bool, port: int | None, experiment_id: str,
       docker_hosts: tuple[str, ...], server_config: tuple[str, ...], target_kind: tuple[str, ...],
       binary: tuple[str, ...], targets_file: str | None, tls: bool) -> None:
    """Start TARGETs (catalogue names, or labels such as valkey-io2 with --server-config; or those of
    --targets-file, first) and print their URLs; they run until `ycsbctl down`."""
    from ycsbctl.provision.target_spec import read_targets_file

    listed = read_targets_file(targets_file) if targets_file else None
    urls = [t for t in (listed.targets if listed else []) if "://" in t]
    if urls:
        raise click.BadParameter(f"{urls[0]} is a URL: `up` starts servers, list catalogue names or labels",
                                 param_hint="--targets-file")
    target_names = tuple(dict.fromkeys([*(listed.targets if listed else []), *target_names]))
    if not target_names:
        raise click.UsageError("name the targets to start, or pass --targets-file")
    if port and len(target_names) > 1:
        raise click.UsageError("--port applies to one target: run `ycsbctl up` once per target")
    image_map = image_option(images, list(target_names))
    engine_map = docker_host_option(docker_hosts)
    for flag, given in (("--image", image_map), ("--docker-host", engine_map)):
        unknown = sorted(set(given) - set(target_names) - {ALL_TARGETS})
        if unknown:
            raise click.BadParameter(f"{', '.join(unknown)} is not among the targets to start", param_hint=flag)
    from ycsbctl.experiment.plan import Plan

    labelled = Plan(workloads=["b"], targets=list(target_names), backend="auto" if backend == "external" else backend,
                    **target_spec_maps(server_config, target_kind, binary, listed, tls))
    specs = {t: labelled.spec(t) for t in target_names}
    try:
        endpoints = auto.up_servers(list(target_names), backend, experiment_id=experiment_id, images=image_map,
                                    docker_hosts=engine_map, server_cpus=server_cpus, server_memory=server_memory,
                                    host_network=host_network, port=port, specs=specs)
    except KeyboardInterrupt:
        click.echo("ycsbctl: `up` interrupted: the servers it had started were stopped, none is left running",
                   err=True)
        raise SystemExit(130) from None
    for ep in endpoints:
        click.echo(_describe(ep))


@main.command()
@click.option("--json", "as_json", is_flag=True, help="one JSON object per server.")
@click.option("--with-passwords", is_flag=True,
              help="full URLs, with the passwords of servers on other hosts (to pass as --target).")
def status(as_json: bool, with_passwords: bool) -> None:
    """The servers ycsbctl started and recorded, and whether each still answers."""
    endpoints = auto.recorded()
    if not endpoints and not as_json:
        click.echo("no servers recorded (start some with `ycsbctl up TARGET`)")
    for ep in endpoints:
        lost = auto.server_lost(ep)  # why it is down, said: a deployment of several processes loses one
        if as_json:
            url = ep.url if with_passwords else redact_url(ep.url)
            click.echo(json.dumps({**ep.to_dict(), "url": url, "alive": lost is None, "lost": lost, "config": None}))
        else:
            click.echo(f"{_describe(ep, with_passwords)}\t{'up' if lost is None else f'DOWN: {lost}'}\tlog "
                       f"{ep.log_path}")


@main.command()
@click.argument("target_names", metavar="[TARGET...]", nargs=-1)
@click.option("--all", "everything", is_flag=True,
              help="every recorded server, and containers labelled by this state folder that it lost (on the "
                   "default engine, every engine a recorded server used, and each --docker-host).")
@click.option("--docker-host", "docker_hosts", multiple=True, metavar="URL",
              help="with --all: also look for lost containers on this Docker engine (repeatable).")
def down(target_names: tuple[str, ...], everything: bool, docker_hosts: tuple[str, ...]) -> None:
    """Stop servers ycsbctl started (recorded PIDs and labelled containers only)."""
    if not target_names and not everything:
        raise click.UsageError("name the targets to stop, or pass --all")
    engines = list(docker_host_option(docker_hosts).values())
    try:
        lines = auto.down_servers(list(target_names), everything=everything, docker_hosts=engines)
    except auto.DockerUnchecked as exc:
        for line in exc.lines:
            click.echo(line)
        raise
    for line in lines or ["nothing to stop"]:
        click.echo(line)


@main.command("doctor")
def doctor_command() -> None:
    """Check Docker, server binaries, iperf3, Java, ports and memory; print a fix for each problem."""
    failed_required = False
    wait = WaitLine()
    for check in doctor.checks(on_wait=wait.say):
        wait.clear()
        mark = "ok  " if check.ok else ("FAIL" if check.required else "warn")
        click.echo(f"{mark} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            click.echo(f"     fix: {check.fix}")
        failed_required |= check.required and not check.ok
    if failed_required:
        raise SystemExit(1)
