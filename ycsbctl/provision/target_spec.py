"""A target is a label + a server kind + settings.

``redis-lazyfree`` is a label; its kind (the catalogue entry it starts) is the longest catalogue
name it begins with, followed by ``-`` or ``_`` (``redis-lazyfree`` → redis, ``redis6-io2`` →
redis6, ``valkey`` → valkey), or what ``--target-kind LABEL=KIND`` says. Its settings
(``--server-config LABEL:key=value``, repeatable) go on the server's command line after ycsbctl's
own configuration, written as in the server's config file (``redis.conf``: ``save=900 1`` becomes
``--save 900 1``; Dragonfly and mongod: ``--key=value``). A server the user runs (a URL) is never
reconfigured: settings for it are refused.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from ycsbctl.errors import UserError

LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")  # no dots: run ids are label.workload.phase.tN.rN
# The names ycsbctl gives servers of its own in a folder: a target so labelled would share their run ids and slice
# rows (ycsbctl.experiment.reference.LABEL: the reference server measured in every alternated session)
RESERVED_LABELS = {"reference": "the reference server ycsbctl measures in every alternated session"}
KEY = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
# What ycsbctl itself sets on every server it starts (where it listens, where its data and log go,
# its password): a setting cannot move those.
RESERVED = {"port", "bind", "dir", "daemonize", "requirepass", "logfile", "listen-addr", "listen", "dbpath",
            "bind_ip", "data", "unixsocket", "supervised"}


@dataclass(frozen=True)
class TargetSpec:
    """One provisioned target: ``label`` (run ids, tables, curves), ``kind`` (catalogue name),
    ``settings`` (server configuration directive → value, as written in its config file) and
    ``binary`` (a server build to run instead of the catalogue's, local backend)."""

    label: str
    kind: str
    settings: dict[str, str] = field(default_factory=dict)
    binary: str | None = None
    tls: bool = False  # --tls: the server speaks TLS only (a TLS kind, redis-tls, says so itself)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "kind": self.kind, "settings": dict(self.settings), "binary": self.binary,
                **({"tls": True} if self.tls else {})}

    def provision_options(self) -> dict[str, Any]:
        """What :func:`ycsbctl.provision.provision` takes from this target: kind, settings, binary, TLS."""
        return {"kind": self.kind, "settings": self.settings, "binary": self.binary, "tls": self.tls}


def catalogue_names() -> list[str]:
    from ycsbctl.provision.catalog import kind_names

    return kind_names()


def infer_kind(label: str) -> str | None:
    """The catalogue name ``label`` is, or begins with followed by ``-``/``_``; the longest wins."""
    names = sorted(catalogue_names(), key=len, reverse=True)
    return next((n for n in names if label == n or label.startswith((f"{n}-", f"{n}_"))), None)


def check_label(label: str) -> None:
    if not LABEL.fullmatch(label):
        raise UserError(f"target label {label!r}: use letters, digits, '-' and '_' (e.g. redis-lazyfree, valkey-io2)")
    if label.lower() in RESERVED_LABELS:
        raise UserError(f"target label {label!r}: the name of {RESERVED_LABELS[label.lower()]}",
                        fix=f"label the target otherwise (e.g. {label}-redis)")


def resolve_kind(label: str, kinds: dict[str, str]) -> str:
    """The kind of ``label`` (``--target-kind`` first, then the name), or one line saying how to give it."""
    check_label(label)
    if label in kinds:
        return kinds[label]
    kind = infer_kind(label)
    if kind is None:
        raise UserError(f"target {label!r} names no server kind: use one of {', '.join(catalogue_names())}, "
                        f"a label beginning with one and '-' (redis-{label}), or add --target-kind {label}=redis")
    return kind


