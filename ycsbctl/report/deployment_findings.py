"""What a target's deployment did during its points, in the servers' own counters: forks of a
persistent Redis (RDB snapshots, AOF rewrites) and the pause each caused — each one an event on its
point — writes that waited for an AOF fsync, and how far replicas were behind their primary."""

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
    if "target" not in runs:  # no runs at all (an empty table has no columns): nothing to find
        return out
    for t in targets:
        mine = runs[runs["target"] == t]
        forks = _sum(mine, "server_forks")
        delayed = _sum(mine, "aof_delayed_fsyncs")
        if forks:
            pause = _max(mine, "server_fork_pause_us_max")
            paused = (
                f"; the longest fork paused the server {pause / 1000:.2f} ms (INFO latest_fork_usec)" if pause else ""
            )
            out.append(f"{t} forked {forks:.0f} time(s) in {len(mine)} measured point(s) (RDB snapshots or AOF "
                       f"rewrites){paused}.")
        if delayed:
            out.append(f"{t}: {delayed:.0f} write(s) waited for an AOF fsync (aof_delayed_fsync: the disk could not "
                       "keep up with appendfsync everysec).")
    return out


def _point_name(r: pd.Series) -> str:
    """``16 threads, round 2`` (``load`` for a load phase's point)."""
    phase = "load, " if r.get("phase") == "load" else ""
    return f"{phase}{int(r['threads'])} threads, round {int(r.get('repetition') or 1)}"


def _bytes(n: float) -> str:
    for unit, size in (("MiB", 1024.0**2), ("KiB", 1024.0)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def replication_findings(runs: pd.DataFrame, targets: list[str]) -> list[str]:
    """One finding per replicated target: each measured point's replication lag, the slowest replica's
    distance behind the primary at the highest 1 s sample — Redis's ``INFO replication``
    (``master_repl_offset`` − its ``offset``), PostgreSQL's ``pg_stat_replication`` (WAL sent and not
    replayed, with its ``replay_lag`` when the point has one): ``redis-repl2 — …, per point: 16 threads,
    round 1: 1.2 KiB; …``."""
    out: list[str] = []
    if not len(runs) or "repl_lag_bytes_max" not in runs or "target" not in runs:
        return out
    for t in targets:
        mine = runs[runs["target"] == t].assign(_lag=lambda d: pd.to_numeric(d["repl_lag_bytes_max"], errors="coerce"))
        mine = mine[mine["_lag"].notna()]
        if not len(mine):
            continue
        order = [c for c in ("phase", "threads", "repetition") if c in mine]
        said = "; ".join(f"{_point_name(r)}: {_bytes(r['_lag'])}{_replay(r)}"
                         for _, r in mine.sort_values(order).iterrows())
        # only pg_stat_replication has a lag in time
        pg = "repl_lag_ms_max" in mine and bool(mine["repl_lag_ms_max"].notna().any())
        source = ("pg_stat_replication, bytes of WAL sent and not replayed" if pg
                  else "INFO replication, bytes of the replication stream")
        out.append(f"{t} — the slowest replica behind the primary, per point (the highest 1 s sample of {source}): "
                   f"{said}.")
    return out


def _replay(r: pd.Series) -> str:
    """`` (replay lag 12.3 ms)`` where the point's sample had one (PostgreSQL), else nothing."""
    ms = pd.to_numeric(pd.Series([r.get("repl_lag_ms_max")]), errors="coerce").iloc[0]
    return f" (replay lag {ms:.1f} ms)" if pd.notna(ms) else ""


MAX_FORK_EVENTS = 6  # per target: the rest are counted


def fork_findings(runs: pd.DataFrame, docs: dict[str, dict], targets: list[str]) -> list[str]:
    """The forks of each point as events, from the point's record (``server_events``, taken from the
    server's ``INFO persistence`` samples: :meth:`ycsbctl.telemetry.capture.Capture.server_events`):
    ``redis-rdb, 16 threads, round 1: a fork at 2.0 s into the measured window paused the server 1.93 ms
    (latest_fork_usec); the snapshot was still being written 1 s after``."""
    out: list[str] = []
    if not len(runs) or "run_id" not in runs:
        return out
    for t in targets:
        lines: list[str] = []
        for _, r in runs[runs["target"] == t].iterrows():
            ev = (((docs.get(r["run_id"]) or {}).get("bottleneck") or {}).get("evidence") or {}).get("server_events")
            for e in ev or []:
                if e.get("event") != "fork":
                    continue
                pause = e.get("pause_us")
                paused = f" paused the server {pause / 1000:.2f} ms (latest_fork_usec)" if pause is not None else ""
                n = int(e.get("forks") or 1)
                what = "a fork" if n == 1 else f"{n} forks (the latest shown)"
                snap = e.get("snapshot_s") or 0
                still = (f"; the snapshot was still being written {snap:g} s after (rdb_bgsave_in_progress)" if snap
                         else "; no snapshot was in progress at the next sample")
                lines.append(f"{t}, {_point_name(r)}: {what} {e.get('at_s', 0):.1f} s into the measured window{paused}"
                             f"{still}.")
        out += lines[:MAX_FORK_EVENTS]
        if len(lines) > MAX_FORK_EVENTS:
            out.append(f"{t}: {len(lines) - MAX_FORK_EVENTS} more fork event(s) (each point's server_events).")
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
