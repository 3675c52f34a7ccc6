"""YCSB property files: parsing, precedence (-P files in order, then -p), workload name lookup."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.results.variants import split_variant
from ycsbctl.user_input import DECIMAL, WHOLE

# The workload files ship inside the package (``workloads/`` at the top of a checkout links here), so
# an installed ycsbctl finds them as an editable checkout does.
WORKLOADS_DIR = Path(str(resources.files("ycsbctl") / "data" / "workloads"))
_NAME = re.compile(r"^(?:workload[-_]?)?([a-z0-9][a-z0-9_-]*)$")


_INT, _FLOAT = WHOLE, DECIMAL  # the one rule for a number a user types (ycsbctl.user_input)


class Properties(dict[str, str]):
    """YCSB properties (str → str) with typed getters whose errors name the property and the fix.

    Stricter than Java where Java would silently misread: a boolean is ``true`` or ``false``
    (``Boolean.parseBoolean("yes")`` is false), a number is finite. Surrounding blanks are
    ignored (a value keeps Java's trailing spaces; ``-p`` pairs are trimmed)."""

    def get_int(self, key: str, default: int | None = None) -> int:
        raw = self.get(key)
        if raw is None or raw.strip() == "":
            if default is None:
                raise UserError(f"property {key} is required (add -p {key}=N)")
            return default
        if not _INT.fullmatch(raw.strip()):
            raise UserError(f"property {key}={raw!r} is not a whole number: write -p {key}=N (digits only)")
        return int(raw.strip())

    def get_optional_int(self, key: str) -> int | None:
        """:meth:`get_int` of a property that may be left out (``operationcount``): None when absent or blank, as
        :meth:`get_int` reads a blank value."""
        return self.get_int(key) if (self.get(key) or "").strip() else None

    def get_float(self, key: str, default: float) -> float:
        raw = self.get(key)
        if raw is None or raw.strip() == "":
            return default
        if not _FLOAT.fullmatch(raw.strip()):
            raise UserError(f"property {key}={raw!r} is not a number: write -p {key}=X (e.g. 0.5)")
        if not math.isfinite(float(raw.strip())):  # 1e999: infinite, as no proportion or fraction is
            raise UserError(f"property {key}={raw!r} is not a finite number: write -p {key}=X (e.g. 0.5)")
        return float(raw.strip())

    def get_bool(self, key: str, default: bool) -> bool:
        raw = self.get(key)
        if raw is None or raw.strip() == "":
            return default
        value = raw.strip().lower()
        if value not in ("true", "false"):
            raise UserError(f"property {key}={raw!r} is not a boolean: write -p {key}=true or -p {key}=false")
        return value == "true"


def read_proportions(p: Properties, keys: Iterable[tuple[int, str, float]]) -> list[tuple[int, float]]:
    """``(op, proportion)`` of each ``(op, property, default)`` whose proportion is > 0; a negative
    one is a :class:`UserError` naming the property."""
    out = []
    for op, key, default in keys:
        v = p.get_float(key, default)
        if v < 0:
            raise UserError(f"property {key}={v} is negative: proportions must be ≥ 0")
        if v > 0:
            out.append((op, v))
    return out


def parse_properties(text: str, source: str = "<text>") -> Properties:
    """Parse a Java ``.properties`` text exactly as ``java.util.Properties.load`` does (escapes such as
    ``a\\=b``, ``\\t`` and ``\\uXXXX``, continuation lines, ``=``/``:``/blank separators, ``#``/``!``
    comments), with the ``javaproperties`` library; a malformed ``\\u`` escape names the file."""
    import javaproperties

    try:
        return Properties(javaproperties.loads(text))
    except javaproperties.InvalidUEscapeError as exc:
        raise UserError(f"{source}: bad unicode escape {exc.escape!r} (write \\u and four hex digits)") from None


def known_workloads() -> list[str]:
    """Names of the property files shipped in ``workloads/``."""
    if not WORKLOADS_DIR.is_dir():
        return []
    return sorted(p.name for p in WORKLOADS_DIR.iterdir() if p.is_file() and not p.name.startswith("."))


def resolve_workload(name: str | Path) -> Path:
    """``workload-b``, ``workloadb``, ``b``, ``insert`` or a path → the property file (a variant,
    ``NAME[key=value]``, is its workload's file)."""
    name = split_variant(str(name))[0]
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
        data = p.read_bytes()
    except FileNotFoundError:
        raise UserError(f"property file {p} does not exist") from None
    except OSError as exc:
        raise UserError(f"property file {p} cannot be read: {exc.strerror}") from None
    check_property_file(data.decode("utf-8", errors="replace"), p)
    return parse_properties(data.decode("latin-1"), str(p))  # Properties.load(InputStream) reads ISO-8859-1


def parse_overrides(pairs: Iterable[str]) -> Properties:
    """``-p key=value`` options; a pair without ``=`` is an error."""
    props = Properties()
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"-p {pair!r} is malformed: write -p key=value (for example -p recordcount=100000)")
        props[key.strip()] = value.strip()
    return props


