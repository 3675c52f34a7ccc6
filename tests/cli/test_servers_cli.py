"""``ycsbctl targets | up | status | down | doctor`` through the real command line."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
from pathlib import Path

import psutil
import pytest
import redis
from click.testing import CliRunner

from tests.fixtures.cli import CLI, env, start
from tests.fixtures.waiting import LineReader, wait_until
from ycsbctl.cli import main
from ycsbctl.provision import state

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli() -> CliRunner:
    return CliRunner()


def _never_ready_redis(folder: Path) -> Path:
    """A fake redis-server on PATH that starts and never listens (so `up` waits for readiness)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "redis-server"
    path.write_text("#!/bin/sh\nexec sleep 600\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return folder


def test_targets_lists_the_catalogue_as_it_goes_and_says_what_it_waits_for(state_dir, tmp_path):
    """A planted ``tarantool`` whose ``--version`` answers only once the test has read the first line: that
    line comes before the slow probe ends (the list once came whole, after 10-14 s of silence), and the
    row awaited says what it waits for."""
    bin_dir, gate = tmp_path / "bin", tmp_path / "gate"
    bin_dir.mkdir()
    planted = bin_dir / "tarantool"
    planted.write_text(f"#!/bin/sh\nwhile [ ! -e {gate} ]; do sleep 0.05; done\necho 'Tarantool planted'\n")
    planted.chmod(0o755)
    proc = start("targets", environ=env(YCSBCTL_BIN_DIR=str(bin_dir)))
    try:
        out, err = LineReader(proc.stdout), LineReader(proc.stderr)
        assert out.wait_for("(", timeout_s=60) == "redis (redis)\n"  # while tarantool's probe is held
        # another row's probe may be slow too (a Docker image check on a loaded host) and is said first: each
        # awaited row says what it waits for, in the list's order, so tarantool's line comes, after any others
        waiting = err.wait_for("waiting for tarantool", timeout_s=60)
        assert waiting.startswith(f"waiting for tarantool: `{planted} --version` to print its version"), waiting
        gate.touch()
        assert proc.wait(timeout=120) == 0, err.rest()
        listed = "".join(out.rest())
    finally:
        gate.touch()
        if proc.poll() is None:
            proc.kill()
    assert "tarantool (tarantool)\n  docker tarantool/tarantool:2.6.0: " in listed
    assert f"  local: yes: {planted} (Tarantool planted)\n" in listed
    for name in ("mongodb", "valkey", "keydb", "dragonfly", "ferretdb", "elasticsearch"):
        assert f"\n{name} (" in listed
    assert "docker percona/percona-server-mongodb:7.0:" in listed
    if shutil.which("redis-server"):
        assert "local: yes: " + shutil.which("redis-server") in listed


def test_up_in_one_process_status_and_down_in_others(cli, state_dir):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server, or run `make test`)")
    up = subprocess.run([*CLI, "up", "redis", "--backend", "local", "--experiment-id", "cli-t"],
                        capture_output=True, text=True, timeout=60)
    assert up.returncode == 0, up.stderr
    target, url, details = up.stdout.strip().split("\t")
    assert target == "redis" and url.startswith("redis://127.0.0.1:") and "local, pid" in details
    assert redis.Redis.from_url(url).ping()
    pid = state.entries()[0]["endpoint"]["pid"]

    status = cli.invoke(main, ["status"])
    assert status.exit_code == 0 and f"{url}\tlocal, pid {pid}" in status.output and "\tup\t" in status.output

    down = cli.invoke(main, ["down", "redis"])
    assert down.exit_code == 0 and f"redis: stopped pid {pid}" in down.output
    assert not psutil.pid_exists(pid) and state.entries() == []
    assert "no servers recorded" in cli.invoke(main, ["status"]).output


