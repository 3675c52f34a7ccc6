"""YCSB's client properties — what ``site.ycsb.Client``, its measurements and its bindings read
besides the workload — typed and checked before anything starts, and what each means for ycsbctl.

YCSB reads them from ``-P`` files and ``-p`` pairs (later wins); its ``-threads``/``-target`` flags set
the same properties. ycsbctl honours each as YCSB does (read from ``Client.java``,
``Measurements.java``, ``OneMeasurementHdrHistogram.java``, the exporters), or refuses it in one line
naming what to use instead. When ycsbctl's own flag is given too, the flag wins.

=========================  =================================================  =======================
property                   YCSB                                               ycsbctl
=========================  =================================================  =======================
threadcount                client threads (int ≥ 1, default 1)                ``--threads``
target                     total ops/s over all threads (int; 0 = no limit)   ``--target-rate``
maxexecutiontime           seconds before the threads stop (int; 0 = none)    ``--duration``, no warm-up
operationcount             run-phase operations (int; 0 = until the time)     ``--operations``
recordcount                records loaded, and the key space                  ``--records``
hdrhistogram.percentiles   percentile lines printed (default 50,95,99)        the printed block
exporter / exportfile      how and where the final block is written           the printed block
measurement.interval       op, intended or both                               as YCSB
measurementtype            hdrhistogram (default) or another recorder         hdrhistogram only
status.interval            seconds between status lines                       progress is per second
hdrhistogram.fileoutput    interval logs ``<output.path><NAME>.hdr``          as YCSB, one interval a second
dotransactions             false = the load phase (``-load``)                 ``ycsbctl load``
db                         the binding class                                  ``--target URL``
=========================  =================================================  =======================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ycsbctl.errors import UserError
from ycsbctl.user_input import writable_file
from ycsbctl.workload.properties import Properties

INT_MAX = 2**31 - 1
# Client properties the plan carries once read: they are removed from what the engines get, so the Java
# engine (which would apply a ``-p threadcount`` after its ``-threads``) runs what the plan says.
CONSUMED = ("threadcount", "target", "maxexecutiontime", "hdrhistogram.percentiles", "exporter", "exportfile",
            "status.interval", "measurementtype", "dotransactions")
EXPORTERS = {  # YCSB's exporter classes (the short name is accepted too) → ycsbctl's format
    "site.ycsb.measurements.exporter.TextMeasurementsExporter": "text",
    "site.ycsb.measurements.exporter.JSONMeasurementsExporter": "json",
    "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter": "jsonarray",
}
_OTHER_RECORDERS = ("histogram", "hdrhistogram+histogram", "hdrhistogram+raw", "timeseries", "raw")


@dataclass(frozen=True)
class ClientProperties:
    """The client properties that were given (None: not given), typed; units in the names."""

    threads: int | None = None
    target_ops: float | None = None  # ops/s over all threads
    max_execution_s: float | None = None
    operations: int | None = None
    records: int | None = None
    percentiles: tuple[float, ...] | None = None
    exporter: str = "text"  # text | json | jsonarray
    exportfile: str | None = None
    measurement: str | None = None  # op | intended | both


def _whole(p: Properties, key: str, lowest: int, fix: str) -> int | None:
    """An ``int`` property as ``Integer.parseInt`` reads it, ≥ ``lowest``; None when absent or blank."""
    if p.get(key, "").strip() == "":
        return None
    value = p.get_int(key)
    if not lowest <= value <= INT_MAX:
        raise UserError(f"property {key}={value} is out of range: {fix}")
    return value


def _percentiles(raw: str) -> tuple[float, ...]:
    """``hdrhistogram.percentiles``: comma-separated percentiles, each in (0, 100]."""
    out: list[float] = []
    for part in raw.split(","):
        try:
            value = float(part.strip())
        except ValueError:
            value = float("nan")
        if not 0 < value <= 100:  # NaN fails too
            raise UserError(f"property hdrhistogram.percentiles={raw!r}: write percentiles between 0 and 100 "
                            "separated by commas, e.g. -p hdrhistogram.percentiles=50,95,99,99.9")
        out.append(value)
    return tuple(dict.fromkeys(out))


def _check_log_prefix(prefix: str) -> None:
    """``hdrhistogram.output.path`` is a prefix of YCSB's log file names: its folder must exist."""
    import os
    from pathlib import Path

    folder = Path(prefix + "x").expanduser().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UserError(f"property hdrhistogram.output.path={prefix!r}: {folder} is not a folder ycsbctl can write; "
                        "create the folder or give another path (a prefix: /tmp/ycsb- writes /tmp/ycsb-READ.hdr)")


