"""External servers: a ``redis://`` or ``mongodb://`` URL the user runs; no lifecycle."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ycsbctl.errors import UserError
from ycsbctl.provision import probe
from ycsbctl.provision.base import Endpoint, Provisioner

SCHEMES = {"redis": "redis", "rediss": "redis", "unix": "redis", "mongodb": "mongodb",
           "mongodb+srv": "mongodb", "basic": "basic"}
_SECRET_PARAMS = re.compile(r"pass|secret|token|key", re.IGNORECASE)
_USERINFO = re.compile(r"^(?P<user>[^:@/]*)(?::(?P<pw>[^@]*))?@")
_ANY_URL_USERINFO = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^:@/\s]*):(?P<pw>[^@/\s]+)@",
                               re.IGNORECASE)


def redact_url(url: str) -> str:
    """``url`` with its password (userinfo and password-like query values) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _ANY_URL_USERINFO.sub(lambda m: f"{m['scheme']}{m['user']}:***@", url)
    netloc = parts.netloc
    m = _USERINFO.match(netloc)
    if m and m.group("pw") is not None:
        netloc = f"{m.group('user')}:***@{netloc[m.end():]}"
    elif m and m.group("user") and parts.scheme.startswith("redis"):
        netloc = f"***@{netloc[m.end():]}"  # redis://secret@host: a lone userinfo is the password
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if _SECRET_PARAMS.search(k) and v else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_text(text: str) -> str:
    """Passwords in any URLs inside free text (log lines, config values)."""
    return _ANY_URL_USERINFO.sub(lambda m: f"{m['scheme']}{m['user']}:***@", text)


def protocol_of(url: str) -> str | None:
    """``redis`` / ``mongodb`` / ``basic`` for a URL we accept, else None (a catalogue name)."""
    scheme, sep, _ = url.partition("://")
    return SCHEMES.get(scheme.lower()) if sep else None


class ExternalProvisioner(Provisioner):
    """Attaches to a running server: checks it answers, reads its version and config."""

    name = "external"

    def up(self, target: str, **options: Any) -> Endpoint:
        protocol = protocol_of(target)
        if protocol is None:
            raise UserError(f"{redact_url(target)} is not a redis://, rediss://, mongodb:// or basic:// URL")
        shown = redact_url(target)
        if protocol == "basic":
            return Endpoint(target=shown, protocol="basic", url=target, backend="external",
                            server_name="BasicDB (no server)")
        try:
            probe.ping(protocol, target, timeout_s=5.0)
        except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
            why = probe.short_error(exc)
            if any(w in why.lower() for w in ("auth", "password", "noperm", "wrongpass")):
                raise UserError(f"{shown} refused our credentials ({why}): put the right password in the URL "
                                "(redis://:PASSWORD@host:port) or in -p redis.password=…", exit_code=1) from None
            raise UserError(f"{shown} does not answer ({why}): check the URL or start the server", exit_code=1) from None
        facts = probe.describe(protocol, target, expected="")
        return Endpoint(target=shown, protocol=protocol, url=target, backend="external",
                        server_name=facts.name, server_version=facts.version, config=facts.config,
                        notes=["external server: not started or stopped by ycsbctl"])

    def down(self, endpoint: Endpoint) -> None:
        """Nothing to stop: we never own an external server."""
