"""MariaDB's store (stores/mariadb/store.py) without a server: a ping whose failure carries no server error
code raises that failure itself."""

from __future__ import annotations

import pytest


def test_a_mariadb_ping_that_fails_without_a_server_error_code_raises_that_failure_itself(monkeypatch):
    from ycsbctl.stores import registry

    proto = registry.for_url("mariadb://u@h:1/d")

    def no_answer(url: str, sql: str, timeout_s: float):
        raise TimeoutError()  # no args: no MySQL error number to read

    monkeypatch.setattr(proto, "query", no_answer)
    with pytest.raises(TimeoutError):
        proto.ping("mariadb://u@127.0.0.1:1/d", 0.1)