# YCSB's own property names (core workload, client, measurements) and the bindings' ones we read: a
# -p key that is none of these but close to one is most likely a typo that YCSB would silently ignore.
KNOWN_KEYS = (
    "workload", "db", "exporter", "exportfile", "threadcount", "target", "maxexecutiontime", "status.interval",
    "recordcount", "operationcount", "insertstart", "insertcount", "insertorder", "zeropadding", "table",
    "fieldcount", "fieldlength", "minfieldlength", "fieldlengthdistribution", "fieldlengthhistogram",
    "fieldnameprefix", "readallfields", "readallfieldsbyname", "writeallfields", "dataintegrity",
    "readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion",
    "requestdistribution", "minscanlength", "maxscanlength", "scanlengthdistribution", "hotspotdatafraction",
    "hotspotopnfraction", "exponential.percentile", "exponential.frac", "zipfian.constant", "dotransactions",
    "core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval", "measurementtype",
    "measurement.interval", "measurement.trackjvm", "measurement.histogram.verbose", "histogram.buckets",
    "hdrhistogram.percentiles", "hdrhistogram.fileoutput", "hdrhistogram.output.path", "timeseries.granularity",
    "reportlatencyforeacherror", "latencytrackederrors", "debug",
    "redis.host", "redis.port", "redis.password", "redis.cluster", "redis.timeout",
    "mongodb.url", "mongodb.batchsize", "mongodb.upsert", "mongodb.writeConcern", "mongodb.readPreference",
    "mongodb.driver", "postgresql.driver", "mariadb.driver",
    # ycsbctl's own binding properties (docs/): a warning that one "would be ignored" would be false
    "redis.wait", "redis.wait.timeout", "redis.readfrom", "redis.tls", "memcached.hosts", "memcached.opTimeoutMillis",
    "tarantool.space", "es.index.key",
)


def typo_hints(keys: Iterable[str]) -> list[str]:
    """One warning per key that is not a known property but is close to one (difflib)."""
    import difflib

    out = []
    for key in keys:
        if key in KNOWN_KEYS:
            continue
        close = difflib.get_close_matches(key, KNOWN_KEYS, n=1, cutoff=0.8)
        if close:
            out.append(f"warning: property {key!r} is not one YCSB knows (it would be ignored): did you mean "
                       f"{close[0]!r}?")
    return out


