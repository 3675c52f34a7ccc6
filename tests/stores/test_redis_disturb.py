"""Big keys and their disturbing commands on a real redis-server (stores/redis/disturb.py): what the
server holds after building, after each action, and what its SLOWLOG says about the action."""

from __future__ import annotations

import time

import pytest

from ycsbctl.stores.disturb import parse_disturb
from ycsbctl.stores.redis.disturb import CLIENT_NAME, RedisDisturber

SIZE = 20_000
LENGTH = {"set": "scard", "hash": "hlen", "zset": "zcard", "list": "llen"}


@pytest.mark.parametrize("kind", ["set", "hash", "zset", "list"])
def test_the_big_key_holds_every_member_and_del_removes_it(redis_server, rds, kind):
    d = RedisDisturber(redis_server.url, parse_disturb(f"del:{kind}:{SIZE}@1s"), "t")
    try:
        took = d.build()
        assert took > 0
        assert rds.type(d.key).decode() == kind
        assert getattr(rds, LENGTH[kind])(d.key) == SIZE
        timing = d.act()
        assert not rds.exists(d.key)
        assert timing.command == f"DEL {d.key}"
    finally:
        d.close()


def test_slowlog_has_the_action_under_its_own_client_name_and_the_threshold_comes_back(redis_server, rds):
    rds.config_set("slowlog-log-slower-than", 10_000)
    d = RedisDisturber(redis_server.url, parse_disturb("del:zset:100k@1s"), "t")
    try:
        d.build()
        timing = d.act()
    finally:
        d.close()
    assert int(rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]) == 10_000
    entry = next(e for e in rds.slowlog_get(128) if e["command"].startswith(b"DEL ycsbctl:big:"))
    assert entry["client_name"].decode() == CLIENT_NAME
    # the server's time for the DEL, and the client's around it (which adds the round trip)
    assert timing.server_s == entry["duration"] / 1e6
    assert 0 < timing.server_s <= timing.duration_s


def test_expiry_is_timed_from_the_instant_the_key_expires(redis_server, rds):
    d = RedisDisturber(redis_server.url, parse_disturb("expire:hash:50k@1s"), "t")
    try:
        d.build()
        t = time.perf_counter()
        rds.ping()
        lead = max(0.3, 100 * (time.perf_counter() - t))  # a hundred round trips of this machine ahead, at least
        armed = time.perf_counter()
        d.arm(armed + lead)
        arming = time.perf_counter() - armed  # what the arm itself took here (its round trips)
        assert rds.exists(d.key) and 0 < rds.pttl(d.key) <= lead * 1000
        timing = d.act()
        gone_at = time.perf_counter()
    finally:
        d.close()
    assert not rds.exists(d.key)
    # when it expired, not when PEXPIRE was sent: the expiry instant is set inside arm(), within what it took
    assert abs(timing.start_s - (armed + lead)) <= arming + 0.001
    assert 0 <= timing.duration_s <= gone_at - timing.start_s
    assert "after it expired" in timing.note


def test_lrem_takes_one_member_out_and_a_read_leaves_the_key(redis_server, rds):
    lrem = RedisDisturber(redis_server.url, parse_disturb(f"lrem:list:{SIZE}@1s"), "a")
    read = RedisDisturber(redis_server.url, parse_disturb(f"hgetall:hash:{SIZE}@1s/1s"), "b")
    try:
        lrem.build()
        read.build()
        lrem.act()
        assert rds.llen(lrem.key) == SIZE - 1
        assert rds.lpos(lrem.key, f"m{SIZE // 2}") is None
        timing = read.act()
        assert rds.hlen(read.key) == SIZE and timing.command == f"HGETALL {read.key}"
    finally:
        lrem.close()
        read.close()
    assert not rds.exists(lrem.key) and not rds.exists(read.key)  # close removes what is left
