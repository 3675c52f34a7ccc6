"""The Redis binding's requests and settings without a server: each request is the bytes hiredis packs
for the same command (HGETALL, HMGET, HMSET of every record shape, ZADD of the index, WAIT), the URL and
properties read as redis-py reads the URL, and each refusal said with what to do."""

from __future__ import annotations

import asyncio
import ssl
from types import SimpleNamespace

import hiredis
import pytest
from redis.connection import parse_url

from ycsbctl.errors import UserError
from ycsbctl.stores.redis.binding import RedisBinding, encode_command
from ycsbctl.stores.redis.options import RedisOptions, refused, tls_refusal
from ycsbctl.stores.redis.reply_chain import _ZADD, INDEX_KEY, fell_short, java_hash, read_request
from ycsbctl.workload.core import ALL_FIELDS


def test_each_request_is_the_bytes_hiredis_packs_for_its_command():
    names = (b"field0", b"field1", b"f%d")  # a % in a name is a name, not a template's slot
    ctx = SimpleNamespace(names=[names, (b"field0",), (b"field1",), (b"f%d",)])
    b = RedisBinding(RedisOptions("redis://127.0.0.1:6379/0"), 1.0)
    for key in (b"user1", b"user12345678901234567890", b"k" * 300):
        assert read_request(ctx, key, ALL_FIELDS) == hiredis.pack_command((b"HGETALL", key))
        assert read_request(ctx, key, 1) == hiredis.pack_command((b"HMGET", key, b"field1"))
        for vals in ([b"a" * 100, b"b" * 100, b"c"], [b"", b"x" * 1000, b"%s%%"]):
            flat = [part for pair in zip(names, vals) for part in pair]
            assert b._hmset(key, names, vals) == hiredis.pack_command((b"HMSET", key, *flat)), (key, vals)
            assert b._hmset(key, names, vals) == hiredis.pack_command((b"HMSET", key, *flat))  # the cached shape
        score = b"%d" % java_hash(key)
        assert _ZADD % (len(score), score, len(key), key) == hiredis.pack_command((b"ZADD", INDEX_KEY, score, key))
    assert encode_command(b"WAIT", b"1", b"10000") == hiredis.pack_command((b"WAIT", b"1", b"10000"))
    assert encode_command() == b"*0\r\n"


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "redis://alice:p%40ss@10.0.0.5:6380/2",
                                 "rediss://:secret@[::1]:7000/15", "redis://h", "redis://h:1/notadb"])
def test_the_url_is_read_as_redis_py_reads_it(url):
    o, want = RedisOptions(url), parse_url(url)
    assert (o.host, o.port, o.db, o.username, o.password) == (  # redis-py's defaults: port 6379, db 0
        want["host"], want.get("port", 6379), want.get("db", 0), want.get("username"), want.get("password"))
    assert o.tls is url.startswith("rediss:")


def test_properties_fill_in_and_override_and_bad_ones_are_refused_in_one_line():
    o = RedisOptions("redis:///", {"redis.host": "10.1.1.1", "redis.port": "7001", "redis.password": "pw",
                                   "redis.tls": "YES", "redis.wait": "2", "redis.timeout": "2500"})
    assert (o.host, o.port, o.password, o.tls, o.wait, o.wait_ms) == ("10.1.1.1", 7001, "pw", True, 2, 2500)
    o = RedisOptions("redis://:urlpw@h:1", {"redis.wait.timeout": "300", "redis.timeout": "2500", "redis.tls": "no"})
    assert (o.password, o.wait, o.wait_ms, o.tls) == ("urlpw", 0, 300, False)
    assert RedisOptions("redis://h").wait_ms == 10_000
    for url, props, said in (("http://h:1", {}, "not a Redis URL"), ("redis:///", {"redis.port": "x"}, "bad port"),
                             ("redis://h", {"redis.wait": "one"}, "take whole numbers")):
        with pytest.raises(UserError, match=said):
            RedisOptions(url, props)


def test_tls_trusts_the_given_ca_or_checks_nothing_when_told():
    assert RedisOptions("redis://h").ssl_context() is None
    checked = RedisOptions("rediss://h").ssl_context()
    assert checked.verify_mode == ssl.CERT_REQUIRED and checked.check_hostname
    for reqs in ("none", "OPTIONAL"):
        o = RedisOptions(f"rediss://h?ssl_cert_reqs={reqs}")
        ctx = o.ssl_context()
        assert ctx.verify_mode == ssl.CERT_NONE and not ctx.check_hostname and o.ssl_context() is ctx
    with pytest.raises(UserError, match="cannot read the CA certificate /nonexistent.crt"):
        RedisOptions("rediss://h?ssl_ca_certs=/nonexistent.crt").ssl_context()


