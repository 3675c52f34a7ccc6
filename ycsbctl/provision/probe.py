"""Readiness probes and what a server says about itself (redis-py / pymongo, never in a hot path)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ycsbctl.errors import UserError, short_error
from ycsbctl.processes import deferred_signals
from ycsbctl.stores import registry
from ycsbctl.stores.base import ServerFacts
from ycsbctl.stores.deadline import passed_in
from ycsbctl.urls import redact_text, redact_url

_SECRET_KEYS = re.compile(r"pass|secret|token|^masterauth$", re.IGNORECASE)  # config keys holding secrets


def ping(protocol: str, url: str, timeout_s: float = 1.0) -> None:
    """Raise unless the server answers (PING, ``{ping: 1}``) within ``timeout_s``."""
    registry.get(protocol).ping(url, timeout_s)


def wait_ready(protocol: str, url: str, *, timeout_s: float, exited: Callable[[], str | None],
               log_tail: Callable[[], str]) -> None:
    """Wait until the server answers. ``exited()`` returns why the server is gone (or None).

    Raises UserError (exit 1) naming the cause and the last lines of the server's log.
    Ctrl-C / SIGTERM land between probes, never inside ``exited()`` or a client library: an
    interrupt there can leave a library's lock held (``Popen.poll`` holds a plain Lock around
    waitpid), and the clean-up that follows would then wait on that lock forever.
    """
    deadline = time.monotonic() + timeout_s
    last_error = "no answer yet"
    while True:
        with deferred_signals():
            gone = exited()
            if gone:
                raise UserError(f"{gone} during start-up; last log lines: {log_tail()}", exit_code=1)
            try:
                ping(protocol, url, timeout_s=0.5)
                return
            except Exception as exc:  # noqa: BLE001 - not ready yet, whatever the reason
                last_error = short_error(exc)
        if time.monotonic() > deadline:
            raise UserError(f"the server did not answer on {redact_url(url)} within {timeout_s:.0f} s ({last_error}); "
                            f"last log lines: {log_tail()}", exit_code=1)
        time.sleep(0.1)  # poll interval of the readiness probe


def tail(path: str | Path | None, lines: int = 8) -> str:
    """The last ``lines`` lines of a log, joined with `` | `` so they fit one message line."""
    try:
        text = Path(path).read_text(errors="replace") if path else ""
    except OSError:
        text = ""
    return join_tail(text, lines)


def join_tail(text: str, lines: int = 8) -> str:
    kept = [ln.strip() for ln in text.splitlines() if ln.strip()][-lines:]
    return " | ".join(kept) if kept else "(empty log)"


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def redact_config(config: dict[str, Any]) -> dict[str, Any]:
    """Config values of password-like keys become ``***``; URLs inside values lose passwords."""
    def clean(key: str, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(k, v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(key, v) for v in value]
        if isinstance(value, str):
            if value and _SECRET_KEYS.search(key):
                return "***"
            return redact_text(value)
        return value

    return {k: clean(k, v) for k, v in config.items()}


def cancelled(url: str, why: str, asked: str) -> UserError | None:
    """The one line for a server that answered ``asked`` by cancelling it because of the role's
    ``statement_timeout`` (every statement of that role hits it, our ping included); None for another error."""
    if "statement timeout" not in why.lower():
        return None
    return UserError(f"{redact_url(url)} answered but cancelled {asked}: statement_timeout ({why})",
                     fix="the role's statement_timeout cancels every statement: raise it (ALTER ROLE … SET "
                         "statement_timeout = 0) or use another role", exit_code=1)


def _listens(url: str, timeout_s: float = 1.0) -> bool:
    """Whether something accepts a TCP connection at the URL's (first) host and port."""
    try:
        parts = urlsplit(url.split(",")[0])
        host, port = parts.hostname, parts.port
    except ValueError:
        return False
    if not host or not port:
        return False
    try:
        with socket.create_connection((host, port), timeout_s):
            return True
    except OSError:
        return False


