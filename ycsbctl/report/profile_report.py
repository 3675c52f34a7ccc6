"""The report's profiles (``--cpu-profile``): per profiled point, its server's and client's flame graphs
(drawn by inferno when the point was profiled, inlined here), its top frames, its server's kernel share from
the stacks beside the ``/proc`` system-time share, and what profiling cost (the peak run again, profiled)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pandas as pd

from ycsbctl.results.tables import file_stem

PROFILES_DIR = "profiles"


def _svg(path: Path) -> str | None:
    return f"data:image/svg+xml;base64,{base64.b64encode(path.read_bytes()).decode('ascii')}" if path.exists() else None


def profile_sections(folder: Path, profiles: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One section per profiled point, in run-id order."""
    out = []
    for run_id, p in sorted(profiles.items()):
        stem = file_stem(run_id) if (folder / PROFILES_DIR / file_stem(run_id)).exists() else run_id  # (older: the id)
        where = folder / PROFILES_DIR / stem
        top = where / "top_frames.csv"
        frames = pd.read_csv(top).head(12).to_dict("records") if top.exists() else []
        tput, profiled = p.get("throughput_ops"), p.get("profiled_throughput_ops")
        cost = (f"{profiled:,.0f} ops/s profiled against {tput:,.0f} ops/s unprofiled ({profiled / tput - 1:+.1%}, one "
                "run each: within the noise between runs unless larger)" if tput and profiled else None)
        perf_k, proc_k = p.get("server_kernel_share"), p.get("server_kernel_share_proc")
        kernel = (f"server in the kernel: {perf_k:.0%} of its on-CPU stack samples (perf), {proc_k:.0%} of its CPU "
                  "time (/proc system time)" if perf_k is not None and proc_k is not None else
                  f"server in the kernel: {perf_k:.0%} of its on-CPU stack samples" if perf_k is not None else None)
        out.append({"run_id": run_id, "mode": p.get("mode", ""), "server_svg": _svg(where / "server.svg"),
                    "client_svg": _svg(where / "client.svg"), "frames": frames, "notes": p.get("notes") or [],
                    "cost": cost, "kernel": kernel, "folder": f"{PROFILES_DIR}/{stem}/"})
    return out
