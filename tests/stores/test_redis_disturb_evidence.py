"""The SLOWLOG lines of a redis disturbance's evidence (stores/redis/disturb.py ``_slowlog_of_key``) from a real
redis-server's own log: which entries are the action's."""

from __future__ import annotations

from ycsbctl.stores.disturb import parse_disturb
from ycsbctl.stores.redis.disturb import RedisDisturber


def test_the_slowlog_lines_of_the_key_are_the_entries_after_the_mark_and_a_command_without_a_key_is_passed_over(
        redis_server, rds):
    """Every command logged: the entry at the mark (the key's EXISTS before the action) is not the action's, and a
    one-word command after it (PING: no key to compare) is passed over, not read past its end; only the DEL after
    the mark is charged."""
    saved = rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]
    rds.config_set("slowlog-log-slower-than", 0)
    d = RedisDisturber(redis_server.url, parse_disturb("del:hash:10@1s"), "of-key")
    try:
        d.r.exists(d.key)
        mark = d._slowlog_mark()
        d.r.ping()
        d.r.delete(d.key)
        log = {e["id"]: e["command"] for e in rds.slowlog_get(128)}
        assert log[mark] == f"EXISTS {d.key}".encode() and b"PING" in [log[i] for i in log if i > mark]
        assert [word for word, _ in d._slowlog_of_key(mark)] == ["DEL"]
    finally:
        d.close()
        rds.config_set("slowlog-log-slower-than", saved)
