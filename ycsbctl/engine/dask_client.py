"""The controller's Dask client: one per scheduler address and process, and what it asks the
scheduler (its live workers, their host names, their clocks). Used by the cluster engine
(:mod:`ycsbctl.engine.cluster`) and by the per-host network baselines."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import sys
import threading
import time
from typing import Any

from ycsbctl.errors import UserError

CONNECT_TIMEOUT_S = 10.0  # s to reach the scheduler (a thread gives up 5 s later)

# One client per scheduler address in this process (closed at exit).
_clients: dict[str, Any] = {}


class ClusterGone(UserError):
    """No point can run on this cluster (no scheduler or no worker left, a target the workers cannot
    reach): the sweep stops with one line, finished points kept."""

    stops_sweep = True

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message, exit_code=exit_code)


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address`` (one per address and process). ``tls://`` uses
    the TLS settings of Dask's configuration (``distributed.comm.tls.*``); a plain ``tcp://``
    scheduler is used with one warning line (anyone who reaches it can run code on the workers)."""
    if address in _clients:
        return _clients[address]
    try:
        from distributed import Client
    except ImportError:
        raise UserError("--cluster needs Dask distributed: pip install 'ycsbctl[cluster]' "
                        "(scripts/setup.sh installs it)") from None
    if "://" not in address:
        address = f"tcp://{address}"
    _quiet_dask_logs()
    if address.startswith("tcp://"):
        print(f"warning: the Dask scheduler {address} is plain TCP without authentication: anyone who can "
              "reach it can run code on the workers; prefer tls:// (Dask's distributed.comm.tls settings)",
              file=sys.stderr)
    made: dict[str, Any] = {}

    def make() -> None:  # a server that accepts but never speaks Dask (its dashboard port…) hangs Client()
        try:
            made["client"] = Client(address, timeout=f"{CONNECT_TIMEOUT_S:.0f}s", set_as_default=False)
        except Exception as exc:  # noqa: BLE001 - told below
            made["error"] = exc

    t = threading.Thread(target=make, name="dask-connect", daemon=True)
    t.start()
    t.join(CONNECT_TIMEOUT_S + 5)
    if "client" not in made:
        exc = made.get("error")
        why = f"{type(exc).__name__}: {exc}" if exc else f"no Dask answer within {CONNECT_TIMEOUT_S + 5:.0f} s"
        raise ClusterGone(f"cannot reach the Dask scheduler at {address} ({why}): give the scheduler's own address "
                          "(`dask scheduler` listens on 8786 by default; 8787 is its dashboard)")
    client = made["client"]
    _clients[address] = client
    return client


def _quiet_dask_logs() -> None:
    """Dask's own lines about a scheduler that went away (an INFO from ``distributed.batched`` with the
    closed connection's traceback, the client's ERROR as it gives up reconnecting or is closed while
    reconnecting) say what ycsbctl's
    one line about the lost scheduler says: they are left out of stderr. Dask's other lines stay, and
    those below ERROR (which Dask itself does not call errors) without the traceback some of them
    carry: Dask's thread logs them as it notices a lost connection, before or after ycsbctl's line."""
    logging.getLogger("distributed.batched").setLevel(logging.WARNING)
    client_log = logging.getLogger("distributed.client")
    if _not_gave_up not in client_log.filters:
        client_log.addFilter(_not_gave_up)
    for handler in logging.getLogger("distributed").handlers:  # every distributed.* record ends here
        if _no_traceback_below_error not in handler.filters:
            handler.addFilter(_no_traceback_below_error)


def _not_gave_up(record: logging.LogRecord) -> bool:
    """Neither the client's giving up reconnecting nor its reconnecting cancelled (closed at exit
    after ycsbctl told the scheduler lost: Dask logs the cancel as an ERROR with its traceback)."""
    cancelled = record.exc_info is not None and record.exc_info[0] is asyncio.CancelledError
    return not (cancelled or record.getMessage().startswith("Failed to reconnect to scheduler"))


def _no_traceback_below_error(record: logging.LogRecord) -> bool:
    if record.levelno < logging.ERROR:
        record.exc_info, record.exc_text, record.stack_info = None, None, None
    return True


@atexit.register
def close_clients() -> None:
    """Close every Dask client of this process (at exit, or before stopping a scheduler we started)."""
    for c in _clients.values():
        with contextlib.suppress(Exception):  # closing at exit: nothing left to tell
            c.close(timeout=5)
    _clients.clear()


def live_workers(client: Any) -> dict[str, dict[str, Any]]:
    """The scheduler's workers by address (each with ``name`` and ``host``), asked now. Not
    ``Client.scheduler_info()``: it returns a cache that the client's own periodic refresh overwrites
    with a worker-less identity, which read between the two showed every worker as gone."""
    return dict(client.sync(client.scheduler.identity, n_workers=-1).get("workers", {}))


def scheduler_connected(client: Any) -> bool:
    """False once the client lost its connection to the scheduler (Dask then tries to reconnect for
    its timeout, :data:`CONNECT_TIMEOUT_S`, and every call made meanwhile waits that long)."""
    return client.status == "running"


def host_label(address: str, info: dict[str, Any]) -> str:
    """A short name for a worker's host: its Dask name (``dask worker --name c1``), else its host."""
    name = str(info.get("name", ""))
    return name if name and "://" not in name and not name.isdigit() else str(info.get("host") or address)


def clock_offsets(client: Any, addresses: list[str], tries: int = 3) -> dict[str, tuple[float, float]]:
    """Each worker's wall clock minus ours and the round trip it was read in (s): the quickest of
    ``tries`` round trips (the offset's error is at most half of it)."""
    best: dict[str, tuple[float, float]] = {}
    for _ in range(tries):
        before = time.time()
        theirs = client.run(time.time, workers=addresses)
        after = time.time()
        for a, t in theirs.items():
            if a not in best or after - before < best[a][1]:
                best[a] = (float(t) - (before + after) / 2, after - before)
    return best
