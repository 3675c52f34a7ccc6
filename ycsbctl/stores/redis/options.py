"""A Redis URL's connection settings (:class:`RedisOptions`) and the one line that says why a server refused
a connection, with what to do (:func:`refused`, :func:`tls_refusal`).
"""

from __future__ import annotations

import ssl
from typing import Any
from urllib.parse import unquote, urlparse

from ycsbctl.errors import UserError
from ycsbctl.stores.redis.tls import TLS_THERE, UNTRUSTED, untrusted
from ycsbctl.user_input import ca_context


def refused(message: str, tls: bool = True) -> str:
    """``message`` with what to do when it is a known refusal (maxclients, a password, a TLS port
    spoken to in plain: ``tls`` False)."""
    if "max number of clients" in message:
        return (f"{message} — the server's maxclients is below the clients ycsbctl opens (--threads): raise it "
                "(CONFIG SET maxclients N, or --maxclients at start) or use fewer threads")
    if "NOAUTH" in message:
        return f"{message} — give the password: redis://:PASSWORD@host:port or -p redis.password=PASSWORD"
    if not tls and ("closed by the server" in message or "reset by peer" in message or "no answer to PING" in message):
        return f"{message} — {TLS_THERE}"  # (a TLS-only server closes a plain connection)
    return message


_TRUE = ("true", "yes", "1", "on")


def tls_refusal(exc: BaseException, tls: bool) -> str:
    """Why a connection failed, in one line, with what to do when TLS is the cause: a certificate the
    client does not trust, a server that speaks no TLS on that port (or TLS to a plain client)."""
    text = str(exc) or "timed out"
    if isinstance(exc, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in text:
        why = getattr(exc, "verify_message", "") or text
        hint = untrusted(why)
        if hint != UNTRUSTED:
            return f"{hint} ({why})"
        return (f"its TLS certificate is not trusted ({why}): give the CA "
                "that signed it with ?ssl_ca_certs=/path/ca.crt in the URL (or ?ssl_cert_reqs=none to skip the check)")
    if isinstance(exc, ssl.SSLError) or (tls and isinstance(exc, ConnectionResetError)):
        return (f"the TLS handshake failed ({text}): the server speaks no TLS on this port — use redis:// "
                "(or drop -p redis.tls=true), or the server's TLS port")
    return text


class RedisOptions:
    """Connection settings from a ``redis://[user:password@]host:port[/db]`` (or ``rediss://``: TLS)
    URL, overridden by YCSB's ``redis.password`` / ``redis.timeout`` (ms) properties; ``-p
    redis.tls=true`` speaks TLS to a ``redis://`` URL. TLS trusts the system's CAs and the URL's
    ``ssl_ca_certs`` (a CA file, redis-py's spelling); ``ssl_cert_reqs=none`` checks no certificate."""

    def __init__(self, url: str, properties: dict[str, str] | None = None) -> None:
        from urllib.parse import parse_qs

        u = urlparse(url)
        if u.scheme not in ("redis", "rediss"):
            raise UserError(f"not a Redis URL: {url!r} (expected redis://host:port[/db])")
        props = properties or {}
        self.host = u.hostname or props.get("redis.host", "127.0.0.1")
        try:
            self.port = u.port or int(props.get("redis.port", 6379))
        except ValueError:
            raise UserError(f"bad port in {url!r}") from None
        self.db = int(u.path.lstrip("/")) if u.path.lstrip("/").isdigit() else 0
        self.username = unquote(u.username) if u.username else None
        self.password = props.get("redis.password") or (unquote(u.password) if u.password else None)
        self.tls = u.scheme == "rediss" or str(props.get("redis.tls", "")).lower() in _TRUE
        # -p redis.wait=N: every write is followed by WAIT N TIMEOUT in the same packet (the write is
        # acknowledged once N replicas have it, or after redis.wait.timeout ms; default: redis.timeout)
        try:
            self.wait = int(props.get("redis.wait", 0) or 0)
            self.wait_ms = int(props.get("redis.wait.timeout", props.get("redis.timeout", 10000)))
        except ValueError:
            raise UserError("-p redis.wait=N and redis.wait.timeout=MS take whole numbers") from None
        query = {k: v[-1] for k, v in parse_qs(u.query).items()}
        self.ca_file = query.get("ssl_ca_certs") or None
        self.verify = query.get("ssl_cert_reqs", "required").lower() not in ("none", "optional")
        self._ssl: ssl.SSLContext | None = None

    def ssl_context(self) -> ssl.SSLContext | None:
        """One context for every connection of this process (None without TLS)."""
        if not self.tls:
            return None
        if self._ssl is None:
            ctx = ca_context(self.ca_file, "ssl_ca_certs")
            if not self.verify:
                ctx.check_hostname = False
                ctx.verify_mode = ssl.CERT_NONE
            self._ssl = ctx
        return self._ssl


def replicas_in_role(reply: Any) -> int:
    """The replicas a ``ROLE`` reply lists: a primary's third element; 0 for a replica, or no reply."""
    return len(reply[2]) if isinstance(reply, list) and len(reply) > 2 and reply[0] in (b"master", "master") else 0