def test_status_says_why_a_server_it_started_is_down(cli, state_dir):
    """A bare 'DOWN' said nothing of why (the campaign's postgresql-standby, whose primary still served after its
    standby died, read 'DOWN'); the reason is on the line and in --json."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server, or run `make test`)")
    up = cli.invoke(main, ["up", "redis", "--backend", "local"])
    assert up.exit_code == 0, up.output
    pid = state.entries()[0]["endpoint"]["pid"]
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE, 10)
    status = cli.invoke(main, ["status"])
    assert status.exit_code == 0 and "\tDOWN: died\t" in status.output, status.output
    as_json = cli.invoke(main, ["status", "--json"])
    assert '"alive": false' in as_json.output and '"lost": "died"' in as_json.output, as_json.output
    assert cli.invoke(main, ["down", "--all"]).exit_code == 0 and state.entries() == []


def test_up_starts_the_labelled_servers_of_a_targets_file_with_their_settings(cli, state_dir, tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server, or run `make test`)")
    listing = tmp_path / "targets"
    listing.write_text("# the lazy-free study's two servers\nredis\nredis-lazyfree  lazyfree-lazy-user-del=yes\n")
    up = cli.invoke(main, ["up", "--targets-file", str(listing), "--backend", "local"])
    try:
        assert up.exit_code == 0, up.output
        started = dict(line.split("\t")[:2] for line in up.stdout.strip().splitlines())
        assert sorted(started) == ["redis", "redis-lazyfree"]
        said = {label: redis.Redis.from_url(url).config_get("lazyfree-lazy-user-del")["lazyfree-lazy-user-del"]
                for label, url in started.items()}
        assert said == {"redis": "no", "redis-lazyfree": "yes"}  # the server's own word for its setting
    finally:
        down = cli.invoke(main, ["down", "redis", "redis-lazyfree"])
    assert down.exit_code == 0 and state.entries() == [], down.output
    listing.write_text("redis://127.0.0.1:6379\n")
    refused = cli.invoke(main, ["up", "--targets-file", str(listing)])
    assert refused.exit_code == 2 and "is a URL" in refused.output
    assert cli.invoke(main, ["up"]).exit_code == 2  # nothing to start


def test_down_needs_targets_or_all(cli, state_dir):
    assert cli.invoke(main, ["down"]).exit_code == 2
    assert cli.invoke(main, ["down", "--all"]).exit_code in (0, 1)  # whatever Docker does here
    assert "redis: nothing recorded" in cli.invoke(main, ["down", "redis"]).output


def test_up_failure_is_one_error_line_with_exit_code_1(cli, state_dir, tmp_path):
    result = cli.invoke(main, ["up", "redis", "--backend", "local"], env={"PATH": str(tmp_path)})
    assert result.exit_code == 1
    errors = [ln for ln in result.output.splitlines() if ln.startswith("error: ")]
    assert len(errors) == 1 and "redis-server not found" in errors[0]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_while_up_waits_for_readiness_leaves_no_process(state_dir, tmp_path, signum):
    bin_dir = _never_ready_redis(tmp_path / "bin")
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "DOCKER_HOST": "unix:///nonexistent.sock"}
    proc = subprocess.Popen([*CLI, "up", "redis", "--backend", "local"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        LineReader(proc.stderr).wait_for("waiting for redis to answer")
        (entry,) = state.entries()
        server_pid = entry["endpoint"]["pid"]
        fake = psutil.Process(server_pid)
        wait_until(lambda: fake.name() == "sleep", 10, "the fake server exec'ing sleep")
        proc.send_signal(signum)
        assert proc.wait(timeout=30) != 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not psutil.pid_exists(server_pid) or psutil.Process(server_pid).status() == psutil.STATUS_ZOMBIE
    assert state.entries() == []
    assert not os.path.exists(entry["data_dir"])


def test_sigterm_after_one_server_is_up_rolls_back_everything_up_started(state_dir, tmp_path):
    """`up ferretdb redis`: the real mongo-wire answers, then redis never does; SIGTERM stops both."""
    if not (ROOT / "infra" / "bin" / "mongo-wire").exists():
        pytest.skip("infra/bin/mongo-wire is not built (bash infra/build-mongo-wire.sh, or run `make test`)")
    bin_dir = _never_ready_redis(tmp_path / "bin")
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "DOCKER_HOST": "unix:///nonexistent.sock"}
    proc = subprocess.Popen([*CLI, "up", "ferretdb", "redis", "--backend", "local"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        lines = LineReader(proc.stderr)
        lines.wait_for("ferretdb is up")
        lines.wait_for("waiting for redis to answer")
        entries = wait_until(lambda: len(state.entries()) == 2 and state.entries(), 10, "both servers recorded")
        pids = [e["endpoint"]["pid"] for e in entries]
        assert psutil.Process(pids[0]).is_running()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 130
        with contextlib.suppress(AssertionError):
            lines.wait_for("\0", 5)  # every line the ended process wrote
        rest = "".join(lines.seen)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in rest and "Aborted" not in rest, rest
    assert "`up` interrupted: the servers it had started were stopped, none is left running" in rest, rest
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert state.entries() == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("after", ["click", "ycsbctl.provision.catalog"])
def test_ctrl_c_in_the_first_second_of_up_is_one_line_and_exit_130(state_dir, tmp_path, after, signum):
    """Ctrl-C while ``ycsbctl up`` is still importing: inside the command line's own imports (after
    click), then inside the lazy import of ``up``'s module (click turns the KeyboardInterrupt into its
    Abort). Was: a KeyboardInterrupt traceback from inside an import, or click's 'Aborted!' and exit 1.
    SIGTERM likewise (was: a silent exit 143 there, and for every command but run, load, up and lab).
    The moment is found by Python's own -X importtime lines, so it does not depend on the machine's speed."""
    bin_dir = _never_ready_redis(tmp_path / "bin")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "DOCKER_HOST": "unix:///nonexistent.sock"}
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), "-X", "importtime", "-m", "ycsbctl", "up",
                             "redis", "--backend", "local"], env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        lines = LineReader(proc.stderr)
        while lines.wait_for("import time:").split("|")[-1].strip() != after:
            pass
        proc.send_signal(signum)
        assert proc.wait(timeout=30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    said = [x for x in lines.rest() if not x.startswith("import time:")]
    assert len(said) == 1 and "interrupted" in said[0] and "Traceback" not in said[0], said
    assert state.entries() == []


def test_an_interrupt_inside_generated_code_while_up_imports_still_exits_130_under_python_m(state_dir, tmp_path):
    """The moment the Ctrl-C test above hit in 1 run of CI: SIGTERM landing while a module being imported runs a
    dataclass's generated code (a string exec). ycsbctl caught it and said so, but CPython remembered it, and
    `python -m ycsbctl` then ended by SIGINT (-2) instead of 130. Made exact here: a sitecustomize raises the
    KeyboardInterrupt from a string exec when the lazy import of ``up``'s module reaches the catalogue."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Finder:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'ycsbctl.provision.catalog':\n"
        "            exec('raise KeyboardInterrupt')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Finder())\n")
    env = {**os.environ, "PYTHONPATH": f"{hook}:{ROOT}", "DOCKER_HOST": "unix:///nonexistent.sock"}
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "ycsbctl", "up", "redis", "--backend",
                           "local"],
                          env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    said = [x for x in done.stderr.splitlines() if x.strip()]
    assert done.returncode == 130 and said == ["ycsbctl: interrupted before anything was started"], \
        (done.returncode, done.stderr)
    assert state.entries() == []


