"""Reads on a replica (a real redis-server only where its ROLE is asked): ``redis.readfrom`` read as YCSB-style
names, the replicas a ROLE reply lists (as Redis writes ROLE), and which connection's words a failed operation
carries (the one that answered it, only when it failed)."""

from __future__ import annotations

import pytest

from ycsbctl.errors import UserError
from ycsbctl.stores.binding import Status
from ycsbctl.stores.redis.binding import RedisBinding
from ycsbctl.stores.redis.options import RedisOptions
from ycsbctl.stores.redis.replica_reads import ReplicaReadBinding, open_replica_reads, read_from, replica_addresses


def test_readfrom_is_primary_or_replica_and_nothing_else():
    assert read_from({}) == "primary" and read_from({"redis.readfrom": " Master "}) == "primary"
    assert read_from({"redis.readfrom": "REPLICA"}) == "replica"
    with pytest.raises(UserError, match="redis.readfrom=slave: use primary or replica"):
        read_from({"redis.readfrom": "slave"})


def test_the_replicas_are_those_a_primarys_role_lists():
    role = [b"master", 3129659, [[b"127.0.0.1", b"9001", b"3129242"], [b"10.0.0.2", b"9002", b"3129543"]]]
    assert replica_addresses(role) == [("127.0.0.1", 9001), ("10.0.0.2", 9002)]
    assert replica_addresses(["master", 0, [["10.0.0.3", "9003", "100"]]]) == [("10.0.0.3", 9003)]  # decoded replies
    assert replica_addresses([b"master", 7, [[b"10.0.0.4", b"9004", 7]]]) == [("10.0.0.4", 9004)]  # an int offset
    assert replica_addresses([b"master", 7, [[b"10.0.0.5", 9005, b"7"]]]) == [("10.0.0.5", 9005)]  # an int port
    assert replica_addresses(["master", 0, []]) == [] == replica_addresses([b"master", 0, None])
    assert replica_addresses([b"slave", b"127.0.0.1", 9000, b"connected", 3167038]) == []
    assert replica_addresses([]) == []


def test_a_failed_operation_carries_the_words_of_the_connection_that_answered_it():
    primary = RedisBinding(RedisOptions("redis://127.0.0.1:6379"), 1.0)
    replica = RedisBinding(RedisOptions("redis://127.0.0.1:6380"), 1.0)
    b = ReplicaReadBinding(primary, replica)
    primary.last_error, replica.last_error = "READONLY You can't write against a read only replica.", "old words"
    assert b._said(replica, Status.OK) is Status.OK and b.last_error is None
    assert b._said(replica, Status.NOT_FOUND) is Status.NOT_FOUND and b.last_error is None
    assert b._said(primary, Status.ERROR) is Status.ERROR and b.last_error == primary.last_error
    replica.last_error = "timed out after 1 s"
    assert b._said(replica, Status.TIMEOUT) is Status.TIMEOUT and b.last_error == "timed out after 1 s"


def test_the_role_asked_before_any_watchdog_waits_at_least_a_second_whatever_the_operation_timeout(redis_server):
    """A server paused (``CLIENT PAUSE 300``: every client's command waits 0.3 s) answers ROLE after the pause:
    with an operation timeout of 0.05 s the ROLE still gets its 1 s, so the answer read is the server's own
    (a primary with no replica), not a deadline passed."""
    import asyncio

    import redis

    async def ask() -> None:
        seed = RedisBinding(RedisOptions(redis_server.url), 0.05)
        await seed.connect()
        try:
            assert redis.Redis.from_url(redis_server.url).execute_command("CLIENT", "PAUSE", 300, "ALL")
            await open_replica_reads(RedisOptions(redis_server.url), 1, 0.05, seed)
        finally:
            await seed.close()

    with pytest.raises(UserError, match=r"is no primary with replicas \(ROLE: a master with no replica\)"):
        asyncio.run(ask())