def parse_target_kinds(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``--target-kind LABEL=KIND`` (repeatable; ``a=redis,b=valkey`` too) as a map, kinds checked."""
    out: dict[str, str] = {}
    names = catalogue_names()
    for item in items:
        for piece in item.split(","):
            label, sep, kind = piece.strip().partition("=")
            if not sep or not label or not kind:
                raise UserError(f"--target-kind {piece!r}: write LABEL=KIND, e.g. lazy=redis")
            check_label(label)
            if kind not in names:
                raise UserError(f"--target-kind {piece!r}: {kind!r} is not a server kind; use one of "
                                f"{', '.join(names)}")
            if out.get(label, kind) != kind:  # the last one won, silently (campaign, 27 Nov)
                raise UserError(f"--target-kind {label}: given two kinds ({out[label]} and {kind})", fix="keep one")
            out[label] = kind
    return out


def parse_server_config(items: tuple[str, ...] | list[str]) -> dict[str, dict[str, str]]:
    """``--server-config LABEL:key=value`` (repeatable) as ``{label: {key: value}}``; a key given twice
    keeps the last value, as in a config file."""
    out: dict[str, dict[str, str]] = {}
    for item in items:
        label, sep, setting = item.partition(":")
        key, eq, value = setting.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not eq or not label or not key or not value:
            raise UserError(f"--server-config {item!r}: write LABEL:key=value, e.g. "
                            "redis-lazyfree:lazyfree-lazy-user-del=yes or valkey-io2:io-threads=2")
        check_label(label)
        key = key.removeprefix("--")
        if not KEY.fullmatch(key):
            raise UserError(f"--server-config {item!r}: {key!r} is not a configuration directive name")
        if key.lower() in RESERVED:
            raise UserError(f"--server-config {item!r}: ycsbctl sets {key} itself on every server it starts "
                            "(where it listens, keeps its data and log, its password); leave it out")
        out.setdefault(label, {})[key] = value
    return out


def parse_binaries(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``--binary NAME=/path/to/server`` (NAME a label or a kind) as a map; the file must be executable."""
    import os

    out: dict[str, str] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise UserError(f"--binary {item!r}: write NAME=/path/to/server, e.g. valkey=/opt/valkey/bin/valkey-server")
        path = os.path.abspath(os.path.expanduser(path))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise UserError(f"--binary {item!r}: {path} is not an executable file")
        out[name] = path
    return out


@dataclass
class TargetsFile:
    """What a targets file lists: targets in order, label kinds and settings (see :func:`read_targets_file`)."""

    targets: list[str]
    kinds: dict[str, str]
    settings: dict[str, dict[str, str]]


def read_targets_file(path: str) -> TargetsFile:
    """A targets file (``--targets-file``): one target per line, ``LABEL [KIND] [key=value …]`` —
    words as in a shell (quote a value with spaces: ``save="900 1"``), ``#`` starts a comment::

        redis
        redis-lazyfree  lazyfree-lazy-user-del=yes
        lazy            redis  lazyfree-lazy-user-del=yes lazyfree-lazy-server-del=yes
        valkey-io2      io-threads=2
        redis://127.0.0.1:6379

    A URL takes no settings. Errors name the file and line (exit 2)."""
    from pathlib import Path

    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise UserError(f"--targets-file {path}: {exc.strerror or exc}") from None
    out = TargetsFile([], {}, {})
    names = catalogue_names()
    for n, raw in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as exc:
            raise UserError(f"{path}:{n}: {exc}") from None
        if not words:
            continue
        label, rest = words[0], words[1:]
        where = f"{path}:{n}"
        if "://" in label:
            if rest:
                raise UserError(f"{where}: {label} is a server you run: ycsbctl does not reconfigure it "
                                f"({' '.join(rest)})")
            out.targets.append(label)
            continue
        if rest and "=" not in rest[0]:
            if rest[0] not in names:
                raise UserError(f"{where}: {rest[0]!r} is not a server kind; use one of {', '.join(names)}")
            out.kinds[label] = rest.pop(0)
        try:
            settings = parse_server_config([f"{label}:{w}" for w in rest])  # the checks of --server-config
        except UserError as exc:
            raise UserError(f"{where}: {exc.message.removeprefix('--server-config ')}") from None
        out.targets.append(label)
        if settings:
            out.settings[label] = settings[label]
    if not out.targets:
        raise UserError(f"--targets-file {path} lists no target: one per line, LABEL [KIND] [key=value …]")
    return out


def settings_text(settings: dict[str, str]) -> str:
    """``io-threads=2, save=900 1``."""
    return ", ".join(f"{k}={v}" for k, v in settings.items())


_FATAL = re.compile(r"\*\*\* FATAL CONFIG FILE ERROR \(([^)]*)\) \*\*\*(.*)", re.DOTALL)


def refused_setting(log_text: str) -> str | None:
    """The server's own words when it refused its configuration at start (Redis, Valkey, KeyDB:
    ``*** FATAL CONFIG FILE ERROR … >>> 'key "value"' reason``), on one line; None otherwise."""
    m = _FATAL.search(log_text)
    if m is None:
        return None
    lines = [ln.strip() for ln in m.group(2).splitlines() if ln.strip() and not ln.startswith("Reading the config")]
    directive = next((ln.removeprefix(">>>").strip() for ln in lines if ln.startswith(">>>")), "")
    reason = next((ln for ln in lines if not ln.startswith(">>>")), "refused")
    return f"{directive}: {reason} ({m.group(1)})" if directive else f"{reason} ({m.group(1)})"


# a server's own words for a setting it refuses at start: Dragonfly, mongod, memcached; PostgreSQL ('FATAL:
# unrecognized configuration parameter "x"', 'invalid value for parameter "x": "y"'), MariaDB ("unknown variable
# 'x=1'", "unknown option '--x'"): those two were a skipped target, exit 1, and a result folder (campaign, 27 Nov)
_REFUSALS = ("unknown command line flag", "unrecognised option", "unrecognized option", "error parsing command line",
             "unrecognized configuration parameter", "invalid value for parameter", "unknown variable",
             "unknown option")


def unknown_flag(log_text: str) -> str | None:
    """A server refusing a flag or a setting at start (:data:`_REFUSALS`): the line that says so."""
    for line in log_text.splitlines():
        low = line.lower()
        if any(words in low for words in _REFUSALS):
            return line.strip()[:300]
    return None
