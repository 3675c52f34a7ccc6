"""The disturbances of one point: big keys built before it, each action at its second from a thread
of its own (and a connection of its own), and the events table of what they did.

The big keys are built before the engine starts (outside the measured window: building is itself a
run of blocking commands, done in batches, and its seconds are said and recorded). Each action
waits for the engine's start time, then for its planned second into the measured window, and is
timed on its own; its effect is read from the point's 100 ms series
(:func:`ycsbctl.results.disturbance.effect`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from ycsbctl.errors import UserError, first_line
from ycsbctl.results.events import EVENT_COLUMNS, charge_role, cost_text, event_label, is_open
from ycsbctl.results.fine import FineSeries
from ycsbctl.results.overlap import Happening, charge
from ycsbctl.stores.disturb import ActionTiming, Disturber, DisturbSpec, disturbing, parse_disturb
from ycsbctl.urls import redact_url

if TYPE_CHECKING:
    from ycsbctl.stores.base import ServerProtocol

START_WAIT_S = 180.0  # how long an action waits for the engine to start
READY_LEAD_S = 0.05  # the disturber reads the server's counters this long before each action
LAG_NOTE_SHARE = 0.5  # a client loop lag above this share of the stall is named in the event's note


@dataclass
class _Ran:
    spec_index: int
    occurrence: int
    at_s: float  # planned, s into the measured window
    timing: ActionTiming | None = None
    error: str | None = None


class PointDisturbances:
    """``specs`` on the server of ``store`` at ``url`` during one point of ``warmup_s`` + ``duration_s`` seconds."""

    def __init__(self, specs: list[str], store: ServerProtocol, url: str, warmup_s: float, duration_s: float,
                 note: Callable[[str], None] | None = None) -> None:
        self.specs = [parse_disturb(s, duration_s) for s in specs]
        self.store = store
        self.url, self.warmup_s, self.duration_s = url, warmup_s, duration_s
        self.note = note or (lambda _line: None)
        self.disturbers: list[Disturber] = []
        self.build_s: list[float] = []
        self.ran: list[_Ran] = []
        self.threads: list[threading.Thread] = []
        self.stopping = threading.Event()
        self.t0 = 0.0

    def build(self) -> None:
        """Build every big key (before the engine starts), saying how long each took."""
        proto = self.store
        for i, spec in enumerate(self.specs):
            try:
                d = disturbing(proto, spec).disturber(self.url, spec, f"{i}-{spec.action}-{spec.kind}")
                self.disturbers.append(d)
                took = d.build()
            except Exception as exc:  # noqa: BLE001 - the point fails with one line (e.g. the server's maxmemory)
                raise UserError(f"disturbance {spec.text}: could not build its {spec.kind} on "
                                f"{redact_url(self.url)} ({type(exc).__name__}: {first_line(exc)})",
                                exit_code=1) from None
            self.build_s.append(took)
            self.note(f"disturbance {spec.text}: built the {spec.kind} of {spec.size:,} members in {took:.2f} s "
                      "(in batches, before the measured window)")

    def start(self, runner: Any) -> None:
        """One thread per disturbance, each waiting for ``runner``'s start (its ``started`` event and ``t0``)."""
        for i, (spec, d) in enumerate(zip(self.specs, self.disturbers)):
            t = threading.Thread(target=self._drive, args=(i, spec, d, runner), name=f"disturb-{i}", daemon=True)
            t.start()
            self.threads.append(t)

    def _drive(self, i: int, spec: DisturbSpec, d: Disturber, runner: Any) -> None:
        times = spec.times_s(self.duration_s)
        waited = time.monotonic() + START_WAIT_S
        while not runner.started.wait(0.05):  # the engine may never start (it could not connect)
            if self.stopping.is_set() or time.monotonic() > waited:
                return
        self.t0 = runner.t0
        window = runner.t0 + self.warmup_s
        try:
            d.arm(window + times[0])
        except Exception as exc:  # noqa: BLE001 - said in the event's row
            self.ran.append(_Ran(i, 1, times[0], error=f"{type(exc).__name__}: {first_line(exc)}"))
            return
        for n, at in enumerate(times, start=1):
            if self.stopping.wait(max(0.0, window + at - READY_LEAD_S - time.perf_counter())):
                return
            try:
                d.ready()
            except Exception as exc:  # noqa: BLE001 - the action runs; its evidence may lack the counters
                self.note(f"disturbance {spec.text}: could not read the server's counters ({first_line(exc)})")
            if self.stopping.wait(max(0.0, window + at - time.perf_counter())):
                return
            ran = _Ran(i, n, at)
            try:
                ran.timing = d.act()
            except Exception as exc:  # noqa: BLE001 - said in the event's row
                ran.error = f"{type(exc).__name__}: {first_line(exc)}"
            self.ran.append(ran)
            if ran.error:
                return

    def finish(self, fine: FineSeries | None) -> pd.DataFrame:
        """Stop what has not run, remove the big keys, and return the events table (:data:`EVENT_COLUMNS`)."""
        self.stopping.set()
        for t in self.threads:
            t.join(timeout=60)
        for d in self.disturbers:
            try:
                d.close()
            except Exception as exc:  # noqa: BLE001 - the point is kept; the key may be left on the server
                self.note(f"disturbance: could not remove {getattr(d, 'key', 'the big key')} ({first_line(exc)})")
        return self.table(fine)

    def table(self, fine: FineSeries | None) -> pd.DataFrame:
        """The events table: each event's timing, the server's evidence of it, and what it is charged from the
        series ``fine`` (overlapping events once: :mod:`ycsbctl.results.overlap`)."""
        rows = []
        proto = self.store
        for r in sorted(self.ran, key=lambda r: (r.at_s, r.spec_index)):
            spec = self.specs[r.spec_index]
            row: dict[str, Any] = {
                "event": spec.text, "action": spec.action, "type": spec.kind, "size": spec.size,
                "occurrence": r.occurrence, "command": disturbing(proto, spec).disturb_command(spec), "at_s": r.at_s,
                "build_s": self.build_s[r.spec_index], "error": r.error, "note": None}
            if r.timing is not None:
                t_s = r.timing.start_s - self.t0  # since the operations began (the series' clock)
                row.update(t_s=t_s, started_s=t_s - self.warmup_s, command_s=r.timing.duration_s,
                           server_s=r.timing.server_s, note=r.timing.note or None, evidence=r.timing.evidence or None,
                           evidence_s=r.timing.held_s, **_background(t_s + r.timing.duration_s, r.timing.background_s))
            rows.append(row)
        if fine is not None:
            _charge(fine, [row for row in rows if "t_s" in row])
        return pd.DataFrame(rows, columns=list(EVENT_COLUMNS))


