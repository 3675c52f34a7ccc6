""":func:`tests.fixtures.cli.ycsbctl` runs a command forked from a zygote (an interpreter that imported the CLI)
with the console script's contract: the same exit code, stdout, stderr and ``args``, in the folder and with exactly
the environment given, and ``subprocess.TimeoutExpired`` at its timeout;
``fresh=True`` runs the console script itself."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import psutil
import pytest

from tests.fixtures.cli import CLI, FORKS, env, ycsbctl

pytestmark = pytest.mark.skipif(not FORKS, reason="YCSBCTL_TEST_FORKS=0: every command the console script")


def _forked(r: subprocess.CompletedProcess) -> bool:
    """Whether this process has a zygote (a command forked from one leaves it running; the console script
    starts none)."""
    return any("from ycsbctl.cli import main" in " ".join(p.cmdline()) for p in psutil.Process().children())


@pytest.mark.parametrize("args", [("--version",), ("run", "nosuch"), ("run", "workload-b", "--records", "-1"),
                                  ("status",)])
def test_a_forked_command_says_and_exits_as_the_console_script(args: tuple[str, ...], tmp_path: Path):
    environ = env(YCSBCTL_STATE_DIR=str(tmp_path / "state"))
    forked = ycsbctl(*args, cwd=tmp_path, environ=environ)
    assert _forked(forked)
    fresh = ycsbctl(*args, cwd=tmp_path, environ=environ, fresh=True)
    assert (forked.args, forked.returncode, forked.stdout, forked.stderr) == (
        fresh.args, fresh.returncode, fresh.stdout, fresh.stderr) and forked.args == [*CLI, *args]


def test_a_forked_command_has_the_folder_and_exactly_the_environment_given(tmp_path: Path):
    """A relative path is the given folder's; a variable the test process has but the environment given does not
    is not the command's (the state folder falls back to its default, which names no server of the session's)."""
    (tmp_path / "w.properties").write_text("recordcount=notanumber\n")
    r = ycsbctl("run", "w.properties", "--target", "redis://127.0.0.1:1", cwd=tmp_path)
    fresh = ycsbctl("run", "w.properties", "--target", "redis://127.0.0.1:1", cwd=tmp_path, fresh=True)
    assert r.returncode == fresh.returncode == 2 and r.stderr == fresh.stderr and "notanumber" in r.stderr
    state = tmp_path / "state"
    r = ycsbctl("status", environ=env(YCSBCTL_STATE_DIR=str(state)))
    fresh = ycsbctl("status", environ=env(YCSBCTL_STATE_DIR=str(state)), fresh=True)
    assert (r.returncode, r.stdout) == (fresh.returncode, fresh.stdout)


def test_a_forked_command_past_its_timeout_is_killed_as_subprocess_run_kills_one():
    """A server that accepts and never answers: `run` waits on it past the timeout; the zygote serves the next."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(subprocess.TimeoutExpired) as caught:
            ycsbctl("run", "workload-b", "--target", url, "--records", "10", timeout=2)
    assert caught.value.timeout == 2 and caught.value.cmd == [*CLI, "run", "workload-b", "--target", url,
                                                              "--records", "10"]
    assert ycsbctl("--version").returncode == 0
