"""A server's initialised data folder made once and copied after: ``initdb`` and ``mariadb-install-db``
write the same files for the same binary and arguments every time (a PostgreSQL initialisation is ~40 MB
and most of its start), so the first one is kept as a template and later data folders are copies of it.

Templates live in ``$YCSBCTL_TEMPLATE_DIR`` (default ``<cache dir>/templates``, the cache dir of
:func:`ycsbctl.results.host_drift.cache_dir`), one folder per (server, its binary's path, size and
modification time, the initialisation's arguments, the user it runs as): an upgraded package makes a new
one. ``YCSBCTL_TEMPLATE_DIR=off`` initialises every data folder afresh. A folder where no template can
be made (not writable) initialises afresh too. A copy differs from a fresh initialisation in one thing:
PostgreSQL's system identifier (``pg_controldata``) is the template's, which matters to nothing ycsbctl
runs (a standby is a ``pg_basebackup`` of its own primary)."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

OFF = "off"


def template_root() -> Path | None:
    """The folder of templates, or None when they are off (``YCSBCTL_TEMPLATE_DIR=off``)."""
    given = os.environ.get("YCSBCTL_TEMPLATE_DIR", "")
    if given == OFF:
        return None
    if given:
        return Path(given)
    from ycsbctl.results.host_drift import cache_dir

    return cache_dir() / "templates"


def template_name(what: str, binary: str, argv: Sequence[str], user: str | None) -> str:
    """``initdb-<16 hex>``: the template's folder name, from everything its files depend on."""
    st = os.stat(binary)
    key = "\0".join([os.path.realpath(binary), str(st.st_size), str(st.st_mtime_ns), *argv, user or ""])
    return f"{what}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def initialise(what: str, binary: str, argv: Sequence[str], data_dir: str, user: str | None,
               make: Callable[[], None]) -> bool:
    """Fill the empty ``data_dir`` (owned by ``user``) with what ``make()`` writes into it: a copy of the
    template when there is one (True), else ``make()`` itself, whose result is then kept as the template
    (copied in a temporary folder, renamed into place: never half a template; not kept where the
    folder cannot be written) (False). ``make`` runs in ``data_dir``, never in the template folder, which
    the server's own user may not reach (root's home)."""
    root = template_root()
    final = root / template_name(what, binary, argv, user) if root is not None else None
    if final is not None and final.is_dir():
        shutil.copytree(final, data_dir, symlinks=True, dirs_exist_ok=True)
        if user:
            for folder, dirs, files in os.walk(data_dir):
                for name in (*dirs, *files):
                    shutil.chown(os.path.join(folder, name), user=user, group=None)
        return True
    make()
    if final is not None:
        keep: str | None = None
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            keep = tempfile.mkdtemp(prefix=f".{final.name}-", dir=final.parent)
            shutil.copytree(data_dir, keep, symlinks=True, dirs_exist_ok=True)
            os.rename(keep, final)  # fails when another process kept one first: ours goes
        except OSError:
            pass  # no template kept: the next data folder is initialised afresh
        finally:
            if keep is not None:
                shutil.rmtree(keep, ignore_errors=True)
    return False
