"""The SQL clients, chosen by measurement: client CPU per point read by primary key, side by side.

Starts PostgreSQL 15 and MariaDB 10.11 with ycsbctl's local backend (data on tmpfs, durability off),
fills ``usertable`` with ``--records`` rows, then for ``--duration`` s per case, with ``--threads``
connections in ONE process (one core of client at most), runs ``SELECT * FROM usertable WHERE
YCSB_KEY = ?`` on random keys through:

- PostgreSQL: ycsbctl's engine (one worker process, workload C) on the wire-protocol binding and on
  asyncpg's, asyncpg alone, and ``pgbench -S`` (select-only by primary key on its
  own ``pgbench_accounts``, ``-M prepared``, ``-j 1``), whose client CPU is read from its rusage.
  Goal (issue 36): the engine's client CPU per operation (wire path) ≤ 1.25 × pgbench's.
- MariaDB: asyncmy and aiomysql alone, and ycsbctl's engine on the wire-protocol binding and on asyncmy's.

It prints ops/s and client CPU µs per operation (cores are shared: read ratios, not rates).

    .venv/bin/python -m bench sql_clients
    .venv/bin/python bench/sql_clients.py [--records 10000] [--duration 5] [--threads 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.provision.auto import provisioned  # noqa: E402
from ycsbctl.stores.mariadb.session import connect_args  # noqa: E402

KEYS: list[str] = []


async def _load(url: str, records: int) -> None:
    from ycsbctl.stores.registry import open_bindings

    bs = await open_bindings(url, 1, {}, 10.0)
    try:
        b = bs.bindings[0]
        values = [(f"field{i}".encode(), b"x" * 100) for i in range(10)]
        await b.delete("usertable", b"")  # nothing: warms the connection
        for k in KEYS[:records]:
            await b.insert("usertable", k.encode(), values)
    finally:
        await bs.close()


async def _reads(fetch_one, conns: list, duration_s: float) -> int:
    stop = time.perf_counter() + duration_s
    done = 0

    async def client(c) -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await fetch_one(c, random.choice(KEYS))
            done += 1

    await asyncio.gather(*(client(c) for c in conns))
    return done


def measure(name: str, opener, closer, fetch_one, threads: int, duration_s: float) -> tuple[str, float, float]:
    """(name, ops/s, client CPU µs per op) of ``threads`` connections in this process."""

    async def go() -> tuple[int, float, float]:
        conns = [await opener() for _ in range(threads)]
        await _reads(fetch_one, conns, 0.5)  # warm-up: statements prepared, caches filled
        cpu0, t0 = time.process_time(), time.perf_counter()
        n = await _reads(fetch_one, conns, duration_s)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
        for c in conns:
            await closer(c)
        return n, cpu, wall

    n, cpu, wall = asyncio.run(go())
    return name, n / wall, 1e6 * cpu / max(n, 1)


def engine(name: str, url: str, driver: dict[str, str], threads: int, duration_s: float,
           records: int) -> tuple[str, float, float]:
    """ycsbctl's own engine, one worker process, workload C (reads by primary key): its client CPU per op."""
    from ycsbctl.engine.runner import run_phase
    from ycsbctl.engine.spec import PhaseSpec
    from ycsbctl.workload.properties import load_properties

    props = {**load_properties("workload-c"), "recordcount": str(records), "operationcount": "0", **driver}
    r = run_phase(PhaseSpec("run", url, props, threads=threads, duration_s=duration_s, processes=1))
    return name, 1000 * r.operations / max(r.runtime_ms, 1e-9), 1e6 * r.client_cpu_s / max(r.operations, 1)


def pgbench_exe() -> str | None:
    exe = shutil.which("pgbench") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/pgbench"))), None)
    if exe is None:
        print("pgbench not found: its rows are skipped (apt-get install postgresql-contrib)")
    return None if exe is None else str(exe)


