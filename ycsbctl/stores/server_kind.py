"""What ycsbctl knows about starting one kind of server, in one object: its command line and settings
dialect, TLS, password, memory limit, environment and data-folder preparation.

A *flavor* names a server's command-line dialect (``redis``, ``dragonfly``, ``mongod``, ``postgres``, …: the
catalogue's ``Target.flavor`` and ``Target.local_flavor``, and the ``ycsbctl.flavor`` label of a docker
image). Each store package holds its flavors' kinds in its ``server`` module (``KINDS``); the registry
(:func:`ycsbctl.stores.registry.server_kind`) finds one by name, and provisioning
(:mod:`ycsbctl.provision.catalog`, ``local_prep``, ``docker``) calls it instead of branching on names.

:class:`ServerKind` holds the generic behaviour (what an unknown flavor gets too): no settings, no TLS, no
password, no memory setting, nothing to prepare. The pieces several stores share are here as well: the
server config folder (:func:`infra_dir`, :func:`config_args`) and the memory rules (:data:`DATA_FRACTION`).
"""

from __future__ import annotations

import os
import shlex
import signal
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

from ycsbctl.errors import UserError

DATA_FRACTION = 0.8  # share of --server-memory given to the server's data limit
GIB = 1024**3

CONFIGS = Path(str(resources.files("ycsbctl") / "data" / "configs"))  # shipped in the package

# What prepares a data folder with a server's own tool: (what, binary, args, argv) runs ``argv`` (``what``,
# which initialises the folder for ``binary`` with ``args``) or copies a template an earlier one left
# (provision.local_prep passes it: the template store and the log are provisioning's)
Initialise = Callable[[str, str, list[str], list[str]], None]


class CertificateFiles(Protocol):
    """Paths of a CA certificate (what clients trust), the server certificate and its key
    (:class:`ycsbctl.provision.tls.ServerCertificates`)."""

    @property
    def ca_file(self) -> str: ...

    @property
    def cert_file(self) -> str: ...

    @property
    def key_file(self) -> str: ...


class BadSettings(UserError):
    """A target's settings cannot be used (its server refused them at start, or takes none): bad
    input, exit 2; a sweep stops on it instead of skipping the target."""


def infra_dir() -> Path:
    """The server configs (``redis/redis.conf`` …): shipped in the package (``infra/<server>`` of a
    checkout links there), or ``$YCSBCTL_INFRA``."""
    path = Path(os.environ.get("YCSBCTL_INFRA", CONFIGS))
    if not path.is_dir():
        raise UserError(f"server config folder {path} is missing: reinstall ycsbctl or set YCSBCTL_INFRA",
                        exit_code=1)
    return path


def config_args(relative: str) -> list[str]:
    """Command-line arguments from a config file in ``infra/``.

    ``*.conf`` (redis.conf syntax): each ``directive value…`` line becomes ``--directive value…``.
    ``*.flags``: each line is one argument. ``#`` starts a comment line.
    """
    path = infra_dir() / relative
    args: list[str] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if path.suffix == ".conf":
            words = shlex.split(line)
            args += [f"--{words[0]}", *words[1:]]
        else:
            args.append(line)
    return args


def memcached_mb(memory_bytes: int | None) -> int:
    """memcached ``-m`` in MB (Tarantool's ``memtx_memory`` follows the same rule): DATA_FRACTION of
    ``--server-memory``, else half of the host's RAM."""
    import psutil

    if memory_bytes is not None:
        return max(16, int(memory_bytes * DATA_FRACTION / 1024**2))
    return max(64, int(psutil.virtual_memory().total / 2 / 1024**2))


def long_options(settings: dict[str, str]) -> list[str]:
    """``settings`` as long options, ``--key=value`` each (the dialect of most servers' command lines)."""
    return [f"--{key}={value}" for key, value in settings.items()]


