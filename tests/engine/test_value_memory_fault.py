"""A huge ``fieldlength``: the plan is refused in one line naming the limit and the fix, before any
worker allocates a value (a 10 MB fieldlength once grew a worker to 23.7 GB until the kernel killed it)."""

from __future__ import annotations

import os
import subprocess

import psutil
import pytest
import redis

from tests.fixtures.cli import YCSBCTL
from tests.fixtures.servers import ROOT
from ycsbctl.engine.limits import check_value_memory
from ycsbctl.errors import UserError

pytestmark = pytest.mark.fault



def test_a_fieldlength_that_cannot_fit_in_memory_is_refused_before_any_worker_starts(redis_server, tmp_path):
    threads = 8
    # 10 fields of a length such that one record per thread is more than this host's whole memory
    fieldlength = psutil.virtual_memory().total // (10 * threads) + 1
    with redis.Redis.from_url(redis_server.url) as r:
        r.flushall()
        before = r.info("stats")["total_commands_processed"]
        for phase in ("load", "run"):
            p = subprocess.run([YCSBCTL, phase, "workload-a", "--target", redis_server.url, "--records", "10",
                                "--threads", str(threads), "-p", f"fieldlength={fieldlength}", "--no-telemetry"],
                               cwd=tmp_path, capture_output=True, text=True, timeout=60,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
            assert p.returncode == 2, p.stderr[-2000:]
            assert "Traceback" not in p.stderr
            (line,) = [ln for ln in p.stderr.splitlines() if "fieldlength" in ln]
            assert f"fieldlength={fieldlength:,}" in line and "client threads would hold up to" in line
            assert "lower -p fieldlength or -p fieldcount, or use fewer --threads" in line, line
        assert r.dbsize() == 0  # nothing was written: refused before the workers
        assert r.info("stats")["total_commands_processed"] - before < 20  # the pre-run checks only


def test_the_limit_is_half_the_available_memory_for_three_copies_of_a_record_per_thread():
    gb = 10**9
    check_value_memory(10, 10**6, 100, available=6 * gb)  # 3 × 10 MB × 100 = 3 GB: exactly half of 6 GB
    with pytest.raises(UserError, match=r"fieldcount=10 × fieldlength=1,000,000 is 0.01 GB per record, and 101 "
                                        r"client threads would hold up to 3.0 GB of values in flight, more than "
                                        r"50% of the 6.0 GB"):
        check_value_memory(10, 10**6, 101, available=6 * gb)
