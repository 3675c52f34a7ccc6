"""A cluster point's host-busy evidence (ycsbctl/telemetry/client_hosts.py): this host's other programs count only
where the point ran something here — a client host that is this machine (a lab's namespaces) or a server process
sampled here — and never for client hosts and a server that are all elsewhere. (End to end: with `ycsbctl lab up`
and a spinning process on the real host, a `--cluster` point is host-busy, exit 3; idle, ok, exit 0.)"""

from __future__ import annotations

import socket
from dataclasses import dataclass

from ycsbctl.telemetry.client_hosts import shares_this_host


@dataclass
class _Sampled:
    """What shares_this_host reads of a capture: the local server process it sampled, if any."""

    pid: int | None

    def server_pid(self) -> int | None:
        return self.pid


def test_this_hosts_other_programs_count_only_where_the_point_ran_something_here() -> None:
    here, elsewhere = socket.gethostname(), socket.gethostname() + "-not-this-one"
    lab = [{"name": "c1", "host": here}, {"name": "c2", "host": here}]
    remote = [{"name": "c1", "host": elsewhere}, {"name": "c2", "host": elsewhere + "2"}]
    assert shares_this_host(lab, _Sampled(None))  # type: ignore[arg-type]
    assert shares_this_host(remote[:1] + lab[:1], _Sampled(None))  # type: ignore[arg-type]
    assert shares_this_host(remote, _Sampled(4242))  # type: ignore[arg-type]
    assert not shares_this_host(remote, _Sampled(None))  # type: ignore[arg-type]
