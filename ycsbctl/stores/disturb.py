"""Disturbances: a big key built before a point, and one command on it at a planned second.

``--disturb ACTION:TYPE:SIZE@AT[/EVERY]`` (e.g. ``del:set:2M@5s``, ``hgetall:hash:200k@5s/1s``) is
parsed here into a :class:`DisturbSpec`; each store that can (:class:`~ycsbctl.stores.capabilities.Disturbing`)
says what the action means on its protocol (``disturb_command``, a one-line refusal when it has no
analogue; :func:`disturbing` refuses for a store without the capability) and carries it out through a :class:`Disturber`
(one connection of its own, outside the engine). The words are Redis's: ``del``, ``unlink``, ``expire`` on any type;
``lrem`` and ``lrange`` on a list, ``hgetall`` on a hash, ``smembers`` on a set, ``zrange`` on a zset.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ycsbctl.errors import UserError
from ycsbctl.stores.capabilities import Disturbing
from ycsbctl.user_input import finite

if TYPE_CHECKING:
    from ycsbctl.stores.base import ServerProtocol

TYPES = ("hash", "set", "zset", "list")
# action -> the types it applies to
ACTIONS: dict[str, tuple[str, ...]] = {
    "del": TYPES, "unlink": TYPES, "expire": TYPES,
    "lrem": ("list",), "lrange": ("list",), "hgetall": ("hash",), "smembers": ("set",), "zrange": ("zset",),
}
# actions that remove the big key: once per point (a repeat would find nothing)
REMOVING = ("del", "unlink", "expire")
MAX_SIZE = 100_000_000  # members of one big key

_SPEC = re.compile(r"(?P<action>[a-z]+):(?P<kind>[a-z]+):(?P<size>[^@]+)@(?P<at>[^/]+)(?:/(?P<every>.+))?")
_HELP = "use ACTION:TYPE:SIZE@AT[/EVERY], e.g. del:set:2M@5s or hgetall:hash:200k@5s/1s"


@dataclass(frozen=True)
class DisturbSpec:
    """One ``--disturb``: ``action`` on a big key of ``kind`` with ``size`` members, ``at_s`` seconds
    into the point's measured window, then every ``every_s`` seconds (None: once)."""

    text: str
    action: str
    kind: str
    size: int
    at_s: float
    every_s: float | None = None

    def times_s(self, duration_s: float) -> list[float]:
        """When it runs (s into the measured window) in a window of ``duration_s`` seconds."""
        if self.every_s is None:
            return [self.at_s]
        n = int(math.floor((duration_s - self.at_s) / self.every_s + 1e-9)) + 1
        return [
            round(self.at_s + i * self.every_s, 6)
            for i in range(max(n, 1))
            if self.at_s + i * self.every_s < duration_s
        ]

    @property
    def removes_key(self) -> bool:
        return self.action in REMOVING


def parse_size(text: str) -> int:
    """``2M`` → 2,000,000; ``200k`` → 200,000; ``1500`` → 1,500 (k = 1,000, M = 1,000,000)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kKmM]?)", text.strip(), re.ASCII)  # ASCII digits: user_input's rule
    if m is None:
        raise ValueError(text)
    return int(round(finite(float(m.group(1)) * {"": 1, "k": 1_000, "m": 1_000_000}[m.group(2).lower()])))


def parse_seconds(text: str) -> float:
    """``5s``, ``5``, ``500ms``, ``1.5s`` → seconds."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(ms|s)?", text.strip(), re.ASCII)
    if m is None:
        raise ValueError(text)
    return finite(float(m.group(1)) / (1000.0 if m.group(2) == "ms" else 1.0))


