"""``dataintegrity=true``: YCSB's deterministic values, written and checked on every read, with
YCSB's ``[VERIFY]`` measurement — against the real YCSB jar, Redis and a MongoDB-wire server."""

from __future__ import annotations

import subprocess
import uuid

import pytest
import redis
from pymongo import MongoClient

from tests.fixtures.ycsb_basicdb import parse_values, ycsb_command
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.core import CoreWorkload
from ycsbctl.workload.integrity import deterministic_value
from ycsbctl.workload.keys import build_key_name
from ycsbctl.workload.properties import Properties, load_properties

MIX = {"readproportion": 0.4, "updateproportion": 0.3, "insertproportion": 0.1, "readmodifywriteproportion": 0.2}


def _props(**overrides: object) -> dict[str, str]:
    props = dict(load_properties("workload-a"))
    props.update({"dataintegrity": "true", "recordcount": "200"})
    props.update({k: str(v) for k, v in overrides.items()})
    return props


def _load_and_run(url: str, ops: int = 3000, records: int = 200, processes: int = 2,
                  **run_props: object) -> PhaseResult:
    load = run_phase(PhaseSpec("load", url, _props(recordcount=records), threads=4, processes=processes))
    assert load.status == "ok" and load.ops["INSERT"].returns == {"OK": records}, load.errors
    r = run_phase(PhaseSpec("run", url, _props(operationcount=ops, recordcount=records, **run_props), threads=4,
                            processes=processes))
    assert r.status == "ok", r.errors
    return r


def test_values_are_ycsbs_deterministic_values(ycsb_classpath: str, tmp_path) -> None:
    cmd = ycsb_command(ycsb_classpath, "load", "workloada", "recordcount=20", "dataintegrity=true", "fieldlength=150")
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path).stdout
    lines = [line for line in out.splitlines() if line.startswith("INSERT ")]
    assert len(lines) == 20
    for n, line in enumerate(lines):
        key = build_key_name(n).encode()
        assert line.split(" ")[2] == key.decode()
        names = [
            part.split("=", 1)[0]
            for part in line.split(" [ ", 1)[1].split(" ")
            if part.startswith("field") and "=" in part
        ]
        values = parse_values(line, 150)
        assert len(values) == 10
        for name, value in zip(names, values):
            assert value == deterministic_value(key, name.encode(), 150)


def test_dataintegrity_needs_constant_field_lengths() -> None:
    with pytest.raises(UserError, match="fieldlengthdistribution=constant"):
        CoreWorkload.from_properties(Properties({"dataintegrity": "true", "fieldlengthdistribution": "uniform"}))
    assert CoreWorkload.from_properties(Properties({"dataintegrity": "true"})).dataintegrity


def test_every_read_verifies_against_redis(redis_server) -> None:
    r = _load_and_run(redis_server.url, **MIX)
    reads = r.ops["READ"].returns["OK"]  # reads and the read halves of read-modify-writes
    assert reads > 1000 and r.ops["INSERT"].returns["OK"] > 100 and r.ops["READ-MODIFY-WRITE"].operations > 300
    assert r.ops["VERIFY"].returns == {"OK": reads}
    assert r.operations == 3000  # VERIFY is a measurement, not an operation


@pytest.mark.parametrize("driver", ["wire", "pymongo"])
def test_every_read_verifies_against_mongo_wire(mongo_wire, driver: str) -> None:
    name = f"di_{uuid.uuid4().hex[:8]}"
    client = MongoClient(mongo_wire.url, serverSelectionTimeoutMS=5000)
    try:
        url = f"mongodb://127.0.0.1:{mongo_wire.port}/{name}"
        extra = {"mongodb.driver": "pymongo"} if driver == "pymongo" else {}
        r = _load_and_run(url, 400, 60, 1, **MIX, **extra)  # FerretDB over SQLite is slow: a small run
        reads = r.ops["READ"].returns["OK"]
        assert reads > 120 and r.ops["INSERT"].returns["OK"] > 15 and r.ops["VERIFY"].returns == {"OK": reads}
    finally:
        client.drop_database(name)
        client.close()


def test_a_corrupted_record_is_an_unexpected_state(redis_server) -> None:
    rds = redis.Redis(port=redis_server.port)
    rds.flushall()
    try:
        run_phase(PhaseSpec("load", redis_server.url, _props(), threads=2, processes=1))
        rds.hset(build_key_name(7), "field3", b"x" * 100)
        rds.delete(build_key_name(8))
        r = run_phase(PhaseSpec("run", redis_server.url, _props(operationcount=3000, requestdistribution="uniform",
                                                                readproportion=1, updateproportion=0), threads=2,
                                processes=1))
        verify = r.ops["VERIFY"].returns
        assert verify["UNEXPECTED_STATE"] > 0 and verify["ERROR"] > 0  # key 7 altered, key 8 gone
        assert verify["OK"] == 3000 - verify["UNEXPECTED_STATE"] - verify["ERROR"]
        assert r.ops["READ"].returns["NOT_FOUND"] == verify["ERROR"]
    finally:
        rds.flushall()


def test_basicdb_returns_no_data_so_every_verify_is_an_error_as_in_ycsb(ycsb_classpath: str, tmp_path) -> None:
    cmd = ycsb_command(ycsb_classpath, "run", "workloada", "dataintegrity=true", "operationcount=500")
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path).stdout
    theirs = dict(line.split(", ")[1:] for line in out.splitlines() if line.startswith("[VERIFY], Return="))
    r = run_phase(PhaseSpec("run", "basic://", _props(operationcount=500, recordcount=1000), threads=1, processes=1))
    assert set(theirs) == {"Return=ERROR"} and set(r.ops["VERIFY"].returns) == {"ERROR"}
    assert r.ops["VERIFY"].returns["ERROR"] == r.ops["READ"].operations
