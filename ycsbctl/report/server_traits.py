"""What differs between the servers that answered, from their own INFO (``Endpoint.traits``) and the
settings each label was started with: version, allocator, I/O threads, settings."""

from __future__ import annotations

from typing import Any

from ycsbctl.results.frames import Experiment


def server_endpoints(exp: Experiment) -> dict[str, dict[str, Any]]:
    """Target label → its endpoint document, in plan order (see :func:`_endpoints`)."""
    return _endpoints(exp)


def _endpoints(exp: Experiment) -> dict[str, dict[str, Any]]:
    """Target label → its endpoint document (manifest first, then the run documents), in plan order."""
    eps = {t: dict(e or {}) for t, e in exp.manifest.servers.items()}
    for doc in exp.docs.values():
        if doc.get("target") not in eps and doc.get("endpoint"):
            eps[doc["target"]] = doc["endpoint"]
    order = [t for t in exp.targets if t in eps] + [t for t in eps if t not in exp.targets]
    return {t: eps[t] for t in order}


def traits_text(ep: dict[str, Any]) -> str:
    """``Valkey 9.1.2 (Redis 7.2.4 compatible), allocator libc, io-threads 2``: the server's own figures."""
    tr = ep.get("traits") or {}
    parts = []
    if tr.get("server"):
        compat = f" (Redis {tr['redis_compat_version']} compatible)" if tr.get("redis_compat_version") else ""
        parts.append(f"{tr['server']} {tr.get('version', '')}".strip() + compat)
    if tr.get("allocator"):
        parts.append(f"allocator {tr['allocator']}")
    if tr.get("tls"):
        parts.append(f"TLS ({tr['tls']})")
    if tr.get("io_threads") is not None:
        reads = " (writes only: io-threads-do-reads no)" if tr["io_threads"] > 1 and tr.get(
            "io_threads_do_reads") == "no" else ""
        parts.append(f"io-threads {tr['io_threads']}{reads}")
    return ", ".join(parts)


def settings_text(ep: dict[str, Any]) -> str:
    """``lazyfree-lazy-user-del=yes, io-threads=2`` (the --server-config of that label), or ""."""
    return ", ".join(f"{k}={v}" for k, v in (ep.get("settings") or {}).items())


def _allocator_family(name: str) -> str:
    return name.split("-")[0].lower()


def differences(exp: Experiment) -> list[str]:
    """One sentence per way the servers differ in their own INFO (nothing when they agree), then one
    per label started with settings (:func:`settings_lines`)."""
    return trait_differences(exp) + settings_lines(exp)


def trait_differences(exp: Experiment) -> list[str]:
    """Version, allocator and I/O threads, where the servers that answered differ."""
    eps = {t: e for t, e in _endpoints(exp).items() if e.get("traits")}
    out: list[str] = []
    if len(eps) < 2 and not any((e["traits"].get("io_threads") or 0) > 1 for e in eps.values()):
        return out

    def by(field: str, show=str) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for t, e in eps.items():
            v = (e.get("traits") or {}).get(field)
            if v is not None:
                groups.setdefault(show(e, v), []).append(t)
        return groups

    versions = by("version", lambda e, v: traits_text({"traits": {k: e["traits"][k] for k in
                                                                  ("server", "version", "redis_compat_version")
                                                                  if k in e["traits"]}}))
    if len(versions) > 1:
        out.append("Server versions differ: " + "; ".join(f"{', '.join(ts)}: {v}" for v, ts in versions.items()) + ".")
    allocators = by("allocator", lambda e, v: str(v))
    if len({_allocator_family(a) for a in allocators}) > 1:
        out.append("Memory allocators differ (" + "; ".join(f"{', '.join(ts)}: {a}" for a, ts in allocators.items())
                   + "): jemalloc and libc malloc round, fragment and return memory differently, so used_memory, "
                     "RSS and bytes per record are not comparable one to one between them.")
    threads = by("io_threads", lambda e, v: str(v))
    if len(threads) > 1 or any(int(v) > 1 for v in threads):
        cores = (exp.manifest.host or {}).get("cores")
        where = f" on this host's {cores} cores" if cores else ""
        shared = any((e["traits"].get("io_threads") or 0) > 1 and not e.get("host") for e in eps.values())
        out.append("I/O threads: " + "; ".join(f"{', '.join(ts)}: io-threads {v}" for v, ts in threads.items())
                   + (f". A server with more than one I/O thread shares the cores with the client{where}: its "
                      "points measure client and server threads taking turns on the host's cores (client-bound or "
                      "waiting for a core, see each point's bottleneck), not what the I/O threads give on a server "
                      "of its own." if shared else "."))
    return out


def settings_lines(exp: Experiment) -> list[str]:
    """``redis-lazyfree is redis with lazyfree-lazy-user-del=yes`` for every label started with settings."""
    out = []
    for t, e in _endpoints(exp).items():
        if e.get("settings"):
            kind = e.get("kind") or t
            # a variant (redis-aof) is its own kind
            what = f"{t} was started" if kind == t else f"{t} is {kind} started"
            out.append(f"{what} with {settings_text(e)}.")
    return out
