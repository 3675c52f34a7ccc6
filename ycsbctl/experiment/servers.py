"""The provisioner seam: how a sweep gets, checks, restarts and stops its servers.

:class:`ProvisionedServers` is the real one (:mod:`ycsbctl.provision`: docker, local binaries,
or a URL used as it is). A sweep takes any :class:`Servers`, so a test can hand it ``basic://``
endpoints and play a refusal or a crash without starting a server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ycsbctl.errors import first_line
from ycsbctl.experiment.plan import Plan, is_url
from ycsbctl.provision import Endpoint
from ycsbctl.workload.properties import Properties


class Servers(Protocol):
    def up(self, target: str, props: Properties) -> Endpoint:
        """Start (or attach to) ``target`` and return once it answers; UserError when it cannot be had
        (its ``fix`` says what to do)."""
        ...

    def alive(self, endpoint: Endpoint) -> bool:
        """Whether a server we started still runs (asked after a failed point)."""
        ...

    def restart(self, endpoint: Endpoint) -> Endpoint:
        """Start a server that died again, the same way (UserError when it cannot be)."""
        ...

    def down(self, endpoint: Endpoint) -> None:
        """Stop a server we started (a URL's server is left alone)."""
        ...


class ProvisionedServers:
    """Servers from :mod:`ycsbctl.provision`, with the plan's backend, images and limits."""

    def __init__(self, plan: Plan, experiment_id: str, say: Callable[[str], None]) -> None:
        self.plan = plan
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

    def up(self, target: str, props: Properties) -> Endpoint:
        from ycsbctl.experiment.naming import with_password
        from ycsbctl.provision import provision
        from ycsbctl.provision.engines import engine_for

        if not self._orphans_checked:
            self.stop_orphans()

        plan = self.plan
        extra: dict = {}
        if not is_url(target):
            spec = plan.spec(target)
            extra = {"kind": spec.kind, "settings": spec.settings, "binary": spec.binary}
        return provision(with_password(target, props), plan.backend, experiment_id=self.experiment_id,
                         image=plan.images.get(target), server_cpus=plan.server_cpus,
                         server_memory=plan.server_memory, say=self.say,
                         docker_host=None if is_url(target) else engine_for(target, plan.docker_hosts), **extra)

    def alive(self, endpoint: Endpoint) -> bool:
        from ycsbctl.provision import server_alive

        return server_alive(endpoint)

    def restart(self, endpoint: Endpoint) -> Endpoint:
        from ycsbctl.provision import restart

        return restart(endpoint)

    def down(self, endpoint: Endpoint) -> None:
        from ycsbctl.provision import teardown

        teardown(endpoint)
