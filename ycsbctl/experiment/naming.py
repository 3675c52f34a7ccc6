"""Names and properties of a plan's points: the experiment id, workload names, each workload's
merged YCSB properties, and the phase its sweep runs in."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan, is_url
from ycsbctl.results.variants import split_variant, variant, variant_name
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.workload.client_properties import read_client_properties, without_consumed
from ycsbctl.workload.core import OP_NAMES
from ycsbctl.workload.plugin import axis_values, load_workload, require_executor
from ycsbctl.workload.properties import Properties, load_properties, resolve_workload


def experiment_id(plan: Plan) -> str:
    """``<yyyymmdd-hhmmss>-<workloads>``: the default result folder name."""
    names = "-".join(dict.fromkeys(Path(resolve_workload(w)).name.replace("workload", "") for w in plan.workloads))
    return time.strftime("%Y%m%d-%H%M%S") + f"-{names}"[:40]


def workload_name(workload: str) -> str:
    """The workload file's name (``workload-b`` → ``workloadb``), as run ids and tables say it; a
    variant's values follow it (``online-status[online.structure=hash]`` → ``online-status-hash``)."""
    return variant_name(Path(resolve_workload(workload)).name, split_variant(workload)[1])


def expand_axes(workloads: list[str], files: Sequence[str], overrides: Sequence[str]) -> list[str]:
    """Each workload as the variants its sweep axes make (every combination of the values of the
    properties its class lets take several: ``-p online.structure=hash,set,zset`` → three), in order."""
    out = []
    for w in workloads:
        axes = axis_values(load_properties(w, files, overrides))
        combos: list[dict[str, str]] = [{}]
        for key, values in axes:
            combos = [{**c, key: v} for c in combos for v in values]
        out += [variant(w, c) for c in combos]
    return list(dict.fromkeys(out))


def workload_properties(plan: Plan, workload: str) -> Properties:
    """The workload file, -P files, -p overrides, then the plan's scale (which already took
    ``recordcount``/``operationcount`` from -P/-p unless a flag won), without the client properties
    the plan carries (threadcount, target, …: see :mod:`ycsbctl.workload.client_properties`)."""
    props = load_properties(workload, plan.property_files, plan.properties)
    props["recordcount"] = str(plan.record_count)
    ops = plan.point_operations
    # 0 = until the duration ends (YCSB's convention). With zipfian and run-phase inserts (E), YCSB
    # sizes the key space with operationcount·insertproportion: pass -p operationcount=N for that.
    props["operationcount"] = str(ops if ops is not None else 0)
    if plan.measurement:
        props["measurement.interval"] = plan.measurement
    return without_consumed(props)


def check_plan(plan: Plan) -> None:
    """Every workload's properties typed and checked (a :class:`UserError` naming the fix) before
    anything starts: no folder, no server, no claim on the host. Unknown catalogue names too."""
    from ycsbctl.provision.catalog import get_target, server_args

    for target in plan.targets:
        if not is_url(target):
            spec = plan.spec(target)
            entry = get_target(spec.kind)
            if spec.settings:  # a server kind that takes no settings (mongo-wire) is refused now
                server_args(entry.local_flavor if plan.backend == "local" else entry.flavor, port=1,
                            bind="127.0.0.1", data_dir=None, memory_bytes=None, settings=spec.settings)
    for workload in plan.workloads:
        props = workload_properties(plan, workload)
        w = load_workload(props)  # workload=package.module:Class: imported and its properties checked
        if not w.builtin_ycsb:
            for target in plan.targets:
                require_executor(w, target_protocol(plan, target), props)
        read_client_properties(props, "load" if plan.phase == "load" else "run")
        for target in plan.targets:  # a store's driver properties (-p postgresql.driver=…)
            _store_of(plan, target).check_properties(target if is_url(target) else None, props)
        if plan.phase != "load" and w.builtin_ycsb:  # a plug-in's operations: its executors (above)
            check_operations(plan, workload, {OP_NAMES[op] for op in w.op_codes("run")})
    check_disturbances(plan)


def _store_of(plan: Plan, target: str) -> ServerProtocol:
    """The store of a target: its URL's, or its catalogue kind's."""
    from ycsbctl.stores import registry

    return registry.get(target_protocol(plan, target))


def check_operations(plan: Plan, workload: str, operations: set[str]) -> None:
    """A target whose store cannot do one of ``operations`` (memcached: SCAN) is refused, naming both."""
    for target in plan.targets:
        proto = _store_of(plan, target)
        for op in sorted(operations & set(proto.unsupported)):
            raise UserError(f"{workload_name(workload)} has {op} operations, which {target} cannot do: "
                            f"{proto.unsupported[op]}; drop {target} from --targets or set {op.lower()}proportion=0")


def check_disturbances(plan: Plan) -> list[str]:
    """What each ``--disturb`` sends on each target (``label: spec → command`` lines); a
    :class:`UserError` naming the first that has no analogue on a target's protocol."""
    from ycsbctl.stores.disturb import parse_disturb
    from ycsbctl.urls import redact_url

    lines = []
    for target in plan.targets if plan.disturb else []:
        proto = _store_of(plan, target)
        for text in plan.disturb:
            spec = parse_disturb(text, plan.point_duration_s)
            try:
                command = proto.disturb_command(spec)
            except UserError as exc:
                raise UserError(f"{exc.message} (target {redact_url(target)})") from None
            lines.append(f"{redact_url(target)}: {spec.text} → {command}")
    return lines


def target_protocol(plan: Plan, target: str) -> str:
    """The store protocol of a target: its URL's, or its catalogue kind's (``redis``, ``mongodb``)."""
    from ycsbctl.provision.catalog import get_target
    from ycsbctl.stores.registry import protocol_of

    return protocol_of(target) if is_url(target) else get_target(plan.spec(target).kind).protocol


def sweep_phase(plan: Plan, workload: str) -> str:
    """``load`` for an insert-only workload (its sweep measures loads) and for ``ycsbctl load``; else ``run``."""
    w = load_workload(load_properties(workload))
    return "load" if w.insert_only or plan.phase == "load" else "run"


def with_password(target: str, props: Properties) -> str:
    """A ``redis://`` URL without a password takes ``-p redis.password`` (as YCSB's binding does), so the
    checks before the run, telemetry and the clients all authenticate alike."""
    from urllib.parse import quote, urlsplit, urlunsplit

    pw = props.get("redis.password")
    u = urlsplit(target)
    if not pw or u.scheme not in ("redis", "rediss") or u.password:
        return target
    user = quote(u.username or "", safe="")
    return urlunsplit(u._replace(netloc=f"{user}:{quote(pw, safe='')}@{u.netloc.rpartition('@')[2]}"))
