"""Redis Cluster's routing pieces without a cluster: a key's hash slot against redis-py's own
``key_slot``, the slot table built from a ``CLUSTER SLOTS`` reply as the Redis manual lays it out, a
``MOVED``/``ASK`` error read back, and ``ASKING`` as hiredis packs it."""

from __future__ import annotations

import random

import hiredis
import redis.crc

from ycsbctl.stores.redis.cluster import INDEX_SLOT, SLOTS, SlotMap, key_slot
from ycsbctl.stores.redis.cluster_chain import ASKING, redirect


def test_a_keys_slot_is_redis_pys_for_plain_keys_and_every_shape_of_hash_tag():
    rng = random.Random(43)
    keys = [b"user%d" % rng.getrandbits(63) for _ in range(500)]
    keys += [b"{user}1", b"{user}2", b"a{b}c", b"a{b}c{d}", b"{}", b"{}a", b"a{}b{c}", b"{", b"}", b"}{", b"{a",
             b"a}b{", b"{{a}}", b"", b"_indices", b"foo{bar}{zap}", b"{a}" * 3]
    for key in keys:
        assert key_slot(key) == redis.crc.key_slot(key), key
    assert SLOTS == redis.crc.REDIS_CLUSTER_HASH_SLOTS == 16384
    assert redis.crc.key_slot(b"_indices") == INDEX_SLOT
    assert key_slot(b"123456789") == 0x31C3 % SLOTS  # CRC16/XMODEM's check value, the cluster spec's example


def _node(host: bytes, port: int, node_id: bytes) -> list:
    return [host, port, node_id, {}]  # Redis 7: ip, port, id, a map of hostname and the like


def test_the_slot_table_gives_each_slot_its_primary_and_lists_each_primary_once():
    seed = ("10.0.0.9", 7000)
    reply = [  # as CLUSTER SLOTS replies: start, end, primary, replicas… (ranges in any order)
        [10923, 16383, _node(b"10.0.0.3", 7002, b"c" * 40), _node(b"10.0.0.6", 7005, b"f" * 40)],
        [0, 5460, _node(b"10.0.0.1", 7000, b"a" * 40), _node(b"10.0.0.4", 7003, b"d" * 40)],
        [5461, 10921, _node(b"", 7001, b"b" * 40)],  # an empty host: the node the client asked
        [10922, 10922, _node(b"10.0.0.1", 7000, b"a" * 40)],
    ]
    slots = SlotMap(reply, seed)
    expect = {0: ("10.0.0.1", 7000), 5460: ("10.0.0.1", 7000), 5461: ("10.0.0.9", 7001),
              10921: ("10.0.0.9", 7001), 10922: ("10.0.0.1", 7000), 10923: ("10.0.0.3", 7002),
              16383: ("10.0.0.3", 7002)}
    for slot, owner in expect.items():
        assert slots.owner[slot] == owner, slot
    assert len(slots.owner) == SLOTS
    assert slots.primaries == [("10.0.0.3", 7002), ("10.0.0.1", 7000), ("10.0.0.9", 7001)]
    assert sum(o == ("10.0.0.1", 7000) for o in slots.owner) == 5461 + 1
    assert SlotMap([[0, 99, ["h", "7"]]], seed).owner[99:101] == [("h", 7), seed]  # str host, port as text
    slots.moved(7, ("10.0.0.7", 7006))
    slots.moved(8, ("10.0.0.3", 7002))
    assert slots.owner[6:9] == [("10.0.0.1", 7000), ("10.0.0.7", 7006), ("10.0.0.3", 7002)]
    assert slots.primaries[-1] == ("10.0.0.7", 7006) and len(slots.primaries) == 4


def test_a_redirection_is_its_kind_slot_and_node_and_anything_else_none():
    assert redirect("MOVED 3999 127.0.0.1:6381") == ("MOVED", 3999, ("127.0.0.1", 6381))
    assert redirect("ASK 16383 10.0.0.2:7001") == ("ASK", 16383, ("10.0.0.2", 7001))
    assert redirect("MOVED 0 ::1:30001") == ("MOVED", 0, ("::1", 30001))  # IPv6: the port after the last colon
    for other in (None, "", "ERR unknown command", "MOVEDX 1 h:1", "CLUSTERDOWN The cluster is down",
                  "TRYAGAIN Multiple keys request during rehashing of slot", "ASKING"):
        assert redirect(other) is None, other
    assert hiredis.pack_command(("ASKING",)) == ASKING
