"""TLS for the SQL wire bindings (PostgreSQL's, MariaDB's): what the URL asks for, the client's SSL
context, and what to say, in one line, when TLS is why a connection failed.

Both protocols start in plain text and switch the open connection to TLS when both sides agree
(PostgreSQL: an SSLRequest answered ``S``; MySQL/MariaDB: the CLIENT_SSL capability in a short
handshake response), so the bindings upgrade their transport with ``loop.start_tls`` (through
:func:`ycsbctl.stores.tls_wire.start_tls`).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass

from ycsbctl.user_input import ca_context


@dataclass(frozen=True)
class WireTls:
    """A client's TLS: the CA it trusts (None: the system's), whether it checks the server's
    certificate chain (``verify``) and its name (``check_hostname``), and whether a server that
    offers no TLS is refused (``required``; else the connection stays plain, libpq's ``prefer``)."""

    ca_file: str | None
    verify: bool
    check_hostname: bool
    required: bool = True
    option: str = "ssl_ca"  # the URL option that names ca_file (its spelling in the one-line refusal)

    def context(self) -> ssl.SSLContext:
        ctx = ca_context(self.ca_file, self.option)
        ctx.check_hostname = self.check_hostname
        if not self.verify:
            ctx.verify_mode = ssl.CERT_NONE
        return ctx


def check_ca(tls: WireTls | None) -> None:
    """Read the CA file a URL names now (a missing file, or one holding no certificate, is bad input said when
    the URL is read: exit 2), not as a server that does not answer."""
    if tls is not None and tls.ca_file:
        tls.context()


def untrusted(exc: BaseException, fix: str) -> str | None:
    """``TLS certificate not trusted: <fix>`` when ``exc`` is a failed certificate check, else None."""
    if isinstance(exc, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(exc):
        return f"TLS certificate not trusted: {fix}"
    return None


def ping_with_hint(ping, fix: str) -> None:
    """``ping()``; a failed certificate check is raised again as one line saying what to do (``fix``)."""
    try:
        ping()
    except Exception as exc:
        hint = untrusted(exc, fix)
        if hint is None:
            raise
        raise ConnectionError(f"{hint} ({exc})") from None
