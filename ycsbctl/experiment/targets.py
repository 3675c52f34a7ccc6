"""A plan's targets: names and URLs as ``--target``/``--targets`` give them (:func:`split_targets`), each URL
checked by its store, and the short credential-free label a target goes by (:func:`target_label`).
"""

from __future__ import annotations

import re

from ycsbctl.errors import UserError
from ycsbctl.stores import registry

URL_SCHEMES = registry.url_prefixes()  # redis://, rediss://, mongodb://, …: every protocol's schemes


_BEFORE_URL = re.compile(",(?=" + "|".join(re.escape(s) for s in URL_SCHEMES) + ")")


def split_targets(values: tuple[str, ...] | list[str]) -> list[str]:
    """``--target`` values and ``--targets a,b`` lists → one list, order kept, no duplicates;
    a store's alias means its URL (``basic`` → ``basic://``). A list may mix names and URLs
    (``redis://h:1,basic://``); a URL that lists hosts keeps its commas (``mongodb://h1,h2/db``) up to
    the next URL."""
    out: list[str] = []
    for v in values:
        parts: list[str] = []
        for piece in _BEFORE_URL.split(v):
            parts += [piece] if piece.startswith(registry.host_list_prefixes()) else piece.split(",")
        for p in parts:
            p = registry.expand_alias(p.strip())
            if is_url(p):
                _validate(p)
            if p and p not in out:
                out.append(p)
    return out


def _validate(url: str) -> None:
    """The store's check of ``url`` (a bad port or host is one line now, not a crash later); a URL whose credentials
    hold a character of the URL's own is told to percent-encode them, without the parser's words, which quote a
    piece of the password as the port or host they took it for."""
    from ycsbctl.urls import ENCODE_CREDENTIALS, unencoded_credentials

    proto = registry.for_url(url)
    try:
        proto.validate(url)
    except UserError:
        if not unencoded_credentials(url):
            raise
        raise UserError(f"bad {proto.title or proto.name} URL: its user or password holds a character the URL reads "
                        f"as its own (/ # ? @)", fix=ENCODE_CREDENTIALS) from None


def is_url(target: str) -> bool:
    return target.startswith(URL_SCHEMES)


def target_label(target: str) -> str:
    """A short, credential-free name for a target (run ids, tables)."""
    if not is_url(target):
        return target
    from urllib.parse import urlparse

    proto = registry.for_url(target)
    if not proto.has_server:
        return proto.name
    u = urlparse(target)
    host = (u.hostname or "host").replace(".", "-")
    return f"{u.scheme.split('+')[0]}-{host}-{u.port}" if u.port else f"{u.scheme}-{host}"
