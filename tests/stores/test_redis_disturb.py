"""Big keys and their disturbing commands on a real redis-server (stores/redis/disturb.py): what the server
holds after building, after each action, and what its SLOWLOG says about the action. Without a server, when an
expiry is armed and how long it is timed."""

from __future__ import annotations

import time

import pytest

from ycsbctl.stores.disturb import parse_disturb
from ycsbctl.stores.redis.disturb import CLIENT_NAME, RedisDisturber

SIZE = 20_000
LENGTH = {"set": "scard", "hash": "hlen", "zset": "zcard", "list": "llen"}
BUILD = {"set": "sadd", "hash": "hset", "zset": "zadd", "list": "rpush"}


def _calls(rds, command: str) -> int:
    """The server's own count of ``command``'s calls (INFO commandstats)."""
    return int(rds.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))


@pytest.mark.parametrize("kind", ["set", "hash", "zset", "list"])
def test_the_big_key_holds_every_member_and_del_removes_it(redis_server, rds, kind):
    d = RedisDisturber(redis_server.url, parse_disturb(f"del:{kind}:{SIZE}@1s"), "t")
    try:
        before = _calls(rds, BUILD[kind])
        t0 = time.perf_counter()
        took = d.build()
        assert 0 < took <= time.perf_counter() - t0
        assert _calls(rds, BUILD[kind]) - before == SIZE // 1000  # 1,000 members a command, as the server counted
        assert rds.type(d.key).decode() == kind
        assert getattr(rds, LENGTH[kind])(d.key) == SIZE
        timing = d.act()
        assert not rds.exists(d.key)
        assert timing.command == f"DEL {d.key}"
    finally:
        d.close()



@pytest.mark.parametrize("kind", ["hash", "list"])
def test_a_big_key_of_a_size_not_a_multiple_of_the_batch_holds_exactly_that_many(redis_server, rds, kind):
    d = RedisDisturber(redis_server.url, parse_disturb(f"del:{kind}:2500@1s"), "odd")
    try:
        before = _calls(rds, BUILD[kind])
        d.build()
        # 1,000 + 1,000 + 500
        assert getattr(rds, LENGTH[kind])(d.key) == 2_500 and _calls(rds, BUILD[kind]) - before == 3
    finally:
        d.close()


def test_the_servers_time_is_its_slowlog_entries_of_this_command_by_this_client_after_the_mark(redis_server):
    # SLOWLOG GET as redis-py returns it (newest first); the mark is the last entry's id before the action
    from types import SimpleNamespace

    def entry(i: int, command: bytes, us: int, name: bytes = CLIENT_NAME.encode()) -> dict:
        return {"id": i, "start_time": 1_700_000_000 + i, "duration": us, "command": command,
                "client_address": b"127.0.0.1:5000", "client_name": name}

    log = [entry(8, b"DEL ycsbctl:big:t", 300), entry(7, b"DEL ycsbctl:big:t", 200),
           entry(6, b"DEL other", 9000, b"someone-else"), entry(5, b"HSET ycsbctl:big:t m0 v", 800),
           entry(4, b"DEL ycsbctl:big:t", 5000)]  # an earlier repetition's, at the mark
    d = RedisDisturber(redis_server.url, parse_disturb("del:hash:10@1s"), "t")
    try:
        real, d.r = d.r, SimpleNamespace(slowlog_get=lambda n: log)
        assert d._slowlog_duration(4, "DEL") == 300e-6  # the slowest of the action's own, none before the mark
        assert d._slowlog_duration(8, "DEL") is None and d._slowlog_duration(-2, "DEL") is None
    finally:
        d.r = real
        d.close()


