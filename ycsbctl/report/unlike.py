"""Unlike quantities said as such, on the line (or chart) that puts them side by side: an embedded store
(no server, so no network round trip per operation) against a networked one, and figures of different
kinds (a server's ``used_memory`` beside a file's size or a dbStats figure). Every comparison in the report
that may mix them takes its caveat from here. Reads the result folder only."""

from __future__ import annotations

from ycsbctl.results.frames import Experiment

# The stores without a server when a folder's endpoints did not yet record ``has_server`` (a frozen
# fact about old folders: a new store records its own, and never goes here; tested against the registry).
LEGACY_SERVERLESS = frozenset({"sqlite", "basic"})

UNLIKE_MARK = "\n(unlike quantities: see the note below)"  # a panel title's second line


def has_server(endpoint: dict | None) -> bool:
    """Whether the target of ``endpoint`` (a manifest's or a run's) had a server: what its store said
    (``has_server``), or for an older folder what its protocol's store said then."""
    if not endpoint:
        return True
    if "has_server" in endpoint:
        return bool(endpoint["has_server"])
    return endpoint.get("protocol") not in LEGACY_SERVERLESS


def endpoint_of(exp: Experiment, target: str) -> dict | None:
    """The endpoint ``target``'s runs recorded (the first run that has one), None without."""
    for doc in exp.docs.values():
        if doc["target"] == target and doc.get("endpoint"):
            return doc["endpoint"]
    return None


def serverless_targets(exp: Experiment) -> set[str]:
    """The targets of ``exp`` whose store had no server (SQLite, basic://): the manifest's endpoint, else a run's."""
    servers = exp.manifest.servers
    return {t for t in [*exp.targets, *(c.target for c in exp.manifest.cannot)]
            if not has_server(servers.get(t) or endpoint_of(exp, t))}


def embedded_note(targets: list[str], serverless: frozenset[str] | set[str]) -> str:
    """The caveat for a comparison of ``targets`` when it mixes embedded stores (in ``serverless``: no
    server, so no network round trip per operation) with networked ones; empty otherwise."""
    emb = list(dict.fromkeys(t for t in targets if t in serverless))
    if not emb or len(emb) == len(set(targets)):
        return ""
    if len(emb) == 1:
        return f" — unlike quantities: {emb[0]} is embedded (no server), so it has no network round trip"
    return (f" — unlike quantities: {', '.join(emb[:-1])} and {emb[-1]} are embedded (no server), so they have no "
            "network round trip")


def unlike_note(a: str, b: str, serverless: frozenset[str] | set[str]) -> str:
    """:func:`embedded_note` of a ratio between ``a`` and ``b``."""
    return embedded_note([a, b], serverless)


def standin_note(a: str, b: str, stand_ins: dict[str, str]) -> str:
    """The caveat for a comparison of ``a`` and ``b`` when either was measured in place of the store the plan
    asked for (``stand_ins``: used -> wanted, the manifest's substitutions: FerretDB for MongoDB); empty otherwise."""
    return "".join(f" — {t} stands in for {stand_ins[t]}: its numbers are not {stand_ins[t]}'s"
                   for t in (a, b) if t in stand_ins)


def unlike_bases(footprints: dict[str, dict], targets: list[str]) -> str:
    """The caveat for a chart of what the stores report when they report unlike things (a server's
    ``used_memory`` beside a file's size: SQLite's pages, PostgreSQL's relation size; FerretDB's dbStats):
    one line naming each target's figure, the targets of one kind named together (``redis, valkey and keydb's
    figures are used_memory``); empty when every target's is the same kind."""
    bases = {t: str((footprints.get(t) or {}).get("basis") or "unknown") for t in targets}
    if len(set(bases.values())) < 2:
        return ""
    kinds: dict[str, list[str]] = {}
    for t, b in bases.items():
        kinds.setdefault(b, []).append(t)
    said = [f"{ts[0]}'s figure is {b}" if len(ts) == 1 else f"{', '.join(ts[:-1])} and {ts[-1]}'s figures are {b}"
            for b, ts in kinds.items()]
    return "Unlike quantities, not comparable: " + "; ".join(said) + "."
