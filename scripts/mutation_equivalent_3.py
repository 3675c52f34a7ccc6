"""Equivalent mutants, part 3 of 4, in the order they were judged: see scripts/mutation_equivalent.py."""

from __future__ import annotations

EQUIVALENT: dict[str, str] = {}
EQUIVALENT.update({
    "ycsbctl/stores/clickhouse/store.py: query(url, create_table(properties.get(\"table\", \"usertable\"), columns), max(timeout_s, 10.0)) | 10.0 -> 9.9":
        "how long the CREATE TABLE may wait for its answer (the wait-timeout rule's reason): 9.9 s or 10 s, the same "
        "table; that it gets 10 s whatever the operations' timeout is pinned (test_clickhouse_store, a 0.1 s DDL)",
    "ycsbctl/stores/mariadb/wire.py: t = t[:i] + b\"%d\" + t[i + 4:] | 4 -> 5":
        "QUOTED.scan's text ends with its LIMIT '%b' (whatever the fields: they come before FROM), so nothing follows "
        "the 4 bytes at i: t[i + 5:] is b'' as t[i + 4:] is",
    "ycsbctl/stores/http1.py: pos = end + 2 | 2 -> 1":
        "pos then lands on the \\n of the CRLF that ends the chunk's data (the length check above counts its 2 bytes), so the next "
        "size line reads b'\\n1f4' and int(x, 16) skips leading whitespace: the same size, the same end, for every "
        "chunked reply that ends its chunks with CRLF as HTTP/1.1 requires",
    "ycsbctl/stores/postgresql/store.py: traits[\"tls\"] = f\"{ssl_row[0][1]} {ssl_row[0][2]}\"  # every point of this target is encrypted | 0 -> -1":
        "the query (WHERE pid = pg_backend_pid()) answers one row, this backend's: ssl_row[-1] is ssl_row[0]",
    "ycsbctl/stores/postgresql/store.py: if ssl_row and ssl_row[0][0]: | 0 -> -1":
        "the pg_backend_pid() row is one row (its first is its last), and its cipher (the last column) is NULL "
        "exactly when ssl is false (PostgreSQL's pg_stat_ssl): either index reads the same truth",
    "ycsbctl/stores/clickhouse/store.py: query(url, create_table(properties.get(\"table\", \"usertable\"), columns), max(timeout_s, 10.0)) | 10.0 -> 10.1":
        "the twin of 10.0 -> 9.9 above: 10.1 s or 10 s for the CREATE TABLE's answer, the same table; the 10 s floor "
        "over a short operations' timeout is pinned (test_clickhouse_store, a 0.1 s DDL)",
    "ycsbctl/stores/memcached/store.py: while c.stats().get(\"curr_items\") not in (\"0\", None) and time.monotonic() < end: | Lt -> LtE":
        "end is a time.monotonic() reading 10 s ahead: only a reading equal to it to the last bit is told apart, and "
        "then by one more 50 ms look at the server's items",
    "ycsbctl/stores/disturb.py: n = int(math.floor((duration_s - self.at_s) / self.every_s + 1e-9)) + 1 | Sub -> Add":
        "n only bounds the range: the comprehension keeps the times inside the window (at_s + i * every_s < "
        "duration_s), so a larger n adds only times it drops",
    "ycsbctl/stores/postgresql/stats.py: return num(row[0][0]) if row and row[0][0] is not None else None | 0 -> -1":
        "SELECT pg_total_relation_size(...) answers one row of one value: row[-1] is row[0] and [-1] is [0] "
        "(test_postgresql_stats_truth pins the value against psql's)",
    "ycsbctl/stores/postgresql/stats.py: if None in a or None in b or dt <= 0: | LtE -> Lt":
        "dt is the time between two time.monotonic() readings with a database round trip between them: never 0",
    "ycsbctl/stores/mongodb/wire_chain.py: b.last_error = str(errors[0].get(\"errmsg\", errors[0]))[:300] | 0 -> -1":
        "a chain's request writes one document: its reply holds one write error at most, and a writeConcernError is "
        "put in a list of one, so the first error is the last",
    **{f"ycsbctl/stores/mongodb/wire_chain.py: if st < 0: | {what}":
       "the compiled reader answers OK (0) only for a plainly successful reply, which reply_status judges OK too "
       "(test_mongodb_native_reader::test_the_reader_judges_each_reply_as_reply_status_does compares the two): "
       "re-judged in Python, the same status" for what in ("0 -> 1", "Lt -> LtE")},
    **{f"ycsbctl/stores/mongodb/wire_chain.py: _MAX_SHAPES = 256  # templates kept per kind of request; beyond, "
       f"requests are encoded by bson | 256 -> {to}":
       "how many request shapes keep a template: a shape past the cap is encoded by bson.encode, to the very bytes its "
       "template would give (test_mongodb_wire_chain::test_a_chain_sends_the_very_bytes_of_the_awaited_commands runs "
       "both ways, the cap at 256 and at 0): one shape more or less on the template side, the same request"
       for to in (255, 257)},
    **{f"ycsbctl/stores/mongodb/wire_chain.py: if len(self.{cache}) >= _MAX_SHAPES: | GtE -> Gt":
       "the same cap one shape later (as _MAX_SHAPES 256 -> 257): a shape past it is encoded by bson.encode, to the "
       "very bytes its template would give (test_a_chain_sends_the_very_bytes_of_the_awaited_commands, both ways)"
       for cache in ("_finds", "_updates", "_inserts")},
    "ycsbctl/stores/redis/reply_chain.py: elif self.op == READ and (not reply or reply[0] is None): | 0 -> -1":
        "a chained READ is HGETALL (field, value, … never nil) or HMGET of one field (read_request): a reply of one "
        "element, whose first is its last",
    "ycsbctl/stores/redis/cluster_chain.py: elif self.op == READ and (not reply or reply[0] is None) and self.st == OK: "
    "| 0 -> -1":
        "a chained READ is HGETALL (field, value, … never nil) or HMGET of one field (read_request): a reply of one "
        "element, whose first is its last",
    "ycsbctl/stores/mongodb/status.py: return pymongo.MongoClient(url, maxPoolSize=1, serverSelectionTimeoutMS=5000, "
    "connectTimeoutMS=5000, | 1 -> 2":
        "the telemetry client's calls are made one at a time (the sampler's one thread, or one call of a helper): "
        "pymongo reuses its one idle connection, so a cap of two opens no second one",
    **{"ycsbctl/stores/mongodb/store.py: f\"({str(exc).split(',', 1)[0][:120]})\") from None | 120 -> " + to:
       "the length pymongo's words are cut to inside the one line that says the server is no MongoDB one (as the "
       "error-text-cap rule's last_error): the quoted tail, not what the line says" for to in ("121", "119")},
    "ycsbctl/stores/redis/benchmark.py: return rows[-1] if rows else None | 1 -> 0":
        "read runs redis-benchmark with one test (READ's HGETALL): its --csv has the header and one row, the first "
        "and the last",
    "ycsbctl/stores/mongodb/wire.py: self.last_error = str(errors[0].get(\"errmsg\", errors[0]))[:300] | 0 -> -1":
        "every command this binding writes carries one document (insert, update and delete of one _id): its reply "
        "holds one write error at most, and a writeConcernError is put in a list of one, so the first is the last",
    "ycsbctl/stores/mongodb/wire.py: r = await self.command(self._write({\"delete\": table, \"deletes\": "
    "[{\"q\": {\"_id\": key.decode()}, \"limit\": 1}]})) | 1 -> 0":
        "the delete's filter is an _id, unique in a collection: limit 0 (every match) removes the one document "
        "limit 1 does, and n says 1 or 0 alike",
    **{f"ycsbctl/stores/mongodb/wire.py: hello = bson.decode(await self.send(self._encode({{\"hello\": 1, "
       f"\"$db\": \"admin\"}}))) | 1 -> {to}":
       "the value of a command's name field is not read by the server: {hello: 0} and {hello: 2} are the hello "
       "command (MongoDB's shell sends 1 by habit; FerretDB and mongo-echo answer each alike, as the mapped tests "
       "that open connections show)" for to in ("0", "2")},
    **{f"ycsbctl/stores/redis/disturb.py: return -2 | 2 -> {to}":
        "the mark of a server whose SLOWLOG GET failed: -1 or -3 misses _slowlog_duration's -2 shortcut, which then asks "
        "SLOWLOG GET again, fails again and returns None, as the shortcut does (a server refuses SLOWLOG for good: "
        "renamed or not implemented)" for to in ("1", "3")},
    "ycsbctl/stores/redis/disturb.py: while (left := self.expires_at - time.perf_counter()) > 0: | Gt -> GtE":
        "left is a difference of perf_counter readings: exactly 0 only at that very tick, where >= sleeps 0 s and "
        "reads the clock once more (then past it)",
    **{"ycsbctl/stores/redis/info.py: return int(sum(d.get(\"keys\", 0) for d in dbs)) if dbs else (0 if "
       "\"used_memory\" in info else None) | 0 -> " + to:
       "every keyspace line of INFO says keys= first (db0:keys=10,expires=0,avg_ttl=0: Redis, Valkey, KeyDB, "
       "Dragonfly): the default is never read" for to in ("-1", "1")},
    **{f"ycsbctl/stores/redis/disturb.py: TIMEOUT_S = 300.0  # a DEL of a huge key may hold the server for seconds "
       f"| 300.0 -> {to}":
       "the disturber's socket timeout (redis.Redis.from_url(socket_timeout=TIMEOUT_S)): how long to wait for an "
       "answer, as the wait-timeout rule (MongoDB's disturber's TIMEOUT_S is listed alike)" for to in ("303.0", "297.0")},
    "ycsbctl/stores/redis/disturb.py: and bytes(e.get(\"command\") or b\"\").split(b\" \", 1)[0].upper() == word] "
    "| 1 -> 2":
        "the first word of a logged command is the same however many times the rest is split",
    "ycsbctl/stores/mongodb/wire.py: self._ids = itertools.count(1) | 1 -> 0":
        "request ids only pair each reply with its request on this connection (responseTo echoes the id): numbered "
        "from 0 or 1, every reply finds its request",
    "ycsbctl/stores/redis/cluster_chain.py: kind, slot, where = error.split()[:3] | 3 -> 4":
        "a redirection is three words, '-MOVED <slot> <endpoint>:<port>' or '-ASK …' (the cluster spec; redis-py's "
        "MovedError splits it into exactly slot and address): its first four words are its three",
    "ycsbctl/stores/sql/protocol.py: await first(bindings[0]) | 0 -> -1":
        "every binding of the set is connected (the loop above) to the same URL with the same properties: the table "
        "is created once, by the last as by the first",
    "ycsbctl/stores/chain.py: if t1 < ctx.deadline_ns and (self.i < self.end or (ctx.more is not None and not self.errors and ctx.more(self))): | Lt -> LtE":
        "t1 and the deadline are perf_counter_ns readings: only a reply read at the deadline's very nanosecond is "
        "told apart, and then by one operation more or less at the phase's end",
    "ycsbctl/stores/postgresql/store.py: data = sock.recv(64) | 64 -> 63":
        "what is read is told by its first byte and shown by its first 40: 63 bytes hold them as 64 do",
    "ycsbctl/stores/mariadb/store.py: wire_eligible(url or self.loopback_url(1), properties) | 1 -> 0":
        "wire_eligible reads a URL's password and options only, never its port: the loopback URL at any port answers the same",
    "ycsbctl/stores/elasticsearch/binding.py: self.unsolicited(reply.error() if reply.status >= 400 else None) | 400 -> 399":
        "no server sends HTTP status 399 (RFC 9110's redirections end at 308, Elasticsearch sends none): 400 and 200 "
        "on either side are pinned by test_elasticsearch_rest",
    "ycsbctl/stores/memcached/binding.py: if data.endswith(_TRAILER) and data.startswith(_VALUE): | And -> Or":
        "one chained get's reply in one read: a read that starts with VALUE but does not end with \\r\\nEND\\r\\n is a "
        "part of a hit, shorter than its frame, so the length check fails and the general parse below reads it; one "
        "that ends so without VALUE does not come (a miss is END\\r\\n alone, an error one line without END)",
    **{f"ycsbctl/stores/redis/disturb.py: self.mark = -2  # the last SLOWLOG entry's id before the next action (-2: no "
       f"SLOWLOG here) | 2 -> {to}":
       "build() sets it before act() reads it (experiment/disturb.py builds every disturber before its point; arm() sets "
       "it again)" for to in ("1", "3")},
    "ycsbctl/stores/tarantool/binding.py: if pos < n: | Lt -> LtE":
        "at pos == n the rest is b'', which self.buf already is (emptied at the top of data_received)",
    "ycsbctl/stores/tarantool/iproto.py: return pos + 1 if b < 0x80 else pos + _UINT_SIZE[b] | Lt -> LtE":
        "a msgpack uint is a positive fixint (0x00-0x7F) or 0xCC-0xCF; 0x80 (an empty map) is no uint, and the "
        "header Tarantool writes holds uints only (type, sync, schema version): the byte the mutant reads as one never comes",
    "ycsbctl/workload/media_items/truth.py: if len(s) < 2: | 2 -> 1":
        "one id is kept by the general path too (keep[0] is True, the comparison of no neighbours sets nothing)",
    "ycsbctl/stores/sphinx/binding.py: tail = key[4:]  # YCSB's keys: user<number> (any other goes through document_id) | 4 -> 3":
        "cut a byte early, a 'user' key's tail starts with 'r' and is no number: the key goes through document_id, "
        "which gives the same document id",
    "ycsbctl/stores/sphinx/binding.py: sql = _READ % (int(tail) + 1 if key[:4] == b\"user\" and tail.isdigit() else document_id(key)) | 4 -> 5":
        "a 5- or 3-byte prefix never equals b'user': every key goes through document_id, which gives a user<number> "
        "key the same document id (number + 1; the fast path only saves its regular expression)",
    "ycsbctl/stores/sphinx/binding.py: sql = _READ % (int(tail) + 1 if key[:4] == b\"user\" and tail.isdigit() else document_id(key)) | 4 -> 3":
        "a 5- or 3-byte prefix never equals b'user': every key goes through document_id, which gives a user<number> "
        "key the same document id (number + 1; the fast path only saves its regular expression)",
    "ycsbctl/workload/media_items/truth.py: starts = np.searchsorted(flat[order], np.arange(len(dictionary()) + 1)) | 1 -> 2":
        "one more run start, past the last word number (len(flat), as the one before it): word_range never asks for "
        "it (its hi is at most len(dictionary()))",
    "ycsbctl/stores/postgresql/binding.py: if (statement.split(None, 1) or [\"\"])[0].upper() in (\"SELECT\", \"WITH\"):  # its first word: rows to fetch | 1 -> 2":
        "only the first word ([0]) is read: split at most once or twice, the first word is the same",
    "ycsbctl/stores/sqlite/binding.py: if name != \"journal_mode\" or str(conn.execute(\"PRAGMA journal_mode\").fetchone()[0]).upper() != value: | NotEq -> Eq":
        "the mutant sets journal_mode=WAL on a file already in WAL too: SQLite answers 'wal' at once and takes no "
        "lock for it (tried under another connection's BEGIN EXCLUSIVE and BEGIN IMMEDIATE), and synchronous=OFF "
        "is set either way (WAL != OFF); test_a_file_already_in_wal_is_opened_while_another_writes pins the open",
    "ycsbctl/stores/sqlite/binding.py: if name != \"journal_mode\" or str(conn.execute(\"PRAGMA journal_mode\").fetchone()[0]).upper() != value: | 0 -> -1":
        "PRAGMA journal_mode answers one row of one column: [-1] is [0]",
    "ycsbctl/stores/sqlite/binding.py: if \"locked\" not in str(exc) or time.monotonic() > deadline: | Gt -> GtE":
        "deadline is a time.monotonic() reading plus timeout_s: only a reading equal to it to the last bit is told "
        "apart, and then by one more 10 ms try of the WAL switch",
    "ycsbctl/stores/sqlite/binding.py: return Status.OK, {f: v.encode(\"latin-1\") for f, v in zip(fields, rows[0]) if v is not None} | 0 -> -1":
        "a read by primary key (WHERE YCSB_KEY = ?) gives one row at most: rows[-1] is rows[0]",
    "ycsbctl/stores/clickhouse/stats.py: out[f\"{k.lower()}_per_s\"] = max(0.0, d) / elapsed if elapsed > 0 else None | Gt -> GtE":
        "elapsed is the time between two time.monotonic() readings with an HTTP query to the server between them: "
        "never 0",
    "ycsbctl/stores/sql/media_items.py: if st == OK and rows and int(rows[0][0]) >= want: | 0 -> -1":
        "every statement until() is given is a SELECT count(*): one row of one column, so [-1] is [0] either way",
    "ycsbctl/stores/mongodb/media_items.py: def refused(cls, server: str = \"\", records: int = 0, connections: int = 0, timeout_s: float = 0.0) -> dict[int, str]: | 0 -> 1":
        "the item count of a caller that names none (0: any number): every caller names it (MediaItems.refusal), "
        "and a default of 1 is as far below any scale's refusal as 0",
    "ycsbctl/workload/media_items/workload.py: def refusal(self, protocol: str, server: str = \"\", connections: int = 0, timeout_s: float = 0.0) -> str | None: | 0 -> 1":
        "the connections of a caller that names no scale (the worker's executor): it names no server kind either, "
        "and only FerretDB's refusal reads the scale, which also needs a timeout (0.0): the same queries refused",
    "ycsbctl/workload/media_items/workload.py: def refusal(self, protocol: str, server: str = \"\", connections: int = 0, timeout_s: float = 0.0) -> str | None: | 0.0 -> 1.0":
        "the timeout of a caller that names no scale (the worker's executor): it names no server kind either, "
        "and only FerretDB's refusal reads the scale, which also needs the connections (0): the same queries refused",
    "ycsbctl/stores/sphinx/media_items.py: r = rows[0] | 0 -> -1":
        "SELECT … WHERE id = N on a Sphinx index answers one document at most (the document id is unique: a second "
        "INSERT of it is refused, REPLACE replaces it): rows[-1] is rows[0]",
    "ycsbctl/stores/sphinx/media_items.py: return OK, Page(tuple(_int(r[0]) - 1 for r in rows), total) | 0 -> -1":
        "the page's statement is SELECT id FROM …: each row has the one column, so r[-1] is r[0]",
    "ycsbctl/stores/tarantool/media_items.py: self.space_id = int(data[0]) | 0 -> -1":
        "SETUP's EVAL returns one value (return s.id): data[-1] is data[0]",
    "ycsbctl/stores/tarantool/media_items.py: return OK, Page(tuple(int(i) for i in ids), int(total) if count and total is not None else None) | And -> Or":
        "ycsbctl_items_page returns 'count and total or box.NULL': a number when count is true, nil (None) when "
        "false, so 'count and total is not None' and 'count or total is not None' agree on every reply",
    "ycsbctl/stores/clickhouse/media_items.py: total = int(counted[0][0]) | 0 -> -1":
        "SELECT count() answers one row of one column: [-1] is [0], for the row and for the cell",
    "ycsbctl/stores/redis/info.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/sphinx/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/mongodb/status.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/clickhouse/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/elasticsearch/stats.py: self._t = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/mongodb/pymongo_binding.py: maxPoolSize=max(1, clients), | 1 -> 0":
        "a worker process has one client at least (the runner starts min(processes, threads) processes): "
        "max(0, clients) is clients",
    "ycsbctl/stores/mongodb/store.py: wire_eligible(url or self.loopback_url(1), properties) | 1 -> 0":
        "only the properties are checked here (no URL given): any loopback port makes the same plain mongodb:// URL",
    "ycsbctl/stores/mongodb/store.py: wire_eligible(url or self.loopback_url(1), properties) | 1 -> 2":
        "only the properties are checked here (no URL given): any loopback port makes the same plain mongodb:// URL",
    "ycsbctl/stores/elasticsearch/binding.py: if st >= 0: | GtE -> Gt":
        "a whole reply the quick verdict calls OK (0) goes to the full parse instead, which calls it OK too "
        "(b.status of a 200/201): the same status, a few microseconds later",
    "ycsbctl/stores/tarantool/binding.py: while n - pos >= 5: | 5 -> 4":
        "with 4 bytes left, end = pos + 5 + length is past n whatever the length: the loop breaks as it does at < 5",
    "ycsbctl/stores/tarantool/binding.py: while n - pos >= 5: | 5 -> 6":
        "with 5 bytes left, end = pos + 5 + length is past n (a frame has a header map: its length is never 0): "
        "the loop breaks there either way",
    "ycsbctl/stores/mongodb/wire_chain.py: if op == READ: | Eq -> NotEq":
        "the quick reading of a reply in place: an operation sent past it is decoded and judged by the same rules "
        "below (a find's firstBatch empty or not, a write's n, its errors): the same status, later",
    "ycsbctl/stores/mongodb/wire_chain.py: if body[4:12] == _CURSOR and body[16:28] == _FIRST_BATCH: | Eq -> NotEq":
        "either test flipped sends a server's find reply ({cursor: {firstBatch …}}, ok: 1) to the full decode, "
        "which reads the same firstBatch: the same status, later",
    "ycsbctl/stores/sphinx/stats.py: out[\"ops_per_s\"] = None if s is None or d is None else s + d | Or -> And":
        "both rates come from one SHOW STATUS of searchd, whose counters are a fixed list (command_search and "
        "command_delete in every version): one is None only when both are",
    "ycsbctl/stores/clickhouse/stats.py: out[\"ops_per_s\"] = None if sel is None or ins is None else sel + ins | Or -> And":
        "both rates are None together (only when elapsed is not positive), never one alone",
    "ycsbctl/stores/sqlite/store.py: ensure_table(path, properties.get(\"table\", \"usertable\"), field_names(properties), max(timeout_s, 5.0)) | max() -> min()":
        "the busy timeout of the table's creation (at least 5 s): how long to wait for another process's lock, not "
        "what is created",
    "ycsbctl/stores/sqlite/store.py: ensure_table(path, properties.get(\"table\", \"usertable\"), field_names(properties), max(timeout_s, 5.0)) | 5.0 -> 5.05":
        "the busy timeout of the table's creation (at least 5 s): how long to wait for another process's lock, "
        "not what is created",
    "ycsbctl/stores/sqlite/store.py: ensure_table(path, properties.get(\"table\", \"usertable\"), field_names(properties), max(timeout_s, 5.0)) | 5.0 -> 4.95":
        "the busy timeout of the table's creation (at least 5 s): how long to wait for another process's lock, "
        "not what is created",
    "ycsbctl/stores/memcached/record.py: EXPIRY_S = 2147483647 | 2147483647 -> 2147483646":
        "an exptime over 30 days is an absolute Unix time (memcached's protocol.txt): 2038-01-19 either way, "
        "a second apart: no record of a run expires",
    "ycsbctl/stores/postgresql/stats.py: self.t_prev = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/mariadb/stats.py: self.t_prev = 0.0 | 0.0 -> 1.0":
        "prime() sets it before sample() reads it (Sampler._loop calls prime() first)",
    "ycsbctl/stores/clickhouse/stats.py: out[f\"{k.lower()}_per_s\"] = max(0.0, d) / elapsed if elapsed > 0 else None | 0 -> -1":
        "elapsed spans an HTTP query to the server (events() between the two monotonic reads): never 0 nor below",
    "ycsbctl/stores/memcached/record.py: if len(joined.translate(None, _PLAIN)) != len(vals) - 1:  # only the NULs we put in may be left | 1 -> 2":
        "the joined values hold their len(vals) - 1 NULs at least: the count is never len(vals) - 2, so every "
        "record goes the general path, which writes the same bytes (test_the_fast_encoder_writes_what_the_json_library_writes)",
    "ycsbctl/stores/memcached/record.py: _PLAIN = bytes(range(0x20, 0x80)) | 32 -> 33":
        "a space then takes the general path, which writes the same bytes "
        "(test_the_fast_encoder_writes_what_the_json_library_writes): only the encoder's speed changes",
    "ycsbctl/stores/elasticsearch/rest.py: at = data.find(b\"\\ncontent-length: \", 0, head) if head > 0 else -1 | 0 -> 1":
        "the data must start with 'HTTP/1.1 ' (checked next): its first byte is no newline, and its head ends past byte 1",
    "ycsbctl/stores/elasticsearch/rest.py: if at < 0 or not data.startswith(b\"HTTP/1.1 \"): | 0 -> 1":
        "a header line found starts after a newline, never at byte 0 (the data must start with 'HTTP/1.1 ')",
    "ycsbctl/stores/elasticsearch/rest.py: return int(data[9:12]) | 9 -> 8":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of ' NNN' is NNN",
    "ycsbctl/stores/elasticsearch/rest.py: return int(data[9:12]) | 12 -> 13":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of 'NNN ' is NNN",
    "ycsbctl/stores/mongodb/disturb.py: BATCH = 10_000  # documents per insertMany while building a collection | 10000 -> 10001":
        "how many documents go in one insertMany while building: the same documents either way, in other chunks",
    "ycsbctl/stores/mongodb/disturb.py: BATCH = 10_000  # documents per insertMany while building a collection | 10000 -> 9999":
        "how many documents go in one insertMany while building: the same documents either way, in other chunks",
    **{f"ycsbctl/stores/mongodb/disturb.py: ARRAY_BATCH = 100_000  # array members per $push while building a list's "
       f"document | 100000 -> {to}":
       "how many members go in one $push while building the list's document: the same array, in order, in other chunks"
       for to in ("100001", "99999")},
    "ycsbctl/stores/mongodb/disturb.py: TIMEOUT_S = 300.0 | 300.0 -> 303.0":
        "the admin client's timeout (client(url, TIMEOUT_S)): how long to wait, not what is built or timed",
    "ycsbctl/stores/mongodb/disturb.py: TIMEOUT_S = 300.0 | 300.0 -> 297.0":
        "the admin client's timeout (client(url, TIMEOUT_S)): how long to wait, not what is built or timed",
    "ycsbctl/stores/sqlite/binding.py: cached_statements=256) | 256 -> 257":
        "the size of sqlite3's prepared-statement cache: YCSB's few statement shapes fit either way",
    "ycsbctl/stores/sqlite/binding.py: cached_statements=256) | 256 -> 255":
        "the size of sqlite3's prepared-statement cache: YCSB's few statement shapes fit either way",
    "ycsbctl/stores/tarantool/binding.py: line = (await self.proto.greeted(self.loop)).split(b\"\\n\", 1)[0]  # type: ignore[arg-type] | 1 -> 2":
        "only the first piece is kept: it is the same whether the rest is split once or twice",
    "ycsbctl/stores/mariadb/wire.py: self.left = 0  # column definitions (and the EOF after them) still to come | 0 -> 1":
        "set from the column count when a result set starts (state 0 to 1), before state 1 reads it",
    "ycsbctl/stores/mariadb/wire.py: self._done(Reply(self.rows, self.row, 0, error_text(p))) | 0 -> -1":
        "an error reply's rows matched are never read: status() and sql() look at its error first",
    "ycsbctl/stores/clickhouse/binding.py: if not self.buf and len(waiters) == 1 and waiters[0].__class__ is _Chain: | 0 -> -1":
        "with exactly one waiter, waiters[-1] is waiters[0]",
    "ycsbctl/stores/http1.py: status = int(buf[9:12]) | 9 -> 8":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of ' NNN' is NNN",
    "ycsbctl/stores/http1.py: status = int(buf[9:12]) | 12 -> 13":
        "a status line is 'HTTP/1.1 NNN reason' (RFC 9112: a space each side of the code): int() of 'NNN ' is NNN",
    "ycsbctl/stores/clickhouse/http.py: return 0 if head + 9 == len(data) and data.startswith(b\"0\\r\\n\\r\\n\", head + 4) else 1 | And -> Or":
        "data ends with '\\r\\n0\\r\\n\\r\\n' (checked above): a 5-byte body is then the empty chunk, and a body that "
        "starts with it is no longer than it (a chunk size has no leading zero): either test alone says the same",
    # workload/ and report/ (issue 43)
    "ycsbctl/stores/redis/online_status.py: return OK if st == OK and isinstance(reply, list) else int(st) or 2 | 2 -> 3":
        "never reached: the binding's resp answers OK with EXEC's reply, an array without WATCH (an aborted "
        "transaction is an error reply, ERROR): 'or 2' is read only for an OK whose reply is no array",
    "ycsbctl/stores/redis/online_status.py: return OK if st == OK and isinstance(reply, list) else int(st) or 2 | 2 -> 1":
        "never reached: the binding's resp answers OK with EXEC's reply, an array without WATCH (an aborted "
        "transaction is an error reply, ERROR): 'or 2' is read only for an OK whose reply is no array",
    "ycsbctl/stores/elasticsearch/media_items.py: if st != OK or http == 200: | 200 -> 201":
        "only whether an index that exists is PUT again: Elasticsearch answers that PUT resource_already_exists, "
        "which the next line takes as made (as when another worker made it first); the same index, the same status",
    "ycsbctl/stores/elasticsearch/media_items.py: if st != OK or http == 200: | 200 -> 199":
        "only whether an index that exists is PUT again: Elasticsearch answers that PUT resource_already_exists, "
        "which the next line takes as made (as when another worker made it first); the same index, the same status",
    "ycsbctl/stores/tarantool/media_items.py: space_id = 0  # the space's number (IPROTO's SELECT and UPDATE name a space by number), from setup | 0 -> 1":
        "set by setup (the load) and ready (a run), which the executor's prepare runs before any operation "
        "(a failed one fails the point): the class default is never read",
    "ycsbctl/stores/tarantool/media_items.py: space_id = 0  # the space's number (IPROTO's SELECT and UPDATE name a space by number), from setup | 0 -> -1":
        "set by setup (the load) and ready (a run), which the executor's prepare runs before any operation "
        "(a failed one fails the point): the class default is never read",
    "ycsbctl/stores/redis/online_status.py: return OK if st == OK and isinstance(reply, list) else int(st) or 2 | And -> Or":
        "the binding's resp gives a reply only with OK (None with ERROR or TIMEOUT): a list reply comes only with "
        "st == OK, so either test alone decides alike",
    "ycsbctl/stores/mariadb/media_items.py: if st != OK or int(rows[0][0]) >= 3: | 0 -> -1":
        "a count's result is one row of one column: [-1] is [0] either way",
    "ycsbctl/stores/sql/media_items.py: total = int(counted[0][0]) | 0 -> -1":
        "a count's result is one row of one column: [-1] is [0] either way (as mysql.py's index count)",
    "ycsbctl/stores/mongodb/media_items.py: st, r = await w.run_command({\"find\": self.table, \"filter\": {\"_id\": key(item_id)}, \"limit\": 1, \"singleBatch\": True}) | 1 -> 2":
        "a filter on _id matches one document at most: a limit of 1, 2 or none (0) returns the same",
    "ycsbctl/stores/mongodb/media_items.py: st, r = await w.run_command({\"find\": self.table, \"filter\": {\"_id\": key(item_id)}, \"limit\": 1, \"singleBatch\": True}) | 1 -> 0":
        "a filter on _id matches one document at most: a limit of 1, 2 or none (0) returns the same",
    "ycsbctl/stores/mongodb/media_items.py: d = docs[0] | 0 -> -1":
        "the find by _id returns one document at most, and none was handled above: [-1] is [0]",
    "ycsbctl/stores/mongodb/media_items.py: if st != OK or r is None: | Or -> And":
        "the wire binding's run_command answers (OK, the reply) or (ERROR/TIMEOUT, None) and nothing else "
        "(stores/mongodb/wire.py): the two tests are always both true or both false",
    "ycsbctl/stores/mongodb/media_items.py: if st != OK or c is None: | Or -> And":
        "the wire binding's run_command answers (OK, the reply) or (ERROR/TIMEOUT, None) and nothing else "
        "(stores/mongodb/wire.py): the two tests are always both true or both false",
    "ycsbctl/stores/mongodb/media_items.py: return OK if r.get(\"n\", 0) else NOT_FOUND | 0 -> 1":
        "an update command's OK reply always holds n (the documents matched): the default is never read",
    "ycsbctl/stores/mongodb/media_items.py: return OK if r.get(\"n\", 0) else NOT_FOUND | 0 -> -1":
        "an update command's OK reply always holds n (the documents matched): the default is never read",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 0 -> 1":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 0 -> -1":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 2 -> 3":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 31 -> 32":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: picks = rng.integers(0, 2**31, size=n).tolist() | 31 -> 30":
        "a query's pick is taken modulo its pool's size (media.queries, 2,000 by default): any range of 2**30 "
        "numbers or more gives every query the same odds to one part in a million (2 -> 1, one number, stays scored)",
    "ycsbctl/workload/media_items/sources.py: if not item_id % 4: | 4 -> 5":
        "how often the load's preparation yields to the event loop (a slice per 4 items): the same items in the "
        "same INSERTs either way",
    "ycsbctl/workload/media_items/sources.py: if not item_id % 4: | 4 -> 3":
        "how often the load's preparation yields to the event loop (a slice per 4 items): the same items in the "
        "same INSERTs either way",
    "ycsbctl/workload/media_items/workload.py: prepare_s: ClassVar[float] = 900.0 | 900.0 -> 909.0":
        "a deadline (as the wait-timeout rule): how long a point may prepare (index builds, answer checks) "
        "before it is given up, not what the preparation finds",
    "ycsbctl/workload/media_items/workload.py: prepare_s: ClassVar[float] = 900.0 | 900.0 -> 891.0":
        "a deadline (as the wait-timeout rule): how long a point may prepare (index builds, answer checks) "
        "before it is given up, not what the preparation finds",
    "ycsbctl/report/unlike.py: return f\" — unlike quantities: {emb[0]} is embedded (no server), so it has no network round trip\" | 0 -> -1":
        "said only when emb holds one target: [-1] is [0]",
    "ycsbctl/report/disturbance_report.py: fontsize=7.5, va=\"top\", bbox={\"boxstyle\": \"square,pad=0.1\", \"fc\": \"white\", \"ec\": \"none\", \"alpha\": 0.8}) | 0.8 -> 0.808":
        "the event label's box transparency (a matplotlib bbox's alpha): how the label looks, not what it says (as the drawing-style rule)",
    "ycsbctl/report/disturbance_report.py: fontsize=7.5, va=\"top\", bbox={\"boxstyle\": \"square,pad=0.1\", \"fc\": \"white\", \"ec\": \"none\", \"alpha\": 0.8}) | 0.8 -> 0.792":
        "the event label's box transparency (a matplotlib bbox's alpha): how the label looks, not what it says (as the drawing-style rule)",
    "ycsbctl/stores/memcached/media_items.py: if st != OK or r is None: | Or -> And":
        "the binding's mc answers (OK, a reply) or (TIMEOUT/ERROR, None) and nothing else (stores/memcached/binding.py): "
        "st != OK and r is None are always both true or both false",
    "ycsbctl/workload/media_items/workload.py: load_timeout_s: ClassVar[float] = 60.0 | 60.0 -> 60.6":
        "a timeout (as the wait-timeout rule): how long a load INSERT may wait for the store, not what it stores",
    "ycsbctl/workload/media_items/workload.py: load_timeout_s: ClassVar[float] = 60.0 | 60.0 -> 59.4":
        "a timeout (as the wait-timeout rule): how long a load INSERT may wait for the store, not what it stores",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | 0 -> 1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | 0 -> -1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/server_traits.py: if len(eps) < 2 and not any((e[\"traits\"].get(\"io_threads\") or 0) > 1 for e in eps.values()): | 1 -> 0":
        "only whether one server of one I/O thread returns early or goes on: on, its one version and one allocator "
        "differ from nothing and its io-threads 1 is said only past one (the line after), so it says nothing either way",
    "ycsbctl/report/server_traits.py: shared = any((e[\"traits\"].get(\"io_threads\") or 0) > 1 and not e.get(\"host\") for e in eps.values()) | 0 -> 1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/server_traits.py: shared = any((e[\"traits\"].get(\"io_threads\") or 0) > 1 and not e.get(\"host\") for e in eps.values()) | 0 -> -1":
        "a server without an io-threads figure counts as 0, 1 or -1 threads: not more than one either way",
    "ycsbctl/report/rate_plots.py: legend_below(fig, handles, min(len(handles), 4)) | min() -> max()":
        "legend_below caps the columns at 4, and matplotlib's legend leaves out the empty columns of fewer handles "
        "than columns (legend.py: filter(len, array_split(...))): min(n, 4) and max(n, 4) columns lay out alike",
    "ycsbctl/report/summary.py: x = r.iloc[0] | 0 -> -1":
        "target_verdicts writes one at-peak row per workload and target against its one baseline (verdicts.py): the "
        "pair's at-peak throughput row is alone, [-1] is [0]",
})
