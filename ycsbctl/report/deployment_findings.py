"""What a target's deployment did during its points, in the servers' own counters: forks of a
persistent Redis (RDB snapshots, AOF rewrites) and the pause each caused, writes that waited for an
AOF fsync."""

from __future__ import annotations

import pandas as pd


def _sum(frame: pd.DataFrame, column: str) -> float | None:
    if column not in frame:
        return None
    v = pd.to_numeric(frame[column], errors="coerce").dropna()
    return float(v.sum()) if len(v) else None


def _max(frame: pd.DataFrame, column: str) -> float | None:
    if column not in frame:
        return None
    v = pd.to_numeric(frame[column], errors="coerce").dropna()
    return float(v.max()) if len(v) else None


def persistence_findings(runs: pd.DataFrame, targets: list[str]) -> list[str]:
    """One finding per target whose server forked or delayed writes for an fsync during measured
    points: ``redis-rdb forked 4 times in 6 measured points (RDB snapshots or AOF rewrites); the
    longest fork paused the server 1.3 ms (INFO latest_fork_usec)``."""
    out: list[str] = []
    if not len(runs) or "target" not in runs:
        return out
    for t in targets:
        mine = runs[runs["target"] == t]
        forks = _sum(mine, "server_forks")
        delayed = _sum(mine, "aof_delayed_fsyncs")
        if forks:
            pause = _max(mine, "server_fork_pause_us_max")
            paused = f"; the longest fork paused the server {pause / 1000:.2f} ms (INFO latest_fork_usec)" if pause else ""
            out.append(f"{t} forked {forks:.0f} time(s) in {len(mine)} measured point(s) (RDB snapshots or AOF "
                       f"rewrites){paused}.")
        if delayed:
            out.append(f"{t}: {delayed:.0f} write(s) waited for an AOF fsync (aof_delayed_fsync: the disk could not "
                       "keep up with appendfsync everysec).")
    return out


def encryption_findings(endpoints: dict[str, dict]) -> list[str]:
    """Which targets' points were encrypted on the wire (their server's TLS session, from a handshake
    at start), when any was: ``Points of redis-tls were encrypted (TLS: TLSv1.3 …); of redis: not.``"""
    tls = {t: (e.get("traits") or {}).get("tls") for t, e in endpoints.items() if e.get("has_server", True)}
    if not any(tls.values()):
        return []
    said = "; ".join(f"of {t}: {'encrypted (' + v + ')' if v else 'not encrypted'}" for t, v in tls.items())
    return [f"Points on the wire — {said}."]


def shard_findings(runs: pd.DataFrame, targets: list[str]) -> list[str]:
    """One finding per several-shard target: how evenly its shards served the commands over its
    measured run-phase points (``redis-cluster: the busiest of its 3 shards served 36 % of the commands
    (even: 33 %)``), and the redirections its clients followed."""
    out: list[str] = []
    if not len(runs) or "shards" not in runs:
        return out
    for t in targets:
        mine = runs[(runs["target"] == t) & (runs["phase"] == "run")] if "phase" in runs else runs[runs["target"] == t]
        shards = _max(mine, "shards")
        busiest = _max(mine, "shard_ops_share_max")
        if not shards or busiest is None:
            continue
        moved = _sum(mine, "redirections")
        followed = f"; its clients followed {moved:.0f} redirection(s) (MOVED/ASK)" if moved else ""
        out.append(f"{t}: the busiest of its {shards:.0f} shards served {busiest:.0%} of the commands in its busiest "
                   f"point (even: {1 / shards:.0%}){followed}.")
    return out