def read_client_properties(p: Properties, phase: str = "run") -> ClientProperties:
    """Type and check every client and binding property in ``p``; a :class:`UserError` names the fix.
    ``phase`` is the command's (``run`` or ``load``): ``dotransactions=false`` belongs to ``load``."""
    threads = _whole(p, "threadcount", 1, "use -p threadcount=N with N ≥ 1 (or --threads N)")
    target = _whole(p, "target", 0, "use -p target=N ops/s, 0 for no limit (or --target-rate R)")
    maxtime = _whole(p, "maxexecutiontime", 0, "use -p maxexecutiontime=S seconds, 0 for none (or --duration S)")
    operations = _whole(p, "operationcount", 0, "use -p operationcount=N with N ≥ 0 (or --operations N)")
    records = _whole(p, "recordcount", 0, "use -p recordcount=N with N ≥ 0 (or --records N)")
    _whole(p, "status.interval", 1, "use -p status.interval=S with S ≥ 1 (ycsbctl shows progress every second)")
    for key in ("insertstart", "insertcount", "zeropadding", "fieldcount", "fieldlength", "minfieldlength",
                "minscanlength", "maxscanlength", "core_workload_insertion_retry_limit",
                "core_workload_insertion_retry_interval", "batchsize", "mongodb.batchsize", "redis.timeout"):
        _whole(p, key, 0, f"use -p {key}=N with N ≥ 0")
    for key in ("readallfields", "writeallfields", "dataintegrity", "mongodb.upsert", "measurement.trackjvm",
                "measurement.histogram.verbose", "redis.cluster", "hdrhistogram.fileoutput", "dotransactions"):
        p.get_bool(key, False)
    port = _whole(p, "redis.port", 1, "use -p redis.port=N with 1 ≤ N ≤ 65535")
    if port is not None and port > 65535:
        raise UserError(f"property redis.port={port} is out of range: use -p redis.port=N with 1 ≤ N ≤ 65535")
    measurement = p.get("measurement.interval", "").strip() or None
    if measurement is not None and measurement not in ("op", "intended", "both"):
        raise UserError(f"property measurement.interval={measurement!r}: use op, intended or both")
    mtype = p.get("measurementtype", "").strip()
    if mtype and mtype != "hdrhistogram":
        known = mtype in _OTHER_RECORDERS
        raise UserError(f"property measurementtype={mtype!r} is {'not supported' if known else 'unknown'}: "
                        "ycsbctl records HdrHistograms (YCSB's default; per-second series go to the result "
                        "folder): drop -p measurementtype or set it to hdrhistogram")
    if p.get("exportfile", "").strip():  # written after the run: a path it cannot take is said before it
        writable_file(p["exportfile"].strip(), "the exportfile")
    if p.get_bool("hdrhistogram.fileoutput", False):
        _check_log_prefix(p.get("hdrhistogram.output.path", ""))
    if phase == "run" and not p.get_bool("dotransactions", True):
        raise UserError("property dotransactions=false is YCSB's load phase: use `ycsbctl load WORKLOAD --target T`")
    if p.get("db", "").strip():
        raise UserError(f"property db={p['db'].strip()!r}: ycsbctl picks the binding from the target; name the "
                        "server with --target redis://host:port, mongodb://host:port/db or basic://")
    pct = p.get("hdrhistogram.percentiles", "").strip()
    exporter = p.get("exporter", "").strip()
    fmt = "text"
    if exporter:
        full = exporter if "." in exporter else f"site.ycsb.measurements.exporter.{exporter}"
        if full not in EXPORTERS:
            raise UserError(f"property exporter={exporter!r} is unknown: use TextMeasurementsExporter, "
                            "JSONMeasurementsExporter or JSONArrayMeasurementsExporter")
        fmt = EXPORTERS[full]
    return ClientProperties(
        threads=threads, target_ops=float(target) if target else None,
        max_execution_s=float(maxtime) if maxtime else None, operations=operations or None, records=records,
        percentiles=_percentiles(pct) if pct else None, exporter=fmt,
        exportfile=p.get("exportfile", "").strip() or None, measurement=measurement,
    )


def fold_into_flags(flags: dict[str, Any], given: ClientProperties) -> dict[str, Any]:
    """The plan's settings (``flags``: the command's options, None when not given) with the client
    properties applied where the matching flag was not given. A time bound read from
    ``maxexecutiontime`` or a count from ``operationcount`` runs with no warm-up unless ``--warmup``
    asks (YCSB has none)."""
    out = dict(flags)
    if out.get("threads") is None and given.threads is not None:
        out["threads"] = [given.threads]
    if not out.get("target_rates") and given.target_ops is not None:
        out["target_rates"] = [given.target_ops]
    if out.get("records") is None and given.records is not None:
        out["records"] = given.records
    yc_bound = False
    if out.get("operations") is None and given.operations is not None:
        out["operations"], yc_bound = given.operations, True
    if out.get("duration_s") is None and given.max_execution_s is not None:
        out["duration_s"], yc_bound = given.max_execution_s, True
    if yc_bound and out.get("warmup_s") is None:
        out["warmup_s"] = 0.0
    if out.get("measurement") is None and given.measurement is not None:
        out["measurement"] = given.measurement
    out.update(percentiles=list(given.percentiles) if given.percentiles else None, exporter=given.exporter,
               exportfile=given.exportfile)
    return out


def without_consumed(props: Properties, keys: Iterable[str] = CONSUMED) -> Properties:
    """``props`` without the client properties the plan has taken over."""
    return Properties({k: v for k, v in props.items() if k not in set(keys)})
