"""A non-editable install: the wheel ships the workload files and server configs, and ycsbctl run
from the wheel (not the checkout) finds them through the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_carries_workloads_and_configs_and_they_are_found_outside_the_checkout(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True, text=True, timeout=300)
    wheel = next(tmp_path.glob("ycsbctl-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("workloada", "workloadb", "workloadf", "insert"):
        assert f"ycsbctl/data/workloads/{f}" in names
    for f in ("redis/redis.conf", "mongodb/mongod.flags", "ferretdb/ferretdb.flags", "dragonfly/dragonfly.flags"):
        assert f"ycsbctl/data/configs/{f}" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import ycsbctl, sys; from ycsbctl.workload.properties import known_workloads, resolve_workload;"
            "from ycsbctl.provision.catalog import config_args;"
            "print(ycsbctl.__file__); print(sorted(known_workloads())); print(resolve_workload('workload-b'));"
            "print(config_args('redis/redis.conf'))")
    out = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
                         cwd=elsewhere, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(str(site))  # the wheel's copy, not the checkout's
    assert "workloadb" in lines[1] and "insert" in lines[1]
    assert lines[2].startswith(str(site)) and lines[2].endswith("workloadb")
    assert "--appendonly" in lines[3] and "no" in lines[3]
