"""ClickHouse's store (stores/clickhouse/store.py) against a slow HTTP server on loopback: the time its
CREATE TABLE or a plug-in's first SELECT is given, whatever the operations' timeout."""

from __future__ import annotations

import asyncio
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Slow(BaseHTTPRequestHandler):
    """A ClickHouse HTTP interface that takes ``DELAY_S`` over every statement and answers it with no rows."""

    DELAY_S = 0.1

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(self.DELAY_S)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_clickhouses_create_table_or_a_plugins_first_select_may_take_10_s_whatever_the_operations_timeout():
    from ycsbctl.stores import registry

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    url = f"clickhouse://127.0.0.1:{server.server_address[1]}/default"

    async def opened(properties: dict[str, str]) -> int:
        bs = await registry.for_url(url).open_bindings(url, 1, properties, 0.05)
        try:
            return len(bs.bindings)
        finally:
            await bs.close()

    try:
        # YCSB's CoreWorkload: the CREATE TABLE took 0.1 s, two operations' timeouts; a workload plug-in (which
        # creates its own tables): the SELECT 1 that checks the server took as long
        assert asyncio.run(opened({})) == 1
        assert asyncio.run(opened({"workload": "tests.no_such:Plugin"})) == 1
    finally:
        server.shutdown()
        server.server_close()
