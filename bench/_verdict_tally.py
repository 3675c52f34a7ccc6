"""What ``bench verdicts``'s result folders say of the verdicts: per condition, the A/A cells called a
difference, the planted gaps found (:func:`summarise`); across consecutive folders, ``ycsbctl compare``'s
A/A cells called without and with a control, and the host's drift recorded (:func:`between_folders`)."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
YCSBCTL = str(ROOT / ".venv" / "bin" / "ycsbctl")


def labels(folder: Path, names: list[str]) -> dict[str, str]:
    """name -> the target label ycsbctl gave its URL (in the order given)."""
    from ycsbctl.experiment.plan import target_label

    urls = json.loads((folder / "manifest.json").read_text())["plan"]["targets"]
    return {n: target_label(u) for n, u in zip(names, urls)}


def summarise(folders: list[Path], names: list[str], slow: dict[str, float], condition: str) -> list[str]:
    lines = [f"== {condition}: {len(folders)} experiments"]
    verdicts, runs = [], []
    for i, f in enumerate(folders):
        lab = {v: k for k, v in labels(f, names).items()}
        v = pd.read_parquet(f / "verdicts.parquet")
        v = v[~v["at_peak"].astype(bool)]
        v = v.assign(name=v["target"].map(lab), exp=i)
        verdicts.append(v)
        r = pd.read_parquet(f / "runs.parquet")
        # the points the verdicts compared: ok ones, and on a busy host the degraded (host-busy) ones too
        r = r[(r["phase"] == "run") & (r["compared"].astype(bool) if "compared" in r else r["status"] == "ok")]
        runs.append(r.assign(name=r["target"].map(lab), exp=i))
    v, r = pd.concat(verdicts), pd.concat(runs)
    rounds = [int(x["repetition"].max()) for _, x in r.groupby("exp")] if len(r) else []
    planned = [json.loads((f / "manifest.json").read_text())["plan"].get("planned_rounds") for f in folders]
    lines.append(f"rounds per experiment: {', '.join(map(str, rounds)) or 'none compared'} (planned after the first: "
                 f"{', '.join(str(p) for p in planned)})")
    pairs = r[r["name"].isin(["a", "twin"])].pivot_table(index=["exp", "threads", "repetition"], columns="name",
                                                          values="throughput_ops")
    if {"a", "twin"} <= set(pairs.columns):
        spread = (pairs["twin"] / pairs["a"]).apply(math.log).groupby(level=[0, 1]).std().dropna()
        if len(spread):
            lines.append(f"A/A paired log ratio, spread over the rounds of a cell: median sd {spread.median():.3f} "
                         f"(from {spread.min():.3f} to {spread.max():.3f}, {len(spread)} cells)")
    aa = v[(v["name"] == "twin") & (v["metric"] == "throughput")]
    called = aa["verdict"].isin(["better", "worse"])
    holds = (aa["ci_low"] <= 1) & (aa["ci_high"] >= 1)
    same = aa["verdict"] == "equivalent"
    if len(aa):
        lines.append(f"A/A (twin against a, throughput): {called.sum()} of {len(aa)} cells called better/worse "
                     f"({called.mean():.1%}, goal ≤ 5 %); the interval (family level) holds 1.0 in {holds.sum()} "
                     f"of {len(aa)} "
                     f"({holds.mean():.1%}, goal ≥ 90 %); equivalent within the margin in {same.sum()} of {len(aa)} "
                     f"({same.mean():.1%}, goal ≥ 80 %)")
    big: dict[float, list[int]] = {0.10: [0, 0], 0.30: [0, 0]}  # gap at least -> [called worse, cells]
    small = [0, 0]  # true gap 4-10 %: [called worse, cells]
    for name in slow:
        lines.append(f"planted {name} (CPU quota {slow[name]:g} core):")
        for threads in sorted(set(r["threads"])):
            rt = r[r["threads"] == threads].pivot_table(index=["exp", "repetition"], columns="name",
                                                        values="throughput_ops")
            gap = 1 - math.exp(float((rt[name] / rt["a"]).apply(math.log).mean()))
            cells = v[(v["name"] == name) & (v["threads"] == threads) & (v["metric"] == "throughput")]
            worse = (cells["verdict"] == "worse").sum()
            wrong = cells["verdict"].isin(["better", "equivalent"]).sum()
            lines.append(f"  {threads:>4} threads: true gap {gap:+.1%}; throughput called worse in {worse} "
                         f"of {len(cells)}"
                         f", better or equivalent in {wrong} (goal 0)")
            if 0.04 <= gap < 0.10:  # the "~5 %" class
                small[0] += int(worse)
                small[1] += len(cells)
            for at_least, tally in big.items():
                if gap >= at_least:
                    tally[0] += int(worse)
                    tally[1] += len(cells)
    if small[1]:
        lines.append(f"cells whose true gap is 4-10%: {small[0]} of {small[1]} called worse "
                     f"({small[0] / small[1]:.0%}; goal ≥ 50 % at ~5 %)")
    for at_least, (worse, n) in big.items():
        if n:
            lines.append(f"cells whose true gap is ≥ {at_least:.0%}: {worse} of {n} called worse ({worse / n:.0%}; "
                         "goal "
                         f"{'≥ 80 %' if at_least < 0.3 else 'every one'})")
    return lines


def between_folders(folders: list[Path], names: list[str], record: bool = True) -> list[str]:
    """A/A across time: consecutive experiments compared, without and with ``a`` as the control; then each
    cell's drift added to the host's drift record (when ``record``)."""
    from ycsbctl.results import host_drift

    lines: list[str] = []
    plain: list[dict[str, Any]] = []
    control: list[dict[str, Any]] = []
    drift: list[float] = []
    for x, y in zip(folders, folders[1:]):
        lab = labels(x, names)
        if lab != labels(y, names):  # the labels carry the ports: the same servers keep one label
            lines.append(f"  {x.name} / {y.name}: the servers' ports differ, so their labels do; compared by name")
        for ctl, sink in ((None, plain), (lab["a"], control)):
            cmd = [YCSBCTL, "compare", str(x), str(y), "--format", "json", *(("--control", ctl) if ctl else ())]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                lines.append(f"  compare {'with' if ctl else 'without'} control: exit {proc.returncode}: "
                             f"{proc.stderr.strip()[-300:]}")
                continue
            cells = json.loads(proc.stdout)
            # nothing changed between the experiments: every target's cell is an A/A cell (but the control's)
            sink += [c for c in cells if c["target"] != ctl]
            if not ctl:
                drift += [abs(c["ratio"] - 1) for c in cells if c["target"] == lab["a"] and c["metric"] == "throughput"]
    for what, cells in (("without a control", plain), ("with a as the control", control)):
        if cells:
            n = sum(c["verdict"] in ("better", "worse") for c in cells)
            lines.append(f"between folders {what}: {n} of {len(cells)} A/A cells called better/worse "
                         f"({n / len(cells):.1%})")
    if drift:
        lines.append(f"the host's drift between experiments (a against itself, throughput): up to {max(drift):.1%}, "
                     f"median {sorted(drift)[len(drift) // 2]:.1%}")
    margins = {c["drift_margin_pct"] for c in plain if c.get("drift_margin_pct") is not None}
    if margins:
        lines.append("  (without a control, tested against margins of "
                     f"±{', ±'.join(f'{m:.1f}' for m in sorted(margins))} %)")
    # the unheld servers' cells only: a held server's throughput is erratic (a quota that runs out stalls it),
    # and one wild cell would set the margin (the largest drift) for every comparison after
    unheld = {labels(folders[0], names).get(n) for n in ("a", "twin")}
    aa = [(c["metric"], c["value"] / c["base_value"]) for c in plain
          if not c["at_peak"] and c.get("base_value") and c.get("value") and c["target"] in unheld]
    if record and aa:
        from ycsbctl.errors import UserError

        try:
            path = host_drift.record(aa, f"bench verdicts ({len(folders)} experiments)")
        except UserError as exc:  # a wild cell (the record refuses it): said, the figures above stand
            lines.append(f"not recorded: {exc}")
            return lines
        lines.append(f"recorded {len(aa)} A/A cells' drift in {path}: margins now "
                     + ", ".join(f"{k} ±{100 * v:.1f} %" for k, v in host_drift.read(path).by_metric.items()))
    return lines


def compared_cells(x: Path, y: Path) -> list[dict[str, Any]]:
    """``ycsbctl compare x y --format json`` without a control (the yardstick divides the host out)."""
    proc = subprocess.run([YCSBCTL, "compare", str(x), str(y), "--format", "json"], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"compare exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return [c for c in json.loads(proc.stdout) if c.get("compared", True) and not c["at_peak"]]


def host_factor_text(cells: list[dict[str, Any]]) -> str:
    """The yardstick's host factors of compare's ``cells``, as one phrase."""
    factors = {round(c["host_factor"], 3) for c in cells if c.get("host_factor")}
    return (
        f"yardstick's host factor {', '.join(f'{f:.3f}' for f in sorted(factors))}"
        if factors
        else "no yardstick factor"
    )
