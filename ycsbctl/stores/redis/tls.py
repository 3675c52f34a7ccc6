"""What to do when TLS is why a Redis connection failed, in one line (the engine's binding and the
admin client both say it): a certificate the client does not trust, or a server and a client that
disagree about TLS on a port."""

from __future__ import annotations

import ssl

UNTRUSTED = "TLS certificate not trusted: add ?ssl_ca_certs=/path/ca.crt to the URL (or ?ssl_cert_reqs=none)"
NO_TLS_THERE = "no TLS on this port: use redis:// (or drop -p redis.tls=true)"
NO_HANDSHAKE = "no answer to the TLS handshake: if the server speaks no TLS on this port, use redis://"
TLS_THERE = "the server may speak TLS on this port: use rediss:// (or -p redis.tls=true)"


EXPIRED = ("TLS certificate of the server expired (or is not valid yet): renew it (or ?ssl_cert_reqs=none to skip "
           "the check)")
OTHER_HOST = ("TLS certificate of the server names another host: connect by a name or address it lists (or "
              "?ssl_cert_reqs=none to skip the check)")


def untrusted(text: str) -> str:
    """Which hint a failed certificate check (OpenSSL's verify message in ``text``) calls for: trusted but
    expired, or made for another host, is not fixed by giving a CA."""
    low = text.lower()
    if "has expired" in low or "not yet valid" in low:
        return EXPIRED
    if "mismatch" in low:  # "IP address mismatch" / "Hostname mismatch, certificate is not valid for …"
        return OTHER_HOST
    return UNTRUSTED


def tls_hint(exc: BaseException | str, tls: bool) -> str | None:
    """The hint for a connection that failed with ``exc`` (or its text), the client speaking TLS or
    not (``tls``); None when TLS is not the likely cause."""
    text = str(exc)
    if isinstance(exc, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in text:
        return untrusted(f"{getattr(exc, 'verify_message', '')} {text}")
    if tls and (isinstance(exc, TimeoutError) or type(exc).__name__ == "TimeoutError"):
        # a plain server reads a ClientHello as half a command, and waits (redis-py's own class too)
        return NO_HANDSHAKE
    if tls and (isinstance(exc, ssl.SSLError) or "SSL" in text or "reset by peer" in text or "EOF" in text):
        return NO_TLS_THERE
    if not tls and ("reset by peer" in text or "closed by the server" in text or "Connection closed" in text):
        return TLS_THERE
    return None


def with_tls_hint(exc: BaseException, tls: bool) -> str:
    """The TLS hint first when TLS is the likely cause (a message cut to one line keeps it), then
    ``exc``'s text."""
    text = str(exc) or "timed out"
    hint = tls_hint(exc, tls)
    return f"{hint} ({text})" if hint else text

