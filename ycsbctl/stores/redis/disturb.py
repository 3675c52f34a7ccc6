"""Big keys on a Redis-protocol server and the commands that disturb it (see :mod:`ycsbctl.stores.disturb`).

The key is built with commands of :data:`BATCH` members each (a pipeline of :data:`PIPELINE` of
them per round trip), so that building it never blocks the server for long. The action's own
duration is read back from ``SLOWLOG`` (its threshold lowered to :data:`SLOWLOG_THRESHOLD_US` for
the point when it was higher, then restored): the entry of this connection (``CLIENT SETNAME``)
naming the action's command.

What else the server's own records say of the event (:meth:`RedisDisturber.evidence`) is read after it: every
SLOWLOG entry naming the key, whichever client sent it (an expired key is deleted by the command that touches
it); the latency monitor's ``expire-del`` and ``expire-cycle`` samples of the seconds it ran (its threshold
lowered to :data:`LATENCY_THRESHOLD_MS` for the point when it was off or higher, then restored); INFO's
``expired_keys``, and ``lazyfree_pending_objects`` until the key freed in the background is gone.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ycsbctl.stores.disturb import ActionTiming, Disturber, DisturbSpec

BATCH = 1_000  # members per building command (~0.3-1 ms of the server's time each)
PIPELINE = 50  # building commands per round trip
SLOWLOG_THRESHOLD_US = 100  # the slowlog threshold during a disturbed point, when it was higher
CLIENT_NAME = "ycsbctl-disturb"
POLL_S = 0.001  # how often ``expire`` asks whether the key is gone
TIMEOUT_S = 300.0  # a DEL of a huge key may hold the server for seconds
LATENCY_THRESHOLD_MS = 10  # the latency monitor's threshold during a disturbed point, when it was off or higher
LATENCY_EVENTS = ("expire-del", "expire-cycle")  # what the monitor says of an expiry (Redis 7: both)
LAZYFREE_POLL_S = 0.05  # how often INFO is asked whether the key freed in the background is gone (its resolution)
LAZYFREE_WAIT_S = 30.0  # at most this long

_BUILD = {"set": "SADD", "hash": "HSET", "zset": "ZADD", "list": "RPUSH"}
_READ = {"hgetall": "HGETALL {key}", "smembers": "SMEMBERS {key}", "zrange": "ZRANGE {key} 0 -1",
         "lrange": "LRANGE {key} 0 -1"}


def command_text(spec: DisturbSpec, key: str = "KEY") -> str:
    """The command ``spec`` sends, as the events table shows it."""
    if spec.action in ("del", "unlink"):
        return f"{spec.action.upper()} {key}"
    if spec.action == "expire":
        return f"PEXPIRE {key} (expires at AT; timed from then until the key is gone)"
    if spec.action == "lrem":
        return f"LREM {key} 0 m{spec.size // 2}"
    return _READ[spec.action].format(key=key)


def _members(kind: str, first: int, n: int) -> list[Any]:
    """The arguments adding members ``first`` .. ``first + n - 1`` (``m<i>``; hash fields get value
    ``v``, zset members score ``i``)."""
    if kind == "hash":
        return [x for i in range(first, first + n) for x in (f"m{i}", "v")]
    if kind == "zset":
        return [x for i in range(first, first + n) for x in (i, f"m{i}")]
    return [f"m{i}" for i in range(first, first + n)]


class RedisDisturber(Disturber):
    """A big key ``ycsbctl:big:<name>`` and the action of ``spec`` on it."""

    def __init__(self, url: str, spec: DisturbSpec, name: str) -> None:
        super().__init__(url, spec, name)
        from ycsbctl.stores.redis.admin import client

        self.key = f"ycsbctl:big:{name}"
        self.r = client(url, TIMEOUT_S, connect_timeout_s=10.0)  # each command (a pipeline), whole reply, ≤ TIMEOUT_S
        self.r.client_setname(CLIENT_NAME)
        self.saved_threshold: int | None = None
        self.saved_latency: int | None = None
        self.counted: dict[str, int] = {}  # INFO counters before the action
        self.expires_at = 0.0  # perf_counter s when the key expires (expire)
        self.mark = -2  # the last SLOWLOG entry's id before the next action (-2: no SLOWLOG here)

    def build(self) -> float:
        t = time.perf_counter()
        self.r.unlink(self.key)
        cmd, size = _BUILD[self.spec.kind], self.spec.size
        first = 0
        while first < size:
            pipe = self.r.pipeline(transaction=False)
            for _ in range(PIPELINE):
                if first >= size:
                    break
                n = min(BATCH, size - first)
                pipe.execute_command(cmd, self.key, *_members(self.spec.kind, first, n))
                first += n
            pipe.execute()
        took = time.perf_counter() - t
        self._lower_slowlog_threshold()
        self._lower_latency_threshold()
        self.mark = self._slowlog_mark()
        return took

    def _lower_latency_threshold(self) -> None:
        try:
            now = int(self.r.config_get("latency-monitor-threshold").get("latency-monitor-threshold") or 0)
            if now <= 0 or now > LATENCY_THRESHOLD_MS:
                self.r.config_set("latency-monitor-threshold", LATENCY_THRESHOLD_MS)
                self.saved_latency = now
        except Exception:  # noqa: BLE001 - a server without the monitor, or that restricts CONFIG
            self.saved_latency = None

    def _lower_slowlog_threshold(self) -> None:
        try:
            now = int(self.r.config_get("slowlog-log-slower-than").get("slowlog-log-slower-than") or -1)
            if now < 0 or now > SLOWLOG_THRESHOLD_US:
                self.r.config_set("slowlog-log-slower-than", SLOWLOG_THRESHOLD_US)
                self.saved_threshold = now
        except Exception:  # noqa: BLE001 - a server that restricts CONFIG: the action is still timed here
            self.saved_threshold = None

    def arm(self, at_s: float) -> None:
        self.mark = self._slowlog_mark()  # now, so that the action starts at its second without a round trip
        self.counted = self._counters()
        if self.spec.action == "expire":
            ms = max(1, round((at_s - time.perf_counter()) * 1000))
            self.expires_at = time.perf_counter() + ms / 1000
            self.r.pexpire(self.key, ms)

    def ready(self) -> None:
        self.counted = self._counters()

    def _slowlog_mark(self) -> int:
        try:
            last = self.r.slowlog_get(1)
        except Exception:  # noqa: BLE001 - no SLOWLOG on this server
            return -2
        return int(last[0]["id"]) if last else -1

    def _slowlog_duration(self, mark: int, command: str) -> float | None:
        """Seconds the server logged for this connection's ``command`` since ``mark`` (None: not logged)."""
        if mark == -2:
            return None
        try:
            entries = self.r.slowlog_get(128)
        except Exception:  # noqa: BLE001
            return None
        word = command.encode()
        mine = [e for e in entries if int(e["id"]) > mark and _name(e) == CLIENT_NAME
                and bytes(e.get("command") or b"").split(b" ", 1)[0].upper() == word]
        return max(int(e["duration"]) for e in mine) / 1e6 if mine else None

    def act(self) -> ActionTiming:
        spec, key = self.spec, self.key
        mark = self.mark
        text = command_text(spec, key)
        if spec.action == "expire":
            word = "EXISTS"
            while (left := self.expires_at - time.perf_counter()) > 0:
                time.sleep(left)
            start = self.expires_at
            polls = 0
            while True:
                polls += 1
                gone = not self.r.exists(key)
                end = time.perf_counter()
                if gone:
                    break
                time.sleep(POLL_S)
            note = f"gone {end - start:.3f} s after it expired ({polls} EXISTS polls)"
        else:
            args = text.split()
            word = args[0]
            start = time.perf_counter()
            if spec.action in _READ:  # the reply is read and dropped without building Python objects
                self._read_discarding(args)
            else:
                self.r.execute_command(*args)
            end = time.perf_counter()
            note = ("the client's time includes reading the whole reply on this host (the server's own: SLOWLOG)"
                    if spec.action in _READ else "")
        server_s = self._slowlog_duration(mark, word)
        evidence, held_s, background_s = self.evidence(mark, start, end)
        self.mark = self._slowlog_mark()  # for the next repetition
        self.counted = self._counters()
        if server_s is None and mark != -2 and self.saved_threshold is not None:
            note = "; ".join(x for x in (note, f"not in SLOWLOG: under its {SLOWLOG_THRESHOLD_US} µs threshold") if x)
        return ActionTiming(start, end - start, text, server_s, note, evidence, held_s, background_s)

    def evidence(self, mark: int, start: float, end: float) -> tuple[str, float | None, float | None]:
        """(what the server's records say of the action that ran from ``start`` to ``end`` (perf_counter s), the
        longest they say it held the server (s; None: nothing), how long the key went on being freed in the
        background after ``end`` (s; None: it was not)); see the module."""
        parts: list[str] = []
        held: list[float] = []
        for word, seconds in self._slowlog_of_key(mark):
            parts.append(f"SLOWLOG {word} {_ms(seconds)}")
            held.append(seconds)
        if self.spec.action == "expire":
            wall = time.time() - (time.perf_counter() - start)  # the expiry instant on the server's clock
            for name in LATENCY_EVENTS:
                ms = self._latency_max_ms(name, math.floor(wall) - 1, math.ceil(wall + end - start) + 1)
                if ms:
                    parts.append(f"LATENCY {name} {ms:,} ms")
                    held.append(ms / 1000)
        after = self._counters()
        if self.spec.action == "expire" and "expired_keys" in after and "expired_keys" in self.counted:
            parts.append(f"INFO expired_keys +{after['expired_keys'] - self.counted['expired_keys']}")
        watched = self._background_free(end, after) if self.spec.removes_key else None
        background: float | None = None
        if watched is not None and watched[1] == 0:
            background = watched[0]
            parts.append(f"lazyfree: freed in the background {background:.2f} s after the command returned "
                         f"(lazyfree_pending_objects seen back at 0, polled every {LAZYFREE_POLL_S * 1000:.0f} ms)")
        elif watched is not None:  # not seen done: the affected window stays open (its cost a lower bound)
            background = math.inf
            said = "above 0" if watched[1] else "no longer given by INFO"
            parts.append(f"lazyfree: still freeing in the background {watched[0]:.2f} s after the command returned "
                         f"(lazyfree_pending_objects {said} when the disturbance stopped asking)")
        return "; ".join(parts), (max(held) if held else None), background

    def _counters(self) -> dict[str, int]:
        """INFO's ``expired_keys``, ``lazyfree_pending_objects`` and ``lazyfreed_objects`` (those the server has)."""
        out: dict[str, int] = {}
        try:
            for section, name in (("stats", "expired_keys"), ("memory", "lazyfree_pending_objects"),
                                  ("memory", "lazyfreed_objects")):
                v = self.r.info(section).get(name)
                if v is not None:
                    out[name] = int(v)
        except Exception:  # noqa: BLE001 - a server without INFO sections: no counters to tell
            pass
        return out

    def _background_free(self, end: float, after: dict[str, int]) -> tuple[float, int | None] | None:
        """When this action left the key to be freed in the background: (seconds after ``end`` when INFO's
        ``lazyfree_pending_objects`` was last read, what it said then): 0, the free is done (polled every
        :data:`LAZYFREE_POLL_S`: it ended at most that much earlier); above 0, still pending after
        :data:`LAZYFREE_WAIT_S`; None, INFO stopped giving it (refused, the connection lost): not known to be done.
        None when nothing was left to the background, or the server does not say."""
        freed = after.get("lazyfreed_objects", 0) - self.counted.get("lazyfreed_objects", 0)
        left = after.get("lazyfree_pending_objects", 0)
        if not (freed > 0 or left > self.counted.get("lazyfree_pending_objects", 0)):
            return None
        pending: int | None = left
        gone = time.perf_counter()
        waited = gone + LAZYFREE_WAIT_S
        while pending and gone < waited:  # a counter INFO no longer gives is no zero: the poll stops, not done
            time.sleep(LAZYFREE_POLL_S)
            pending = self._counters().get("lazyfree_pending_objects")
            gone = time.perf_counter()
        return gone - end, pending

    def _slowlog_of_key(self, mark: int) -> list[tuple[str, float]]:
        """(command, seconds) of every SLOWLOG entry since ``mark`` naming this key, oldest first, any client's."""
        if mark == -2:
            return []
        try:
            entries = self.r.slowlog_get(128)
        except Exception:  # noqa: BLE001
            return []
        key = self.key.encode()
        out = []
        for e in reversed(entries):
            args = bytes(e.get("command") or b"").split(b" ")
            if int(e["id"]) > mark and len(args) > 1 and args[1] == key:
                out.append((args[0].decode(errors="replace").upper(), int(e["duration"]) / 1e6))
        return out

    def _latency_max_ms(self, name: str, first_s: int, last_s: int) -> int:
        """The longest sample (ms) of latency-monitor event ``name`` from wall second ``first_s`` to ``last_s`` (0:
        none)."""
        try:
            history = self.r.execute_command("LATENCY", "HISTORY", name)
        except Exception:  # noqa: BLE001 - no latency monitor on this server
            return 0
        return max((int(ms) for ts, ms in history or [] if first_s <= int(ts) <= last_s), default=0)

    def _read_discarding(self, args: list[str]) -> None:
        """Send a reading command and take its whole reply off the socket (parsed, not kept)."""
        conn = self.r.connection_pool.get_connection()
        try:
            conn.send_command(*args)
            conn.read_response(disable_decoding=True)
        finally:
            self.r.connection_pool.release(conn)

    def close(self) -> None:
        try:
            self.r.unlink(self.key)  # freed in the background: the next point starts on a quiet server
            if self.saved_threshold is not None:
                self.r.config_set("slowlog-log-slower-than", self.saved_threshold)
            if self.saved_latency is not None:
                self.r.config_set("latency-monitor-threshold", self.saved_latency)
        finally:
            self.r.close()


def _name(entry: dict) -> str:
    n = entry.get("client_name") or b""
    return n.decode() if isinstance(n, bytes) else str(n)


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:,.0f} ms" if ms >= 10 else f"{ms:.1f} ms"
