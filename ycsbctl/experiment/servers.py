"""The provisioner seam: how a sweep gets, checks, restarts and stops its servers.

:class:`ProvisionedServers` is the real one (:mod:`ycsbctl.provision`: docker, local binaries,
or a URL used as it is). A sweep takes any :class:`Servers`, so a test can hand it ``basic://``
endpoints and play a refusal or a crash without starting a server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ycsbctl.errors import first_line
from ycsbctl.experiment.study import Study, Target
from ycsbctl.provision import Endpoint


class Servers(Protocol):
    def up(self, target: Target) -> Endpoint:
        """Start (or attach to) ``target`` and return once it answers; UserError when it cannot be had
        (its ``fix`` says what to do)."""
        ...

    def lost(self, endpoint: Endpoint) -> str | None:
        """Why a server we started can no longer be measured (asked after a failed point), a phrase
        after "the server": ``died``, ``stopped answering (…)``; None when it still runs and answers."""
        ...

    def restart(self, endpoint: Endpoint) -> Endpoint:
        """Start a server that died again, the same way (UserError when it cannot be)."""
        ...

    def down(self, endpoint: Endpoint) -> None:
        """Stop a server we started (a URL's server is left alone)."""
        ...

    def stop_all(self) -> None:
        """Stop every server ``up`` or ``restart`` started and ``down`` has not stopped, those whose endpoint
        a Ctrl-C kept from reaching the caller included (the sweep's last word on any way out)."""
        ...


class ProvisionedServers:
    """Servers from :mod:`ycsbctl.provision`, with the study's backend, images, limits and placement."""

    def __init__(self, study: Study, experiment_id: str, say: Callable[[str], None]) -> None:
        self.study = study
        self.experiment_id = experiment_id
        self.say = say
        self._orphans_checked = False

    def stop_orphans(self) -> None:
        """Stop the servers an earlier run of this experiment started and never stopped (its
        controller was killed: SIGKILL, a crash, a lost host), one line each. Only one ycsbctl
        writes an experiment's folder at a time, so a server recorded under its id is nobody's now."""
        from ycsbctl.provision import teardown
        from ycsbctl.provision.state import entries

        self._orphans_checked = True
        for e in entries():
            if (e.get("options") or {}).get("experiment_id") != self.experiment_id:
                continue
            ep = Endpoint.from_dict(e["endpoint"])
            where = f"container {ep.container_id[:12]}" if ep.container_id else f"pid {ep.pid}"
            try:
                teardown(ep)
            except Exception as exc:  # noqa: BLE001 - one line; `ycsbctl down --all` is the way out
                self.say(f"{ep.target}: could not stop the server an earlier run of this experiment left running "
                         f"({where}): {first_line(exc)}; "
                         "`ycsbctl down --all` stops it")
                continue
            self.say(f"{ep.target}: stopped the server an earlier run of this experiment left running ({where}); "
                     "starting a new one")

    def up(self, target: Target) -> Endpoint:
        from ycsbctl.provision import provision

        if not self._orphans_checked:
            self.stop_orphans()

        plan = self.study.plan
        started = target.url is None  # a catalogue target: ycsbctl starts its server (a URL's is used as it is)
        return provision(target.url or target.name, plan.backend, experiment_id=self.experiment_id,
                         image=target.image, server_cpus=plan.server_cpus or self.study.placement.server_cpuset,
                         server_memory=plan.server_memory, say=self.say, docker_host=target.docker_host,
                         kind=target.kind, settings=dict(target.settings) if started else None, binary=target.binary,
                         tls=target.tls)

    def lost(self, endpoint: Endpoint) -> str | None:
        from ycsbctl.provision import server_lost

        return server_lost(endpoint)

    def restart(self, endpoint: Endpoint) -> Endpoint:
        from ycsbctl.provision import restart

        return restart(endpoint)

    def down(self, endpoint: Endpoint) -> None:
        from ycsbctl.provision import teardown

        teardown(endpoint)

    def stop_all(self) -> None:
        from ycsbctl.provision.auto import stop_owned

        stop_owned(self.experiment_id)  # the state file records each server in the same step as its start
