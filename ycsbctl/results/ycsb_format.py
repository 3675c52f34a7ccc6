"""Write YCSB's final block (``site.ycsb.Client`` through ``TextMeasurementsExporter``, or its JSON
exporters) for a phase's result, line for line, with Java's ``long`` and ``Double.toString`` values.
Reading it back is :mod:`ycsbctl.results.ycsb_text`'s.
"""

from __future__ import annotations

import math
from typing import Any

from ycsbctl.results.model import OpSummary, PhaseResult
from ycsbctl.results.ycsb_text import _FINAL, parse_java_number

# Percentiles each flavour prints by default (YCSB's hdrhistogram.percentiles default;
# our Java runs ask for 50,95,99,99.9, and so does "master" here).
FLAVOR_PERCENTILES = {"master": (50.0, 95.0, 99.0, 99.9), "0.17.0": (95.0, 99.0)}


# ----------------------------------------------------------------------------- numbers


def java_double(x: float) -> str:
    """``x`` as Java's ``Double.toString`` prints it (``656.5988181221273``, ``1.2345E7``, ``NaN``)."""
    x = float(x)
    if math.isnan(x):
        return "NaN"
    sign = "-" if repr(x).startswith("-") else ""  # -0.0 and -inf too: repr keeps the sign
    if math.isinf(x):
        return f"{sign}Infinity"
    if x == 0:
        return f"{sign}0.0"
    mantissa, _, e = repr(abs(x)).partition("e")  # repr is the shortest round-tripping form
    whole, _, frac = mantissa.partition(".")
    raw = whole + frac
    stripped = raw.lstrip("0")
    sci_exp = len(whole) + int(e or 0) - (len(raw) - len(stripped)) - 1
    digits = stripped.rstrip("0") or "0"
    if 1e-3 <= abs(x) < 1e7:
        if sci_exp >= 0:
            head = digits[: sci_exp + 1].ljust(sci_exp + 1, "0")
            return f"{sign}{head}.{digits[sci_exp + 1:] or '0'}"
        return f"{sign}0.{'0' * (-sci_exp - 1)}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{sci_exp}"


def _java_long(x: float) -> str:
    return str(int(round(x))) if math.isfinite(x) else java_double(x)


def percentile_name(p: float) -> str:
    """YCSB's HdrHistogram name for percentile ``p``: ``50thPercentileLatency(us)``, ``99.9Percentile…``."""
    if float(p).is_integer():
        j = int(p)
        suffix = "th" if j % 100 in (11, 12, 13) else ["th", "st", "nd", "rd", "th", "th", "th", "th", "th",
                                                       "th"][j % 10]
        return f"{j}{suffix}PercentileLatency(us)"
    return f"{java_double(p)}PercentileLatency(us)"


# ----------------------------------------------------------------------------- writing


def format_phase(result: PhaseResult, flavor: str = "master", percentiles: tuple[float, ...] | None = None) -> str:
    """YCSB's final block for ``result``, line for line as ``site.ycsb.Client`` prints it.

    Percentile lines follow ``percentiles``, else the list a parsed result was printed with
    (``result.ycsb.percentiles``), else the flavour's default (master 50/95/99/99.9, 0.17.0 95/99);
    an operation prints only those it has. GC blocks come from ``result.ycsb.gc``.
    """
    if flavor not in FLAVOR_PERCENTILES:
        raise ValueError(f"unknown YCSB flavor {flavor!r}; use one of {sorted(FLAVOR_PERCENTILES)}")
    said = result.ycsb
    pcts = percentiles or tuple((said.percentiles if said else None) or FLAVOR_PERCENTILES[flavor])
    runtime_ms = result.runtime_ms
    throughput = result.throughput_ops
    if math.isfinite(runtime_ms) and round(runtime_ms) > 0:
        # YCSB divides by the whole milliseconds it prints: 1000 · operations / RunTime(ms).
        throughput = throughput * runtime_ms / round(runtime_ms)
    lines = [f"[OVERALL], RunTime(ms), {_java_long(runtime_ms)}",
             f"[OVERALL], Throughput(ops/sec), {java_double(throughput)}"]
    for block in (said.gc, said.jvm) if said else ():
        for metric, values in block.items():
            lines += [f"[{metric}], {key}, {_format_value(v)}" for key, v in values.items()]
    measured = list(result.ops.items())
    measured += result.own_measures().items()  # ycsbctl's own blocks: [CLIENT-LAG], [SCHEDULE-LAG] (µs)
    for name, op in measured:
        lines += [
            f"[{name}], Operations, {op.operations}",
            f"[{name}], AverageLatency(us), {java_double(op.mean_us)}",
            f"[{name}], MinLatency(us), {_java_long(op.min_us)}",
            f"[{name}], MaxLatency(us), {_java_long(op.max_us)}",
        ]
        lines += [f"[{name}], {percentile_name(p)}, {_java_long(_latency_at(op, float(p)))}"
                  for p in pcts if float(p) in op.percentiles_us or op.histogram is not None]
        lines += [f"[{name}], Return={status}, {n}" for status, n in op.returns.items()]
    return "\n".join(lines) + "\n"


def _latency_at(op: OpSummary, p: float) -> float:
    """µs at percentile ``p``: as stored, else from the histogram (any ``hdrhistogram.percentiles``)."""
    return op.percentiles_us[p] if p in op.percentiles_us else op.percentile(p)


def export_block(result: PhaseResult, exporter: str = "text", percentiles: tuple[float, ...] | None = None) -> str:
    """The final block as YCSB's ``exporter`` writes it: ``text`` (TextMeasurementsExporter), ``json``
    (JSONMeasurementsExporter: one ``{"metric", "measurement", "value"}`` object per line) or
    ``jsonarray`` (JSONArrayMeasurementsExporter: one array of those objects)."""
    text = format_phase(result, percentiles=percentiles)
    if exporter == "text":
        return text
    import json

    rows = []
    for line in text.splitlines():
        m = _FINAL.match(line)
        if m:
            value = parse_java_number(m["value"])
            rows.append({"metric": m["metric"], "measurement": m["key"],  # Jackson writes NaN as "NaN"
                         "value": value if not isinstance(value,
                                                          float) or math.isfinite(value) else java_double(value)})
    if exporter == "jsonarray":
        return json.dumps(rows, indent=2) + "\n"
    return "".join(json.dumps(r) + "\n" for r in rows)


def _format_value(v: Any) -> str:
    return str(v) if isinstance(v, int) and not isinstance(v, bool) else java_double(float(v))


# ----------------------------------------------------------------------------- reading