def check_property_file(text: str, path: Path) -> None:
    """Refuse a file that is not a properties file (binary, or no ``key=value`` line at all)."""
    if "\x00" in text or text.count("\ufffd") > max(3, len(text) // 100):
        raise UserError(f"{path} is not a YCSB property file (it holds binary data): give a text file of "
                        "key=value lines, like workloads/workloadb")
    lines = [x.strip() for x in text.splitlines() if x.strip() and x.strip()[0] not in "#!"]
    if lines and not any(re.match(r"^[A-Za-z_](?:[\w.\-]|\\.)*\s*[=:\s]", x) for x in lines):
        raise UserError(f"{path} is not a YCSB property file (no key=value line): give a text file of "
                        "key=value lines, like workloads/workloadb")


def load_properties(
    workload: str | Path | None = None, files: Iterable[str] = (), overrides: Iterable[str] = ()
) -> Properties:
    """Merge like YCSB: the workload file, then each ``-P`` file in order, then ``-p`` pairs; a
    variant's settings (``NAME[key=value]``: one value of a sweep axis) last. (A command that needs
    several workloads' properties reads its files once: :class:`PropertySources`.)"""
    return PropertySources.read([] if workload is None else [str(workload)], files, overrides).merged(
        None if workload is None else str(workload))


def is_shipped(path: Path) -> bool:
    """Whether ``path`` is one of the workload files ycsbctl ships (YCSB's, with its toy scale)."""
    try:
        return Path(path).resolve().parent == WORKLOADS_DIR.resolve()
    except OSError:
        return False


def user_properties(workloads: Iterable[str] = (), files: Iterable[str] = (), overrides: Iterable[str] = ()
                    ) -> Properties:
    """What the user set the YCSB way (:meth:`PropertySources.user`)."""
    return PropertySources.read(workloads, files, overrides).user()


@dataclass(frozen=True)
class PropertySources:
    """The property files one command names, each read once: the workloads' files (by the name the
    workload is given under, a variant's ``[key=value]`` left off), every ``-P`` file in order, and the
    ``-p`` pairs. Everything a run derives from properties (its sweep axes, client properties, typo and
    proportion hints, each workload's merged properties) is merged from these in memory.

    The :class:`Properties` held here are never changed; :meth:`merged` and :meth:`user` return new ones."""

    workload_files: Mapping[str, Properties]
    shipped: frozenset[str]  # the workloads whose file ycsbctl ships (only their mix is the user's)
    files: tuple[Properties, ...]
    overrides: Properties

    @classmethod
    def read(cls, workloads: Iterable[str], files: Iterable[str] = (), overrides: Iterable[str] = ()
             ) -> PropertySources:
        """Read each file once (a file named twice, as a workload and as ``-P``, is read once); a
        :class:`UserError` for an unknown workload, a missing or unreadable file or a bad ``-p`` pair."""
        cache: dict[Path, Properties] = {}

        def read_once(path: Path) -> Properties:
            key = path.resolve()
            if key not in cache:
                cache[key] = read_property_file(path)
            return cache[key]

        given, pairs = tuple(read_once(Path(f).expanduser()) for f in files), parse_overrides(overrides)
        by_name: dict[str, Properties] = {}
        shipped = set()
        for w in workloads:
            base = split_variant(str(w))[0]
            if base in by_name:
                continue
            path = resolve_workload(base)
            by_name[base] = read_once(path)
            if is_shipped(path):
                shipped.add(base)
        return cls(by_name, frozenset(shipped), given, pairs)

    def merged(self, workload: str | None) -> Properties:
        """Merge like YCSB: ``workload``'s file, then each ``-P`` file in order, then ``-p`` pairs; a
        variant's settings (``NAME[key=value]``: one value of a sweep axis) last."""
        merged = Properties()
        if workload is not None:
            base, variant = split_variant(workload)
            merged.update(self.workload_files[base])
        for f in self.files:
            merged.update(f)
        merged.update(self.overrides)
        if workload is not None:
            merged.update(variant)
        return merged

    def given(self) -> Properties:
        """The ``-P`` files, then the ``-p`` pairs: the keys the user typed (checked for typos)."""
        return self.merged(None)

    def user(self) -> Properties:
        """What the user set the YCSB way: their own workload files, every ``-P`` file, then ``-p``
        pairs. A shipped workload named as an argument (``workload-b``) gives only its mix: its
        ``recordcount``/``operationcount`` of 1000 give way to the profile's scale."""
        merged = Properties()
        for name, props in self.workload_files.items():
            if name not in self.shipped:
                merged.update(props)
        merged.update(self.given())
        return merged
