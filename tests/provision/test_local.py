"""The local backend with real binaries (Debian redis-server, infra/bin/mongo-wire)."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis

from tests.fixtures.servers import MONGO_WIRE, free_port, wait_for_port
from ycsbctl.errors import UserError
from ycsbctl.processes import children_spared_ctrl_c, sigterm_as_interrupt
from ycsbctl.provision import (
    local_prep,
    probe,
    provision,
    provisioned,
    restart,
    server_alive,
    server_lost,
    state,
    teardown,
)
from ycsbctl.provision.auto import stop_owned
from ycsbctl.provision.base import Endpoint
from ycsbctl.urls import redact_url

QUIET = {"say": lambda message: None}


def _our_processes(data_dir_prefix: str = "ycsbctl-") -> list[psutil.Process]:
    """Processes running in one of our temporary data directories (our servers' cwd)."""
    found = []
    for proc in psutil.process_iter(["cwd", "status"]):
        cwd = proc.info.get("cwd") or ""
        if os.path.basename(cwd).startswith(data_dir_prefix) and proc.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(proc)
    return found


def _fake_binary(folder: Path, name: str, script: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture
def needs_redis() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server, or run `make test`)")


def test_local_redis_up_reads_version_and_study_config_then_down_leaves_nothing(state_dir, needs_redis):
    ep = provision("redis", "local", experiment_id="t-local", **QUIET)
    try:
        assert ep.backend == "local" and ep.pid and ep.container_id is None
        assert ep.server_name.startswith("Redis 7") and ep.server_version.count(".") == 2
        assert ep.config["save"] == "" and ep.config["appendonly"] == "no" and ep.config["bind"] == "127.0.0.1"
        assert redis.Redis.from_url(ep.url).ping()
        assert [e["key"] for e in state.entries()] == [f"local:{ep.pid}"]
        data_dir = state.entries()[0]["data_dir"]
        assert psutil.Process(ep.pid).cwd() == data_dir
        assert server_alive(ep) and server_lost(ep) is None
        # frozen, it is not called dead (the sweep restarts it either way, and says which it was)
        os.kill(ep.pid, signal.SIGSTOP)
        try:
            assert server_lost(ep) == f"stopped answering (its process {ep.pid} is stopped: SIGSTOP or a debugger)"
        finally:
            os.kill(ep.pid, signal.SIGCONT)
    finally:
        teardown(ep)
    assert not psutil.pid_exists(ep.pid) or psutil.Process(ep.pid).status() == psutil.STATUS_ZOMBIE
    assert not os.path.exists(data_dir) and state.entries() == []
    assert not server_alive(ep) and server_lost(ep) == "died"
    assert "Ready to accept connections" in Path(ep.log_path).read_text()
    assert not [p for p in _our_processes() if p.info["cwd"] == data_dir]


def test_local_ferretdb_is_the_mongo_wire_server_and_says_so(state_dir):
    if not MONGO_WIRE.exists():
        pytest.skip(f"{MONGO_WIRE} is not built (bash infra/build-mongo-wire.sh, or run `make test`)")
    with provisioned(["ferretdb"], "local", experiment_id="t-fdb", **QUIET) as (ep,):
        assert ep.protocol == "mongodb" and ep.url.startswith("mongodb://127.0.0.1:")
        assert ep.server_name.startswith("FerretDB 1.24") and "mongo-wire, SQLite backend" in ep.server_name
        assert ep.config["mongodb_compat_version"].startswith("7.")
        pid = ep.pid
        argv = psutil.Process(pid).cmdline()
        data = argv[argv.index("--data") + 1]
        # its SQLite fsyncs every write: the stand-in for an in-memory MongoDB keeps its data in memory
        assert os.path.isdir(data) and local_prep.filesystem_of(data)[0] == "tmpfs"
    assert not psutil.pid_exists(pid) and state.entries() == [] and not os.path.exists(data)


def test_cpuset_and_memory_become_affinity_and_maxmemory(state_dir, needs_redis):
    with provisioned(["redis"], "local", experiment_id="t-lim", server_cpus="0", server_memory="64m",
                     **QUIET) as (ep,):
        assert psutil.Process(ep.pid).cpu_affinity() == [0]
        assert ep.cpu_limit_cores == 1.0 and ep.memory_limit_bytes == 64 * 1024**2
        assert int(ep.config["maxmemory"]) == int(64 * 1024**2 * 0.8)


def test_restart_gives_an_empty_server_on_the_same_url(state_dir, needs_redis):
    ep = provision("redis", "local", experiment_id="t-restart", **QUIET)
    try:
        redis.Redis.from_url(ep.url).set("k", "v")
        fresh = restart(ep, say=QUIET["say"])
    except BaseException:
        teardown(ep)
        raise
    try:
        assert fresh.url == ep.url and fresh.pid != ep.pid and not psutil.pid_exists(ep.pid)
        assert redis.Redis.from_url(fresh.url).get("k") is None
    finally:
        teardown(fresh)


def test_provisioned_tears_down_on_keyboard_interrupt(state_dir, needs_redis):
    with pytest.raises(KeyboardInterrupt), provisioned(["redis"], "local", experiment_id="t-int", **QUIET) as (ep,):
        pid = ep.pid
        raise KeyboardInterrupt
    assert not psutil.pid_exists(pid) and state.entries() == []


def test_a_server_whose_endpoint_never_reached_its_caller_is_stopped_by_the_process_that_started_it(state_dir,
                                                                                                    needs_redis):
    """A Ctrl-C between ``provision`` returning and its caller keeping the endpoint (played: the endpoint dropped)
    leaves the server recorded, with this process as its owner, in the same step as its start: ``stop_owned``
    stops it — this experiment's only, and never another process's."""
    lost = provision("redis", "local", experiment_id="t-lost", **QUIET).pid
    kept = provision("redis", "local", experiment_id="t-kept", **QUIET)
    assert state.find(f"local:{lost}")["owner"] == [os.getpid(), psutil.Process().create_time()]
    state.add({"key": "local:1", "owner": [1, 0.0], "endpoint": {}})  # another ycsbctl's (pid 1): not ours to stop
    try:
        assert [e.pid for e in stop_owned("t-lost")] == [lost] and not psutil.pid_exists(lost)
        assert {e["key"] for e in state.entries()} == {f"local:{kept.pid}", "local:1"}
        assert [e.pid for e in stop_owned()] == [kept.pid] and not psutil.pid_exists(kept.pid)
        assert [e["key"] for e in state.entries()] == ["local:1"]
    finally:
        state.remove("local:1")
        stop_owned()


def test_server_exiting_during_startup_is_one_line_with_its_log_tail(state_dir, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    _fake_binary(bin_dir, "redis-server", 'echo "FATAL: bad config line 3"; exit 3\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    with pytest.raises(UserError) as err:
        provision("redis", "local", experiment_id="t-exit", **QUIET)
    message = str(err.value)
    assert err.value.exit_code == 1 and "\n" not in message
    assert "exited with code 3 during start-up" in message and "FATAL: bad config line 3" in message
    assert state.entries() == []


def test_a_signal_during_a_readiness_probe_lands_after_it_not_inside_it():
    """SIGTERM raised inside ``Popen.poll`` can leave its waitpid lock held; the clean-up's wait then hangs."""
    steps: list[str] = []
    before = signal.getsignal(signal.SIGTERM)

    def exited() -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # delivered while the probe runs, as from `kill` or Ctrl-C
        steps.append("probe finished")  # an interrupt raised inside the probe never gets here

    with pytest.raises(KeyboardInterrupt), sigterm_as_interrupt():
        probe.wait_ready("redis", f"redis://127.0.0.1:{free_port()}/0", timeout_s=30, exited=exited,
                         log_tail=lambda: "")
    assert steps == ["probe finished"]
    assert signal.getsignal(signal.SIGTERM) == before  # handlers restored


def test_port_in_use_is_refused_with_the_owner(state_dir, needs_redis):
    port = free_port()
    with subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--bind", "127.0.0.1"],
                          stdout=subprocess.DEVNULL) as other:
        try:
            wait_for_port(port, other)
            with pytest.raises(UserError, match=rf"port {port} on 127.0.0.1 is in use by pid {other.pid}") as err:
                provision("redis", "local", experiment_id="t-port", port=port, **QUIET)
            assert err.value.exit_code == 1
        finally:
            other.terminate()


def test_missing_binary_says_what_to_install(state_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(UserError, match="redis-server not found .*apt-get install redis-server") as err:
        provision("redis", "local", experiment_id="t-missing", **QUIET)
    assert err.value.exit_code == 1


def test_community_mongod_is_refused_never_run_with_another_engine(state_dir, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    _fake_binary(bin_dir, "mongod", 'echo "Options:"; echo "  --storageEngine arg  (wiredTiger)"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    with pytest.raises(UserError, match="MongoDB Community without the inMemory.*Percona Server for MongoDB"):
        provision("mongodb", "local", experiment_id="t-mongod", **QUIET)
    assert state.entries() == []


def test_down_spares_a_recorded_pid_that_is_no_longer_our_process(state_dir):
    stranger = subprocess.Popen(["sleep", "30"])
    try:
        ep = Endpoint(target="redis", protocol="redis", url="redis://127.0.0.1:1/0", backend="local",
                      pid=stranger.pid)
        state.add({"key": f"local:{stranger.pid}", "endpoint": ep.to_dict(),
                   "create_time": psutil.Process(stranger.pid).create_time() - 100.0, "data_dir": None})
        teardown(ep)
        assert stranger.poll() is None and state.entries() == []
    finally:
        stranger.kill()
        stranger.wait()


def test_external_url_is_read_but_never_recorded_or_stopped(state_dir, redis_server):
    ep = provision(redis_server.url, experiment_id="t-ext", **QUIET)
    assert ep.backend == "external" and ep.server_name.startswith("Redis 7") and ep.config["appendonly"] == "no"
    assert state.entries() == []
    teardown(ep)
    assert redis_server.proc.poll() is None and server_alive(ep)


def test_unreachable_external_url_is_one_line_error(state_dir):
    with pytest.raises(UserError, match=r"redis://u:\*\*\*@127.0.0.1:1/0 does not answer") as err:
        provision("redis://u:hunter2@127.0.0.1:1/0", experiment_id="t-ext", **QUIET)
    assert "hunter2" not in str(err.value) and err.value.exit_code == 1


def test_auto_falls_back_to_local_and_records_why(state_dir, needs_redis, monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with provisioned(["redis"], experiment_id="t-auto", **QUIET) as (ep,):
        assert ep.backend == "local"
        assert ep.notes[0].startswith("backend auto -> local: Docker does not answer at unix:///nonexistent")


@pytest.mark.parametrize(("url", "shown"), [
    ("redis://:s3cret@h:6379/0", "redis://:***@h:6379/0"),
    ("redis://user:s3cret@h:6379/0", "redis://user:***@h:6379/0"),
    ("redis://s3cret@h:6379", "redis://***@h:6379"),
    ("mongodb://app:s3cret@h1:27017,h2:27017/ycsb?w=1", "mongodb://app:***@h1:27017,h2:27017/ycsb?w=1"),
    ("redis://h:6379/0?password=s3cret&db=1", "redis://h:6379/0?password=***&db=1"),
    ("mongodb://127.0.0.1:27017/ycsb", "mongodb://127.0.0.1:27017/ycsb"),
    # the rest of a query as given, not encoded again (was: ssl_ca_certs=%2Ftmp%2Fca.crt in every line; fault43e)
    ("rediss://h:1/0?ssl_ca_certs=/tmp/ca.crt&password=s3cret", "rediss://h:1/0?ssl_ca_certs=/tmp/ca.crt&password=***"),
    ("postgresql://u:pw@h/db?sslmode=require;", "postgresql://u:***@h/db?sslmode=require;"),
    ("redis://h:6379/0?password=", "redis://h:6379/0?password="),
    # a URL urllib refuses (an IPv6 bracket left open): everything before the host's "@" hidden, no character of it kept
    ("redis://u:s3cret@[::1/0", "redis://***@[::1/0"),
    ("redis://:s3cret@[::1:6379", "redis://***@[::1:6379"),
])
def test_redact_url_hides_passwords_only(url, shown):
    assert redact_url(url) == shown


@pytest.mark.parametrize("secret", ["s3cr'et", 's3"cr et', "a'b'c=d,e", "p@ss"])
def test_a_command_line_keeps_every_argument_but_its_secrets_whatever_characters_they_hold(secret: str) -> None:
    """The recorded command line, read back as a shell reads it (``shlex.split``) and each URL as urllib reads it:
    every argument in its place, the URL's host, port and path and every property's name as given, each secret
    ``***``, and no piece of any secret anywhere (a pattern over the joined line once kept a quote's tail)."""
    import shlex
    from urllib.parse import quote, urlsplit

    from ycsbctl.urls import command_line

    url = f"redis://:{quote(secret, safe='')}@127.0.0.1:6390/0"
    argv = ["run", "workload-b", "--target", url, "-p", f"redis.password={secret}", "--target=" + url,
            "-p", f"mongodb.url=mongodb://app:{quote(secret, safe='')}@h:27017/ycsb", "--threads", "8",
            "--token", secret, "-p", "recordcount=10"]
    line = command_line(argv)
    back = shlex.split(line)
    assert back[0] == "ycsbctl" and len(back) == len(argv) + 1
    for given, shown in zip(argv, back[1:]):
        if "://" in given:
            flagged = given.startswith(("--target=", "mongodb.url="))
            name, _, value = given.partition("=") if flagged else ("", "", given)
            was, now = urlsplit(value), urlsplit(shown.removeprefix(f"{name}=" if name else ""))
            assert (now.hostname, now.port, now.path, now.username or "") == (was.hostname, was.port, was.path,
                                                                                 was.username or "")
            assert now.password == "***"
        elif given.startswith("redis.password="):
            assert shown == "redis.password=***"
        elif given == secret:
            assert shown == "***"
        else:
            assert shown == given
    pieces = [secret, quote(secret, safe=""), *secret.replace('"', "'").split("'")]
    assert not [piece for piece in pieces if len(piece) > 2 and piece in line], line


def test_a_sentence_naming_urls_is_shown_as_written() -> None:
    """The --tls refusal's own example URLs came out as 'postgresql://…?sslmode=require%3B mysql://…?ssl=true%29'."""
    from ycsbctl.urls import redact_text

    said = "give its TLS URL (rediss://…; postgresql://…?sslmode=require; mysql://…?ssl=true)"
    assert redact_text(said) == said


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # Python's report of the dropped one
def test_an_interrupt_swallowed_by_a_finalizer_is_raised_when_the_block_ends() -> None:
    """Python only prints a KeyboardInterrupt raised inside ``__del__``; ``interrupts_kept`` raises
    it again at the end of the block, so a half-made lab is never left as if it were up."""
    from ycsbctl.processes import interrupts_kept

    class SignalledWhileCollected:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # the handler's KeyboardInterrupt is dropped here

    steps = []
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt, match="SIGINT"), interrupts_kept():
        SignalledWhileCollected()  # collected at once: the interrupt lands inside __del__
        steps.append("block went on")
    assert steps == ["block went on"]  # the finalizer swallowed it…
    assert signal.getsignal(signal.SIGINT) == before  # …the block raised it, and restored the handler


class _SignalledWhileCollected:
    """Sends SIGINT to this process from its finalizer: the handler's KeyboardInterrupt lands
    inside ``__del__``, where Python drops it."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)


def test_an_interrupt_a_finalizer_dropped_stops_the_wait_that_follows_it() -> None:
    """CI: Ctrl-C landed in a ``Popen.__del__`` as `lab up` started its redis-server, and `lab up`
    went on to wait 30 s for a server that never came, then failed with exit 1 instead of 130.
    The dropped interrupt is sent again, so a 60 s sleep after it is cut short (without that,
    the sleep runs out and the steps show it), and Python's "Exception ignored" report of it is
    not printed (the previous hook sees nothing)."""
    from ycsbctl.processes import interrupts_kept

    seen: list[object] = []
    previous, sys.unraisablehook = sys.unraisablehook, seen.append
    steps = []
    try:
        with pytest.raises(KeyboardInterrupt, match="SIGINT"), interrupts_kept():
            _SignalledWhileCollected()
            steps.append("dropped")
            time.sleep(60)
            steps.append("slept")
    finally:
        sys.unraisablehook = previous
    assert steps == ["dropped"]
    assert seen == []


def test_a_block_that_fails_after_a_dropped_interrupt_ends_in_the_interrupt() -> None:
    """An error raised before the interrupt is sent again (a wait that failed because of it) still
    ends the block in KeyboardInterrupt, the error as its cause; the signal not yet sent again is
    then not sent at all (no stray SIGINT after the block)."""
    from ycsbctl.processes import REDELIVERY_DELAY_S, interrupts_kept

    later: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: later.append(signum))
    try:
        with pytest.raises(KeyboardInterrupt, match="SIGINT") as caught, interrupts_kept():
            _SignalledWhileCollected()
            raise RuntimeError("nothing listens")
        assert isinstance(caught.value.__cause__, RuntimeError)
        time.sleep(4 * REDELIVERY_DELAY_S)
    finally:
        signal.signal(signal.SIGINT, before)
    assert later == []


def test_a_child_started_while_children_are_spared_ctrl_c_begins_with_sigint_blocked_and_we_get_the_signal():
    """The engine's fork server and spawned workers start so: a terminal's Ctrl-C in their start-up is ours."""
    code = "import signal; print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set()))"
    reached = []
    with pytest.raises(KeyboardInterrupt), children_spared_ctrl_c():
        child = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True)
        os.kill(os.getpid(), signal.SIGINT)  # held until the block ends
        reached.append(True)
    assert child.stdout.strip() == "True" and reached
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # ours unblocked again


def test_a_pymongo_server_selection_error_is_one_short_line_without_its_topology_dump() -> None:
    """pymongo appends its settings and its whole topology to the message; our one line keeps the cause."""
    import pymongo

    from ycsbctl.errors import first_line, short_error

    client = pymongo.MongoClient(f"mongodb://127.0.0.1:{free_port()}/", serverSelectionTimeoutMS=200)
    try:
        with pytest.raises(pymongo.errors.ServerSelectionTimeoutError) as caught:
            client.admin.command("ping")
    finally:
        client.close()
    assert "Topology Description" in str(caught.value)  # what the library says…
    for line in (short_error(caught.value), first_line(caught.value)):
        assert "Topology Description" not in line and "configured timeouts" not in line, line  # …and what we keep
        assert "Connection refused" in line and "Timeout: 0.2s" in line, line


def test_secret_properties_are_found_where_the_pattern_before_its_word_start_found_them() -> None:
    """The property pattern now starts a key where a word does (3x faster on a point's JSON); on 20,000 random
    texts of keys, dashes, separators and quotes it redacts exactly what the pattern before it did (a start at
    any offset), the word-start one of ``-p redis.password=x``, ``--token t`` and ``requirepass=…`` included."""
    import random
    import re

    from ycsbctl.urls import _redact_property, redact_text

    before = re.compile(r"(?P<key>(?:(?<![\w.-])-{1,2})?[\w.-]*(?:pass|pwd|secret|token)[\w.-]*)"
                        r"(?P<sep>=|(?<=[\w.])\s+(?=[^\s-]))(?P<value>[^\s'\",]+)", re.IGNORECASE)
    parts = [*"ab.-_= \t'\",x", "pass", "PWD", "secret", "token", "--", "-p ", "requirepass", " "]
    rng = random.Random(7)
    texts = ["".join(rng.choice(parts) for _ in range(rng.randint(0, 25))) for _ in range(20_000)]
    texts += ["-p redis.password=x", "--token t", '"requirepass": "s3"', "a.pwd=1,b=2 x-secret y"]
    changed = 0
    for text in texts:
        assert redact_text(text) == before.sub(_redact_property, text), text
        changed += redact_text(text) != text
    assert changed > 1_000  # the texts exercise the pattern, not only its absence


def test_a_urls_host_and_whether_it_is_this_hosts_loopback() -> None:
    """``host_of``: the first host of a list, without credentials holding ``@``, an IPv6 literal without its
    brackets, a bare IPv6 address whole; ``is_loopback`` by name or address. ``unencoded_credentials``: a password
    whose ``/``, ``#``, ``?`` or ``@`` was not percent-encoded."""
    from ycsbctl.urls import host_of, is_loopback, unencoded_credentials

    assert host_of("mongodb://u:p@h1:27017,h2:27018/db") == "h1"
    assert host_of("redis://u:p@w@example.org:6379") == "example.org"
    assert host_of("redis://[::1]:6379") == "::1"
    assert host_of("redis://10.0.0.5") == "10.0.0.5"
    assert host_of("basic://") is None
    assert [is_loopback(h) for h in ("localhost", "127.0.0.2", "::1", "10.0.0.5", "example.org", None, "")] == \
        [True, True, True, False, False, False, False]
    assert unencoded_credentials("redis://u:pa/ss@h:1") and unencoded_credentials("redis://u:p@ss@h:1")
    assert not unencoded_credentials("redis://u:pa%2Fss@h:1") and not unencoded_credentials("redis://h:1/0")


def test_a_version_is_the_programs_own_line_not_the_jvms_note_of_options_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``JAVA_TOOL_OPTIONS`` set (a corporate JVM policy, a test session's flags), a JVM prints ``Picked up
    JAVA_TOOL_OPTIONS: …`` before anything of its own: doctor and the server versions read the line after it, as
    ``java -version`` run without the variable prints it first."""
    from ycsbctl.provision.probe import binary_version, version_line

    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on PATH (apt-get install default-jre-headless)")
    monkeypatch.delenv("JAVA_TOOL_OPTIONS", raising=False)
    plain = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    own = (plain.stdout + plain.stderr).splitlines()[0].strip()
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Xss2m")
    noted = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    assert (noted.stdout + noted.stderr).splitlines()[0].startswith("Picked up JAVA_TOOL_OPTIONS")
    assert binary_version(java, ("-version",)) == own
    assert version_line("NOTE: Picked up JDK_JAVA_OPTIONS: -Xss2m\nPicked up _JAVA_OPTIONS: -Xss2m\n\n v1 \n") == "v1"
    assert version_line("Picked up JAVA_TOOL_OPTIONS: -Xss2m\n") == ""
    # Elasticsearch 6.8's launcher drops the variable and says so, first
    assert version_line("warning: ignoring JAVA_TOOL_OPTIONS=-Xss2m\nVersion: 6.8.23, Build: oss\n") == \
        "Version: 6.8.23, Build: oss"