def test_down_all_while_docker_does_not_answer_stops_the_local_servers_and_says_so(state_dir, tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server, or run `make test`)")
    env = {**os.environ, "DOCKER_HOST": "unix:///nonexistent.sock"}
    up = subprocess.run([*CLI, "up", "redis", "--backend", "local"], env=env, capture_output=True, text=True,
                        timeout=60)
    assert up.returncode == 0, up.stderr
    pid = state.entries()[0]["endpoint"]["pid"]
    down = subprocess.run([*CLI, "down", "--all"], env=env, capture_output=True, text=True, timeout=60)
    assert down.returncode == 1, down.stdout + down.stderr
    assert f"redis: stopped pid {pid} (local)" in down.stdout and "nothing to stop" not in down.stdout
    errors = [ln for ln in down.stderr.splitlines() if ln.strip()]
    assert len(errors) == 1 and "containers were not checked: Docker does not answer at unix:" in errors[0] \
        and "nonexistent.sock" in errors[0], down.stderr
    assert "Traceback" not in down.stderr
    assert not psutil.pid_exists(pid) and state.entries() == []


def test_down_all_on_a_host_without_docker_stops_the_local_servers_and_exits_0(state_dir, tmp_path):
    from ycsbctl.provision.docker import DEFAULT_SOCKET

    env = {k: v for k, v in os.environ.items() if k != "DOCKER_HOST"}
    up = subprocess.run([*CLI, "up", "redis", "--backend", "local"], env=env, capture_output=True, text=True,
                        timeout=60)
    assert up.returncode == 0, up.stderr
    pid = state.entries()[0]["endpoint"]["pid"]
    down = subprocess.run([*CLI, "down", "--all"], env=env, capture_output=True, text=True, timeout=60)
    assert f"redis: stopped pid {pid} (local)" in down.stdout and not psutil.pid_exists(pid)
    if not os.path.exists(DEFAULT_SOCKET):  # no Docker here at all: nothing unchecked, one line says why
        assert down.returncode == 0 and down.stderr == "", down.stdout + down.stderr
        assert "no Docker on this host: no container to look for" in down.stdout
    else:  # a Docker engine is configured here: it was asked (or its silence said, as above)
        assert down.returncode == 0 or "containers were not checked" in down.stderr