def _background(returned_s: float, background_s: float | None) -> dict[str, float | None]:
    """``background_s`` and ``background_end_s`` (when the store was seen done freeing in the background, s since the
    operations began) of an event whose command returned at ``returned_s``; both None when nothing was left to the
    background, ``background_end_s`` ``inf`` and ``background_s`` None when it was still pending when the disturber
    stopped asking (the window is then open)."""
    if background_s is None:
        return {"background_s": None, "background_end_s": None}
    if not math.isfinite(background_s):
        return {"background_s": None, "background_end_s": math.inf}
    return {"background_s": background_s, "background_end_s": returned_s + background_s}


def _charge(fine: FineSeries, rows: list[dict[str, Any]]) -> None:
    """Each row's effect, overlapping events charged once (:func:`ycsbctl.results.overlap.charge`); an event's window
    reaches at least to when the store said its background work for it was done (``background_end_s``)."""
    happened = [Happening(event_label(r["event"], r["occurrence"]), r["t_s"], r["t_s"] + r["command_s"],
                          r.get("evidence_s"), r.get("background_end_s")) for r in rows]
    for row, c in zip(rows, charge(fine, happened)):
        if row.get("background_end_s") == math.inf:  # still pending: the window is open (said there), no time seen
            row["background_end_s"] = None
        e = c.effect
        row.update(e.to_dict(), overlaps=", ".join(c.overlaps) or None, charged_to=c.charged_to)
        lag_s = e.client_lag_max_us / 1e6
        if e.stall_s and not math.isnan(lag_s) and lag_s > LAG_NOTE_SHARE * e.stall_s:
            row["note"] = "; ".join(x for x in (row["note"], f"the client's own loop paused up to "
                                    f"{lag_s * 1000:.0f} ms meanwhile: part of the stall may be the client's") if x)


def event_lines(events: pd.DataFrame | None) -> list[str]:
    """One line per event for the console: ``del:set:2M@5s at 5.00 s: command 1,657 ms (SLOWLOG 1,653 ms),
    stalled 1.6 s; slowed: below 50 % for 1.8 s, 39,770 ops lost, max latency 1,654 ms; server: SLOWLOG DEL
    1,653 ms``, and what an overlap did to its charge (``overlapped …: charged to …``)."""
    out = []
    for _, e in (events if events is not None else pd.DataFrame()).iterrows():
        head = f"{e['event']}" + (f" #{e['occurrence']}" if e["occurrence"] > 1 else "")
        if isinstance(e["error"], str) and e["error"]:
            out.append(f"{head}: {e['error']}")
            continue
        slow = "" if pd.isna(e["server_s"]) else f" (SLOWLOG {_ms(e['server_s'])})"
        cost = cost_text(e["stall_s"], e.get("slow_s"), e["ops_lost"], "", e.get("slow_run_s"), e.get("during_s"),
                         is_open(e.get("window_open")))
        effect = "" if pd.isna(e.get("stall_s")) else (
            f", {cost} (stall est. {e['stall_est_s']:.2f} s), "
            f"max latency {e['max_latency_us'] / 1000:,.0f} ms")
        evidence = f"; server: {e['evidence']}" if isinstance(e.get("evidence"), str) and e["evidence"] else ""
        out.append(f"{head} at {e['started_s']:.2f} s: command {_ms(e['command_s'])}{slow}{effect}{evidence}"
                   f"{overlap_words(e)}")
    return out


def overlap_words(e: pd.Series) -> str:
    """``; overlapped lrem:list:1M@2s: charged here (the server held this one longest)`` and its kin; empty alone."""
    role = charge_role(event_label(e["event"], e["occurrence"]), e.get("overlaps"), e.get("charged_to"))
    if role == "alone":
        return ""
    said = {"charged": "this event charged, the server's evidence blaming it",
            "joint": "charged jointly on this row (the server's evidence does not tell them apart)",
            "shared": f"charged jointly with them on {str(e['charged_to']).split('+')[0]}'s row",
            "elsewhere": f"its cost charged to {e['charged_to']}, the server's evidence blaming it"}[role]
    return f"; overlapped {e['overlaps']}: {said}"


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:,.0f} ms" if ms >= 10 else f"{ms:.1f} ms"

