"""``redis-benchmark`` (the C client that ships with Redis) as Redis's reference client
(:class:`~ycsbctl.stores.reference.ReferenceClient`): run against a ``redis://`` URL, its ``--csv``
report read.

Its keys are ``user__rand_int__``: redis-benchmark writes a random number of 12 digits below ``-r`` in
place of ``__rand_int__``, uniformly — the key names YCSB gives with ``insertorder=ordered`` and
``zeropadding=12`` (``user000000000042``), so both clients read the same records, with the same HGETALL."""

from __future__ import annotations

import csv
import io
import resource
import shutil
import subprocess

from ycsbctl.errors import UserError
from ycsbctl.stores.reference import ReferenceRun

BINARY = "redis-benchmark"
KEY_DIGITS = 12  # the digits redis-benchmark writes in place of __rand_int__
READ = ["hgetall", "user__rand_int__"]  # what ycsbctl's READ of a whole record sends (readallfields=true)


class RedisBenchmark:
    """Redis's reference client."""

    name = BINARY

    def key_properties(self) -> dict[str, str]:
        return {"insertorder": "ordered", "zeropadding": str(KEY_DIGITS)}

    def check(self, url: str) -> None:
        if shutil.which(BINARY) is None:
            raise UserError("redis-benchmark is not installed: apt-get install redis-tools (or put it on PATH)")
        connection_args(url)
        if url.startswith("rediss://"):
            trusted(url)

    def read(self, url: str, clients: int, requests: int, records: int, timeout_s: float = 600.0) -> ReferenceRun:
        """``redis-benchmark -c clients -n requests -r records --csv hgetall user__rand_int__``; its CPU
        time is this process's children's rusage around it."""
        self.check(url)
        conn, masked = connection_args(url)
        tail = ["-c", str(clients), "-n", str(requests), "-r", str(records), "--csv", *READ]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            proc = subprocess.run([BINARY, *conn, *tail], capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise UserError(f"redis-benchmark did not finish {requests:,} requests in {timeout_s:.0f} s") from None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        row = parse_csv(proc.stdout)
        if proc.returncode != 0 or row is None:
            said = (proc.stderr or proc.stdout).strip().splitlines()
            raise UserError(f"redis-benchmark failed (exit {proc.returncode}): {said[-1] if said else 'no output'}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return ReferenceRun(" ".join([BINARY, *masked, *tail]), requests, float(row["rps"]),
                            1000 * float(row["avg_latency_ms"]), 1000 * float(row["p50_latency_ms"]),
                            1000 * float(row["p99_latency_ms"]), 1000 * float(row["max_latency_ms"]), cpu)

    def reads_served(self, url: str) -> int:
        from ycsbctl.stores.redis.admin import client

        c = client(url, 5.0)
        try:
            stats = c.info("commandstats")
        finally:
            c.close()
        return int((stats.get("cmdstat_hgetall") or {}).get("calls", 0))


def connection_args(url: str) -> tuple[list[str], list[str]]:
    """(redis-benchmark's options to reach ``url``, the same with the password masked). ``rediss://`` is TLS
    (``--tls``), with the URL's CA (``ssl_ca_certs``, redis-py's spelling, as the engine reads it: ``--cacert``) or
    no check (``ssl_cert_reqs=none``: ``--insecure``); a URL it cannot reach as ycsbctl does (a unix socket) is a
    :class:`UserError`."""
    from redis.connection import parse_url

    scheme = url.split("://", 1)[0]
    if scheme not in ("redis", "rediss"):
        raise UserError(f"calibrate runs redis-benchmark over TCP: give a redis://host:port[/db] or rediss:// URL "
                        f"(not {scheme}://)")
    kw = parse_url(url)
    args = ["-h", str(kw.get("host") or "127.0.0.1"), "-p", str(kw.get("port") or 6379),
            "--dbnum", str(kw.get("db") or 0)]
    if scheme == "rediss":
        from ycsbctl.stores.redis.options import RedisOptions

        o = RedisOptions(url)  # the URL's TLS options as the engine's binding reads them
        args.append("--tls")
        if not o.verify:
            args.append("--insecure")
        elif o.ca_file:
            args += ["--cacert", o.ca_file]
    if kw.get("username"):
        args += ["--user", str(kw["username"])]
    masked = list(args)
    if kw.get("password"):
        args += ["-a", str(kw["password"])]
        masked += ["-a", "***"]
    return args, masked


def trusted(url: str) -> None:
    """A :class:`UserError` saying what to do when a TLS handshake with ``url``'s server, as the engine's binding
    makes it (the URL's CA), fails: redis-benchmark itself retries an untrusted certificate without end."""
    import ssl

    from ycsbctl.stores.redis.options import RedisOptions
    from ycsbctl.stores.redis.tls import with_tls_hint
    from ycsbctl.stores.tls_wire import negotiated

    o = RedisOptions(url)
    ctx = o.ssl_context()
    assert ctx is not None  # rediss://
    try:
        negotiated(o.host, o.port, ctx)
    except (OSError, ssl.SSLError) as exc:
        raise UserError(f"{o.host}:{o.port}: {with_tls_hint(exc, True)}") from None


def parse_csv(text: str) -> dict[str, str] | None:
    """The test's row of ``redis-benchmark --csv`` (its header names the columns); None without one."""
    rows = [r for r in csv.DictReader(io.StringIO(text.strip())) if r.get("rps")]
    return rows[-1] if rows else None
