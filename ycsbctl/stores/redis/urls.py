"""Redis URLs as the protocol takes them: checked before anything starts (:func:`validate`), rewritten for
TLS and ``-p redis.password``/``redis.tls`` (:func:`tls_url`, :func:`url_with_properties`) and handed to
YCSB's Java binding as its properties (:func:`ycsb_binding`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ycsbctl.errors import UserError

if TYPE_CHECKING:
    from ycsbctl.workload.properties import Properties


def validate(url: str, example: str) -> None:
    """redis-py parses ``url``; its client certificate, key and CA files exist; ``ssl_cert_reqs`` is one of
    redis-py's words (UserError, exit 2, otherwise: before anything starts)."""
    from redis.connection import parse_url

    try:
        parse_url(url)
    except (ValueError, TypeError) as exc:
        raise UserError(f"bad Redis URL ({exc}): use {example}, e.g. redis://127.0.0.1:6379/0") from None
    from ycsbctl.user_input import url_files

    url_files(url, ("ssl_certfile", "ssl_keyfile"))  # a client certificate or key that is missing: said now
    from urllib.parse import parse_qsl, urlsplit

    for key, value in parse_qsl(urlsplit(url).query):  # redis-py's three words, as it spells them; another was
        if key == "ssl_cert_reqs" and value not in ("none", "optional", "required"):  # a skipped target, exit 1
            raise UserError(f"bad Redis URL: ssl_cert_reqs={value!r}",
                            fix="use ssl_cert_reqs=required (the default), optional or none (no check)")
    if "ssl_ca_certs=" in url:  # a CA file that is missing or no certificate: said now, not as a server's fault
        from ycsbctl.stores.redis.options import RedisOptions

        RedisOptions(url, {"redis.tls": "true"}).ssl_context()


def tls_url(url: str, ca_file: str) -> str:
    """``rediss://…?ssl_ca_certs=CA`` (redis-py's spelling, which the engine's binding reads too)."""
    from urllib.parse import urlsplit, urlunsplit

    from ycsbctl.urls import with_query

    return urlunsplit(urlsplit(with_query(url, {"ssl_ca_certs": ca_file}))._replace(scheme="rediss"))


def url_with_properties(url: str, properties: Properties) -> str:
    """A ``redis://`` URL without a password takes ``-p redis.password`` (as YCSB's binding does), and
    ``-p redis.tls=true`` makes it ``rediss://`` (TLS), so that every client connects alike."""
    from urllib.parse import quote, urlsplit, urlunsplit

    pw = properties.get("redis.password")
    u = urlsplit(url)
    if u.scheme == "redis" and str(properties.get("redis.tls", "")).lower() in ("true", "yes", "1"):
        u = u._replace(scheme="rediss")
        url = urlunsplit(u)
    if not pw or u.scheme not in ("redis", "rediss") or u.password:
        return url
    user = quote(u.username or "", safe="")
    return urlunsplit(u._replace(netloc=f"{user}:{quote(pw, safe='')}@{u.netloc.rpartition('@')[2]}"))


def ycsb_binding(url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
    """YCSB's redis binding's properties for ``url`` (host, port, timeout, password; a cluster node's
    ``redis.cluster``); UserError for what it cannot speak (TLS, a socket, a database other than 0)."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme != "redis":
        raise UserError(f"YCSB's redis binding speaks plain redis:// only (no TLS, no socket): {parts.scheme}://")
    db = parts.path.strip("/")
    if db not in ("", "0"):
        raise UserError(f"YCSB's redis binding always uses database 0; drop '/{db}' from the URL")
    props = {"redis.host": parts.hostname or "127.0.0.1", "redis.port": str(parts.port or 6379),
             "redis.timeout": str(int(timeout_s * 1000))}
    from ycsbctl.stores.redis.cluster import node_urls

    if node_urls(url):  # a cluster node: the binding's JedisCluster learns the others from it
        if parts.password:
            raise UserError("YCSB's redis binding cannot authenticate to a Redis Cluster (with redis.cluster=true "
                            "it sends no password): run --engine native, or open the cluster to the client")
        props["redis.cluster"] = "true"
    elif parts.password:
        props["redis.password"] = unquote(parts.password)
    return "redis", props
