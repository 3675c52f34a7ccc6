"""Target URLs as users may see them: passwords replaced by ``***`` everywhere we print or store."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

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
