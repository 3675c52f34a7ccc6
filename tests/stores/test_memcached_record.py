"""Memcached's record layout (stores/memcached/record.py) against the reference library (``json``): every
byte of a value reads back as the same Latin-1 text."""

from __future__ import annotations

import json


def test_every_byte_of_a_memcached_value_reads_back_through_json_as_the_same_latin_1_text():
    from ycsbctl.stores.memcached.record import JsonRecords, decode

    enc = JsonRecords()
    for b in range(1, 256):
        val = b"ab" + bytes((b,)) + b"cd"
        got = enc.encode([b"field0", b"field1"], [val, b"plain"])
        # json.loads refuses a raw control character or a byte that is no UTF-8; YCSB's Jackson reads it as text
        assert json.loads(got) == {"field0": val.decode("latin-1"), "field1": "plain"}, b
        assert decode(got) == {b"field0": val, b"field1": b"plain"}, b
