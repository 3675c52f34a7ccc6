"""MongoDB operations against what the server itself says.

- Scans: a recording TCP relay between the binding and mongo-wire reads the documents the server
  sent back (OP_MSG replies decoded here with bson), so a scan's start key, order and limit are the
  server's answer, not the binding's status.
- Counts: the engine's operations per kind against the server's own command counters
  (FerretDB's ``serverStatus().metrics.commands``; it has no ``opcounters``) and its document count.
"""

from __future__ import annotations

import contextlib
import random
import socket
import struct
import threading
import uuid
from collections.abc import Iterator

import bson
import pytest
from pymongo import MongoClient

from tests.fixtures.bindings import run_bindings
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores.binding import Status
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth

TABLE = "usertable"
OP_MSG = 2013


class RecordingRelay:
    """Forwards 127.0.0.1:port to the server and keeps every reply document the server sent."""

    def __init__(self, server_port: int) -> None:
        self.server_port = server_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.replies: list[dict] = []
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.server_port))
            self.sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, True), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, from_server: bool) -> None:
        buf = b""
        try:
            while data := src.recv(65536):
                if from_server:  # recorded before the client can see it
                    buf = self._decode(buf + data)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def _decode(self, buf: bytes) -> bytes:
        while len(buf) >= 16:
            length, _, _, opcode = struct.unpack_from("<iiii", buf)
            if len(buf) < length:
                break
            msg, buf = buf[:length], buf[length:]
            if opcode == OP_MSG and msg[20] == 0:  # flagBits, then a kind-0 section: the body document
                with self.lock:
                    self.replies.append(bson.decode(msg[21:21 + struct.unpack_from("<i", msg, 21)[0]]))
        return buf

    def documents(self) -> list[list[str]]:
        """The ``_id``s of each cursor batch the server returned, in its order."""
        with self.lock:
            return [[d["_id"] for d in r["cursor"].get("firstBatch", r["cursor"].get("nextBatch", []))]
                    for r in self.replies if isinstance(r.get("cursor"), dict)]

    def clear(self) -> None:
        with self.lock:
            self.replies.clear()

    def close(self) -> None:
        self.listener.close()
        for s in self.sockets:
            s.close()


@pytest.fixture
def db(mongo_wire) -> Iterator[tuple[str, object]]:
    name = "t" + uuid.uuid4().hex[:10]
    client = MongoClient(mongo_wire.url, serverSelectionTimeoutMS=5000)
    yield name, client[name]
    client.drop_database(name)
    client.close()


@pytest.fixture
def relay(mongo_wire) -> Iterator[RecordingRelay]:
    r = RecordingRelay(mongo_wire.port)
    yield r
    r.close()


KEYS = [f"user{n}" for n in range(10, 30)]


@pytest.mark.parametrize("driver", ["auto", "pymongo"])
def test_scan_returns_from_the_start_key_inclusive_in_key_order_and_at_most_count(db, relay, driver):
    name, database = db
    shuffled = KEYS[:]
    random.Random(3).shuffle(shuffled)  # stored out of order: only a sort gives key order
    database[TABLE].insert_many([{"_id": k, "field0": b"v"} for k in shuffled])
    url = f"mongodb://127.0.0.1:{relay.port}/{name}"
    cases = [("user13", 4), ("user29", 3), ("user125", 2), ("user10", 20), ("user18", 1), ("user3", 5)]
    expected = {(start, n): sorted(k for k in KEYS if k >= start)[:n] for start, n in cases}
    assert expected[("user13", 4)] == ["user13", "user14", "user15", "user16"]

    for start, n in cases:
        relay.clear()

        async def scan(b, start=start, n=n):
            return await b[0].scan(TABLE, start.encode(), n, None)

        status = run_bindings(scan, url, 1, {"mongodb.driver": driver})
        got = [i for batch in relay.documents() for i in batch]
        assert got == expected[(start, n)], (start, n)
        assert status is (Status.OK if got else Status.NOT_FOUND)


def _commands(client: MongoClient) -> dict[str, int]:
    c = client.admin.command("serverStatus")["metrics"]["commands"]
    return {k: int(v.get("total", 0)) for k, v in c.items()}


def _delta(before: dict[str, int], after: dict[str, int], name: str) -> int:
    return after.get(name, 0) - before.get(name, 0)


def _props(workload: str, **overrides: object) -> dict[str, str]:
    props = dict(load_properties(workload))
    props.update({k: str(v) for k, v in overrides.items()})
    return props


def test_engine_counts_per_operation_equal_the_servers_command_counters(mongo_wire):
    name = "t" + uuid.uuid4().hex[:10]
    url = f"mongodb://127.0.0.1:{mongo_wire.port}/{name}"
    client = MongoClient(mongo_wire.url, serverSelectionTimeoutMS=5000)
    try:
        before = _commands(client)
        load = run_phase(PhaseSpec("load", url, _props("workload-a", recordcount=150), threads=3, processes=1))
        after = _commands(client)
        assert load.status == "ok", load.errors
        assert load.ops["INSERT"].operations == _delta(before, after, "insert") == 150
        assert client[name][TABLE].count_documents({}) == 150

        before = after
        run = run_phase(PhaseSpec("run", url, _props("workload-a", recordcount=150, operationcount=400),
                                  threads=4, processes=1))
        after = _commands(client)
        assert run.status == "ok", run.errors
        reads = sum(run.ops["READ"].returns.values())
        updates = sum(run.ops["UPDATE"].returns.values())
        assert reads + updates == run.operations == 400
        assert _delta(before, after, "find") == reads and reads == run.ops["READ"].operations
        assert _delta(before, after, "update") == updates and updates == run.ops["UPDATE"].operations
        assert _delta(before, after, "insert") == 0
    finally:
        client.drop_database(name)
        client.close()
