"""The no-skip switch: under YCSBCTL_NO_SKIP=1 a skip fails with its reason; without it, it stays a skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SKIPPING = '''
import pytest

@pytest.fixture
def server():
    pytest.skip("frobd is not installed (apt-get install frobd)")

def test_needs_server(server):
    pass

def test_skips_itself():
    pytest.skip("needs the quux jar")

@pytest.mark.xfail(reason="known bug", strict=True)
def test_expected_failure():
    assert False

def test_passes():
    pass
'''

MODULE_SKIP = '''
import pytest
pytest.importorskip("no_such_module_for_ycsbctl", reason="needs no_such_module_for_ycsbctl")

def test_never_collected():
    pass
'''


def _pytest(folder: Path, switch: str | None, *args: str) -> subprocess.CompletedProcess:
    (folder / "conftest.py").write_text('pytest_plugins = ["tests.fixtures.no_skip"]\n')
    env = {k: v for k, v in os.environ.items() if k != "YCSBCTL_NO_SKIP"}
    env["PYTHONPATH"] = str(ROOT)
    if switch is not None:
        env["YCSBCTL_NO_SKIP"] = switch
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    (tmp_path / "test_skipping.py").write_text(SKIPPING)
    (tmp_path / "test_module_skip.py").write_text(MODULE_SKIP)
    return tmp_path


def test_without_the_switch_skips_pass_and_name_what_is_missing(suite):
    r = _pytest(suite, None)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 skipped" in r.stdout and "1 xfailed" in r.stdout and "1 passed" in r.stdout
    for reason in ("frobd is not installed", "needs the quux jar", "needs no_such_module_for_ycsbctl"):
        assert reason in r.stdout
    assert _pytest(suite, "0").returncode == 0


def test_with_the_switch_a_skipped_test_fails_and_a_skipping_fixture_errors_with_its_reason(suite):
    r = _pytest(suite, "1", "test_skipping.py")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in out and "skipped" not in out.splitlines()[-1]
    assert "this test was skipped: Skipped: frobd is not installed (apt-get install frobd)" in out
    assert "this test was skipped: Skipped: needs the quux jar" in out


def test_with_the_switch_a_skipped_module_is_an_error_with_its_reason(suite):
    r = _pytest(suite, "1", "test_module_skip.py")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "1 error" in out, out
    assert "this test was skipped: Skipped: needs no_such_module_for_ycsbctl" in out
