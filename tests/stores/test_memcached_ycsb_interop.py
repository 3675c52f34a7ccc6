"""A dataset loaded by ycsbctl is read by YCSB's own client, and the other way round, against a real
memcached, each side checking every value with ``dataintegrity=true`` (YCSB's deterministic values).

The Java side is ``site.ycsb.Client`` (core 0.17.0 from Maven Central) with a DB that makes the calls
of YCSB's memcached binding through the libraries the binding declares (spymemcached 2.11.4 over the
text protocol, Jackson 1.9.13; ``infra/ycsb-memcached/pom.xml``): the binding itself is not published
on Maven Central. The DB (tests/data/memcached/SpymemcachedDB.java) is compiled here with the JDK's
compiler module, which Debian's JRE carries.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.servers import ROOT
from tests.fixtures.ycsb_twin import run_client, twin_or_real
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

MEMCACHED_LIB = ROOT / ".cache" / "ycsb-memcached" / "lib"
TWIN = ROOT / "tests" / "data" / "memcached" / "SpymemcachedDB.java"
RECORDS = 300


TWIN_CLASS = "ycsbctl.interop.SpymemcachedDB"


@pytest.fixture(scope="session")
def ycsb_memcached(ycsb_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(classpath, DB class): the compiled DB, the memcached binding's libraries (first: its Jackson
    1.9.13 wins over core's 1.9.4, as in the binding's own folder), then YCSB core. With
    ``YCSB_MEMCACHED_CLASSES`` (a folder of YCSB's own memcached binding compiled from its source at
    0.17.0 against these libraries) the same tests run the real ``site.ycsb.db.MemcachedClient``."""
    libs = sorted(MEMCACHED_LIB.glob("*.jar"))
    if not any(j.name.startswith("spymemcached-") for j in libs):
        pytest.skip(f"spymemcached missing in {MEMCACHED_LIB} "
                    "(mvn -f infra/ycsb-memcached/pom.xml dependency:copy-dependencies, or scripts/setup.sh "
                    "--for-tests)")
    return twin_or_real("YCSB_MEMCACHED_CLASSES", "site.ycsb.db.MemcachedClient", TWIN, TWIN_CLASS, libs,
                        ycsb_classpath,
                        tmp_path_factory.mktemp("ycsb-memcached-db"))


def ycsb(db: tuple[str, str], phase: str, port: int, *props: str) -> dict[str, dict[str, int]]:
    """Run YCSB's client (``db`` = classpath, DB class) against 127.0.0.1:``port``; its ``Return=``
    counts per operation."""
    given = {"memcached.hosts": f"127.0.0.1:{port}", "recordcount": str(RECORDS), "dataintegrity": "true",
             **dict(p.split("=", 1) for p in props)}
    return run_client(db[0], db[1], phase, given)


def props(workload: str, **overrides: object) -> dict[str, str]:
    p = dict(load_properties(workload))
    p.update({"recordcount": str(RECORDS), "dataintegrity": "true", **{k: str(v) for k, v in overrides.items()}})
    return p


def test_ycsb_reads_and_verifies_every_record_ycsbctl_loaded(memcached_server, ycsb_memcached):
    load = run_phase(PhaseSpec("load", memcached_server.url, props("workload-c"), threads=4, processes=1))
    assert load.status == "ok", load.errors
    got = ycsb(ycsb_memcached, "run", memcached_server.port, "operationcount=900", "requestdistribution=sequential")
    # sequential: each of the 300 records is read (and its every field checked) three times
    assert got["READ"] == {"OK": 900}
    assert got["VERIFY"] == {"OK": 900}
    # and YCSB updates what ycsbctl loaded (replace of an existing key)
    got = ycsb(ycsb_memcached, "run", memcached_server.port, "operationcount=300", "readproportion=0",
               "updateproportion=1", "requestdistribution=sequential")
    assert got["UPDATE"] == {"OK": 300}


def test_ycsbctl_reads_and_verifies_every_record_ycsb_loaded(memcached_server, ycsb_memcached):
    assert ycsb(ycsb_memcached, "load", memcached_server.port)["INSERT"] == {"OK": RECORDS}
    run = run_phase(PhaseSpec("run", memcached_server.url,
                              props("workload-c", operationcount=900, requestdistribution="sequential"),
                              threads=3, processes=1))
    assert run.status == "ok", run.errors
    assert run.ops["READ"].returns == {"OK": 900}
    assert run.ops["VERIFY"].returns == {"OK": 900}


def test_ycsb_verifies_every_record_ycsbctl_replaced(memcached_server, ycsb_memcached):
    """ycsbctl's updates (``replace`` with every field: writeallfields) read back whole by YCSB."""
    run_phase(PhaseSpec("load", memcached_server.url, props("workload-a"), threads=2, processes=1))
    upd = run_phase(PhaseSpec("run", memcached_server.url,
                              props("workload-a", operationcount=RECORDS, readproportion=0, updateproportion=1,
                                    writeallfields="true", requestdistribution="sequential"), threads=2, processes=1))
    assert upd.ops["UPDATE"].returns == {"OK": RECORDS}
    got = ycsb(ycsb_memcached, "run", memcached_server.port, "operationcount=300", "requestdistribution=sequential")
    assert got["READ"] == {"OK": 300} and got["VERIFY"] == {"OK": 300}


def test_engine_ycsb_runs_a_release_folders_memcached_binding(ycsb_classpath: str, tmp_path):
    """``--engine ycsb`` against a memcached URL: a YCSB release's ``memcached-binding`` and its hosts property."""
    from ycsbctl.engine.ycsb_java import build_command, find_ycsb

    home = tmp_path / "ycsb-0.17.0"
    (home / "lib").mkdir(parents=True)
    for jar in ycsb_classpath.split(":"):
        (home / "lib" / Path(jar).name).symlink_to(jar)
    binding = home / "memcached-binding" / "lib" / "memcached-binding-0.17.0.jar"
    binding.parent.mkdir(parents=True)
    binding.write_bytes(b"")
    cmd = build_command(PhaseSpec(phase="run", url="memcached://127.0.0.1:11300", threads=4), find_ycsb(str(home)))
    assert cmd[cmd.index("-db") + 1] == "site.ycsb.db.MemcachedClient" and str(binding) in cmd[2]
    assert "memcached.hosts=127.0.0.1:11300" in cmd
