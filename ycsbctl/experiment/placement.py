"""Where the servers and the client run: separate CPU sets, so that neither takes the other's core.

With ``split`` placement the servers ycsbctl starts on this host run on one CPU set (``taskset`` for
the local backend, ``--cpuset-cpus`` under Docker) and the engine's worker processes on the others
(their affinity, set as each worker starts), and while a placed point runs the controller itself
(progress, telemetry at 1 Hz, merging each second's counts: about 1 % of a core) moves onto the
servers' CPUs, so that the workers have their CPUs to themselves. Without it both float over every core and the
scheduler moves them onto each other's, which is noise between repetitions and lag in the client's loop (``python -m
bench placement`` measures both, side by side, on this machine: docs/studies/comparison.md quotes it).

Placement is all or nothing within a plan: a target whose server ycsbctl does not start (a URL, a
remote Docker engine) cannot be placed, and placing the others would compare pinned servers with a
floating one, so ``auto`` turns placement off for the whole plan and says why; ``split`` refuses such
a plan. The load that fills a dataset runs unplaced (every core for the client: it is not a measured
point); the points of a sweep, the ``insert`` workload's loads included, are placed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ycsbctl.cpus import narrowed, usable_cpus
from ycsbctl.errors import UserError

PLACEMENTS = ("auto", "split", "off")
# ``auto`` splits from this many usable CPUs on. On 2 CPUs (``python -m bench placement``, side by side, with
# other work sharing the host) pinning each side to one CPU lowered the client's loop lag p99.9 and raised
# throughput, but doubled the variation between repetitions: whatever else runs lands on a pinned side,
# which can no longer move away from it. With 4 or more each side keeps 2 CPUs to move between.
AUTO_MIN_CPUS = 4
# … except where the plan alternates its targets in one engine session: there a verdict lives on the paired slice
# ratios inside each session, not on the variation between repetitions, and a split placement narrowed those (``python
# -m bench alternation --pairs 12 --duration 5 --threads 16`` against ``--pin``, docs/benchmarks.md: an A/A pair's
# block log ratio sd 0.074 split against 0.098 floating) and took an alternated point to a solo one's figures (a
# floating one read slower, its p99 higher: the scheduler lands the two servers and the client differently).
ALTERNATED_WHY = "auto: its targets alternate in one session, split from 2 CPUs"
# Where the controller waits while a placed point runs: "server" (the servers' CPUs) or "float" (anywhere).
# A benchmark's knob (``python -m bench placement`` compares the two), not a user's setting.
CONTROLLER_ENV = "YCSBCTL_PLACE_CONTROLLER"


@dataclass(frozen=True)
class Placement:
    """The resolved placement of one plan: ``split`` with its two CPU sets, or ``off`` and why."""

    mode: str  # "split" | "off"
    server_cpus: tuple[int, ...] = field(default=())
    client_cpus: tuple[int, ...] = field(default=())
    why: str = ""
    brief: str = field(default="", compare=False)  # the console's short form of ``why`` (auto's CPU count)

    @property
    def split(self) -> bool:
        return self.mode == "split"

    @property
    def server_cpuset(self) -> str | None:
        """The servers' CPU set as ``--server-cpus`` takes it (``0`` or ``0,1``); None when not placed."""
        return ",".join(map(str, self.server_cpus)) if self.split else None

    def describe(self) -> str:
        """What ran where, in words (the manifest, the report and the console say this)."""
        if not self.split:
            return f"servers and client float over all CPUs ({self.why})"
        return f"servers on CPU {_cpus(self.server_cpus)}, client on CPU {_cpus(self.client_cpus)}" + (
            f" ({self.why})" if self.why else "")

    def headline(self) -> str:
        """One short line for the console: ``off (auto: 2 CPUs, splits from 4)``, or :meth:`describe`'s words."""
        return f"off ({self.brief})" if self.brief and not self.split else self.describe()

    def to_dict(self) -> dict[str, object]:
        return {"mode": self.mode, "server_cpus": list(self.server_cpus), "client_cpus": list(self.client_cpus),
                "why": self.why, "text": self.describe()}


def _cpus(cpus: tuple[int, ...]) -> str:
    return ",".join(map(str, cpus))


def resolve_placement(choice: str, unplaceable: list[str], server_cpus: list[int] | None, engine: str,
                      cluster: bool, cpus: list[int] | None = None, alternates: bool = False) -> Placement:
    """The placement for a plan: ``choice`` (auto | split | off); ``unplaceable``: the targets whose server
    ycsbctl does not start on this host (with why, e.g. ``redis://h:1 (a server you run)``);
    ``server_cpus``: ``--server-cpus`` when given (the client gets the other CPUs); ``cpus``: the usable
    CPUs (default: this process's affinity); ``alternates``: the plan measures its targets alternated in one
    engine session. ``auto`` is ``split`` wherever it can be from :data:`AUTO_MIN_CPUS` CPUs on, from 2 where the
    plan alternates (:data:`ALTERNATED_WHY`), or with ``--server-cpus``."""
    if choice not in PLACEMENTS:
        raise UserError(f"unknown --placement {choice!r}: use one of {', '.join(PLACEMENTS)}")
    if choice == "off":
        return Placement("off", why="--placement off")
    cpus = sorted(cpus if cpus is not None else usable_cpus())
    if choice == "auto" and len(cpus) < AUTO_MIN_CPUS and server_cpus is None and not alternates:
        return Placement("off", why=f"{len(cpus)} usable CPUs: split only from {AUTO_MIN_CPUS}, or where targets "
                                    "alternate (on fewer, pinning doubled the variation between repetitions of a "
                                    "shared host); --placement split asks for it",
                         brief=f"auto: {len(cpus)} CPUs, splits from {AUTO_MIN_CPUS}")
    why = ("--cluster: the clients run on the Dask workers' hosts" if cluster else
           "--engine ycsb: the real YCSB's JVM is not placed" if engine != "native" else
           f"{len(cpus)} usable CPU: nothing to split" if len(cpus) < 2 else
           f"{unplaceable[0]} is not started by ycsbctl on this host, and a plan's servers are placed all "
           "alike or not at all" if unplaceable else None)
    if why is None and server_cpus is not None:
        client = [c for c in cpus if c not in set(server_cpus)]
        if not client:
            why = f"--server-cpus {_cpus(tuple(server_cpus))} leaves no CPU for the client"
        else:
            return Placement("split", tuple(sorted(server_cpus)), tuple(client), "--server-cpus")
    if why is not None:
        if choice == "split":
            raise UserError(f"--placement split: {why}", fix="drop --placement (auto turns it off and says why)")
        return Placement("off", why=why)
    half = len(cpus) // 2  # the servers the lower half, the client the rest (2 CPUs: one each)
    why = ALTERNATED_WHY if choice == "auto" and len(cpus) < AUTO_MIN_CPUS else ""
    return Placement("split", tuple(cpus[:half]), tuple(cpus[half:]), why)


@contextmanager
def controller_placed(placement: Placement) -> Iterator[None]:
    """While a placed point runs, this process (the controller) on the servers' CPUs; its affinity is
    given back afterwards, whatever happens. The workers it starts meanwhile set their own (``spec.cpus``)."""
    if not placement.split or os.environ.get(CONTROLLER_ENV, "server") == "float":
        yield
        return
    with narrowed(placement.server_cpus):  # the host's CPUs still read whole meanwhile (ycsbctl.cpus)
        yield
