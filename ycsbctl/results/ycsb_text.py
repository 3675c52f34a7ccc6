"""Read YCSB's text output (final block and status lines), 0.17.0 and master (writing the final block:
:mod:`ycsbctl.results.ycsb_format`).

The final block is what ``site.ycsb.Client`` prints through ``TextMeasurementsExporter``:
``[METRIC], Measurement, value`` with Java's ``long`` or ``Double.toString`` values. Status lines
come once per ``status.interval`` on stderr and format their numbers with the JVM's locale
(``DecimalFormat("#.##")``), so ``402,17``, ``∞`` and ``NaN`` appear there. Latencies are µs.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ycsbctl.errors import UserError
from ycsbctl.results.model import SERIES_COLUMNS, OpSummary, PhaseResult, YcsbFacts
from ycsbctl.results.names import CLIENT_LAG, OPERATIONS, OWN_MEASURES, SCHEDULE_LAG, RunStatus

_FINAL = re.compile(r"^\[(?P<metric>[^\]]+)\], (?P<key>.+), (?P<value>[^,]*)$")
_PCT_NAME = re.compile(r"^(?:(?P<ord>\d+)(?:st|nd|rd|th)|(?P<dbl>[0-9.E-]+))PercentileLatency\(us\)$")
_STATUS = re.compile(
    r"(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}) (?P<sec>\d+) sec: (?P<ops>\d+) operations; "
    r"(?:(?P<cur>\S+) current ops/sec; )?"
    r"(?:est completion in (?P<est>(?:\d+ (?:day|hour|minute|second)s? ?)+))?(?P<rest>.*)$"
)
_HDR_SUMMARY = re.compile(r"\[(?P<name>[^\s:\]]+): (?P<items>[^\]]*)\]")
_BUCKET_SUMMARY = re.compile(r"\[(?P<name>\S+) AverageLatency\(us\)=(?P<avg>[^\]]+)\]")
_RAW_SUMMARY = re.compile(r"(?P<name>[A-Za-z][\w-]*) count: (?P<count>\d+), average latency\(us\): (?P<avg>\S+)")
_VERSION = re.compile(r"^YCSB Client (?P<version>\S+)")


# ----------------------------------------------------------------------------- numbers


def parse_java_number(text: str) -> int | float:
    """A value of the final block: Java ``long`` → int, ``double`` (``NaN``, ``1.2E7``) → float."""
    text = text.strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return float(text)


def parse_locale_number(text: str) -> float:
    """A ``DecimalFormat("#.##")`` number in any JVM locale (``9876,5``, ``∞``, ``NaN``, ``\\ufffd``)."""
    text = text.strip().replace("\u2212", "-").replace("\u00a0", "")
    if text in ("NaN", "\ufffd", "?"):
        return float("nan")
    if text.lstrip("-") in ("∞", "Infinity"):
        return float("-inf") if text.startswith("-") else float("inf")
    return float(text.replace(",", "."))


# ----------------------------------------------------------------------------- reading


@dataclass
class ParsedYcsb:
    """One YCSB run read from its text output.

    ``result`` is the final block (engine "ycsb", no histograms, percentiles as printed, series
    from the status lines). ``status`` has one row per status line: ``timestamp``, ``elapsed_s``
    (YCSB's "N sec"), ``second`` (interval end, made strictly increasing), ``operations`` (total so
    far), ``ops_per_s`` (that interval), ``est_remaining`` and per measurement ``<NAME>.count``,
    ``.avg_us``, ``.min_us``, ``.max_us``, ``.p50_us``, ``.p90_us``, ``.p99_us``, ``.p99.9_us``… as
    printed. ``threads``/``workload``/``target_rate`` come from the ``Command line:`` line.
    """

    result: PhaseResult
    status: pd.DataFrame
    command_line: str | None = None
    threads: int | None = None
    workload: str | None = None
    phase: str = "run"
    version: str | None = None
    gc: dict[str, dict[str, int | float]] = field(default_factory=dict)
    target_rate: float | None = None
    measurementtype: str | None = None


def parse_status_line(line: str) -> dict[str, Any] | None:
    """One status line as a flat dict (see :class:`ParsedYcsb`.status), or None if it is not one."""
    m = _STATUS.search(line.rstrip("\r\n"))
    if m is None:
        return None
    row: dict[str, Any] = {
        "timestamp": m["ts"], "elapsed_s": int(m["sec"]), "operations": int(m["ops"]),
        "ops_per_s": parse_locale_number(m["cur"]) if m["cur"] else 0.0,
        "est_remaining": (m["est"] or "").strip() or None,
    }
    rest = m["rest"]
    for s in _HDR_SUMMARY.finditer(rest):
        for item in s["items"].split(", "):
            key, _, value = item.partition("=")
            if not value:
                continue
            col = {"Count": "count", "Max": "max_us", "Min": "min_us", "Avg": "avg_us"}.get(key)
            if col is None:
                col = f"p{key.strip()}_us"
            row[f"{s['name']}.{col}"] = parse_locale_number(value)
    for s in _BUCKET_SUMMARY.finditer(rest):
        row[f"{s['name']}.avg_us"] = parse_locale_number(s["avg"])
    for s in _RAW_SUMMARY.finditer(rest):
        row[f"{s['name']}.count"] = float(s["count"])
        row[f"{s['name']}.avg_us"] = parse_locale_number(s["avg"])
    return row


def status_measurements(row: dict[str, Any]) -> list[str]:
    """Measurement names present in a parsed status line, in printed order."""
    seen: dict[str, None] = {}
    for key in row:
        if "." in key and key.endswith(("count", "_us")):  # NAME.count, NAME.p99.9_us …
            seen.setdefault(key.split(".", 1)[0], None)
    return list(seen)


def is_failure_measurement(name: str) -> bool:
    """``READ-FAILED``, ``UPDATE-NOT_FOUND``…: latencies of failed operations (not READ-MODIFY-WRITE)."""
    for op in sorted(OPERATIONS, key=len, reverse=True):
        if name == op:
            return False
        if name.startswith(op + "-"):
            return True
    return name.endswith("-FAILED")


def _command_facts(cmd: str | None, props: dict[str, str]) -> dict[str, Any]:
    """threads, workload, phase, target rate and measurement type from a Client command line and
    ``props``, the properties BasicDB printed it ran with (final when present). As in YCSB's
    ``Client``, ``-threads N`` and ``-target R`` set ``threadcount`` and ``target``, and of those and
    ``-p`` the last on the command line wins."""
    facts: dict[str, Any] = {"threads": None, "workload": None, "phase": "run", "target": None}
    args = cmd.split() if cmd else []
    p: dict[str, str] = {}
    for i, a in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if a == "-threads" and nxt.isdigit():
            p["threadcount"] = nxt
        elif a == "-target":
            p["target"] = nxt
        elif a == "-load":
            facts["phase"] = "load"
        elif a == "-P" and nxt and facts["workload"] is None:
            facts["workload"] = os.path.basename(nxt.rstrip("/"))
        elif a == "-p" and "=" in nxt:
            k, _, v = nxt.partition("=")
            p[k] = v
    p.update(props)
    if p.get("threadcount", "").isdigit():
        facts["threads"] = int(p["threadcount"])
    facts["target"] = p.get("target")
    if p.get("dotransactions") == "false":
        facts["phase"] = "load"
    if facts["threads"] is None and cmd is not None:
        facts["threads"] = 1  # YCSB's default
    try:
        rate = float(facts["target"]) if facts["target"] else 0.0
    except ValueError:
        rate = 0.0
    facts["target"] = rate if rate > 0 else None
    facts["measurementtype"] = p.get("measurementtype")
    return facts


def _apply(op: OpSummary, key: str, value: int | float, facts: YcsbFacts | None) -> bool:
    """Put one ``[NAME], key, value`` line into ``op`` (and what is not a measurement into ``facts``);
    False if the key is not a latency field."""
    if key in ("Operations", "Total Operations"):
        op.operations = int(value)
    elif key in ("AverageLatency(us)", "Average"):
        op.mean_us = float(value)
    elif key in ("MinLatency(us)", "Min"):
        op.min_us = float(value)
    elif key in ("MaxLatency(us)", "Max"):
        op.max_us = float(value)
    elif key.startswith("Return="):
        op.returns[key[len("Return="):]] = int(value)
    elif key == "LatencyVariance(us)":
        if facts is not None:
            facts.latency_variance_us[op.name] = float(value)
    elif m := _PCT_NAME.match(key):
        p = float(m["ord"] or m["dbl"])
        op.percentiles_us[p] = float(value)
        if facts is not None and p not in facts.percentiles:
            facts.percentiles.append(p)
    elif re.fullmatch(r"p\d+(?:\.\d+)?", key):  # measurementtype=raw
        op.percentiles_us[float(key[1:])] = float(value)
    elif re.fullmatch(r">?\d+", key):  # histogram buckets, hdr verbose values, timeseries points
        if facts is not None:
            facts.points.setdefault(op.name, []).append([key, value])
    elif key != "Below is a summary of latency in microseconds:":
        return False
    return True


def parse_output(text: str) -> ParsedYcsb:
    """Parse YCSB output (stdout and stderr, concatenated in any order) of one run.

    Without an ``[OVERALL]`` block (YCSB stopped early) the result is marked "failed" and its
    totals come from the last status line.
    """
    overall: dict[str, int | float] = {}
    ops: dict[str, OpSummary] = {}
    other: dict[str, dict[str, int | float]] = {}
    ycsb = YcsbFacts()
    props: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    seen_status: set[str] = set()
    command_line = version = None
    runs = 0
    for raw in text.splitlines():
        line = raw.rstrip()
        if (m := _FINAL.match(line)) is not None:
            metric, key, value = m["metric"], m["key"], m["value"]
            try:
                number = parse_java_number(value)
            except ValueError:
                continue
            if metric == "OVERALL":
                runs += key == "RunTime(ms)"
                overall[key] = number
            elif metric in ops or key in ("Operations", "Total Operations"):
                op = ops.setdefault(metric, OpSummary(metric, 0, math.nan, math.nan, math.nan))
                # ycsbctl's own blocks are no operations; their percentiles say nothing of YCSB's list
                if not _apply(op, key, number, ycsb if metric not in OWN_MEASURES else None):
                    ycsb.unknown.append(line)
            else:
                other.setdefault(metric, {})[key] = number
            continue
        if line.startswith("Command line:"):
            command_line = line[len("Command line:"):].strip()
        elif (m := _VERSION.match(line)) is not None:
            version = m["version"]
        elif (m := re.fullmatch(r'"([^"]+)"="(.*)"', line)) is not None:  # BasicDB's property dump
            props.setdefault(m[1], m[2])
        elif line not in seen_status and (row := parse_status_line(line)) is not None:
            seen_status.add(line)  # -s prints to stderr, and to stdout as well for some types
            rows.append(row)
    if runs > 1:
        raise UserError(f"the text holds {runs} YCSB runs ([OVERALL] blocks); split it into one file per run")

    status = _status_frame(rows)
    facts = _command_facts(command_line, props)
    gc = {k: v for k, v in other.items() if k.startswith("TOTAL_GC")}
    jvm = {k: v for k, v in other.items() if not k.startswith("TOTAL_GC")}
    ycsb.gc, ycsb.jvm, ycsb.version, ycsb.measurementtype = gc, jvm, version, facts["measurementtype"]

    runtime_ms = float(overall.get("RunTime(ms)", math.nan))
    throughput = float(overall.get("Throughput(ops/sec)", math.nan))
    errors: list[str] = []
    if math.isfinite(runtime_ms) and math.isfinite(throughput) and runtime_ms > 0:
        operations = int(round(throughput * runtime_ms / 1000.0))
    else:
        operations = sum(sum(o.returns.values()) for o in ops.values())
    if not overall:
        errors.append("YCSB printed no [OVERALL] block (it stopped before the end of the run)")
        if rows:
            operations = int(rows[-1]["operations"])
            runtime_ms = 1000.0 * float(rows[-1]["elapsed_s"])
    client_lag, schedule_lag = ops.pop(CLIENT_LAG, None), ops.pop(SCHEDULE_LAG, None)
    result = PhaseResult(
        phase=facts["phase"], threads=facts["threads"] or 0, client_lag=client_lag, schedule_lag=schedule_lag,
        runtime_ms=runtime_ms if math.isfinite(runtime_ms) else 0.0, operations=operations, ops=ops,
        series=_series(status), target_rate=facts["target"], status=RunStatus.OK if overall else RunStatus.FAILED,
        errors=errors, engine="ycsb", ycsb=ycsb,
    )
    return ParsedYcsb(result=result, status=status, command_line=command_line, threads=facts["threads"],
                      workload=facts["workload"], phase=facts["phase"], version=version, gc=gc,
                      target_rate=facts["target"], measurementtype=facts["measurementtype"])


def _status_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Status rows as a frame, with ``second`` = interval end made strictly increasing."""
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=["timestamp", "elapsed_s", "second", "operations", "ops_per_s", "est_remaining"])
    seconds, last = [], -1
    for s in frame["elapsed_s"]:
        last = max(int(s), last + 1)  # the final line often repeats the previous "N sec"
        seconds.append(last)
    frame.insert(2, "second", seconds)
    frame["timestamp"] = pd.to_datetime(frame["timestamp"], format="%Y-%m-%d %H:%M:%S:%f")
    return frame


def _series(status: pd.DataFrame) -> pd.DataFrame:
    """Per-second series (:data:`SERIES_COLUMNS`) from the status frame; p95 is not printed (NaN)."""
    out = []
    names: dict[str, None] = {}
    for col in status.columns:
        if "." in col:
            names.setdefault(col.split(".", 1)[0], None)
    for _, row in status.iterrows():
        for name in names:
            count, avg = row.get(f"{name}.count", math.nan), row.get(f"{name}.avg_us", math.nan)
            if pd.isna(count) and pd.isna(avg):
                continue  # not printed in this line
            out.append({
                "second": int(row["second"]), "op": name,
                "operations": int(count) if pd.notna(count) else 0,
                "mean_us": avg, "p50_us": row.get(f"{name}.p50_us", math.nan), "p95_us": math.nan,
                "p99_us": row.get(f"{name}.p99_us", math.nan), "max_us": row.get(f"{name}.max_us", math.nan),
                "warmup": False,
            })
    frame = pd.DataFrame(out, columns=list(SERIES_COLUMNS))
    for col in ("mean_us", "p50_us", "p95_us", "p99_us", "max_us"):
        frame[col] = frame[col].astype(float)
    return frame.astype({"second": int, "operations": int, "warmup": bool})
