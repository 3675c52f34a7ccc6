"""A test session sent SIGTERM stops the servers its fixtures started (tests/fixtures/sigterm.py), alone and under
``-n 2`` with the signal sent to the controller only, after an earlier test's library left SIGTERM at its default; a
child forked from a test process still dies of SIGTERM."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.fixtures import sigterm
from tests.fixtures.waiting import wait_until

ROOT = Path(__file__).resolve().parents[1]
WAIT_S = 120.0  # bounds for what waits on another pytest's start and end: never reached but by a fault

INNER = '''
import os, time
from pathlib import Path

import pytest

SLOW_S = 7  # past execnet's 5 s between the controller's goodbye and its SIGINT to a worker still busy


@pytest.fixture
def slow_to_stop(redis_server):
    """The session's redis-server, whose stop (the session's last teardown) waits for this one's slow one."""
    yield redis_server
    time.sleep(SLOW_S)


def test_a_library_leaves_sigterm_at_its_default():
    """As nbclient's kernel start does (tests/fixtures/notebook.py): asyncio's remove_signal_handler sets SIG_DFL."""
    import asyncio, signal

    loop = asyncio.new_event_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: None)
    loop.remove_signal_handler(signal.SIGTERM)
    loop.close()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_inside(slow_to_stop):
    mark = Path(os.environ["SIGTERM_MARKS"]) / os.environ.get("PYTEST_XDIST_WORKER", "main")
    mark.with_suffix(".part").write_text(str(slow_to_stop.proc.pid))
    mark.with_suffix(".part").rename(mark)  # whole when it appears
    time.sleep(600)
'''


def _env(marks: Path) -> dict[str, str]:
    """This session's environment without what says "you are an xdist worker" or "this test runs", and the marks'
    folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(ROOT), SIGTERM_MARKS=str(marks))
    return env


def _servers(marks: Path, n: int, proc: subprocess.Popen[str]) -> list[psutil.Process]:
    """The redis-servers of the inner pytest's ``n`` sessions, once each of its tests is inside its body."""
    deadline = time.monotonic() + WAIT_S
    while len(whole := [m for m in marks.iterdir() if m.suffix != ".part"]) < n:
        if proc.poll() is not None or time.monotonic() > deadline:
            _kill_group(proc)
            proc.wait()
            said = (marks.parent / "out").read_text() + (marks.parent / "err").read_text()
            pytest.fail(f"the inner pytest did not reach its test (exit {proc.returncode}):\n{said}")
        time.sleep(0.05)
    return [psutil.Process(int(mark.read_text())) for mark in whole]


def _left(servers: list[psutil.Process], group: int) -> list[str]:
    """The servers still running, and any other process of the inner pytest's process group (a worker, say)."""
    left = []
    for p in psutil.process_iter(["cmdline", "status"]):
        with contextlib.suppress(psutil.Error):
            if p.info["status"] != psutil.STATUS_ZOMBIE and (p in servers or os.getpgid(p.pid) == group):
                left.append(f"{p.pid} {' '.join(p.info['cmdline'] or [])}")
    return left


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.fault
@pytest.mark.parametrize("workers", [(), ("-n", "2", "--dist", "each")], ids=["alone", "two-workers"])
def test_a_session_sent_sigterm_tears_down_and_stops_its_servers(tmp_path: Path, workers: tuple[str, ...]) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server, or run `make test`)")
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.fixtures.sigterm", "tests.fixtures.servers"]\n')
    (tmp_path / "test_inner.py").write_text(INNER)
    marks = tmp_path / "marks"
    marks.mkdir()
    # Its output to files, not pipes: a server left running by a session killed outright would hold a pipe open.
    with (tmp_path / "out").open("w") as out_f, (tmp_path / "err").open("w") as err_f:
        proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers,
                                 "test_inner.py"], cwd=tmp_path, env=_env(marks), stdout=out_f, stderr=err_f, text=True,
                                start_new_session=True)  # a group of its own: what a failed test leaves is killed
    servers: list[psutil.Process] = []
    try:
        servers = _servers(marks, 2 if workers else 1, proc)
        proc.send_signal(signal.SIGTERM)  # the controller alone under -n: its workers are not sent it
        proc.wait(timeout=WAIT_S)
        out, err = (tmp_path / "out").read_text(), (tmp_path / "err").read_text()
        with contextlib.suppress(TimeoutError):  # the assertion below names what is left
            wait_until(lambda: not _left(servers, proc.pid), 30, "the inner session's processes gone", 0.1)
        left = _left(servers, proc.pid)
        assert not left, f"left running (pytest's exit {proc.returncode}): {left}\n{out}\n{err}"
        assert proc.returncode == pytest.ExitCode.INTERRUPTED, out + err
        assert "KeyboardInterrupt" in out and "signal SIGTERM" in out, out
    finally:  # a failed test leaves nothing either
        _kill_group(proc)
        proc.wait()
        for server in servers:
            with contextlib.suppress(psutil.Error):
                server.kill()


def _forked_child_ended_by_sigterm(prepare: str) -> tuple[int, str]:
    """A child forked from this process (``prepare``: what it does first), sent SIGTERM once it is ready: how it ended
    (``os.waitstatus_to_exitcode``) and what it wrote to stderr."""
    ready_r, ready_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: anything but death by the signal exits 70, its traceback on the pipe
        try:
            os.close(ready_r)
            os.dup2(err_w, 2)
            if prepare == "handler again":  # as a fork that os.register_at_fork's hooks did not see would have it
                signal.signal(signal.SIGTERM, sigterm._on_sigterm)
            os.write(ready_w, repr(signal.getsignal(signal.SIGTERM)).encode() + b"\n")
            time.sleep(WAIT_S)
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            os._exit(70)
    os.close(ready_w)
    os.close(err_w)
    with os.fdopen(ready_r) as ready, os.fdopen(err_r) as err:
        handler = ready.readline().strip()
        os.kill(pid, signal.SIGTERM)
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status), f"its handler: {handler}\n{err.read()}"


@pytest.mark.fault
@pytest.mark.parametrize("prepare", ["as forked", "handler again"])
def test_a_child_forked_from_a_test_process_still_dies_of_sigterm(prepare: str) -> None:
    assert sigterm.installed()  # this process answers SIGTERM with the session's teardown…
    code, said = _forked_child_ended_by_sigterm(prepare)
    assert code == -signal.SIGTERM, said  # …a fork of it dies, with no KeyboardInterrupt
    assert "KeyboardInterrupt" not in said, said
    if prepare == "as forked":
        assert "Handlers.SIG_DFL" in said, said  # the default back at the fork