def parse_disturb(text: str, duration_s: float | None = None) -> DisturbSpec:
    """One ``--disturb`` value; :class:`UserError` (one line, exit 2) for anything that cannot run,
    ``duration_s`` being the point's measured seconds (AT must fall inside them)."""
    flag = f"--disturb {text!r}"
    m = _SPEC.fullmatch(text.strip().lower())
    if m is None:
        raise UserError(f"{flag}: {_HELP}")
    action, kind = m.group("action"), m.group("kind")
    if action not in ACTIONS:
        raise UserError(f"{flag}: unknown action {action!r}: use one of {', '.join(ACTIONS)}")
    if kind not in TYPES:
        raise UserError(f"{flag}: unknown type {kind!r}: use one of {', '.join(TYPES)}")
    if kind not in ACTIONS[action]:
        raise UserError(f"{flag}: {action} does not apply to a {kind}: it applies to a {' or '.join(ACTIONS[action])}")
    try:
        size = parse_size(m.group("size"))
    except ValueError:
        raise UserError(f"{flag}: size {m.group('size')!r}: use a count of members (1500, 200k, 2M)") from None
    if size < 1 or size > MAX_SIZE:
        raise UserError(f"{flag}: size {size:,}: use a count of members from 1 to {MAX_SIZE:,}")
    try:
        at = parse_seconds(m.group("at"))
        every = parse_seconds(m.group("every")) if m.group("every") else None
    except ValueError as exc:
        raise UserError(f"{flag}: time {exc.args[0]!r}: use seconds (5s, 500ms)") from None
    if every is not None and every < 0.1:
        raise UserError(f"{flag}: repeat every {every:g} s: use at least 100ms")
    if every is not None and action in REMOVING:
        raise UserError(f"{flag}: {action} removes the key, so it runs once per point: drop /{m.group('every')}")
    if duration_s is not None and at >= duration_s:
        raise UserError(f"{flag}: at {at:g} s is beyond the point's {duration_s:g} s measured window: use an AT "
                        f"below {duration_s:g} s or a longer --duration")
    return DisturbSpec(text.strip(), action, kind, size, at, every)


@dataclass
class ActionTiming:
    """One run of an action, timed from its own connection: ``start_s`` (perf_counter s) when it began
    (for ``expire``: the instant the key expired), ``duration_s`` until the server answered (for
    ``expire``: until it said the key was gone); ``server_s`` the command's own duration as the server
    logged it (Redis SLOWLOG), None when it has no such log or did not log it. ``evidence``: what the
    server's own records say of the event (``SLOWLOG EXISTS 1,512 ms; LATENCY expire-del 1,511 ms; INFO
    expired_keys +1``), ``held_s`` the longest they say the server was held for it (s; None: nothing),
    ``background_s`` how long the server went on freeing the key in a thread of its own after the
    command returned (lazyfree: until the server said none was pending; ``inf``: not seen done, still pending or no
    longer said, when the disturber stopped asking; None: it did not)."""

    start_s: float
    duration_s: float
    command: str
    server_s: float | None = None
    note: str = ""
    evidence: str = ""
    held_s: float | None = None
    background_s: float | None = None


class Disturber:
    """One big key on one server and the action on it, on a connection of its own (see the module).
    :meth:`build` (before the point, in batches) returns the seconds it took; :meth:`arm` runs once
    the point's start is known (``at_s``: perf_counter s of the first action), :meth:`act` at each
    planned second, :meth:`close` removes what is left (the key, the connection)."""

    def __init__(self, url: str, spec: DisturbSpec, name: str) -> None:
        self.url, self.spec, self.name = url, spec, name

    def build(self) -> float:
        raise NotImplementedError

    def arm(self, at_s: float) -> None:
        """Called once the start is known, before the first :meth:`act` (``expire`` sets the expiry here)."""

    def ready(self) -> None:
        """Called just before each planned second (the server's counters are read here, so that what the action
        changes in them is told apart from what happened since :meth:`arm`)."""

    def act(self) -> ActionTiming:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


def disturbing(store: ServerProtocol, spec: DisturbSpec) -> Disturbing:
    """``store`` as the :class:`~ycsbctl.stores.capabilities.Disturbing` that carries ``spec`` out; a
    :class:`~ycsbctl.errors.UserError` naming ``spec`` when the store has no big keys to disturb."""
    if not isinstance(store, Disturbing):
        raise UserError(f"--disturb {spec.text}: {store.name} targets have no big keys to disturb")
    return store