def unanswered(protocol: str, url: str, why: str, timeout_s: float) -> UserError:
    """The one line for a server whose ping failed (``why``, already short): nothing listens (start it), or
    something does but did not answer as a server of ``protocol`` — a server of another kind at that port
    (a Redis port under ``tarantool://``), or a frozen one — which is never "does not answer"."""
    shown = redact_url(url)
    a = "an" if protocol[:1] in "aeiou" else "a"  # an elasticsearch server, a redis server
    if not _listens(url):
        return UserError(f"{shown} does not answer ({why})", fix="check the URL or start the server", exit_code=1)
    if "TLS" in why or "SSL" in why:  # the store's own hint (use rediss://, add the CA) says what to do
        return UserError(f"{shown}: the connection failed ({why})", exit_code=1)
    if "timed out" in why.lower() or "timeout" in why.lower():
        proto = registry.find(url)
        tls = (proto is not None and urlsplit(url).scheme in proto.tls_schemes) or any(
            w in url.lower() for w in ("ssl", "tls")
        )
        return UserError(f"{shown}: something accepts connections there but gave no {protocol} answer within "
                         f"{timeout_s:g} s ({why})", fix=f"check that the port is {a} {protocol} server's (a server "
                         "of another kind, or a stopped one, stays silent so" +
                         ("; so does one without TLS to a TLS handshake)" if tls else ")"), exit_code=1)
    return UserError(f"{shown}: something answers there, but not as {a} {protocol} server ({why})",
                     fix=f"check that the port is {a} {protocol} server's: the URL's scheme says "
                         "which store ycsbctl speaks", exit_code=1)


def too_slow(exc: BaseException, silent_too: bool = True) -> UserError | None:
    """The one line for a call whose whole reply did not come within its deadline (``redis at 127.0.0.1:6390 did not
    finish its INFO reply within 5 s``: :mod:`ycsbctl.stores.deadline`), exit 1 as a server that does not answer;
    None for another error, and without ``silent_too`` for a server that sent nothing at all (a first ping's
    silence says more through :func:`unanswered`)."""
    passed = passed_in(exc)
    if passed is None or not (passed.got or silent_too):
        return None
    return UserError(redact_text(str(passed)), fix="the server answers, but too slowly to be measured: check its load "
                     "and the network to it, or that the port is the store's", exit_code=1)


def _undescribed(url: str, exc: BaseException) -> UserError:
    """The one line for a server that answered its ping but failed the questions about itself
    (version, settings): a statement every query of the role hits (``statement_timeout``) is said in words, a
    reply that did not come whole in time (:func:`too_slow`) too."""
    why = redact_text(short_error(exc))
    return (too_slow(exc) or cancelled(url, why, "the questions about its version and settings")
            or UserError(f"{redact_url(url)} answered but asking it for its version and settings failed: {why}",
                         fix="check the server and the URL's user", exit_code=1))


def describe(protocol: str, url: str, *, expected: str = "", variant: str = "") -> ServerFacts:
    """Name, version and configuration dump of the server at ``url`` (passwords redacted).

    ``expected`` is the catalogue's display name (used when the server does not say who it
    is, e.g. KeyDB); ``variant`` is appended in parentheses when the engine cannot tell it
    (e.g. "mongo-wire, SQLite backend").
    """
    proto = registry.get(protocol)
    try:
        facts = proto.describe(url, expected)
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - said in one line: the target cannot be measured as it is
        raise _undescribed(url, exc) from None
    if not proto.has_server:
        return facts
    if variant:
        facts.name = f"{facts.name} ({variant})" if "(" not in facts.name else facts.name[:-1] + f", {variant})"
    facts.config = redact_config(_jsonable(facts.config))
    return facts


def binary_version(path: str, args: tuple[str, ...] = ("--version",)) -> str:
    """First line of ``<binary> --version`` (``args``: the catalogue's ``version_args``; empty when it does not say).
    Run with ``ES_TMPDIR`` in a folder removed after it: Elasticsearch's launcher would otherwise leave a
    /tmp/elasticsearch-<random> folder per call."""
    if not args:
        return ""
    try:
        with tempfile.TemporaryDirectory(prefix="ycsbctl-version-") as tmp:
            out = subprocess.run([path, *args], capture_output=True, text=True, timeout=20,
                                 env={**os.environ, "ES_TMPDIR": tmp})
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return version_line(out.stdout + out.stderr)


# what a JVM's launcher prints first when its options come from the environment (a corporate JAVA_TOOL_OPTIONS, a
# test session's), or Elasticsearch's launcher when it drops them: never a version
_JVM_NOTE = re.compile(r"(NOTE: )?Picked up \w*_OPTIONS:|warning: ignoring JAVA_TOOL_OPTIONS=")


def version_line(output: str) -> str:
    """The first line of a program's ``--version`` output (stdout then stderr) that is its own: not blank, not a
    JVM launcher's note that it picked up options from the environment; empty when none is."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip() and not _JVM_NOTE.match(ln.strip())]
    return lines[0] if lines else ""