def pgbench(url: str, threads: int, duration_s: float, records: int) -> tuple[str, float, float] | None:
    """``pgbench -S``: one int column by primary key from its own ``pgbench_accounts`` (the goal's reference)."""
    exe = pgbench_exe()
    if exe is None:
        return None
    scale = max(1, records // 100_000)
    subprocess.run([exe, "-i", "-q", "-s", str(scale), url], check=True, capture_output=True)
    return _pgbench_run("pgbench -S (prepared, -j 1)", [exe, "-S"], url, threads, duration_s)


async def _ten_column_table(url: str, records: int) -> None:
    import asyncpg

    c = await asyncpg.connect(url)
    try:
        cols = ", ".join(f"field{i} TEXT" for i in range(10))
        await c.execute(f"DROP TABLE IF EXISTS pgbench_rows; CREATE TABLE pgbench_rows (k INT PRIMARY KEY, {cols})")
        await c.execute("INSERT INTO pgbench_rows SELECT g, " + ", ".join(["repeat('x', 100)"] * 10)
                        + f" FROM generate_series(1, {records}) g")
        await c.execute("ANALYZE pgbench_rows")
    finally:
        await c.close()


def pgbench_rows(url: str, threads: int, duration_s: float, records: int,
                 workdir: Path) -> tuple[str, float, float] | None:
    """pgbench reading the row YCSB's read returns (``SELECT *`` of ten 100-byte TEXT columns by primary
    key, ~1.1 kB a reply), from a table of its own: the same work per reply as the engine's READ."""
    exe = pgbench_exe()
    if exe is None:
        return None
    asyncio.run(_ten_column_table(url, records))
    script = workdir / "rows.sql"
    script.write_text(f"\\set k random(1, {records})\nSELECT * FROM pgbench_rows WHERE k = :k;\n")
    return _pgbench_run("pgbench, ten 100-byte columns", [exe, "-f", str(script)], url, threads, duration_s)


def _pgbench_run(name: str, argv: list[str], url: str, threads: int, duration_s: float) -> tuple[str, float, float]:
    """(name, tps, client CPU µs per transaction) of ``argv`` with ``-M prepared -j 1``; its CPU is its rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([*argv, "-M", "prepared", "-n", "-c", str(threads), "-j", "1",
                          "-T", str(max(1, round(duration_s))), url], check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tx = int(next(ln for ln in out.splitlines() if "number of transactions actually processed" in ln).split(":")[1]
             .split("/")[0])
    tps = float(next(ln for ln in out.splitlines() if ln.startswith("tps")).split("=")[1].split()[0])
    return name, tps, 1e6 * cpu / max(tx, 1)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--threads", type=int, default=8)
    a = ap.parse_args()
    KEYS[:] = [f"user{random.getrandbits(60)}" for _ in range(a.records)]
    rows: list[tuple[str, float, float]] = []
    try:
        import aiomysql  # a second MariaDB driver, for comparison only (not a dependency)
    except ImportError:
        aiomysql = None
        print("aiomysql is not installed: its row is skipped (pip install aiomysql)")
    import asyncmy
    import asyncpg

    with provisioned(["postgresql", "mariadb"], "local", experiment_id="bench", say=lambda _: None) as (pg, maria):
        for ep in (pg, maria):
            asyncio.run(_load(ep.url, a.records))
        sql_pg = "SELECT * FROM usertable WHERE YCSB_KEY = $1"
        rows.append(measure("asyncpg", lambda: asyncpg.connect(pg.url), lambda c: c.close(),
                            lambda c, k: c.fetchrow(sql_pg, k), a.threads, a.duration))
        for driver in ("wire", "asyncpg"):
            rows.append(engine(f"ycsbctl engine, {driver}", pg.url, {"postgresql.driver": driver}, a.threads,
                               a.duration, a.records))
        bench = pgbench(pg.url, a.threads, a.duration, a.records)
        if bench:
            rows.append(bench)
        with tempfile.TemporaryDirectory() as tmp:
            same = pgbench_rows(pg.url, a.threads, a.duration, a.records, Path(tmp))
        if same:
            rows.append(same)
        m = connect_args(maria.url)
        sql_my = "SELECT * FROM usertable WHERE YCSB_KEY = %s"

        async def asyncmy_fetch(c, k: str) -> None:
            cur = c.cursor()  # asyncmy: a plain call
            await cur.execute(sql_my, (k,))
            await cur.fetchone()

        async def aiomysql_fetch(c, k: str) -> None:
            cur = await c.cursor()  # aiomysql: a coroutine
            await cur.execute(sql_my, (k,))
            await cur.fetchone()

        async def asyncmy_open():
            return await asyncmy.connect(host=m["host"], port=m["port"], user=m["user"], database=m["db"],
                                         autocommit=True)

        async def aiomysql_open():
            return await aiomysql.connect(host=m["host"], port=m["port"], user=m["user"], db=m["db"], autocommit=True)

        async def closed(c) -> None:
            c.close()

        rows.append(measure("asyncmy", asyncmy_open, closed, asyncmy_fetch, a.threads, a.duration))
        if aiomysql is not None:
            rows.append(measure("aiomysql", aiomysql_open, lambda c: c.ensure_closed(), aiomysql_fetch, a.threads,
                                a.duration))
        for driver in ("wire", "asyncmy"):
            rows.append(engine(f"ycsbctl engine, MariaDB {driver}", maria.url, {"mariadb.driver": driver},
                               a.threads, a.duration, a.records))
    load = os.getloadavg()[0]
    print(f"{'client':32} {'ops/s':>10} {'client CPU µs/op':>17}   (load average {load:.1f})")
    for name, rate, us in rows:
        print(f"{name:32} {rate:10,.0f} {us:17.1f}")
    by = {r[0]: r[2] for r in rows}
    bench = next((v for k, v in by.items() if k.startswith("pgbench")), None)
    if bench:
        ratio = by["ycsbctl engine, wire"] / bench
        print(f"ycsbctl engine (wire) / pgbench client CPU per op: {ratio:.2f} (goal ≤ 1.25)")
        same = by.get("pgbench, ten 100-byte columns")
        if same:
            print("ycsbctl engine (wire) / pgbench reading the same ten-column row: "
                  f"{by['ycsbctl engine, wire'] / same:.2f}")
        return 0 if ratio <= 1.25 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