def test_each_refusal_says_what_to_do():
    assert refused("ERR max number of clients reached").endswith("raise it (CONFIG SET maxclients N, or "
                                                                   "--maxclients at start) or use fewer threads")
    assert "redis://:PASSWORD@host:port" in refused("NOAUTH Authentication required.")
    for text in ("connection closed by the server", "Connection reset by peer", "no answer to PING"):
        assert refused(text, tls=False) != text and refused(text, tls=True) == text
    assert refused("ERR other") == "ERR other"
    untrusted = ssl.SSLCertVerificationError("certificate verify failed")
    assert "?ssl_ca_certs=/path/ca.crt" in tls_refusal(untrusted, True)
    assert "speaks no TLS on this port" in tls_refusal(ssl.SSLError("wrong version number"), True)
    assert "speaks no TLS on this port" in tls_refusal(ConnectionResetError("reset"), True)
    assert tls_refusal(ConnectionResetError("reset"), False) == "reset"
    assert tls_refusal(TimeoutError(), False) == "timed out"


def test_a_wait_that_counted_fewer_replicas_than_asked_falls_short_and_says_so():
    b = SimpleNamespace(wait_for=2, o=SimpleNamespace(wait_ms=500), last_error=None)
    assert not fell_short(b, 2) and not fell_short(b, 3) and b.last_error is None
    assert fell_short(b, 1)
    assert b.last_error == ("WAIT 2: 1 of 2 replica(s) had the write within 500 ms — a replica fell behind "
                            "(the write is on the primary)")


@pytest.mark.parametrize("replicas, asked, waits", [(2, 1, 1), (2, 3, 2), (0, 1, 0)])
def test_redis_wait_waits_for_as_many_replicas_as_asked_and_the_primarys_role_lists(replicas, asked, waits):
    # a primary answering ROLE as the Redis manual lays it out: ["master", offset, [[ip, port, offset], ...]]
    import hiredis

    from ycsbctl.stores.redis.binding import RedisBinding
    from ycsbctl.stores.redis.options import RedisOptions


    role = b"*3\r\n$6\r\nmaster\r\n:42\r\n*%d\r\n" % replicas + b"".join(
        b"*3\r\n$8\r\n10.0.0.%d\r\n$4\r\n6380\r\n$2\r\n42\r\n" % (i + 2) for i in range(replicas))

    async def go() -> tuple:
        async def primary(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            commands = hiredis.Reader()
            while data := await reader.read(4096):
                commands.feed(data)
                while (cmd := commands.gets()) is not False:
                    writer.write(role if cmd[0].upper() == b"ROLE" else b"+PONG\r\n")

        server = await asyncio.start_server(primary, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        b = RedisBinding(RedisOptions(f"redis://127.0.0.1:{port}", {"redis.wait": str(asked)}), 1.0)
        try:
            await b.connect()
            return b.wait_for, b.wait_command
        finally:
            await b.close()
            server.close()

    wait_for, command = asyncio.run(go())
    assert wait_for == waits
    assert command == (b"*3\r\n$4\r\nWAIT\r\n$1\r\n%d\r\n$5\r\n10000\r\n" % waits if waits else b"")


def test_a_role_reply_counts_the_replicas_a_primary_lists_and_nothing_for_any_other_shape():
    """ROLE as the Redis manual lays it out: a primary's ``["master", offset, [[ip, port, offset], ...]]`` lists its
    replicas; a replica's (``["slave", ip, port, state, offset]``), a sentinel's (``["sentinel", [names]]``), an error
    and a primary's reply cut short before its list (two elements: no list to count) have none, and none raises."""
    from ycsbctl.stores.redis.options import replicas_in_role

    listed = [[b"10.0.0.2", b"6380", b"42"], [b"10.0.0.3", b"6380", b"40"]]
    assert replicas_in_role([b"master", 42, listed]) == 2 and replicas_in_role(["master", 42, []]) == 0
    for other in ([b"slave", b"10.0.0.1", 6379, b"connected", 42], [b"sentinel", [b"mymaster"]], [b"master", 42],
                  [b"master"], [], None, b"ERR unknown command 'ROLE'"):
        assert replicas_in_role(other) == 0, other
