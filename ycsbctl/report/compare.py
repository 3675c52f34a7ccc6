"""``ycsbctl compare``: the same cells of several experiments — or one experiment's targets — as verdicts.

Points align on target × workload × threads (the sweep's phase). With several folders each after the
first is compared with the first (the baseline) by :func:`ycsbctl.results.folder_verdicts.folder_verdicts`:
the ratio of the geometric means with its interval (at the level that agrees with the verdicts), Welch's t test on the
log values, and one of ``better`` / ``worse`` / ``equivalent`` (inside ±margin) / ``undecided`` after the
Benjamini–Hochberg adjustment over the cells of that comparison; a row's values are the geometric means its ratio is
made of. A control target (the same build and settings in both, named with ``--control`` or found as the one target
whose server did not change while another's did) takes the host's drift between the experiments out; without one, each
cell is a minimum-effect test against the host's drift (:mod:`ycsbctl.results.host_drift`): ``better``/``worse`` only
beyond it. With one folder its targets are compared with its baseline target (:meth:`Experiment.verdicts`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ycsbctl.errors import UserError
from ycsbctl.report.compare_json import not_compared_cells, why_not_compared
from ycsbctl.report.compare_reference import folder_cpus, reference_note
from ycsbctl.report.folder_differences import differences
from ycsbctl.report.summary import server_name
from ycsbctl.report.verdict_table import level_text, ratio_text
from ycsbctl.results import folder_verdicts as fv
from ycsbctl.results import host_drift, yardstick
from ycsbctl.results import verdicts as vd
from ycsbctl.results.cells import THROUGHPUT
from ycsbctl.results.frames import Experiment, latency_label, load
from ycsbctl.results.quota_held import held_differently, held_phrase
from ycsbctl.results.reference_cells import cpus_changed, reference_cells
from ycsbctl.results.verdict_words import HELD, detectable_words, margin_words, verdict_phrase
from ycsbctl.user_input import write_whole

KEY = ["target", "workload", "threads"]
JSON_FIELDS = ("experiment", "workload", "target", "threads", "target_rate", "metric", "baseline", "base_value",
               "value", "ratio", "ci_low", "ci_high", "ci_level", "p_value", "p_adjusted", "verdict", "detectable_pct",
               "n",
               "test", "caveat", "at_peak", "drift_margin_pct", "margin_pct", "margin_source", "decided_by",
               "busy_rounds",
               "host_busy_max_pct", "host_factor")


@dataclass
class Comparison:
    """The experiments (first = baseline), one row per compared point (``table``), the verdicts behind
    it (``verdicts``: one row per cell × metric), and what differs between the experiments."""

    experiments: list[Experiment]
    latency: str
    table: pd.DataFrame
    verdicts: pd.DataFrame = field(default_factory=pd.DataFrame)
    differences: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    control: str | None = None
    notes: list[str] = field(default_factory=list)
    alpha: float = 0.05
    warnings: list[str] = field(default_factory=list)  # said once on stderr: a calibration record not used

    @property
    def within(self) -> bool:
        """One folder: its targets compared with its baseline target."""
        return len(self.experiments) == 1


def control_target(base: Experiment, other: Experiment, asked: str | None = None,
                   held: dict[str, tuple[float, float]] | None = None) -> str | None:
    """The control of two experiments: ``asked`` (checked: in both, the same build and settings), else the
    first common target whose server did not change while another common target's did; None when no
    target changed (nothing tells a change from the host's drift) or none stayed. A server held by its CPU
    quota in one experiment only (``held``: :func:`~ycsbctl.results.quota_held.held_differently`, found from the
    runs when not given) changed, whatever its settings say."""
    sa, sb = base.manifest.servers, other.manifest.servers
    common = [t for t in base.targets if t in other.targets]
    held = held_differently(base.runs, other.runs) if held is None else held
    if asked is not None:
        if asked not in common:
            raise UserError(f"--control {asked}: not a target of both experiments (common: "
                            f"{', '.join(common) or 'none'})")
        if not fv.same_server(sa.get(asked), sb.get(asked)):
            raise UserError(f"--control {asked}: its server differs between the experiments "
                            f"({server_name(sa.get(asked))} vs {server_name(sb.get(asked))}): pick an unchanged one")
        if asked in held:
            raise UserError(f"--control {asked}: {held_phrase(held[asked])}, "
                            "so it changed between the experiments: pick an unchanged one")
        return asked
    same = [t for t in common if fv.same_server(sa.get(t), sb.get(t)) and t not in held]
    return same[0] if same and len(same) < len(common) else None


def compare(paths: list[Path], latency: str = "p99", control: str | None = None, alpha: float | None = None,
            margins: host_drift.Margins | None = None) -> Comparison:
    """Compare the experiments in ``paths`` (first = baseline), or one experiment's targets. Without a
    control target, cells between folders are tested against ``margins`` (default: this host's
    calibration record, :func:`ycsbctl.results.host_drift.read`)."""
    if not paths:
        raise UserError("compare needs a result folder: ycsbctl compare reports/A [reports/B …]")
    exps = [load(Path(p)) for p in paths]
    alpha = alpha or float(exps[0].manifest.plan.get("alpha") or 0.05)
    if len(exps) == 1:
        if control is not None:
            raise UserError("--control separates the host's drift between two experiments: give two folders")
        return _within(exps[0], latency, alpha)
    base = exps[0]
    margins = margins or host_drift.read()
    bp = _points(base, latency)
    rows, diffs, unmatched, long, notes = [], [], [], [], []
    chosen, uncontrolled = None, False
    for other in exps[1:]:
        label = other.id if other.id != base.id else str(other.path)
        held = held_differently(base.runs, other.runs)  # servers a CPU quota held in one folder only: changed
        diffs += [f"{label}: {d}" for d in differences(base, other, held)]
        op = _points(other, latency)
        for key in bp.index.difference(op.index):
            unmatched.append(f"{'/'.join(map(str, key))} threads only in {base.id}")
        for key in op.index.difference(bp.index):
            unmatched.append(f"{'/'.join(map(str, key))} threads only in {label}")
        ctl = control_target(base, other, control, held)
        chosen = chosen or ctl
        host = yardstick.host_factor(base.yardstick, other.yardstick)
        untrusted = yardstick.untrusted(base.yardstick, other.yardstick, (base.id, label))
        refs = reference_cells(base.runs, base.slices(), other.runs, other.slices(), margins.of(THROUGHPUT),
                               (base.id, label), (folder_cpus(base), folder_cpus(other)), ctl)
        if changed := cpus_changed(folder_cpus(base), folder_cpus(other), (base.id, label)):
            diffs.append(f"{label}: {changed}")
        uncontrolled = uncontrolled or ctl is None  # its cells are tested against the margins
        notes.append(f"{label}: " + (f"control {ctl}: its change is the host's drift, taken out of the others'"
                                     if ctl else "no control target (the same build and settings in both, "
                                     "while another changed): a cell is better/worse only beyond the host's drift "
                                     "between experiments (throughput "
                                     f"±{100 * margins.of(THROUGHPUT):.1f} %, {latency} "
                                     f"±{100 * margins.of(latency):.1f} %; "
                                     f"{margins.source}); keep an unchanged target in both to see smaller changes")
                     + _host_note(host, ctl, margins.of(THROUGHPUT), untrusted))
        auto = [bool(e.manifest.plan.get("sequential")) for e in (base, other)]  # --repeat auto's rounds
        notes += [n for n in (fv.few_rounds(base.runs, base.id, auto[0]) if other is exps[1] else None,
                              fv.few_rounds(other.runs, label, auto[1])) if n]
        v = fv.folder_verdicts(base.runs, other.runs, ctl, label, latency,
                               paired=base.interleaved and other.interleaved,
                               alpha=alpha, margins=margins, host_factor=host.factor if host else None,
                               host_se=host.log_se if host else math.nan, host_df=host.df if host else math.nan,
                               references=refs, untrusted=untrusted)
        notes += [n for n in (reference_note(refs, label, ctl),) if n]
        long.append(v)
        for key in bp.index.intersection(op.index, sort=False):
            rows.append(_row(label, key, bp.loc[key], op.loc[key], v, (f"{target_name(key)} in {base.id}",
                                                                       f"{target_name(key)} in {label}")))
    verdicts = pd.concat(long, ignore_index=True) if long else pd.DataFrame(columns=vd.VERDICT_COLUMNS)
    # a record that exists but was not used, where a margin was needed (a folder without a control target)
    warnings = [margins.warning] if margins.warning and uncontrolled else []
    return Comparison(exps, latency, _sorted(pd.DataFrame(rows)), verdicts, diffs, unmatched, chosen, notes, alpha,
                      warnings)


def target_name(key: tuple) -> str:
    """``redis 8 threads`` for a point's key (target, workload, threads)."""
    return f"{key[0]} {int(key[2])} threads"


def _host_note(host: yardstick.HostFactor | None, control: str | None, margin: float,
               untrusted: str | None = None) -> str:
    """What the yardstick said about the host between two folders: divided out (no control target), or
    beside the control, or not used (``untrusted``: why); where its speed moved beyond the throughput ``margin``
    (a fraction), that too (a cell that would rest on it is then held undecided)."""
    if host is None:
        return "; no yardstick in both folders (an older folder): the host's own speed is not divided out"
    how = ("beside the control, which takes the drift out" if control else
           f"not divided out: {untrusted}" if untrusted else "divided out of every cell")
    moved = host_drift.drift(host.factor)
    beyond = (f"; the host's own speed moved {100 * moved:.1f} %, beyond the ±{100 * margin:.1f} % drift margin: "
              "no verdict rests on it" if moved > margin else "")
    return (f"; {host.text()} ({how}; median of {host.base_readings} and {host.other_readings} readings)"
            + beyond)


def _points(e: Experiment, latency: str) -> pd.DataFrame:
    p = e.points(latency)
    p = p[p["status"] != "skipped"]
    return p[p["target_rate"].isna()].set_index(KEY) if len(p) else p.set_index(KEY)


def _sorted(table: pd.DataFrame) -> pd.DataFrame:
    if len(table):
        table = table.sort_values(["experiment", "workload", "target", "threads"], kind="stable", ignore_index=True)
    return table


def _pick(v: pd.DataFrame, target: str, workload: str, threads: int, metric: str) -> dict:
    if not len(v):
        return {}
    m = v[(v["target"] == target) & (v["workload"] == workload) & (v["threads"] == threads) & (v["metric"] == metric)
          & ~v["at_peak"].astype(bool)]
    return m.iloc[0].to_dict() if len(m) else {}


def _row(label: str, key: tuple, a: pd.Series, b: pd.Series, v: pd.DataFrame,
         names: tuple[str, str] = ("", "")) -> dict:
    """One compared point: ``a`` (the baseline's) and ``b`` with their verdicts from ``v``; ``names``: what the
    two sides are called in ``why`` (:func:`~ycsbctl.report.compare_json.why_not_compared`) when no verdict."""
    target, workload, threads = key[0], key[1], int(key[2])
    tp = _pick(v, target, workload, threads, THROUGHPUT)
    lat = next((_pick(v, target, workload, threads, m) for m in set(v["metric"]) - {THROUGHPUT}), {}) if len(v) else {}
    # the values a ratio is made of: the geometric means of the compared rounds (every point's mean where none was
    # compared)
    return {"experiment": label, "target": target, "workload": workload, "threads": threads,
            "base_ops": tp.get("base_value", a["throughput_mean"]), "ops": tp.get("value", b["throughput_mean"]),
            **_fields(tp, "ops"),
            "base_latency_us": lat.get("base_value", a["latency_mean"]), "latency_us": lat.get("value",
                                                                                               b["latency_mean"]),
            **_fields(lat, "latency"),
            "base_ok": f"{a['ok']}/{a['reps']}", "ok": f"{b['ok']}/{b['reps']}",
            "status": a["status"] if a["status"] != "ok" else b["status"], "caveat": tp.get("caveat"),
            "why": None if tp else why_not_compared(a, b, *names), "host_factor": tp.get("host_factor", math.nan)}


_VERDICT_FIELDS = ("ratio", "ci_low", "ci_high", "verdict", "detectable_pct", "margin_pct", "drift_margin_pct",
                   "decided_by")


def _fields(v: dict, prefix: str) -> dict:
    """A verdict row's figures as a compare row holds them: ``ops_ratio``, ``ops_ci_low`` …, ``ops_verdict``
    (``not compared`` without a verdict)."""
    return {f"{prefix}_{k}": v.get(k, "not compared" if k == "verdict" else math.nan) for k in _VERDICT_FIELDS}


def _unprefixed(r: dict | pd.Series, prefix: str) -> dict:
    return {k: r.get(f"{prefix}_{k}", math.nan) for k in _VERDICT_FIELDS}


def _within(e: Experiment, latency: str, alpha: float) -> Comparison:
    """One folder: each target against its baseline target, cell by cell."""
    v = e.verdicts(latency, alpha)
    base = e.baseline
    p = _points(e, latency)
    rows = []
    for key in p.index:
        if key[0] == base or (base, key[1], key[2]) not in p.index:
            continue
        rows.append(_row(e.id, key, p.loc[(base, key[1], key[2])], p.loc[key], v,
                         (target_name((base, *key[1:])), target_name(key))))
    how = ("paired by round (the rounds ran the targets one at a time, A B B A)"
           if e.manifest.plan.get("run_order") == "blocks" else
           "paired by round (the rounds interleaved the targets)" if e.interleaved
           else "Welch's t test (the targets ran one after the other: the host's drift meanwhile cannot be excluded)")
    notes = [f"{e.id}: every target against {base}, {how}"] if base else []
    return Comparison([e], latency, _sorted(pd.DataFrame(rows)), v, [], [], None, notes, alpha)


def _ratio(r: dict | pd.Series, prefix: str) -> str:
    """``0.76× [0.70, 0.83]``: the ratio and its interval, with the decimals its verdict needs; ``—`` without one."""
    return ratio_text(_unprefixed(r, prefix))


def _verdict(r: dict | pd.Series, prefix: str) -> str:
    """The verdict with its margin (the equivalence margin, or the host's drift it was tested against), and
    beside ``undecided`` the smallest difference these rounds could have seen; ``not compared`` without one."""
    v = str(r[f"{prefix}_verdict"])
    if v == "not compared":
        return v
    cell = _unprefixed(r, prefix)
    if pd.isna(cell["ratio"]):  # a verdict without a ratio (no round both sides measured) says nothing more
        return "—" + _host_divided(r, long=True)
    return verdict_phrase(cell) + _host_divided(r, long=True)


def _host_divided(r: dict | pd.Series, long: bool) -> str:
    """`` (host speed 1.18× between the folders (yardstick), divided out)`` where the yardstick's host factor
    was divided out of the row (no control target); `` (host 1.18× divided out)`` short; else empty."""
    host = r.get("host_factor", math.nan)
    if host is None or pd.isna(host) or not str(r.get("caveat") or "").startswith("host speed"):
        return ""
    return f" (host speed {host:.2f}× between the folders (yardstick), divided out)" if long else \
        f" (host {host:.2f}× divided out)"


def _verdict_word(r: dict | pd.Series, prefix: str) -> str:
    """The verdict alone (its margin has a column of its own), with what an ``undecided`` one could detect."""
    v = str(r[f"{prefix}_verdict"])
    d = r.get(f"{prefix}_detectable_pct", math.nan)
    by = r.get(f"{prefix}_decided_by")
    held = [by.removeprefix(HELD)] if v == "undecided" and isinstance(by, str) and by.startswith(HELD) else []
    if v == "undecided" and isinstance(d, float) and d == d:
        return f"{v} ({'; '.join([*held, detectable_words(d)])})"
    return f"{v} ({held[0]})" if held else v


def _ops(v: float) -> str:
    return "—" if v is None or math.isnan(v) else f"{v:,.0f}"


def nothing_to_compare(c: Comparison) -> UserError | None:
    """The refusal of a comparison without one compared cell (exit 2: the folders given cannot be compared, nothing
    failed; a compare.html of no cell would read as a comparison), naming the workloads of the points only one side
    has; None when some cell is compared."""
    if not c.table.empty:
        return None
    names = ", ".join(sorted({u.split("/")[1] for u in c.unmatched if u.count("/") >= 2}))
    what = ("target besides the baseline" if c.within
            else "point (target × workload × threads) is in two of these experiments")
    fix = ("give a folder that measured another target with the baseline's workloads and threads" if c.within
           else "give folders that measured the same target, workload and threads")
    empty = [str(e.path) for e in c.experiments if not len(e.runs)]  # was not named: "no point in two" only
    held = f"; {', '.join(empty)} hold{'s' if len(empty) == 1 else ''} no run at all" if empty else ""
    return UserError(f"compare: nothing to compare: no {what}{f' (workloads: {names})' if names else ''}{held}",
                     fix=fix)


def print_table(c: Comparison, console=None) -> None:
    """The comparison as a rich table, differences first."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from ycsbctl.report.summary_table import print_line, wide_console

    console = console or wide_console()
    base = c.experiments[0]
    if c.differences:
        console.print("[bold yellow]The experiments differ:[/] " + escape("; ".join(c.differences)),
                      soft_wrap=not console.is_terminal)
    for u in c.unmatched:
        print_line(console, f"not compared: {u}")
    lab = latency_label(c.latency)
    against = f"{base.baseline}" if c.within else f"{escape(base.id)}"
    t = Table(title=f"compared with {against}: ratio [{level_text(c.verdicts)} interval, the level of the verdicts], "
                    f"verdict at α = {c.alpha:g} over all cells (Benjamini–Hochberg); values are the geometric means "
                    "the ratios are made of")
    several = len({str(e) for e in c.table.get("experiment", pd.Series(dtype=str))}) > 1
    heads = [*(("experiment",) if several else ()), "workload", "target", "threads", "base ops/s", "ops/s",
             "ops/s ratio", "", f"base {lab} µs", f"{lab} µs", f"{lab} ratio", " ", "margin", "status"]
    for col in heads:
        # the ratio, its interval and the verdict are the answer: never wrapped (the names give way first)
        # the figures are never squeezed out; the verdict's words and the margin wrap first
        t.add_column(col, justify="left" if col in ("experiment", "workload", "target", "", " ", "margin", "status")
                     else "right", no_wrap=col in ("ops/s ratio", f"{lab} ratio"),
                     min_width=None if col in ("", " ", "margin") else min(len(col), 10) or 4)
    style = {"better": "green", "worse": "red", "equivalent": "cyan", "undecided": "yellow"}
    for _, r in c.table.iterrows():
        # Text cells, never markup: a status, target or verdict is shown as it is, whatever it holds; the margin
        # each verdict was judged against on the same line
        ov, lv = _verdict_word(r, "ops"), _verdict_word(r, "latency")
        cells = [*((r["experiment"],) if several else ()), r["workload"], r["target"], str(r["threads"]),
                 _ops(r["base_ops"]), _ops(r["ops"]), _ratio(r, "ops"),
                 Text(ov, style=style.get(ov.split(" (")[0], "")),
                 _ops(r["base_latency_us"]), _ops(r["latency_us"]), _ratio(r, "latency"),
                 Text(lv, style=style.get(lv.split(" (")[0], "")),
                 (margin_words(_unprefixed(r, "ops")) or "—") + _host_divided(r, long=False),
                 str(r["status"])]
        t.add_row(*(x if isinstance(x, Text) else Text(str(x)) for x in cells))
    console.print(t)
    for n in c.notes:
        print_line(console, n)


def json_cells(c: Comparison) -> list[dict]:
    """One object per cell × metric (:data:`JSON_FIELDS`, NaN as null, ``compared`` true), then one per cell ×
    metric that has no verdict (``compared`` false, ``why``:
    :func:`~ycsbctl.report.compare_json.not_compared_cells`)."""
    out = []
    for r in c.verdicts.to_dict("records"):
        if c.within:
            r["experiment"] = c.experiments[0].id
        out.append({k: (None if isinstance(r.get(k), float) and math.isnan(r[k]) else r.get(k)) for k in JSON_FIELDS}
                   | {"compared": True, "why": None})
    return out + not_compared_cells(c, JSON_FIELDS)


def _margin_text(c: Comparison) -> str:
    """``±10.0 %``: the throughput margin of the host's drift the cells were tested against; empty with a control."""
    m = pd.to_numeric(c.table.get("ops_drift_margin_pct", pd.Series(dtype=float)), errors="coerce").dropna()
    return f"±{m.max():.1f} %" if len(m) else ""


def render_compare_html(c: Comparison, out: Path) -> Path:
    """Write ``compare.html`` (self-contained, no images) and return its path."""
    from ycsbctl.report.html import environment

    out = Path(out)
    rows = []
    for _, r in c.table.iterrows():
        rows.append({**r.to_dict(), "base_ops_s": _ops(r["base_ops"]), "ops_s": _ops(r["ops"]),
                     "ops_ratio_text": _ratio(r, "ops"), "ops_verdict_text": _verdict(r, "ops"),
                     "base_lat": _ops(r["base_latency_us"]), "lat": _ops(r["latency_us"]),
                     "lat_ratio_text": _ratio(r, "latency"), "lat_verdict_text": _verdict(r, "latency")})
    exps = [{"id": e.id, "status": e.status, "href": os.path.relpath(e.path / "report.html", out.parent),
             "has_report": (e.path / "report.html").exists(), "started_at": e.manifest.started_at}
            for e in c.experiments]
    html = environment().get_template("compare.html.j2").render(
        experiments=exps, rows=rows, differences=c.differences, unmatched=c.unmatched, latency=latency_label(c.latency),
        notes=c.notes, within=c.within, baseline=c.experiments[0].baseline, alpha=c.alpha, drift_margin=_margin_text(c),
        level=level_text(c.verdicts))
    return write_whole(out, html, "the comparison page")
