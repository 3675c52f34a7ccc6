"""A dataset loaded by ycsbctl is read by YCSB's own client through JDBC, and the other way round, on
PostgreSQL, MariaDB and SQLite, each side checking every value with ``dataintegrity=true`` (YCSB's
deterministic values); then each side updates, inserts and scans and the other reads every record
back; and keys never loaded get the binding's statuses (NOT_FOUND to a read, UNEXPECTED_STATE to an
update).

The Java side is ``site.ycsb.Client`` (core 0.17.0 from Maven Central) with a DB that issues the JDBC
statements of YCSB's jdbc binding (``site.ycsb.db.JdbcDBClient``, 0.17.0) through the drivers of
``infra/ycsb-jdbc/pom.xml`` (PostgreSQL, MariaDB Connector/J, xerial sqlite-jdbc; Maven Central),
with the properties ycsbctl's ``ycsb_binding()`` gives for the URL: the binding itself is not
published on Maven Central (``infra/ycsb-jdbc/interop.sh`` runs it, built from YCSB's source, by
hand). The DB (tests/data/sql/JdbcTwinDB.java) is compiled here with the JDK's compiler module.
Row counts are checked against the database's own command-line client.
"""

from __future__ import annotations

import pytest

from tests.fixtures.servers import ROOT
from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.ycsb_twin import run_client, twin_or_real
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores import registry
from ycsbctl.stores.sql.layout import create_table, field_names
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth

JDBC_LIB = ROOT / ".cache" / "ycsb-jdbc" / "lib"
TWIN = ROOT / "tests" / "data" / "sql" / "JdbcTwinDB.java"
TWIN_CLASS = "ycsbctl.interop.JdbcTwinDB"
DRIVERS = ("postgresql-", "mariadb-java-client-", "sqlite-jdbc-")
RECORDS = 500
# half updates of one field, a third inserts, the rest short scans: what both sides write, and a range
MIX = {"readproportion": 0, "updateproportion": 0.5, "insertproportion": 0.3, "scanproportion": 0.2,
       "maxscanlength": 10}


