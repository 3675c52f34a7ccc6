"""``ycsbctl rerun FOLDER``: a result folder's stored plan, read back, its targets swapped where asked, checked that
each target can start on this host, and what of the host differs from the folder's (facts of both manifests).

A folder of an older ycsbctl (schema version 0) is read as :class:`~ycsbctl.results.schema.Manifest` reads it and its
plan as :meth:`~ycsbctl.experiment.plan.Plan.from_dict` does (keys it lacks take today's defaults); a folder with no
plan of ours (``import-ycsb``) or a manifest this ycsbctl cannot read is refused, saying why.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.targets import is_url, target_label, target_labels
from ycsbctl.results.documents import SchemaError
from ycsbctl.results.schema import Manifest

# The host facts whose difference the first screen states before the comparison (manifest "host" keys)
HOST_FACTS = {"cpu_model": "CPU", "cores": "cores", "kernel": "kernel"}


def read_manifest(folder: Path) -> Manifest:
    """``folder``'s manifest, or a UserError saying why it cannot be run again."""
    path = folder / "manifest.json"
    if not path.is_file():
        raise UserError(f"rerun: {folder} has no manifest.json: it is not a ycsbctl result folder",
                        fix="give a folder that `ycsbctl run` wrote (ycsbctl list shows them)")
    try:
        manifest = Manifest.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (SchemaError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"rerun: {path} cannot be read by this ycsbctl ({exc})") from None
    if manifest.source == "import-ycsb":
        raise UserError(f"rerun: {folder} holds YCSB output read by import-ycsb: there is no plan of ours to run "
                        "again", fix="run the same workload with ycsbctl run … and compare the two folders")
    if not manifest.plan.get("workloads"):
        raise UserError(f"rerun: the manifest of {folder} holds no plan (written by ycsbctl "
                        f"{manifest.versions.get('ycsbctl', 'of an unknown version')})")
    return manifest


def plan_of_manifest(folder: Path, manifest: Manifest, command: str) -> Plan:
    """The :class:`Plan` ``manifest`` (of ``folder``) stored, or a UserError naming the manifest (``command``:
    ``rerun`` or ``--resume``, the words the line starts with)."""
    try:
        return Plan.from_dict(manifest.plan)
    except TypeError as exc:  # a key of a wrong shape in an edited or foreign manifest
        raise UserError(f"{command}: the plan in {folder}/manifest.json cannot be read by this ycsbctl ({exc})") \
            from None
    except UserError as exc:  # a value no command line can give (an edited manifest): the file named, not an option
        raise UserError(f"{command}: the plan in {folder}/manifest.json holds a value this ycsbctl refuses "
                        f"({exc.message})") from None


def stored_plan(folder: Path, manifest: Manifest, targets: tuple[str, ...] = (),
                binaries: tuple[str, ...] = (), properties: tuple[str, ...] = ()) -> Plan:
    """The plan ``manifest`` stored, with ``targets`` (``LABEL=URL``: a server you run in place of the stored
    target ``LABEL``; a bare URL: a stored URL's password given again), ``binaries`` (``NAME=PATH``) and
    ``properties`` (``name=value``: a password property the manifest stored as ``***``) in."""
    plan = plan_of_manifest(folder, manifest, "rerun")
    swapped = dict(t.partition("=")[::2] for t in targets if "=" in t.partition("://")[0])
    bare = [t for t in targets if "=" not in t.partition("://")[0]]
    plan = _swapped(plan, swapped)
    from ycsbctl.urls import redact_url

    unknown = [redact_url(u) for u in bare if redact_url(u) not in plan.targets]
    if unknown:
        raise UserError(f"rerun --target {unknown[0]}: not a stored target (they are {', '.join(plan.targets)})",
                        fix="give LABEL=URL to run a server you run in a stored target's place")
    try:
        plan = plan.with_secrets(bare, list(properties))
    except UserError as exc:  # its words are --resume's
        raise UserError(exc.message.replace("with --resume", "to rerun").replace("cannot be resumed",
                                                                                  "cannot be run again")) from None
    if binaries:
        from ycsbctl.provision.target_spec import parse_binaries

        plan = replace(plan, binaries={**plan.binaries, **parse_binaries(binaries)})
    return plan


