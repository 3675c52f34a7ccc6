"""What a user types or names, checked once, the same way everywhere: a number (ASCII digits, finite), a file
ycsbctl must read (a CA certificate, a record), a file or folder ycsbctl must write (``compare -o``,
``--json``, ``exportfile``, ``--out``). Each refusal is a :class:`~ycsbctl.errors.UserError`: one line naming the
path and what to do, exit 2 (the user named it: another name fixes it).

A shared leaf (no ycsbctl import but :mod:`ycsbctl.errors`): the CLI, the stores' URL checks and the result
folder use the same words.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import re
import ssl
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from ycsbctl.errors import UserError

# A number as a user types it, wherever it is typed (an option, an environment variable, a -p property, a host:port):
# ASCII digits only. Python's int() and float() read other scripts' digits ("٣" is 3) and str.isdigit() says True of
# "²", which int() then refuses with a traceback.
WHOLE = re.compile(r"[+-]?[0-9]+")  # Java's Integer.parseInt / Long.parseLong: no spaces inside, no "_"
DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def whole_number(text: str) -> int:
    """``text`` (blanks around it ignored) as an integer when it is ASCII digits with an optional sign; ValueError
    otherwise (``²``, ``٣``, ``1_000``, ``1.0``, ``""``)."""
    t = text.strip()
    if not WHOLE.fullmatch(t):
        raise ValueError(f"{text!r} is not a whole number")
    return int(t)


def decimal_number(text: str) -> float:
    """``text`` (blanks around it ignored) as a finite float when it is a decimal in ASCII digits (``2.5``, ``.5``,
    ``1e3``); ValueError otherwise (``²``, ``nan``, ``inf``, ``1e999``, ``1_000``)."""
    t = text.strip()
    if not DECIMAL.fullmatch(t):
        raise ValueError(f"{text!r} is not a number")
    return finite(float(t))


def finite(value: float) -> float:
    """``value`` when it is a finite number; ValueError for NaN and ±infinity (``float("nan")``, ``1e999``), which
    every range check lets through (``nan < 0.1`` is False) and which no count, time or rate can be."""
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a finite number")
    return value


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _open_to_read(p: Path) -> None:
    """OSError (its errno and reason) unless ``p`` is a file that opens for reading."""
    if p.is_dir():
        raise IsADirectoryError(21, "Is a directory")
    with open(p, "rb"):
        pass


def readable_file(path: str | Path, what: str, fix: str = "") -> Path:
    """``path`` (``~`` expanded) when it is a file ycsbctl can open for reading; else one line naming ``what``
    (``the calibration record``) and the path: it does not exist, is a folder, or cannot be read."""
    p = Path(path).expanduser()
    try:
        _open_to_read(p)
    except OSError as exc:
        raise UserError(f"cannot read {what} {path}: {_reason(exc)}", fix=fix or "give the path of a readable file") \
            from None
    return p


def writable_file(path: str | Path, what: str, *, creates_folders: bool = False) -> Path:
    """``path`` (``~`` expanded) when ycsbctl can write a file there — checked before the work that produces it,
    so that an hour's measurement is not lost to a typo; else one line naming ``what`` (``compare -o``) and
    the path. Its folder must exist, or with ``creates_folders`` (a writer that makes them) its nearest existing
    parent; an existing file is kept as it is (opened to append, nothing written)."""
    p = Path(path).expanduser()
    try:
        if p.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        if p.exists():
            with open(p, "ab"):
                pass
        else:
            folder = p.absolute().parent
            _probe(_nearest_parent(folder) if creates_folders else folder)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(p) else ""
        raise UserError(f"cannot write {what} {path}: {_reason(exc)}{where}",
                        fix="give a file in a folder ycsbctl can write") from None
    return p


def write_whole(path: str | Path, data: str, what: str) -> Path:
    """Write ``data`` to ``path`` whole or not at all: into a temporary file beside it (its folders made), on disk,
    then renamed into place. Any failure (a full disk, a read-only or missing folder, a file where a folder would
    be) is one line naming ``what`` and the path, exit 1, with no temporary file left and an older file untouched."""
    p = Path(path).expanduser()
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    made = False
    folders = [f for f in p.parents if not f.exists()][::-1]  # the folders it makes, outermost first
    try:
        for folder in folders:
            if folder.parent.exists() and not folder.parent.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "Not a directory")
            folder.mkdir()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        made = True
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        if made:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        for folder in folders[::-1]:  # the folders it made, innermost first (one it did not make is not empty)
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise UserError(f"cannot write {what} {p}: {_reason(exc)}", exit_code=1) from None
    return p


def writable_folder(path: str | Path, what: str) -> Path:
    """``path`` when ycsbctl can create (or write in) that folder: its nearest existing parent is a folder that
    takes a file; else one line naming ``what`` (``the result folder``) and the path."""
    p = Path(path).expanduser()
    try:
        if p.exists() and not p.is_dir():
            raise NotADirectoryError(20, "Not a directory", str(p))
        _probe(_nearest_parent(p.absolute()))
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(p) else ""
        raise UserError(f"cannot write {what} {path}: {_reason(exc)}{where}",
                        fix="pass --out DIR on a writable file system") from None
    return p


def _nearest_parent(p: Path) -> Path:
    """``p`` or its nearest ancestor that exists (a file there is refused by :func:`_probe`)."""
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder``: OSError (its errno and the path) where the file system refuses."""
    if not folder.exists():
        raise FileNotFoundError(2, "No such file or directory", str(folder))
    if not folder.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(folder))
    probe = folder / f".ycsbctl-write-test-{os.getpid()}"
    try:
        probe.write_bytes(b"")
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(folder)) from None
    probe.unlink()


def url_files(url: str, options: Iterable[str]) -> None:
    """Each file ``url``'s query names under one of ``options`` (a client certificate, its key: ``sslcert``,
    ``ssl_keyfile``…; names compared without case), read now: a missing one is one line naming the option and the
    path, exit 2 — not a server that "does not answer" once the client library fails to open it."""
    query = {k.lower(): v for k, v in parse_qsl(urlsplit(url).query)}
    for option in options:
        if query.get(option.lower()):
            readable_file(query[option.lower()], f"the {option}")


def ca_context(ca_file: str | None, option: str) -> ssl.SSLContext:
    """The client's TLS context trusting ``ca_file`` (None: the system's CAs), the file the URL option ``option``
    names (``tlsCAFile``, ``sslrootcert``, ``ssl_ca``, ``ssl_ca_certs``): a file that is missing, unreadable or
    holds no certificate is bad input said when the URL is read (exit 2), not a server that does not answer."""
    try:
        if ca_file:
            _open_to_read(Path(ca_file))
        return ssl.create_default_context(cafile=ca_file)
    except OSError as exc:  # ssl.SSLError too: a file that holds no certificate
        why = str(exc) if isinstance(exc, ssl.SSLError) else _reason(exc)
        raise UserError(f"cannot read the CA certificate {ca_file}: {why} ({option})",
                        fix="give the PEM file of the CA that signed the server's certificate") from None