@pytest.fixture(scope="session")
def ycsb_jdbc(ycsb_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(classpath, DB class): the compiled twin, the JDBC drivers, then YCSB core. With
    ``YCSB_JDBC_CLASSES`` (a folder of YCSB's own jdbc binding compiled from its source, as
    infra/ycsb-jdbc/interop.sh does) the same tests run the real ``site.ycsb.db.JdbcDBClient``."""
    libs = sorted(JDBC_LIB.glob("*.jar"))
    missing = [d for d in DRIVERS if not any(j.name.startswith(d) for j in libs)]
    if missing:
        pytest.skip(f"JDBC drivers {missing} missing in {JDBC_LIB} "
                    "(mvn -f infra/ycsb-jdbc/pom.xml dependency:copy-dependencies, or scripts/setup.sh --for-tests)")
    return twin_or_real("YCSB_JDBC_CLASSES", "site.ycsb.db.JdbcDBClient", TWIN, TWIN_CLASS, libs, ycsb_classpath,
                        tmp_path_factory.mktemp("ycsb-jdbc-db"))


@pytest.fixture(params=["postgresql", "mariadb", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path) -> tuple[str, str]:
    """(store, URL) with no ``usertable`` yet: the module's PostgreSQL and MariaDB servers, or a fresh
    SQLite file."""
    name = request.param
    url = f"sqlite://{tmp_path}/ycsb.db" if name == "sqlite" else request.getfixturevalue(name).url
    registry.for_url(url).clear(url, "usertable")
    return name, url


def props(workload: str = "workload-c", **overrides: object) -> dict[str, str]:
    p = dict(load_properties(workload))
    p.update({"recordcount": str(RECORDS), "dataintegrity": "true", **{k: str(v) for k, v in overrides.items()}})
    return p


def ycsb(db: tuple[str, str], url: str, phase: str, **overrides: object) -> dict[str, dict[str, int]]:
    """YCSB's client with ``db`` (classpath, DB class: the twin of its jdbc binding) at ``url``, given what ycsbctl's
    ``ycsb_binding()`` says for that URL (db.driver, db.url, db.user, db.passwd)."""
    binding, jdbc = registry.for_url(url).ycsb_binding(url, 30.0)
    assert binding == "jdbc"
    given = {**jdbc, "recordcount": str(RECORDS), "dataintegrity": "true", **{k: str(v) for k, v in overrides.items()}}
    return run_client(*db, phase, given)


def ours(url: str, phase: str, **overrides: object):
    """ycsbctl's engine, 3 client threads in one process; the phase must end ``ok``."""
    result = run_phase(PhaseSpec(phase, url, props(**overrides), threads=3, processes=1))
    assert result.status == "ok", result.errors
    return result


def rows(store: str, url: str) -> int:
    """``COUNT(*)`` of ``usertable`` as the database's own CLI prints it."""
    return int(cli_rows(store, url, "SELECT COUNT(*) FROM usertable")[0][0])


def mix_counts(returns: dict[str, dict[str, int]]) -> tuple[int, int]:
    """(updates, inserts) of a MIX run whose every operation was OK (scans included)."""
    assert {op: set(r) for op, r in returns.items() if op in ("UPDATE", "INSERT", "SCAN")} == {
        "UPDATE": {"OK"}, "INSERT": {"OK"}, "SCAN": {"OK"}}, returns
    assert sum(returns[op]["OK"] for op in ("UPDATE", "INSERT", "SCAN")) == RECORDS
    return returns["UPDATE"]["OK"], returns["INSERT"]["OK"]


def test_ycsb_reads_and_verifies_every_record_ycsbctl_loaded_and_ycsbctl_reads_ycsbs_writes(store, ycsb_jdbc):
    name, url = store
    assert ours(url, "load").ops["INSERT"].returns == {"OK": RECORDS}
    assert rows(name, url) == RECORDS
    # sequential: every record read once, and its every field checked by YCSB's own verifyRow
    got = ycsb(ycsb_jdbc, url, "run", operationcount=RECORDS, requestdistribution="sequential")
    assert got["READ"] == {"OK": RECORDS} and got["VERIFY"] == {"OK": RECORDS}
    # YCSB updates what ycsbctl loaded and inserts beside it; ycsbctl reads and verifies all of it
    _, inserted = mix_counts(ycsb(ycsb_jdbc, url, "run", operationcount=RECORDS, **MIX))
    assert rows(name, url) == RECORDS + inserted
    total = RECORDS + inserted
    run = ours(url, "run", recordcount=total, operationcount=total, requestdistribution="sequential")
    assert run.ops["READ"].returns == {"OK": total} and run.ops["VERIFY"].returns == {"OK": total}


def test_ycsbctl_reads_and_verifies_every_record_ycsb_loaded_and_ycsb_reads_ycsbctls_writes(store, ycsb_jdbc):
    name, url = store
    # YCSB's binding never creates the table (its JdbcDBCreateTable tool or the user does): ycsbctl's layout
    registry.for_url(url).query(url, create_table("usertable", field_names(props())), 30.0)
    assert ycsb(ycsb_jdbc, url, "load")["INSERT"] == {"OK": RECORDS}
    assert rows(name, url) == RECORDS
    run = ours(url, "run", operationcount=RECORDS, requestdistribution="sequential")
    assert run.ops["READ"].returns == {"OK": RECORDS} and run.ops["VERIFY"].returns == {"OK": RECORDS}
    mixed = ours(url, "run", operationcount=RECORDS, **MIX)
    _, inserted = mix_counts({op: dict(mixed.ops[op].returns) for op in ("UPDATE", "INSERT", "SCAN")})
    assert rows(name, url) == RECORDS + inserted
    total = RECORDS + inserted
    got = ycsb(ycsb_jdbc, url, "run", recordcount=total, operationcount=total, requestdistribution="sequential")
    assert got["READ"] == {"OK": total} and got["VERIFY"] == {"OK": total}


def test_keys_ycsbctl_never_loaded_are_not_found_to_reads_and_unexpected_state_to_updates(store, ycsb_jdbc):
    """The binding's statuses on a missing key (a read finds no row, an update changes none), on the
    keys past ycsbctl's load: every key 0 … 2×RECORDS − 1 once, half of them loaded."""
    _, url = store
    ours(url, "load")
    got = ycsb(ycsb_jdbc, url, "run", recordcount=2 * RECORDS, operationcount=2 * RECORDS,
               requestdistribution="sequential", readproportion=0.5, updateproportion=0.5)
    read, update = got["READ"], got["UPDATE"]
    assert set(read) <= {"OK", "NOT_FOUND"} and set(update) <= {"OK", "UNEXPECTED_STATE"}
    assert read.get("OK", 0) + update.get("OK", 0) == RECORDS
    assert read.get("NOT_FOUND", 0) + update.get("UNEXPECTED_STATE", 0) == RECORDS
    # YCSB's verifyRow: a row it read is right, a row it did not find is an error
    verify = {"OK": read.get("OK", 0), "ERROR": read.get("NOT_FOUND", 0)}
    assert got["VERIFY"] == {k: n for k, n in verify.items() if n}
    assert rows(store[0], url) == RECORDS
