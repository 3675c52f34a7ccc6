"""YCSB property files: parsing, precedence (-P files in order, then -p), workload name lookup."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from ycsbctl.errors import UserError

WORKLOADS_DIR = Path(__file__).resolve().parents[2] / "workloads"
_NAME = re.compile(r"^(?:workload[-_]?)?([a-z0-9][a-z0-9_-]*)$")


class Properties(dict[str, str]):
    """YCSB properties (str → str) with typed getters whose errors name the property."""

    def get_int(self, key: str, default: int | None = None) -> int:
        raw = self.get(key)
        if raw is None or raw == "":
            if default is None:
                raise UserError(f"property {key} is required (add -p {key}=N)")
            return default
        try:
            return int(raw)
        except ValueError:
            raise UserError(f"property {key}={raw!r} is not a whole number") from None

    def get_float(self, key: str, default: float) -> float:
        raw = self.get(key)
        if raw is None or raw == "":
            return default
        try:
            return float(raw)
        except ValueError:
            raise UserError(f"property {key}={raw!r} is not a number") from None

    def get_bool(self, key: str, default: bool) -> bool:
        raw = self.get(key)
        if raw is None or raw == "":
            return default
        return raw.strip().lower() == "true"  # Java's Boolean.parseBoolean


def parse_properties(text: str, source: str = "<text>") -> Properties:
    """Parse the Java-properties subset YCSB files use: ``key=value`` / ``key: value`` /
    ``key value``, ``#`` and ``!`` comments, blank lines, backslash continuations, and
    surrounding spaces (trimmed on both sides)."""
    props = Properties()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line[0] in "#!":
            continue
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + lines[i].strip()
            i += 1
        m = re.match(r"^([^=:\s]+)\s*[=:\s]\s*(.*)$", line)
        if m is None:  # a bare key: Java gives it an empty value
            props[line] = ""
            continue
        props[m.group(1)] = m.group(2).strip()
    return props


def known_workloads() -> list[str]:
    """Names of the property files shipped in ``workloads/``."""
    if not WORKLOADS_DIR.is_dir():
        return []
    return sorted(p.name for p in WORKLOADS_DIR.iterdir() if p.is_file() and not p.name.startswith("."))


def resolve_workload(name: str) -> Path:
    """``workload-b``, ``workloadb``, ``b``, ``insert`` or a path → the property file."""
    path = Path(name).expanduser()
    if path.is_file():
        return path
    if os.sep not in name:
        m = _NAME.match(name.lower())
        if m:
            stem = m.group(1)
            for candidate in (f"workload{stem}", stem, name.lower()):
                p = WORKLOADS_DIR / candidate
                if p.is_file():
                    return p
    if path.exists():
        raise UserError(f"workload {name!r} is not a readable file")
    shown = ", ".join(n.replace("workload", "workload-") if n.startswith("workload") else n for n in known_workloads())
    raise UserError(f"unknown workload {name!r}: use one of {shown}, or the path of a YCSB property file")


def workload_name(path: Path) -> str:
    """Short name of a workload file for tables and run ids (``workloadb``, ``insert``)."""
    return path.name


def read_property_file(path: str | Path) -> Properties:
    """Read one ``-P`` file; a clear error when it is missing or unreadable."""
    p = Path(path).expanduser()
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise UserError(f"property file {p} does not exist") from None
    except OSError as exc:
        raise UserError(f"property file {p} cannot be read: {exc.strerror}") from None
    return parse_properties(text, str(p))


def parse_overrides(pairs: Iterable[str]) -> Properties:
    """``-p key=value`` options; a pair without ``=`` is an error."""
    props = Properties()
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"-p {pair!r} is malformed: write -p key=value (for example -p recordcount=100000)")
        props[key.strip()] = value.strip()
    return props


def load_properties(
    workload: str | None = None, files: Iterable[str] = (), overrides: Iterable[str] = ()
) -> Properties:
    """Merge like YCSB: the workload file, then each ``-P`` file in order, then ``-p`` pairs."""
    merged = Properties()
    if workload is not None:
        merged.update(read_property_file(resolve_workload(workload)))
    for f in files:
        merged.update(read_property_file(f))
    merged.update(parse_overrides(overrides))
    return merged
