"""Docker engines by URL (``--docker-host``): which host a server started there runs on, whether the
connection is protected, and the password a server off this host gets.

``unix:///var/run/docker.sock`` and ``tcp://127.0.0.1:2375`` are engines on this host: their servers
listen on loopback as before. ``tcp://DBHOST:2375`` and ``ssh://user@DBHOST`` are engines on another
host: a server started there listens on that host's addresses, its URL names ``DBHOST``, and it gets
a generated password. A plain ``tcp://`` engine (no TLS) gets one warning line per process: anyone who
reaches it can start containers as root on its host.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import sys
from urllib.parse import urlsplit

from ycsbctl.errors import UserError

SCHEMES = ("unix", "tcp", "ssh", "npipe")
ALL_TARGETS = "*"  # the key of a --docker-host that applies to every provisioned target
PASSWORD_BYTES = 16  # 128 random bits, written as 32 hex digits (safe in any URL and command line)
_warned: set[str] = set()


def default_docker_host() -> str:
    """The engine ``$DOCKER_HOST`` names, else the local socket."""
    return os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")


def check_docker_host(url: str) -> str:
    """``url`` if it is a Docker engine URL ycsbctl can use, else a UserError (exit 2) saying the shapes."""
    try:
        parts = urlsplit(url)
        ok = parts.scheme in SCHEMES and (bool(parts.path) if parts.scheme in ("unix",
                                                                               "npipe") else bool(parts.hostname))
        if parts.scheme in ("tcp", "ssh"):
            _ = parts.port  # raises ValueError on a bad port
    except ValueError:
        ok = False
    if not ok:
        raise UserError(f"--docker-host {url!r}: write tcp://HOST:2375 or ssh://user@HOST (or a unix socket's URL)")
    return url


def engine_address(url: str) -> str | None:
    """The host a server started on the engine at ``url`` is reached at: None for an engine on this
    host (a unix socket, or tcp/ssh on loopback), else the host name or address in the URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("tcp", "ssh", "http", "https"):
        return None
    host = parts.hostname or ""
    if host == "localhost":
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass
    return host or None


def uses_tls(url: str, environ: dict[str, str] | None = None) -> bool:
    """Whether the docker SDK will speak TLS to a ``tcp://`` engine (``DOCKER_TLS_VERIFY``, as docker's CLI)."""
    env = os.environ if environ is None else environ
    return urlsplit(url).scheme == "https" or bool(env.get("DOCKER_TLS_VERIFY"))


def warn_if_plain_tcp(url: str) -> None:
    """One line on stderr, once per process and engine, for a ``tcp://`` engine without TLS."""
    if urlsplit(url).scheme != "tcp" or uses_tls(url) or url in _warned:
        return
    _warned.add(url)
    print(f"ycsbctl: warning: Docker at {url} is plain TCP without authentication: whoever reaches it can run "
          "containers as root on that host (use ssh://user@HOST, or TLS with DOCKER_TLS_VERIFY=1)",
          file=sys.stderr, flush=True)


def new_password() -> str:
    """A password for a server started on another host (shown only in the state file, mode 0600)."""
    return secrets.token_hex(PASSWORD_BYTES)


def engine_for(target: str, docker_hosts: dict[str, str]) -> str | None:
    """The engine URL ``--docker-host`` names for ``target`` (its own, else the one for all), or None."""
    return docker_hosts.get(target) or docker_hosts.get(ALL_TARGETS)


def unreachable_fix(url: str) -> str:
    """What to do when the engine at ``url`` does not answer."""
    where = engine_address(url)
    if where is None:
        return "start it (`sudo systemctl start docker`, or `sudo dockerd &`) or use --backend local"
    return (f"start dockerd on {where} listening there (e.g. `dockerd -H tcp://0.0.0.0:2375`, or use "
            f"ssh://user@{where}) and check that this host reaches it")