def _swapped(plan: Plan, swapped: dict[str, str]) -> Plan:
    """``plan`` with each stored target ``label`` of ``swapped`` replaced by its URL (its settings, kind, binary and
    image dropped: the server is yours)."""
    labels = target_labels(plan.targets)
    for label, url in swapped.items():
        if label not in labels:
            raise UserError(f"rerun --target {label}=…: the stored targets are {', '.join(labels)}",
                            fix="name one of them before the =")
        if not is_url(url):
            raise UserError(f"rerun --target {label}={url}: give the URL of a server you run (redis://HOST:PORT, "
                            "mongodb://…)")
    targets = [swapped.get(x, t) for x, t in zip(labels, plan.targets)]
    gone = set(swapped)
    baseline = plan.baseline
    if baseline in gone:
        baseline = target_label(swapped[baseline], targets)
    return replace(plan, targets=targets, baseline=baseline,
                   server_settings={k: v for k, v in plan.server_settings.items() if k not in gone},
                   target_kinds={k: v for k, v in plan.target_kinds.items() if k not in gone},
                   binaries={k: v for k, v in plan.binaries.items() if k not in gone},
                   images={k: v for k, v in plan.images.items() if k not in gone})


def cannot_start(plan: Plan) -> str | None:
    """Why a target ycsbctl would start for ``plan`` cannot start on this host (the first such), with how to give
    it; None when each can (its local binary is here, or Docker answers for backend auto/docker). A default
    plan's target with a stand-in (``mongodb``: FerretDB) is left to the stand-in policy, as ``run`` does."""
    from ycsbctl.experiment.standin import stand_ins
    from ycsbctl.provision.catalog import get_target
    from ycsbctl.provision.local import find_binary
    from ycsbctl.stores import registry

    standing = stand_ins(plan)
    for t in plan.targets:
        if is_url(t) or plan.backend == "docker" or plan.docker_hosts:
            continue
        declared = getattr(registry.named(t), "stand_in", None)
        if declared is not None and declared.target in standing:
            continue
        spec = plan.spec(t)
        how = (f"give --binary {t}=PATH (a {spec.kind} server build here), or --target {t}=URL (a server you run)")
        if spec.binary and not (os.path.isfile(spec.binary) and os.access(spec.binary, os.X_OK)):
            return f"rerun: target {t} cannot start here: its binary {spec.binary} is not on this host; {how}"
        try:
            find_binary(get_target(spec.kind), spec.binary)
        except UserError as exc:
            if plan.backend == "local" or not _docker_answers():
                return f"rerun: target {t} cannot start here: {exc.message}; {how}"
    return None


def _docker_answers() -> bool:
    from ycsbctl.provision import docker as docker_backend

    try:
        docker_backend.connect(timeout_s=5)
    except UserError:
        return False
    return True


def host_differences(before: Manifest, now: Manifest) -> list[str]:
    """What differs between the hosts and servers of two runs of one plan: CPU model, cores, kernel, and the
    version of each server both ran (``CPU: AMD EPYC → Intel Xeon``)."""
    out = [f"{said}: {before.host.get(k, 'not recorded')} → {now.host.get(k, 'not recorded')}"
           for k, said in HOST_FACTS.items() if before.host.get(k) != now.host.get(k)]
    for label in [t for t in before.servers if t in now.servers]:
        a, b = (m.servers[label].get("server_version") for m in (before, now))
        if a != b:
            out.append(f"{label} server: {a or 'not recorded'} → {b or 'not recorded'}")
    return out

