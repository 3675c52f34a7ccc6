"""Each store's TLS URL (``Tls.tls_url``, which the TLS study's provisioning hands to every client) read back by
urllib: the options it had kept, the TLS ones added after them, the CA file's path as given."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import Tls

CA = "/tmp/a ca/ca.pem"  # a space, as a user's folder may have: percent-encoded, read back as itself


@pytest.mark.parametrize("url, added", [
    ("mongodb://127.0.0.1:27017/ycsb", [("tls", "true"), ("tlsCAFile", CA)]),
    ("postgresql://u@127.0.0.1:5432/ycsb", [("sslmode", "verify-full"), ("sslrootcert", CA)]),
    ("mariadb://root@127.0.0.1:3306/ycsb", [("ssl", "true"), ("ssl_ca", CA)]),
    ("redis://127.0.0.1:6379/0", [("ssl_ca_certs", CA)]),
])
@pytest.mark.parametrize("kept", ["", "connect_timeout=5&x=a%2Fb"])
def test_a_tls_url_keeps_the_urls_options_and_adds_its_own_after_them(url: str, added: list, kept: str) -> None:
    given = f"{url}?{kept}" if kept else url
    proto = registry.find(given)
    assert isinstance(proto, Tls)
    u = urlsplit(proto.tls_url(given, CA))
    assert u.netloc == urlsplit(url).netloc and u.path == urlsplit(url).path
    assert u.scheme == ("rediss" if url.startswith("redis") else urlsplit(url).scheme)
    assert parse_qsl(u.query) == parse_qsl(kept) + added
    assert u.query.startswith(kept) and u.query.count("?") == 0
