"""A plan checked and resolved once into a :class:`~ycsbctl.experiment.study.Study`: its targets named,
each workload's properties merged and its workload built, everything a user can get wrong refused in
one line before anything starts (no folder, no server, no claim on the host).

This is the one place that reads property files (through
:class:`~ycsbctl.workload.properties.PropertySources`, each file once), builds workloads and names
targets; the sweep and everything below it are handed the values.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.experiment.cannot import refusal
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.standin import stand_ins
from ycsbctl.experiment.study import Case, Study, Target
from ycsbctl.experiment.targets import is_url, target_label, validate_url
from ycsbctl.results.schema import CannotCell
from ycsbctl.results.variants import split_variant, variant, variant_name
from ycsbctl.stores import registry
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.capabilities import DatasetFile
from ycsbctl.workload.client_properties import read_client_properties, without_consumed
from ycsbctl.workload.core import OP_NAMES
from ycsbctl.workload.plugin import Workload, axis_values, load_workload, require_executor
from ycsbctl.workload.properties import Properties, PropertySources, resolve_workload


def resolve_study(plan: Plan, sources: PropertySources | None = None) -> Study:
    """``plan`` checked and resolved (a :class:`UserError` naming the fix otherwise). ``sources``: the
    plan's property files as the command already read them (read here when not given)."""
    sources = sources or PropertySources.read(plan.workloads, plan.property_files, plan.properties)
    # unknown catalogue names and refused settings first; each target's store and kind (None: a URL) named once
    named = {t: _check_target(plan, t) for t in plan.targets}
    stores = {t: store for t, (store, _) in named.items()}
    kinds = {t: kind for t, (_, kind) in named.items()}
    cases, cannot = [], []
    for workload in plan.workloads:
        props = workload_properties(plan, sources.merged(workload))
        built = load_workload(props)  # workload=package.module:Class: imported and its properties checked
        if not built.builtin_ycsb:
            for target in plan.targets:
                why = refusal(built, stores[target].name, kinds[target], max(plan.threads), plan.timeout_s)
                if why:  # a cell its store cannot do: refused alone (experiment.cannot)
                    cannot.append(CannotCell(target_label(target, plan.targets), workload_name(workload), why))
                else:
                    require_executor(built, stores[target], props)
        read_client_properties(props, "load" if plan.phase == "load" else "run")
        for target in plan.targets:  # a store's driver properties (-p postgresql.driver=…)
            stores[target].check_properties(target if kinds[target] is None else None, props)
        phase = "load" if built.insert_only or plan.phase == "load" else "run"
        case = _case(plan, workload, props, built, phase)
        if plan.phase != "load" and built.builtin_ycsb:  # a plug-in's operations: its executors (above)
            check_operations(plan.targets, stores, case.name, {OP_NAMES[op] for op in built.op_codes("run")})
        cases.append(case)
    if any(c.phase == "run" and c.built.builtin_ycsb for c in cases):  # a plug-in makes its own tables
        for target in plan.targets:
            if kinds[target] is None and not plan.loads(target):
                registry.ask(stores[target], DatasetFile.check_unloaded, target)
    first = cases[0].name
    cases = [c if c.variant else _with_dataset(c, first) for c in cases]
    targets = tuple(resolve_target(plan, t, cases[0].properties) for t in plan.targets)
    extra = {t: resolve_target(plan, t, cases[0].properties) for t in stand_ins(plan) if t not in plan.targets}
    order, order_note = plan.run_order
    return Study(plan, targets, tuple(cases), order, order_note, plan.placed, plan.baseline_label,
                 tuple(disturbance_lines(plan, targets)), extra, tuple(cannot))


def _check_target(plan: Plan, target: str) -> tuple[ServerProtocol, str | None]:
    """(``target``'s store, its catalogue kind: None for a URL); a URL checked as ``--target`` checks it (port 0, its
    store's own check: a plan from a manifest or a study file passes here too), a catalogue target's kind and
    settings."""
    if is_url(target):
        validate_url(target)
        return registry.for_url(target), None
    from ycsbctl.provision.catalog import get_target, server_args

    spec = plan.spec(target)
    entry = get_target(spec.kind)
    if spec.settings:  # a server kind that takes no settings (mongo-wire) is refused now
        server_args(entry.local_flavor if plan.backend == "local" else entry.flavor, port=1,
                    bind="127.0.0.1", data_dir=None, memory_bytes=None, settings=spec.settings)
    return registry.get(entry.protocol), spec.kind


