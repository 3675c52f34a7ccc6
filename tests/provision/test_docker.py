"""The docker backend against a real Docker engine (started by the ``docker_client`` fixture)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import docker.errors
import pytest
import redis
from click.testing import CliRunner

from tests.fixtures.docker import load_image_builder, our_containers
from tests.fixtures.servers import free_port
from tests.fixtures.waiting import LineReader
from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.provision import provision, server_alive, state, teardown

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parents[2]
QUIET = {"say": lambda message: None}


@pytest.fixture(scope="module")
def shell_images(docker_client) -> dict[str, str]:
    """Two tiny images that take redis flags: one never listens, one exits at once with an error."""
    builder = load_image_builder()
    extra = {"/bin/sleep": shutil.which("sleep")}
    images = {"never-ready": 'ENTRYPOINT ["/bin/sh", "-c", "exec sleep 600"]',
              "exits": 'ENTRYPOINT ["/bin/sh", "-c", "echo FATAL: unknown option >&2; exit 4"]'}
    for name, entrypoint in images.items():
        builder.build_image(docker_client, f"ycsbctl-test/{name}:local", "/bin/sh", "/bin/sh",
                            [entrypoint, "LABEL ycsbctl.flavor=redis"], extra_files=extra)
    return {name: f"ycsbctl-test/{name}:local" for name in images}


def test_redis_container_is_labelled_limited_ready_and_removed(docker_client, local_images, state_dir):
    ep = provision("redis", "docker", experiment_id="t-dock", image=local_images["redis"], host_network=True,
                   server_cpus="0", server_memory="256m", **QUIET)
    try:
        container = docker_client.containers.get(ep.container_id)
        assert container.labels["ycsbctl"] == "1" and container.labels["ycsbctl.experiment"] == "t-dock"
        host = container.attrs["HostConfig"]
        assert host["CpusetCpus"] == "0" and host["Memory"] == 256 * 1024**2 and host["NetworkMode"] == "host"
        assert ep.cpu_limit_cores == 1.0 and ep.memory_limit_bytes == 256 * 1024**2 and ep.pid is None
        assert ep.server_name.startswith("Redis 7") and int(ep.config["maxmemory"]) == int(0.8 * 256 * 1024**2)
        assert ep.config["save"] == "" and ep.config["appendonly"] == "no"
        assert redis.Redis.from_url(ep.url).ping() and server_alive(ep)
        assert [e["key"] for e in state.entries()] == [f"docker:{ep.container_id}"]
    finally:
        teardown(ep)
    with pytest.raises(docker.errors.NotFound):
        docker_client.containers.get(ep.container_id)
    assert state.entries() == [] and not server_alive(ep)
    assert "Ready to accept connections" in Path(ep.log_path).read_text()


def test_ferretdb_target_runs_the_mongo_wire_image_and_says_so(docker_client, local_images, state_dir):
    if "mongo-wire" not in local_images:
        pytest.skip("infra/bin/mongo-wire is not built (bash infra/build-mongo-wire.sh, or run `make test`)")
    ep = provision("ferretdb", "docker", experiment_id="t-fdb", image=local_images["mongo-wire"], **QUIET)
    try:
        assert ep.server_name.startswith("FerretDB 1.24") and "mongo-wire, SQLite backend" in ep.server_name
        assert any("host networking" in note for note in ep.notes) or ep.url.startswith("mongodb://127.0.0.1:")
    finally:
        teardown(ep)
    assert our_containers(docker_client) == []


def test_docker_redis_fixture_is_a_running_labelled_container(docker_client, docker_redis):
    assert docker_redis.backend == "docker" and server_alive(docker_redis)
    assert docker_client.containers.get(docker_redis.container_id).labels["ycsbctl"] == "1"


def test_down_all_removes_ours_and_leaves_other_containers_alone(docker_client, local_images, docker_redis,
                                                                state_dir):
    stranger = docker_client.containers.run(local_images["redis"], ["--port", str(free_port()), "--save", ""],
                                            network_mode="host", detach=True, labels={"owner": "someone-else"})
    try:
        up = subprocess.run([str(ROOT / ".venv/bin/ycsbctl"), "up", "redis", "--backend", "docker", "--image",
                             local_images["redis"], "--host-network"], capture_output=True, text=True, timeout=60)
        assert up.returncode == 0, up.stderr
        (ours,) = our_containers(docker_client)
        result = CliRunner().invoke(main, ["down", "--all"])
        assert result.exit_code == 0 and f"redis: stopped container {ours.id[:12]}" in result.output
        assert our_containers(docker_client) == [] and state.entries() == []
        stranger.reload()
        assert stranger.status == "running"
        # a labelled container of another state folder (the session's docker_redis) is not ours here
        assert docker_client.containers.get(docker_redis.container_id).status == "running"
    finally:
        stranger.remove(force=True)


def test_sigint_while_up_waits_for_readiness_leaves_no_container(docker_client, shell_images, state_dir):
    proc = subprocess.Popen([str(ROOT / ".venv/bin/ycsbctl"), "up", "redis", "--backend", "docker", "--image",
                             shell_images["never-ready"], "--host-network"],
                            env=os.environ.copy(), text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        LineReader(proc.stderr).wait_for("waiting for redis to answer")
        assert len(our_containers(docker_client)) == 1
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) != 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert our_containers(docker_client) == [] and state.entries() == []


def test_container_exiting_during_startup_is_one_line_with_its_log(docker_client, shell_images, state_dir):
    with pytest.raises(UserError) as err:
        provision("redis", "docker", experiment_id="t-exit", image=shell_images["exits"], host_network=True, **QUIET)
    assert err.value.exit_code == 1 and "\n" not in str(err.value)
    assert "exited with code 4 during start-up" in str(err.value) and "FATAL: unknown option" in str(err.value)
    assert our_containers(docker_client) == [] and state.entries() == []


def test_missing_image_without_registry_is_one_line_error(docker_client, state_dir):
    with pytest.raises(UserError, match="image ycsbctl-test/absent:nope is not present and cannot be pulled") as err:
        provision("redis", "docker", experiment_id="t-img", image="ycsbctl-test/absent:nope", **QUIET)
    assert err.value.exit_code == 1 and "build_local_images.py" in str(err.value)


def test_docker_not_running_is_one_line_error(state_dir, monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(UserError, match="Docker does not answer at unix:///nonexistent/docker.sock") as err:
        provision("redis", "docker", experiment_id="t-nod", **QUIET)
    assert err.value.exit_code == 1 and "--backend local" in str(err.value)


def test_up_two_targets_with_their_images_gives_urls_the_engine_loads_and_runs(docker_client, local_images,
                                                                                state_dir):
    if "mongo-wire" not in local_images:
        pytest.skip("infra/bin/mongo-wire is not built (bash infra/build-mongo-wire.sh, or run `make test`)")
    ycsbctl = str(ROOT / ".venv/bin/ycsbctl")
    up = subprocess.run([ycsbctl, "up", "redis", "ferretdb", "--backend", "docker",
                         "--image", f"redis={local_images['redis']}", "--image",
                         f"ferretdb={local_images['mongo-wire']}"],
                        capture_output=True, text=True, timeout=120)
    try:
        assert up.returncode == 0, up.stderr
        urls = dict(line.split("\t")[:2] for line in up.stdout.splitlines())
        assert urls["redis"].startswith("redis://127.0.0.1:") and urls["ferretdb"].startswith("mongodb://127.0.0.1:")
        assert {c.labels["ycsbctl.target"] for c in our_containers(docker_client)} == {"redis", "ferretdb"}
        for url, records in ((urls["redis"], 2000), (urls["ferretdb"], 200)):
            for cmd in (["load", "workload-b", "--threads", "4"],
                        ["run", "workload-b", "--threads", "4", "--duration", "1"]):
                out = subprocess.run([ycsbctl, *cmd, "--target", url, "-p", f"recordcount={records}", "--quiet"],
                                     capture_output=True, text=True, timeout=120)
                assert out.returncode == 0, out.stderr
                assert "[OVERALL], Throughput(ops/sec)" in out.stdout and "Return=ERROR" not in out.stdout
                if cmd[0] == "load":
                    assert f"[INSERT], Return=OK, {records}" in out.stdout
    finally:
        down = CliRunner().invoke(main, ["down", "--all"])
    assert down.exit_code == 0 and our_containers(docker_client) == [] and state.entries() == []


def test_image_for_a_target_not_started_is_refused(state_dir):
    result = CliRunner().invoke(main, ["up", "redis", "--image", "valkey=valkey/valkey:8"])
    assert result.exit_code == 2 and "valkey is not among the targets to start" in result.output
    result = CliRunner().invoke(main, ["up", "redis", "ferretdb", "--image", "some/image:1"])
    assert result.exit_code == 2 and "write TARGET=IMAGE" in result.output


def test_settings_reach_a_docker_server_and_a_refused_one_leaves_no_container(docker_client, local_images,
                                                                              state_dir: Path) -> None:
    from ycsbctl.stores.server_kind import BadSettings

    ep = provision("redis-lazy", "docker", kind="redis", image=local_images["redis"], host_network=True,
                   settings={"lazyfree-lazy-user-del": "yes"}, experiment_id="t", say=lambda m: None)
    try:
        container = docker_client.containers.get(ep.container_id)
        assert container.labels["ycsbctl.target"] == "redis-lazy" and ep.kind == "redis"
        with redis.Redis.from_url(ep.url) as r:
            assert r.config_get("lazyfree-lazy-user-del") == {"lazyfree-lazy-user-del": "yes"}
        assert ep.traits["server"] == "Redis" and ep.traits["allocator"]
    finally:
        teardown(ep)
    with pytest.raises(BadSettings) as err:
        provision("redis-bad", "docker", kind="redis", image=local_images["redis"], host_network=True,
                  settings={"lazyfree-lazy-user-del": "maybe"}, experiment_id="t", say=lambda m: None)
    assert err.value.exit_code == 2
    assert str(err.value).startswith("redis-bad: redis (ycsbctl-test/redis:local) refused its settings: "
                                     "'lazyfree-lazy-user-del \"maybe\"': argument must be 'yes' or 'no'")
    assert docker_client.containers.list(all=True, filters={"label": f"ycsbctl.state={state.namespace()}"}) == []
    assert state.entries() == []
