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
    the next URL. An empty value or item is a UserError."""
    out: list[str] = []
    for v in values:
        parts: list[str] = []
        for piece in _BEFORE_URL.split(v):
            parts += [piece] if piece.startswith(registry.host_list_prefixes()) else piece.split(",")
        for p in parts:
            if not p.strip():  # a script's unset variable ("--target ''", "--targets $A,$B"): never "no target given"
                raise UserError(f"--target/--targets {v!r}: a target is empty; name each target (redis, mongodb, "
                                "basic://, redis://host:port…), or give no --target for the default plan")
            p = registry.expand_alias(p.strip())
            if is_url(p):
                validate_url(p)
            if p and p not in out:
                out.append(p)
    return out


def validate_url(url: str) -> None:
    """The store's check of ``url`` (a bad port or host is one line now, not a crash later); a URL whose credentials
    hold a character of the URL's own is told to percent-encode them, without the parser's words, which quote a
    piece of the password as the port or host they took it for."""
    from ycsbctl.urls import ENCODE_CREDENTIALS, unencoded_credentials

    proto = registry.for_url(url)
    if 0 in given_ports(url):  # urllib reads ":0" as 0 and every store's "port or its default" took 6379, 27017…
        from ycsbctl.urls import redact_url

        raise UserError(f"{redact_url(url)}: port 0 is no server's port; give the port the server listens on, or "
                        "none for its store's default")
    try:
        proto.validate(url)
    except UserError:
        if not unencoded_credentials(url):
            raise
        raise UserError(f"bad {proto.title or proto.name} URL: its user or password holds a character the URL reads "
                        f"as its own (/ # ? @)", fix=ENCODE_CREDENTIALS) from None


def given_ports(url: str) -> list[int]:
    """The ports ``url`` names, one per host of its host list that gives one (``redis://h:0``, ``mongodb://a:1,b:2``,
    ``redis://[::1]:7000``), in ASCII digits; a host without one (its store's default) gives none."""
    from urllib.parse import urlsplit

    from ycsbctl.user_input import WHOLE

    hosts = urlsplit(url).netloc.rpartition("@")[2]
    ports = []
    for host in hosts.split(","):
        _, colon, port = (host.rpartition("]")[2] if host.startswith("[") else host).rpartition(":")
        if colon and WHOLE.fullmatch(port):
            ports.append(int(port))
    return ports


def is_url(target: str) -> bool:
    return target.startswith(URL_SCHEMES)


def target_label(target: str, among: tuple[str, ...] | list[str] = ()) -> str:
    """A short, credential-free name for a target (run ids, tables): its store and address. Among the targets
    ``among`` (a plan's), one name per target (:func:`target_labels`): two that share an address (another
    database number or file) are told apart."""
    if target in among:
        return target_labels(among)[list(among).index(target)]
    return _address_label(target)


def target_labels(targets: tuple[str, ...] | list[str]) -> list[str]:
    """:func:`target_label` of each of ``targets``, never one name for two: targets whose address names match
    take what tells them apart after the address (``redis-127-0-0-1-6379-db1``, ``sqlite-a.db``); any still alike
    (another user only) are numbered in order (``…-2``)."""
    labels = [_address_label(t) for t in targets]
    twins = [labels.count(x) > 1 for x in labels]
    labels = [f"{x}-{_path_label(t)}" if twin and _path_label(t) else x for x, t, twin in zip(labels, targets, twins)]
    out: list[str] = []
    for x in labels:
        n = labels[:len(out)].count(x)
        out.append(x if n == 0 and labels.count(x) == 1 else f"{x}-{n + 1}")
    return out


def _address_label(target: str) -> str:
    if not is_url(target):
        return target
    from urllib.parse import urlparse

    proto = registry.for_url(target)
    if not proto.has_server:
        return proto.name
    u = urlparse(target)
    try:
        port = u.port
    except ValueError:  # a host list (mongodb://h1:1,h2:2/db): every host, as given
        hosts = u.netloc.rpartition("@")[2]
        return f"{u.scheme.split('+')[0]}-{re.sub(r'[^A-Za-z0-9,-]', '-', hosts)}"
    host = (u.hostname or "host").replace(".", "-")
    return f"{u.scheme.split('+')[0]}-{host}-{port}" if port else f"{u.scheme}-{host}"


def _path_label(target: str) -> str:
    """What follows a URL's address, as a name: ``db1`` (a database number), ``ycsb`` (a database), ``a.db`` (a
    file's name); '' for none or a name that is not a URL."""
    from urllib.parse import urlparse

    if not is_url(target):
        return ""
    path = urlparse(target).path.strip("/")
    name = path.rsplit("/", 1)[-1] if not registry.for_url(target).has_server else path
    name = re.sub(r"[^A-Za-z0-9._-]", "-", name)
    return f"db{name}" if name.isdigit() else name