@dataclass(frozen=True)
class ServerKind:
    """One server flavor: how ycsbctl starts it. The defaults are the generic behaviour; each store's
    ``server`` module subclasses it for its flavors (fields for facts, methods for command lines).

    ``bind`` is the listen address inside the server's network namespace (127.0.0.1 on the host; 0.0.0.0
    inside a bridged container whose port is published on 127.0.0.1 only); ``data_dir`` None keeps the
    image's default directory; ``memory_bytes`` is ``--server-memory`` (bytes; None: not given)."""

    name: str
    # it takes a password on its command line (Redis ``requirepass``): :meth:`args` gets one
    password_on_command_line: bool = False
    # its image takes the password in its environment at first start (the official postgres and mariadb
    # images' settings, and the local images infra/docker/build_local_images.py makes): "" stands for the
    # password, any other value replaces the catalogue's password-less setting, None removes one
    password_env: tuple[tuple[str, str | None], ...] = ()
    speaks_tls: bool = False  # ycsbctl can start it with TLS (:meth:`tls_args`)
    tls_in_data_dir: bool = True  # it reads copies of its certificate and key in its data folder (run as another user)
    data_in_memory: bool = False  # a local data folder goes on tmpfs (its data should live in memory)
    embedded: bool = False  # no server: the engine opens the database itself
    standby: bool = False  # its several-process variant is a primary and a streaming standby (not a Redis cluster)
    describe_variant: str = ""  # what its server's description adds to the name ("SQLite backend")
    memory_limited_locally: bool = True  # the endpoint records --server-memory as its limit on the local backend
    container_stop_signal: str = ""  # the container's stop signal (docker's default: SIGTERM)
    # what ends a local server of this kind (ycsbctl.provision.local): SIGTERM, its clean shutdown, unless a clean
    # shutdown keeps nothing and only waits (then SIGKILL, which the OS acts on at once)
    stop_signal: int = signal.SIGTERM
    container_memlock_unlimited: bool = False  # its container needs an unlimited memlock ulimit

    @property
    def takes_password(self) -> bool:
        """Whether it can be started with a password: on the command line (Redis ``requirepass``) or, in a
        container, in the image's environment (:meth:`image_env`)."""
        return self.password_on_command_line or bool(self.password_env)

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        """The full argument list (without the binary); ``password`` only when :attr:`password_on_command_line`."""
        raise UserError(f"ycsbctl starts no server of flavor {self.name!r}: it has no command line")

    def env(self, data_dir: str | None) -> dict[str, str]:
        """Environment variables the local server needs beyond ours."""
        return {}

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        """What makes it speak TLS only, on ``port``, with ``tls``'s certificate (clients are not asked for one);
        a UserError for a kind ycsbctl cannot start with TLS."""
        raise UserError(f"ycsbctl cannot start a {self.name} server with TLS: use redis, valkey, postgresql, mariadb "
                        "or ferretdb with --tls, or run the server yourself and give its URL")

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        """Command-line arguments for ``settings`` in its dialect (after ycsbctl's own, so they win)."""
        if settings:
            raise BadSettings(f"settings ({', '.join(settings)}) cannot be given to a {self.name} "
                              "server: it takes none")
        return []

    def memory_note(self, memory_bytes: int | None) -> str | None:
        """One line saying how --server-memory became the server's own limit."""
        if memory_bytes is None:
            return None
        return f"{self.name} has no memory setting: --server-memory is only enforced by a container limit"

    def image_env(self, env: tuple[tuple[str, str], ...], password: str | None) -> dict[str, str]:
        """The container's environment: ``env`` (the catalogue's first-start settings), with ``password`` given
        to the superuser where the image takes it (:attr:`password_env`)."""
        out: dict[str, str | None] = dict(env)
        if password and self.password_env:
            out.update({k: (password if v == "" else v) for k, v in self.password_env})
        return {k: v for k, v in out.items() if v is not None}

    def tls_files(self) -> dict[str, str]:
        """Files (name in the data folder → text) it needs beside its certificate copies when started with TLS."""
        return {}

    def check_binary(self, path: str) -> None:
        """A UserError when the local binary at ``path`` cannot run the benchmark as ycsbctl means it."""

    def prepare(self, binary: str, data_dir: str, user: str | None, initialise: Initialise) -> None:
        """Make the fresh ``data_dir`` ready for its local server (``binary``, run as ``user``: None for ours)."""
