"""Target URLs as users may see them (passwords replaced by ``***`` everywhere we print or store), where a URL
points (its host; whether that is this host's loopback), and a URL with options added."""

from __future__ import annotations

import ipaddress
import re
import shlex
from urllib.parse import parse_qsl, quote, unquote_plus, urlencode, urlsplit, urlunsplit

_SECRET_PARAMS = re.compile(r"pass|secret|token|key", re.IGNORECASE)
# The userinfo runs to the netloc's LAST "@" (as urllib and the drivers read the host): an unescaped "@"
# inside a password (``u:p@ss@h``) is part of the password, so all of it is hidden.
_USERINFO = re.compile(r"^(?:(?P<user>[^:]*):(?P<pw>.*)|(?P<lone>.*))@")


def _hidden_pair(pair: str) -> str:
    """One ``key=value`` of a query, its value ``***`` when the key names a secret and the value is not empty."""
    key, sep, value = pair.partition("=")
    return f"{key}=***" if sep and value and _SECRET_PARAMS.search(unquote_plus(key)) else pair


def redact_url(url: str) -> str:
    """``url`` with its password (userinfo and password-like query values) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL urllib reads (a bad IPv6 bracket): everything before the host's "@" is hidden
        scheme, sep, rest = url.partition("://")
        creds, at, host = rest.partition("/")[0].rpartition("@")
        return f"{scheme}{sep}***@{rest[len(creds) + 1:]}" if sep and at else url
    netloc = parts.netloc
    m = _USERINFO.match(netloc)
    if m and m.group("pw") is not None:
        netloc = f"{m.group('user')}:***@{netloc[m.end():]}"
    elif m and m.group("lone") and parts.scheme.startswith("redis"):
        netloc = f"***@{netloc[m.end():]}"  # redis://secret@host: a lone userinfo is the password
    query = parts.query
    if query:  # each secret value hidden, the rest of the query as given (not encoded again: ';' is no '%3B')
        query = "&".join(_hidden_pair(pair) for pair in query.split("&"))
    if netloc == parts.netloc and query == parts.query:  # nothing hidden: the URL as given (basic:// stays whole)
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def unencoded_credentials(url: str) -> bool:
    """Whether the user or password of ``url`` holds a character a URL reads as its own (``/ # ? @``): written
    as they are, they end the credentials early, so the host, port or path read is a piece of the password."""
    rest = url.partition("://")[2]
    creds = rest[:rest.rfind("@")] if "@" in rest else ""
    return any(c in creds for c in "/#?@")


ENCODE_CREDENTIALS = "write them percent-encoded (@ %40, : %3A, / %2F, # %23, ? %3F)"


def without_credentials(url: str) -> str | None:
    """``url`` without its userinfo and ``authSource``/``authMechanism`` (what a server without
    authentication would take); None when it carries none."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    m = _USERINFO.match(parts.netloc)
    if not m:
        return None
    pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not k.lower().startswith("auth")]
    return urlunsplit((parts.scheme, parts.netloc[m.end():], parts.path, urlencode(pairs), parts.fragment))


_URL_IN_TEXT = re.compile(r"[a-z][a-z0-9+.-]*://[^\s'\"<>]+", re.IGNORECASE)
# YCSB-style properties and flags whose name says secret: redis.password=…, -p mongodb.pass=…, --token x
# The key starts where a word does (its dashes included): the leftmost match always did, and a start inside
# a word only retried the word's rest (~3x the time on a point's JSON, written with each point).
_SECRET_WORDS = "pass|pwd|secret|token"  # a property or flag whose name holds one of these is a secret
_SECRET_PROPERTY = re.compile(rf"(?P<key>(?<![\w.-])[\w.-]*(?:{_SECRET_WORDS})[\w.-]*)"
                              r"(?P<sep>=|(?<=[\w.])\s+(?=[^\s-]))(?P<value>[^\s'\",]+)", re.IGNORECASE)
_SECRET_NAME = re.compile(_SECRET_WORDS, re.IGNORECASE)


def redact_text(text: str) -> str:
    """Passwords in free text (command lines, log lines, config values, files we store): in any URL
    (userinfo, password-like query values) and in ``name=value`` properties named like a secret."""
    text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    # a text without a secret's name cannot match the property pattern (python -m bench point_overhead: it is
    # written with each point)
    return _SECRET_PROPERTY.sub(_redact_property, text) if _SECRET_NAME.search(text) else text


def redact_argument(arg: str) -> str:
    """One command-line argument or ``-p`` property with its secret hidden, by parsing it, never by a pattern over
    a whole line: a URL (:func:`redact_url`), ``name=value`` whose value is a URL (``--target=redis://…``) or whose
    name says secret (``redis.password=s3cr'et`` → ``redis.password=***``: a quote or a space in the value is
    still the value), or the argument as given."""
    if "://" in arg.partition("=")[0]:
        return redact_url(arg)
    name, sep, value = arg.partition("=")
    if not sep or not value:
        return arg
    if "://" in value:
        return f"{name}={redact_url(value)}"
    return f"{name}=***" if _SECRET_NAME.search(name) else arg


def redact_arguments(args: list[str]) -> list[str]:
    """``args`` (a command line's, ``-p`` properties) each through :func:`redact_argument`, and the value after a
    flag whose name says secret (``--password s3cr'et``) hidden whole."""
    out: list[str] = []
    for i, arg in enumerate(args):
        flag = args[i - 1] if i else ""
        secret_flag = flag.startswith("-") and "=" not in flag and bool(_SECRET_NAME.search(flag))
        out.append("***" if secret_flag and not arg.startswith("-") else redact_argument(arg))
    return out


def command_line(argv: list[str]) -> str:
    """``ycsbctl ARGS…`` as the folder and the host claim record it: each argument redacted as it was given
    (:func:`redact_arguments`), then quoted for a shell."""
    return shlex.join(["ycsbctl", *redact_arguments(argv)])


def _redact_property(m: re.Match) -> str:
    if m["sep"] != "=" and not m["key"].startswith("-"):  # "name value" only as a command-line flag
        return m.group(0)
    return f"{m['key']}{m['sep']}***"


def host_of(url: str) -> str | None:
    """The host of a redis:// or mongodb:// URL (first host of a list); None for basic://."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2].split(",")[0]  # the hosts after any credentials; the first
    if not netloc:
        return None
    if netloc.startswith("["):
        return netloc[1:netloc.index("]")]
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a name or an address) is this host's loopback."""
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def with_query(url: str, params: dict[str, str]) -> str:
    """``url`` with ``params`` after the query parameters it already has (``?`` or ``&`` as it needs), each value
    percent-encoded as a path is (``/`` kept: a CA file's path reads as itself)."""
    u = urlsplit(url)
    added = "&".join(f"{k}={quote(v)}" for k, v in params.items())
    return urlunsplit(u._replace(query="&".join(q for q in (u.query, added) if q)))
