"""What is up: a small JSON file so ``ycsbctl down`` works from another shell.

``$YCSBCTL_STATE_DIR/servers.json`` (default ``~/.local/state/ycsbctl``, or under
``$XDG_STATE_HOME``). Every change holds an exclusive ``flock`` and replaces the file
atomically (write, fsync, rename). An entry records one server we started::

    {"key": "docker:<id>" | "local:<pid>", "endpoint": {...}, "options": {...},
     "create_time": <psutil create time of the pid, s>, "data_dir": ..., "started": <epoch s>}

    {..., "docker_host": <the engine's URL>}  (docker entries)

Every entry also names its ``owner``, the ycsbctl process that started it (``[pid, create time s]``,
:func:`owner`): the entry is written with signals held in the same step as the start, so that process can
stop, on any way out, every server it started — even one whose start a Ctrl-C cut off from its caller.

A server started on another host's Docker engine has a generated password, and its entry keeps the
full URL (so ``status`` and ``down`` can reach it): the file is created with mode 0600 (``mkstemp``).
Manifests, reports and everything printed show URLs redacted.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from ycsbctl.errors import UserError


def state_dir() -> Path:
    """The folder of the state file and of the server logs (created on demand)."""
    env = os.environ.get("YCSBCTL_STATE_DIR")
    if env:
        path = Path(env)
    else:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        path = Path(base) / "ycsbctl"
    path.mkdir(parents=True, exist_ok=True)
    return path


def logs_dir() -> Path:
    """Server logs: kept after ``down`` so a report can point at them."""
    path = state_dir() / "logs"
    path.mkdir(exist_ok=True)
    return path


def namespace() -> str:
    """Identifies this state folder; containers carry it so ``down --all`` finds only its own."""
    return str(state_dir().resolve())


def write_json(path: Path, data: Any) -> None:
    """``data`` as ``path``'s JSON, replaced atomically (write, fsync, rename; mode 0600 from ``mkstemp``): a
    reader in another process sees the old file or the new one, never a part of it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=2)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


@contextmanager
def _locked() -> Iterator[dict[str, Any]]:
    folder = state_dir()
    path = folder / "servers.json"
    with open(folder / "servers.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            data = json.loads(path.read_text()) if path.exists() else {"servers": []}
        except (OSError, ValueError) as exc:
            raise UserError(f"state file {path} is unreadable ({exc}): delete it; "
                            "`ycsbctl down --all` still removes our labelled containers", exit_code=1) from None
        before = json.dumps(data, sort_keys=True)
        yield data
        if json.dumps(data, sort_keys=True) != before:
            write_json(path, data)


def owner() -> list[float]:
    """This process as an entry's ``owner``: its pid and its start time (s since the epoch, as psutil gives it),
    so a later process that gets the same pid is not taken for it."""
    me = psutil.Process()
    return [me.pid, me.create_time()]


def add(entry: dict[str, Any]) -> None:
    """Record a server we started (replaces an entry with the same key); a new entry's ``owner`` is this
    process (:func:`owner`)."""
    entry = {"owner": owner(), **entry}
    with _locked() as data:
        data["servers"] = [e for e in data["servers"] if e["key"] != entry["key"]] + [entry]


def remove(key: str) -> None:
    """Forget a server (no error when it is not recorded)."""
    with _locked() as data:
        data["servers"] = [e for e in data["servers"] if e["key"] != key]


def entries() -> list[dict[str, Any]]:
    """Every recorded server, oldest first."""
    with _locked() as data:
        return list(data["servers"])


def find(key: str) -> dict[str, Any] | None:
    return next((e for e in entries() if e["key"] == key), None)


def owned() -> list[dict[str, Any]]:
    """Every recorded server this process started (and has not stopped), oldest first."""
    me = owner()
    return [e for e in entries() if e.get("owner") == me]