@pytest.mark.parametrize("was, lowered", [(0, False), (100, False), (101, True), (-1, True)])
def test_the_slowlog_threshold_is_lowered_to_100_us_only_where_it_logs_less(redis_server, rds, was, lowered):
    # 0 logs every command and 100 what the point needs: left alone (nothing to restore); above, or off (-1): set
    setting = rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]
    rds.config_set("slowlog-log-slower-than", was)
    d = RedisDisturber(redis_server.url, parse_disturb("del:hash:10@1s"), "threshold")
    try:
        d.build()
        during = int(rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"])
        assert (during, d.saved_threshold) == ((100, was) if lowered else (was, None))
    finally:
        d.close()
        after = int(rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"])
        rds.config_set("slowlog-log-slower-than", setting)  # as it was, for the other tests
    assert after == was


@pytest.mark.parametrize("was, lowered", [(0, True), (1, False), (10, False), (11, True)])
def test_the_latency_monitor_threshold_is_set_to_10_ms_only_where_it_is_off_or_higher(redis_server, rds, was,
                                                                                      lowered):
    # 0 is off, 10 ms what the point needs: at 1-10 the server gets no CONFIG SET at all (its own count), above it or
    # off, one to lower it and one to restore it
    setting = {k: rds.config_get(k)[k] for k in ("latency-monitor-threshold", "slowlog-log-slower-than")}
    rds.config_set("slowlog-log-slower-than", 100)  # left alone: the only CONFIG SET counted is the monitor's
    rds.config_set("latency-monitor-threshold", was)
    before = _calls(rds, "config|set")
    d = RedisDisturber(redis_server.url, parse_disturb("del:hash:10@1s"), "monitor")
    try:
        d.build()
        during = int(rds.config_get("latency-monitor-threshold")["latency-monitor-threshold"])
    finally:
        d.close()
        after = int(rds.config_get("latency-monitor-threshold")["latency-monitor-threshold"])
        sets = _calls(rds, "config|set") - before
        for k, v in setting.items():
            rds.config_set(k, v)  # as it was, for the other tests
    assert (during, after, sets) == ((10, was, 2) if lowered else (was, was, 0))


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
        exists = _calls(rds, "exists")
        timing = d.act()
        gone_at = time.perf_counter()
        polled = _calls(rds, "exists") - exists
    finally:
        d.close()
    assert not rds.exists(d.key)
    assert f"({polled} EXISTS polls)" in timing.note  # as many as the server answered
    # when it expired, not when PEXPIRE was sent: the expiry instant is set inside arm(), within what it took
    assert abs(timing.start_s - (armed + lead)) <= arming + 0.001
    assert 0 <= timing.duration_s <= gone_at - timing.start_s
    assert "after it expired" in timing.note



def test_an_expiry_armed_for_a_later_second_is_set_in_the_servers_milliseconds(redis_server, rds):
    # PEXPIRE's milliseconds against the server's own PTTL: never more than the time left to the instant asked
    d = RedisDisturber(redis_server.url, parse_disturb("expire:hash:10@1s"), "far")
    try:
        d.build()
        armed = time.perf_counter()
        d.arm(armed + 20.0)
        left_ms = rds.pttl(d.key)
        assert 19_000 < left_ms <= 20_000 and abs(d.expires_at - (armed + 20.0)) < 1.0
    finally:
        d.close()  # unlinks the key


@pytest.mark.parametrize("action", ["del", "hgetall"])
def test_a_reading_action_takes_its_reply_off_the_socket_unbuilt_and_an_unlogged_one_says_why(redis_server, action):
    # a read's reply is read without building it (never through execute_command); a write goes through it. An
    # action the server did not log (10 members: microseconds, under the 100 µs threshold set for the point) says so
    d = RedisDisturber(redis_server.url, parse_disturb(f"{action}:hash:10@1s"), f"tiny-{action}")
    sent: list[str] = []
    try:
        d.build()
        d.arm(time.perf_counter())
        run = d.r.execute_command
        d.r.execute_command = lambda *args, **kw: sent.append(str(args[0]).split()[0]) or run(*args, **kw)
        timing = d.act()
    finally:
        d.close()
    assert ("DEL" in sent) == (action == "del") and "HGETALL" not in sent
    assert ("not in SLOWLOG: under its 100 µs threshold" in timing.note) == (timing.server_s is None)

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



def test_a_slowlog_that_was_off_is_on_for_the_point_and_off_again_and_its_first_entry_is_the_actions(tmp_path):
    # a negative threshold turns Redis's SLOWLOG off: lowered to 100 µs for the point, then put back. On a fresh
    # server the action's entry is the first SLOWLOG ever holds, id 0: after a mark of "none yet", not before it
    import redis

    from tests.fixtures.servers import start_redis

    server = start_redis(tmp_path, extra=("--slowlog-log-slower-than", "-1"))
    r = redis.Redis.from_url(server.url)
    try:
        d = RedisDisturber(server.url, parse_disturb("del:set:20k@1s"), "t")
        try:
            d.build()
            assert r.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"] == "100"
            d.arm(time.perf_counter())
            timing = d.act()
            (entry,) = [e for e in r.slowlog_get(128) if e["command"].startswith(b"DEL ycsbctl:big:")]
            assert timing.server_s == entry["duration"] / 1e6 > 0
        finally:
            d.close()
        assert r.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"] == "-1"
    finally:
        r.close()
        server.stop()


def _slowlog_of(rds, key: str, after: int) -> list[float]:
    """Seconds of the server's SLOWLOG entries naming ``key`` with an id above ``after``, any client's."""
    return [e["duration"] / 1e6 for e in rds.slowlog_get(128)
            if e["id"] > after and e["command"].split(b" ")[1:2] == [key.encode()]]


def test_an_expiry_is_charged_what_the_servers_slowlog_and_latency_monitor_say_and_the_monitor_comes_back(
        redis_server, rds):
    # a hash whose deletion takes milliseconds: the expiry's evidence is the longest of the SLOWLOG entries naming
    # the key (the EXISTS that found it expired deletes it) and the monitor's expire-del / expire-cycle samples
    rds.config_set("latency-monitor-threshold", 0)
    rds.execute_command("LATENCY", "RESET")
    expired = int(rds.info("stats")["expired_keys"])
    d = RedisDisturber(redis_server.url, parse_disturb("expire:hash:200k@1s"), "evidence")
    try:
        d.build()
        mark = (rds.slowlog_get(1) or [{"id": -1}])[0]["id"]  # after the building commands
        assert rds.config_get("latency-monitor-threshold")["latency-monitor-threshold"] == "10"  # on for the point
        d.arm(time.perf_counter() + 0.2)
        timing = d.act()
    finally:
        d.close()
    assert rds.config_get("latency-monitor-threshold")["latency-monitor-threshold"] == "0"  # off again
    samples = [ms / 1000 for name in ("expire-del", "expire-cycle")
               for _, ms in rds.execute_command("LATENCY", "HISTORY", name)]
    logged = _slowlog_of(rds, d.key, mark)
    assert samples or logged, "a 200k-member hash takes more than 10 ms to delete"
    assert timing.held_s == max(samples + logged)
    assert f"INFO expired_keys +{int(rds.info('stats')['expired_keys']) - expired}" in timing.evidence
    assert ("SLOWLOG EXISTS" in timing.evidence) == bool(logged) and timing.background_s is None


@pytest.mark.parametrize("action, lazy", [("unlink", "no"), ("del", "yes"), ("del", "no")])
def test_a_key_freed_in_the_background_is_charged_the_seconds_lazyfree_says_it_took(redis_server, rds, action, lazy):
    # UNLINK, and DEL with lazyfree-lazy-user-del, leave the set to a thread of the server's: the evidence is how
    # long lazyfree_pending_objects stayed above zero after the command returned; a plain DEL has none
    rds.config_set("lazyfree-lazy-user-del", lazy)
    freed = int(rds.info("memory")["lazyfreed_objects"])
    d = RedisDisturber(redis_server.url, parse_disturb(f"{action}:set:100k@1s"), f"lazy-{action}-{lazy}")
    try:
        d.build()
        d.arm(time.perf_counter())
        timing = d.act()
        done = time.perf_counter()
    finally:
        d.close()
        rds.config_set("lazyfree-lazy-user-del", "no")
    in_background = action == "unlink" or lazy == "yes"
    assert int(rds.info("memory")["lazyfreed_objects"]) - freed >= in_background  # close() unlinks nothing left
    if in_background:
        assert timing.background_s is not None and 0 < timing.background_s <= done - (
            timing.start_s + timing.duration_s
        )
        assert "lazyfree: freed in the background" in timing.evidence
        assert int(rds.info("memory")["lazyfree_pending_objects"]) == 0
    else:
        assert timing.background_s is None and "lazyfree" not in timing.evidence
        assert timing.held_s == timing.server_s and "SLOWLOG DEL" in timing.evidence


def test_a_redis_disturbance_is_timed_by_the_slowest_of_its_commands_the_server_logged(redis_server, rds):
    from ycsbctl.stores.disturb import parse_disturb
    from ycsbctl.stores.redis.disturb import CLIENT_NAME, RedisDisturber

    saved = rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]
    rds.config_set("slowlog-log-slower-than", 0)
    d = RedisDisturber(redis_server.url, parse_disturb("del:zset:1k@1s"), "t")
    try:
        rds.sadd("t:big", *range(50_000))
        mark = d._slowlog_mark()
        for key in ("t:none", "t:big", "t:none"):  # the second frees 50,000 members, the others nothing
            d.r.delete(key)
        rds.delete("t:other")  # another client's DEL: not the disturber's
        mine = [e["duration"] for e in rds.slowlog_get(128)
                if e["id"] > mark and e["client_name"] == CLIENT_NAME.encode() and e["command"].startswith(b"DEL ")]
        assert len(mine) == 3 and max(mine) > 2 * min(mine)
        assert d._slowlog_duration(mark, "DEL") == max(mine) / 1e6
    finally:
        d.close()
        rds.config_set("slowlog-log-slower-than", saved)


def test_a_redis_expire_is_armed_to_the_ms_at_least_1_ms_waited_for_then_polled_and_timed_from_the_whole_slowlog(
        monkeypatch):
    # on a clock of the test's own (time.sleep moves it): PEXPIRE of the ms left to the action's second (1 ms
    # when that second has passed), the action sleeps until the expiry and then polls EXISTS every POLL_S until
    # the key is gone; a command's server time is looked for in the whole SLOWLOG (Redis keeps 128 by default)
    from types import SimpleNamespace

    from ycsbctl.stores.disturb import DisturbSpec
    from ycsbctl.stores.redis import disturb

    clock = [100.0]
    monkeypatch.setattr(disturb, "time", SimpleNamespace(perf_counter=lambda: clock[0], time=lambda: 1e9 + clock[0],
                                                          sleep=lambda s: clock.__setitem__(0, clock[0] + s)))

    class Server:
        def __init__(self) -> None:
            self.pexpired: list[int] = []
            self.gone_at = 0.0
            self.log: list[dict] = []

        def pexpire(self, key: str, ms: int) -> None:
            self.pexpired.append(ms)

        def exists(self, key: str) -> int:
            return int(clock[0] < self.gone_at)

        def slowlog_get(self, n: int) -> list[dict]:
            return self.log[:n]

    d = disturb.RedisDisturber.__new__(disturb.RedisDisturber)
    d.spec, d.key, d.r = DisturbSpec("expire on a set", "expire", "set", 10, 1.0), "ycsbctl:big:x", Server()
    d.saved_threshold, d.expires_at, d.mark = None, 0.0, -1
    d.arm(101.0)
    d.arm(99.5)  # the action's second has passed: at once
    assert d.r.pexpired == [1000, 1] and d.expires_at == 100.001
    d.arm(100.5)
    d.r.gone_at = 100.5035  # the server reclaims the key 3.5 ms after it expired
    timing = d.act()
    assert timing.note == "gone 0.004 s after it expired (5 EXISTS polls)" and timing.start_s == 100.5, timing
    mine = {"id": 1, "client_name": disturb.CLIENT_NAME, "command": b"DEL ycsbctl:big:x", "duration": 2500}
    d.r.log = [{"id": 200 - i, "client_name": b"other", "command": b"HGETALL user1", "duration": 150}
               for i in range(127)] + [mine]  # newest first: this connection's DEL the oldest of 128
    assert d._slowlog_duration(0, "DEL") == 0.0025


def test_a_key_freed_in_the_background_before_the_first_look_is_done_at_that_look(redis_server, monkeypatch):
    """One key left to a thread of the server's that freed it before INFO was read after the command
    (``lazyfreed_objects`` one more, nothing pending): it was freed in the background, and done when first looked —
    a reading with no poll (INFO is not asked again), not "nothing left to the background"; a key freed by the
    command itself (neither counter moved) has no background free at all."""
    d = RedisDisturber(redis_server.url, parse_disturb("unlink:set:1k@1s"), "t")
    try:
        d.counted = d._counters()

        def polled() -> dict[str, int]:
            raise AssertionError("polled INFO for a free already done")

        monkeypatch.setattr(d, "_counters", polled)
        done_already = {**d.counted, "lazyfreed_objects": d.counted.get("lazyfreed_objects", 0) + 1}
        end = time.perf_counter()
        watched = d._background_free(end, done_already)
        assert watched is not None and watched[1] == 0 and 0 <= watched[0] <= time.perf_counter() - end
        assert d._background_free(end, dict(d.counted)) is None
    finally:
        d.close()


def test_a_background_free_is_not_said_done_once_info_no_longer_gives_its_counter(tmp_path):
    """The lazyfree poll reads INFO's ``lazyfree_pending_objects`` until it says 0. A server that refuses INFO from
    then on (its ACL takes INFO from the default user: the server answers NOPERM) says no 0: the free is not said done
    — the poll stops at its first refused read with the counter unknown (None), not at the end of its wait, and not
    with a time the free was never seen to end in (the window it charges stays open)."""
    import redis

    from tests.fixtures.servers import start_redis
    from ycsbctl.stores.redis.disturb import LAZYFREE_WAIT_S

    server = start_redis(tmp_path)
    admin = redis.Redis.from_url(server.url)
    d = RedisDisturber(server.url, parse_disturb("unlink:set:1k@1s"), "t")
    try:
        d.counted = d._counters()  # the server's own counters before the action
        # as read just after an UNLINK whose key one thread of the server's is still freeing
        after = {**d.counted, "lazyfree_pending_objects": d.counted["lazyfree_pending_objects"] + 1}
        admin.execute_command("ACL", "SETUSER", "default", "-info")
        with pytest.raises(redis.exceptions.NoPermissionError):
            admin.info("memory")
        end = time.perf_counter()
        watched = d._background_free(end, after)
        assert watched is not None
        seconds, pending = watched
        assert pending is None and 0 < seconds < LAZYFREE_WAIT_S
    finally:
        admin.execute_command("ACL", "SETUSER", "default", "+info")
        d.close()
        admin.close()
        server.stop()
