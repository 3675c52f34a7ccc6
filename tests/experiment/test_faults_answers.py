"""The fault suite's answers that must name the right cause and the right fix, against real servers:
a structure study run on a dataset another structure stored, a MongoDB URL with a password for a server
without authentication, a SQLite database locked by another process (issue 43)."""

from __future__ import annotations

import pytest
import redis

from tests.fixtures.cli import ycsbctl
from tests.fixtures.faults import clean, no_workers_left
from ycsbctl.results import load

pytestmark = pytest.mark.fault


def test_a_structure_study_without_load_on_another_structures_keys_says_to_use_load(victim, tmp_path):  # noqa: F811
    """The server holds the hash variant's dataset; ``online.structure=hash,set,zset`` without ``--load``
    makes every SADD/ZADD on that key WRONGTYPE: the set and zset points fail and their reasons add the
    fix (--load), the hash points (its own dataset) are ok."""
    loaded = ycsbctl("load", "online-status", "--target", victim.url, "--records", "1000", "-p",
                     "online.structure=hash",
                     "--no-telemetry", "--allow-concurrent", cwd=tmp_path)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    with redis.Redis(port=victim.port) as r:
        assert {r.type(k) for k in r.scan_iter()} == {b"hash"}  # the case itself: one hash holds the users
    run = ycsbctl("run", "online-status", "--target", victim.url, "--records", "1000", "-p",
                  "online.structure=hash,set,zset", "--threads", "2", "--duration", "1", "--warmup", "0",
                  "--no-telemetry", "--allow-concurrent", "--out", str(tmp_path / "out"), cwd=tmp_path)
    clean(run.stdout + run.stderr)
    assert run.returncode == 1, run.stderr[-3000:]
    runs = load(tmp_path / "out").runs.set_index("workload")
    assert runs.loc["online-status-hash", "status"] == "ok"
    for variant in ("online-status-set", "online-status-zset"):
        assert runs.loc[variant, "status"] == "failed"
        assert "WRONGTYPE" in runs.loc[variant, "error"] and "run with --load" in runs.loc[variant, "error"]
    hints = [ln for ln in run.stderr.splitlines() if ln.strip().startswith("hint:")]
    assert len(hints) == 1 and "run with --load" in hints[0], run.stderr[-3000:]  # once, whole
    no_workers_left()


def test_credentials_for_a_server_without_authentication_say_it_has_none(tmp_path):
    """``mongodb://user:pw@`` to a mongo-wire server without authentication: the line says the server has
    no authentication and to drop the credentials, not to fix the password; a Redis that does require a
    password, given a wrong one, is still told to put the right one in the URL."""
    from tests.fixtures.servers import start_mongo_wire, start_redis

    server = start_mongo_wire(tmp_path / "mongo")
    try:
        url = server.url.replace("mongodb://", "mongodb://user:pw@")
        run = ycsbctl("run", "workloadc", "--target", url, "--load", "--records", "100", "--threads", "1",
                      "--duration", "1", "--no-telemetry", "--allow-concurrent", "--out", str(tmp_path / "m"),
                      cwd=tmp_path)
    finally:
        server.stop()
    clean(run.stdout + run.stderr)
    assert run.returncode == 1, run.stderr[-2000:]
    told = [ln for ln in run.stderr.splitlines() if "user:***@" in ln and "skipped" in ln]
    assert len(told) == 1 and "has no authentication" in told[0] and "drop USER:PASSWORD@ from the URL" in told[0], \
        run.stderr[-2000:]
    assert "right password" not in run.stderr
    locked = start_redis(tmp_path / "redis", extra=("--requirepass", "secret"))
    try:
        wrong = ycsbctl("run", "workloadc", "--target", locked.url.replace("redis://", "redis://:nope@"), "--load",
                        "--records", "100", "--threads", "1", "--duration", "1", "--no-telemetry", "--allow-concurrent",
                        "--out", str(tmp_path / "r"), cwd=tmp_path)
    finally:
        locked.stop()
    clean(wrong.stdout + wrong.stderr)
    assert wrong.returncode == 1 and "put the right password in the URL" in wrong.stderr, wrong.stderr[-2000:]
    assert "has no authentication" not in wrong.stderr



def test_a_redis_url_with_a_password_for_a_server_without_one_or_a_database_it_lacks_is_one_line(redis_server):
    """Two Redis URLs that reached the points (fault43g): ``redis://:pw@…`` at a server whose default user has no
    password passed redis-py's PING, then every point failed on the engine's AUTH ('AUTH <password> called without any
    password configured'); ``/99`` at a server of 16 databases read 'something answers there, but not as a redis
    server'. Now each is refused once, as the provisioner says it to a sweep (which skips the target): no
    authentication, drop the password; no database 99, use 0-15. The right database without a password is up."""
    from ycsbctl.errors import UserError
    from ycsbctl.provision.external import ExternalProvisioner

    base = redis_server.url.rsplit("/", 1)[0]
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(base.replace("redis://", "redis://:pw43g@") + "/0")
    assert told.value.exit_code == 1 and told.value.message.startswith(
        f"{base.replace('redis://', 'redis://:***@')}/0 has no authentication: it answers without credentials and "
        "refused the ones in the URL (AuthenticationError: AUTH <password> called without any password configured"), \
        str(told.value)
    assert told.value.fix == "drop USER:PASSWORD@ from the URL"
    with pytest.raises(UserError) as lacks:
        ExternalProvisioner().up(f"{base}/99")
    assert str(lacks.value) == (f"{base}/99: the server has no database 99 (DB index is out of range): use one it has: "
                                "0 up to its `databases` setting minus 1 (16 by default: 0-15)")
    assert ExternalProvisioner().up(f"{base}/15").url == f"{base}/15"
