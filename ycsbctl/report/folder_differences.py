"""What differs between two experiments' folders beyond their servers' figures: the environment and plan facts
of their manifests, the targets skipped, the versions, the servers that answered, and the servers a CPU quota
held in one only (:mod:`ycsbctl.results.quota_held`). ``ycsbctl compare`` lists them above its table."""

from __future__ import annotations

from ycsbctl.report.summary import server_name
from ycsbctl.results.frames import Experiment
from ycsbctl.results.quota_held import held_differently, held_text

# Manifest facts that make two experiments measure different things when they differ: the workload's
# properties (-P files, -p pairs), the offered rates, disturbances, the servers' settings and limits too.
ENV_KEYS = {"host": ("cpu_model", "cores", "memory_bytes", "kernel", "thp"),
            "plan": ("targets", "workloads", "threads", "records", "operations", "duration_s", "warmup_s",
                     "backend", "engine", "profile", "repeat", "property_files", "properties", "target_rates",
                     "disturb", "server_settings", "server_cpus", "server_memory", "binaries", "cluster")}
# The plan's scale as it ran (a default run leaves records/duration_s empty: the profile's values apply).
SCALE = {"records": "record_count", "operations": "point_operations", "duration_s": "point_duration_s"}


def differences(base: Experiment, other: Experiment, held: dict[str, tuple[float, float]] | None = None) -> list[str]:
    """Environment and plan facts that differ (``host.cores: 2 vs 8``), server versions included, and the servers
    ``held`` by their CPU quota in one experiment only (:func:`~ycsbctl.results.quota_held.held_differently`, found
    from the runs when not given)."""
    out = []
    for section, keys in ENV_KEYS.items():
        for k in keys:
            if section == "plan" and k in SCALE:
                va, vb = getattr(base.manifest, SCALE[k]), getattr(other.manifest, SCALE[k])
            else:
                va, vb = getattr(base.manifest, section).get(k), getattr(other.manifest, section).get(k)
            va, vb = (None if v in ([], {}) else v for v in (va, vb))  # an older manifest may lack the key
            if va != vb:
                out.append(f"{section}.{k}: {'none' if va is None else va} vs {'none' if vb is None else vb}")
    pa, pb = (_placed(e) for e in (base, other))
    if pa and pb and pa[0] != pb[0]:  # where the servers and the client ran: pinned or floating moves a point
        out.append(f"placement: {pa[1]} vs {pb[1]}")
    ka, kb = ([s.target for s in e.manifest.skipped_targets] for e in (base, other))
    if ka != kb:
        out.append(f"skipped targets: {', '.join(map(str, ka)) or 'none'} vs {', '.join(map(str, kb)) or 'none'}")
    va, vb = base.manifest.versions, other.manifest.versions
    out += [f"versions.{k}: {va.get(k)!s} vs "
            f"{vb.get(k)!s}" for k in sorted(set(va) | set(vb)) if va.get(k) != vb.get(k)]
    sa, sb = base.manifest.servers, other.manifest.servers
    for t in sorted(set(sa) & set(sb)):
        na, nb = server_name(sa[t]), server_name(sb[t])
        if na != nb:
            out.append(f"server {t}: {na} vs {nb}")
    held = held_differently(base.runs, other.runs) if held is None else held
    out += [held_text(t, pcts) for t, pcts in held.items()]
    return out


def _placed(exp: Experiment) -> tuple[tuple[object, ...], str] | None:
    """(the placement's mode and CPU sets, its words) from the manifest's ``placement_resolved``; None in a folder
    written before ycsbctl recorded it."""
    placed = (exp.manifest.plan or {}).get("placement_resolved")
    if not isinstance(placed, dict) or "mode" not in placed:
        return None
    key = (placed["mode"], tuple(placed.get("server_cpus") or ()), tuple(placed.get("client_cpus") or ()))
    return key, str(placed.get("text") or placed["mode"])