@pytest.fixture(scope="module")
def doctor_output(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str]:
    """``ycsbctl doctor`` run once for the module's tests that read it (each run probes every server binary,
    ~3 s: Elasticsearch's ``--version`` is a JVM start), with a state folder of its own and no Docker; that
    run leaves no /tmp/elasticsearch-<random> folder behind (its --version runs with a temporary ES_TMPDIR)."""
    import glob

    before = set(glob.glob("/tmp/elasticsearch-*"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("YCSBCTL_STATE_DIR", str(tmp_path_factory.mktemp("doctor") / "state"))
        result = CliRunner().invoke(main, ["doctor"], env={"DOCKER_HOST": "unix:///nonexistent.sock"})
    if shutil.which("elasticsearch-oss"):
        assert "elasticsearch binary: " in result.output and "Version: 6.8" in result.output
        assert set(glob.glob("/tmp/elasticsearch-*")) <= before
    return result.exit_code, result.output


def test_doctor_reports_each_tool_with_a_fix(doctor_output):
    exit_code, output = doctor_output
    assert exit_code == 0, output
    assert "warn docker daemon: Docker does not answer at unix:///nonexistent.sock" in output
    assert "fix: start it" in output
    for name in ("redis binary", "mongodb binary", "ferretdb binary", "iperf3", "java", "loopback ports", "memory"):
        assert f" {name}: " in output
    if shutil.which("iperf3"):
        assert "ok   iperf3: iperf 3" in output
    # the many-store study's own store, listed with why it cannot run here
    assert "warn reindexer: unobtainable: no package in any registry reachable here" in output


def test_doctor_names_sqlite_embedded_and_what_the_sql_servers_need(doctor_output):
    import os
    import sqlite3

    from ycsbctl.provision import catalog

    _, output = doctor_output
    assert f"ok   sqlite: embedded: Python sqlite3, SQLite {sqlite3.sqlite_version}" in output
    for name, hint in (("postgresql", "apt-get install postgresql"), ("mariadb", "apt-get install mariadb-server")):
        entry = catalog.get_target(name)
        if catalog.find_server(entry)[0]:
            assert f"ok   {name} binary: " in output
            if os.geteuid() == 0:  # as root the server runs as its package's user: doctor checks it is there
                assert f"ok   {name} user: runs as system user {entry.run_as!r}" in output
        else:
            assert f" {name} binary: " in output and hint in output


def test_a_ctrl_c_while_the_process_exits_breaks_no_exit_handler(tmp_path):
    """Ctrl-C just after a command printed its result (``up ferretdb`` printed its URL): the
    libraries' exit handlers (pymongo's) run then, and must not end in a traceback. An exit handler
    registered before the command, so run after its own, sends the SIGINT a user would."""
    import subprocess
    import sys

    script = tmp_path / "late.py"
    script.write_text(
        "import atexit, os, signal, sys, time\n"
        "def late():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.2)\n"
        "    print('exit handlers ran to the end', file=sys.stderr)\n"
        "atexit.register(late)\n"
        "import pymongo  # noqa: F401 - registers its own exit handlers\n"
        "from ycsbctl.cli import main\n"
        "sys.exit(main(['dry-run', 'workload-b', '--count', '1', '--seed', '0']))\n")  # seed 0's first: a READ
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("READ usertable user"), r.stderr
    assert r.stderr.strip() == "exit handlers ran to the end", r.stderr


def test_ctrl_c_at_any_import_of_the_command_lines_start_is_one_line_and_exit_130(tmp_path):
    """Issue 72: Ctrl-C 0.05 s after ``ycsbctl`` started still printed a KeyboardInterrupt traceback: ycsbctl.cli put
    its start-up handler in place only after ``import signal`` (and its enums) had run, and gave Ctrl-C back to
    Python before the module's end. Made exact: a sitecustomize sends the process a real SIGINT when the Nth import
    after ``ycsbctl.cli``'s own begins (the first is what the module imports first; the last ones, ``run``'s own
    modules, come after the command line's parsing began). Each: exit 130 and one line, never a traceback."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import os, sys\n"
        "N = int(os.environ['YCSBCTL_TEST_NTH_IMPORT'])\n"
        "class _Finder:\n"
        "    seen = -1\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'ycsbctl.cli' and self.seen < 0:\n"
        "            self.seen = 0\n"
        "        elif self.seen >= 0:\n"
        "            self.seen += 1\n"
        "            if self.seen == N:\n"
        "                os.kill(os.getpid(), 2)\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Finder())\n")
    for nth in (1, 2, 3, 8, 40):
        done = subprocess.run([*CLI, "run", "--help"], env={**env(), "PYTHONPATH": f"{hook}:{ROOT}",
                                                            "YCSBCTL_TEST_NTH_IMPORT": str(nth)},
                              capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
        said = [x for x in done.stderr.splitlines() if x.strip()]
        assert done.returncode == 130 and len(said) == 1 and "Traceback" not in done.stderr, (nth, done.stderr)
        assert said[0] in ("ycsbctl: interrupted while starting: nothing was started",
                           "ycsbctl: interrupted before anything was started"), (nth, said)
