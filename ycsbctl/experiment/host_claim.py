"""One benchmark per host: a ycsbctl that measures holds a claim another one can see.

Each measuring ycsbctl keeps ``<state dir>/measuring/<pid>.claim`` open under an exclusive
``flock`` (released by the kernel when the process ends, however it ends) with its command line
inside. Another ycsbctl that finds a claim it cannot lock knows someone is measuring on this
host and refuses to start, unless told to go on (``--allow-concurrent``); then the points of both
are labelled ``host-busy``. The state dir is per user (``$YCSBCTL_STATE_DIR``, default
``~/.local/state/ycsbctl``): runs of another user on the same host are not seen.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.provision.state import state_dir


def _folder() -> Path:
    path = state_dir() / "measuring"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _age(path: Path) -> tuple[int, int]:
    return path.stat().st_mtime_ns, int(path.stem)


class HostClaim:
    """This process's claim; :meth:`others` names the other ycsbctl processes measuring now."""

    def __init__(self, command_line: str) -> None:
        self.path = _folder() / f"{os.getpid()}.claim"
        self._f = open(self.path, "w")  # noqa: SIM115 - held open (and locked) until close()
        fcntl.flock(self._f, fcntl.LOCK_EX)
        self._f.write(f"pid {os.getpid()}: {command_line}\n")
        self._f.flush()

    def others(self, older_only: bool = False) -> list[str]:
        """``pid N: ycsbctl run …`` of every other live claim (stale ones are removed); with
        ``older_only``, only those made before ours (two started together: the first one goes on)."""
        mine = _age(self.path)
        found = []
        for p in sorted(_folder().glob("*.claim")):
            if p == self.path:
                continue
            try:
                with open(p) as f:
                    try:
                        fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    except BlockingIOError:
                        if not older_only or _age(p) < mine:
                            found.append(f.read().strip() or p.stem)
                        continue
                p.unlink(missing_ok=True)  # its process is gone
            except (OSError, ValueError):
                continue
        return found

    def close(self) -> None:
        self.path.unlink(missing_ok=True)
        self._f.close()


def claim_host(command_line: str, allow_concurrent: bool) -> HostClaim:
    """Claim this host for measuring; refuse in one line when another ycsbctl is measuring."""
    claim = HostClaim(command_line)
    others = claim.others(older_only=True)
    if others and not allow_concurrent:
        claim.close()
        raise UserError(f"another ycsbctl is measuring on this host ({others[0]}): both would share the cores and "
                        "neither result would be true; wait for it to end, or pass --allow-concurrent to measure anyway "
                        "(points are then labelled host-busy)", exit_code=1)
    return claim