def resolve_target(plan: Plan, name: str, props: Properties) -> Target:
    """The target ``name`` of ``plan`` (or a stand-in for one): a URL with what the binding's properties
    ``props`` add to it (a ``redis://`` URL without a password takes ``-p redis.password``, as YCSB's
    binding does: its store says so), so the checks before the run, telemetry and the clients all
    authenticate alike; a catalogue label with its kind, settings and binary."""
    if is_url(name):
        proto = registry.for_url(name)
        return Target(name, target_label(name, plan.targets), proto.name, plan.loads(name),
                      url=proto.url_with_properties(name, props),
                      image=plan.images.get(name))
    from ycsbctl.provision.catalog import get_target
    from ycsbctl.provision.engines import engine_for

    spec = plan.spec(name)
    return Target(name, target_label(name, plan.targets), get_target(spec.kind).protocol, plan.loads(name),
                  kind=spec.kind, settings=dict(spec.settings), binary=spec.binary, image=plan.images.get(name),
                  docker_host=engine_for(name, plan.docker_hosts), tls=plan.tls)


def _case(plan: Plan, workload: str, props: Properties, built: Workload, phase: str) -> Case:
    file = resolve_workload(workload)
    settings = split_variant(workload)[1]
    name = variant_name(file.name, settings)
    return Case(workload, name, file, settings, props, built, phase, dataset=name)


def _with_dataset(case: Case, dataset: str) -> Case:
    from dataclasses import replace

    return replace(case, dataset=dataset)


def workload_properties(plan: Plan, merged: Properties) -> Properties:
    """A workload's ``merged`` properties (file, -P files, -p overrides, its variant), then the plan's
    scale (which already took ``recordcount``/``operationcount`` from -P/-p unless a flag won), without
    the client properties the plan carries (threadcount, target, …: see
    :mod:`ycsbctl.workload.client_properties`)."""
    props = Properties(merged)
    props["recordcount"] = str(plan.record_count)
    ops = plan.point_operations
    # 0 = until the duration ends (YCSB's convention). With zipfian and run-phase inserts (E), YCSB
    # sizes the key space with operationcount·insertproportion: pass -p operationcount=N for that.
    props["operationcount"] = str(ops if ops is not None else 0)
    if plan.measurement:
        props["measurement.interval"] = plan.measurement
    return without_consumed(props)


def check_operations(targets: Sequence[str], stores: dict[str, ServerProtocol], workload: str,
                     operations: set[str]) -> None:
    """A target whose store cannot do one of ``operations`` (memcached: SCAN) is refused, naming both."""
    for target in targets:
        proto = stores[target]
        for op in sorted(operations & set(proto.unsupported)):
            raise UserError(f"{workload} has {op} operations, which {target} cannot do: "
                            f"{proto.unsupported[op]}; drop {target} from --targets or set {op.lower()}proportion=0")


def disturbance_lines(plan: Plan, targets: Sequence[Target]) -> list[str]:
    """What each ``--disturb`` sends on each target (``label: spec → command`` lines); a
    :class:`UserError` naming the first that has no analogue on a target's protocol."""
    from ycsbctl.stores.disturb import disturbing, parse_disturb
    from ycsbctl.urls import redact_url

    lines = []
    for target in targets if plan.disturb else []:
        for text in plan.disturb:
            spec = parse_disturb(text, plan.point_duration_s)
            try:
                command = disturbing(target.store, spec).disturb_command(spec)
            except UserError as exc:
                raise UserError(f"{exc.message} (target {redact_url(target.name)})") from None
            lines.append(f"{redact_url(target.name)}: {spec.text} → {command}")
    return lines


def experiment_id(study: Study) -> str:
    """``<yyyymmdd-hhmmss>-<workloads>``: the default result folder name."""
    names = "-".join(dict.fromkeys(c.file.name.replace("workload", "") for c in study.cases))
    return time.strftime("%Y%m%d-%H%M%S") + f"-{names}"[:40]


def workload_name(workload: str) -> str:
    """The workload file's name (``workload-b`` → ``workloadb``), as run ids and tables say it; a
    variant's values follow it (``online-status[online.structure=hash]`` → ``online-status-hash``)."""
    return variant_name(Path(resolve_workload(workload)).name, split_variant(workload)[1])


def expand_axes(workloads: list[str], sources: PropertySources) -> list[str]:
    """Each workload as the variants its sweep axes make (every combination of the values of the
    properties its class lets take several: ``-p online.structure=hash,set,zset`` → three), in order."""
    out = []
    for w in workloads:
        axes = axis_values(sources.merged(w))
        combos: list[dict[str, str]] = [{}]
        for key, values in axes:
            combos = [{**c, key: v} for c in combos for v in values]
        out += [variant(w, c) for c in combos]
    return list(dict.fromkeys(out))
