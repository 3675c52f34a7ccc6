"""Do the records a plan reads exist on the server? Said once when a sweep starts on a server we
do not load, and checked again before and after every run-phase point (a dataset emptied or cut
between points, or during one, makes reads NOT_FOUND: that point is flagged, not presented as
healthy; see also :mod:`ycsbctl.experiment.missing`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ycsbctl.experiment.progress import Progress
from ycsbctl.stores.capabilities import DatasetFile, DatasetLoss

C = TypeVar("C")
R = TypeVar("R")

if TYPE_CHECKING:
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.stores.base import ServerProtocol


def records_held(store: ServerProtocol, url: str, table: str) -> int | None:
    """The records ``store``'s server at ``url`` counts in ``table`` (cheap: DBSIZE, an estimated count), Ctrl-C held
    while it is asked; None when it cannot say (no server, or it does not answer)."""
    from ycsbctl.processes import deferred_signals

    # Signals held (≤ 10 s: connect and read are bounded to 5 s each): a Ctrl-C landing in a client's
    # finaliser (redis-py's ConnectionPool.__del__) would be "ignored" and the sweep would go on.
    with deferred_signals():
        try:
            return store.count(url, table)  # DBSIZE / an estimated count: cheap
        except Exception:  # noqa: BLE001 - a server that does not answer shows in the point itself
            return None


def _short_of(stored: int | None, wanted: int) -> int | None:
    """``stored`` when it is fewer than ``wanted`` (> 0) records; None when it is all of them, nothing is wanted,
    or the server could not say."""
    return stored if stored is not None and wanted and stored < wanted else None


def _short(ep: Endpoint, wanted: int, table: str) -> int | None:
    """The records ``ep``'s server holds when that is fewer than ``wanted`` (> 0); None when it holds them
    all, nothing is wanted, or it cannot say."""
    return _short_of(records_held(ep.store, ep.url, table), wanted)


class DatasetCheck:
    """The record count a warning was last given for, so that each change is said once."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.warned: int | None = None
        self.began: tuple[str, str] | None = None  # the storage the current point began on, when the store can tell
        # (url, table) -> the records counted after the last point on it, for the next point's start: nothing of
        # ours touched the dataset since (a load or a restart forgets it). A count is a scan on some servers
        # (FerretDB over SQLite: ~0.5-1 s at 2,000 records here), and it was taken twice per point.
        self.counted_after: dict[tuple[str, str], int] = {}

    def forget(self, url: str) -> None:
        """The dataset of ``url`` changed by us (loaded, emptied, the server restarted): count it again."""
        self.counted_after = {k: v for k, v in self.counted_after.items() if k[0] != url}

    def at_start(self, label: str, ep: Endpoint, wanted: int, table: str = "usertable") -> int | None:
        """Records on a server we do not load (None when it cannot say); a warning when they are
        not the ``recordcount`` the plan reads."""
        stored = records_held(ep.store, ep.url, table)
        self.warned = stored
        if stored is not None and stored != wanted:
            effect = ("reads of missing keys will be NOT_FOUND" if stored < wanted
                      else f"only {wanted:,} of them will be read")
            self.progress.note(
                f"{label}: warning: the server holds {stored:,} records but recordcount is {wanted:,}; {effect} — "
                f"pass -p recordcount={stored} (as at load time) or --load"
            )
        return stored

    def before_point(self, label: str, ep: Endpoint, wanted: int, table: str = "usertable") -> str | None:
        """The reason to flag the next point when ``ep``'s server holds fewer than ``wanted`` records."""
        self.began = _ask(ep, DatasetFile.storage_id)
        counted = self.counted_after.pop((ep.url, table), None)
        stored = _short_of(counted if counted is not None else records_held(ep.store, ep.url, table), wanted)
        if stored is None:
            return None
        note = (f"the server held {stored:,} of the {wanted:,} records when the point began "
                "(emptied or cut since the load): reads of missing keys are NOT_FOUND")
        if stored != self.warned:  # said once, at the start, when the server was short already
            self.progress.note(f"{label}: warning: {note}")
        self.warned = stored
        return note

    def after_point(self, ep: Endpoint, wanted: int, table: str = "usertable") -> str | None:
        """The reason to flag the point just measured when ``ep``'s server holds fewer than ``wanted``
        records after it (emptied or cut while it ran)."""
        counted = records_held(ep.store, ep.url, table)
        if counted is not None:
            self.counted_after[(ep.url, table)] = counted
        stored = _short_of(counted, wanted)
        if stored is None:
            return None
        self.warned = stored
        why = _replaced(self.began, _ask(ep, DatasetFile.storage_id)) or _ask(ep, DatasetLoss.why_short)
        return (f"the server held {stored:,} of the {wanted:,} records after the point"
                + (f": {why}" if why else " (emptied or cut while it ran)"))

    def after_load(self, ep: Endpoint, loaded: int, table: str = "usertable") -> str | None:
        """The reason to flag a load when ``ep``'s server holds fewer than the ``loaded`` records it
        acknowledged (evicted, expired or cut while it loaded), with what the server says of why."""
        stored = _short(ep, loaded, table)
        if stored is None:
            return None
        self.warned = stored
        why = _ask(ep, DatasetLoss.why_short)
        return (f"the server held {stored:,} of the {loaded:,} records it acknowledged after the load"
                + (f": {why}" if why else " (evicted or cut while it loaded)")
                + "; reads of the missing keys will be NOT_FOUND")


def _replaced(began: tuple[str, str] | None, now: tuple[str, str] | None) -> str | None:
    """The storage replaced while the point ran (a SQLite file renamed over, or deleted and created again), said as
    that; None when it is the one the point began on, or the store cannot tell."""
    if began is None or now is None or now == began:
        return None
    return (f"{now[0]} was replaced while it ran ({began[1]} when the point began, {now[1]} after it): the clients "
            "read and wrote the file it replaced, not this one")


def _ask(ep: Endpoint, what: Callable[[C, str], R]) -> R | None:
    """The store's ``why_short`` or ``storage_id`` of ``ep``'s server (``what``, a capability's question), Ctrl-C
    deferred while it is asked; None when it cannot say, or its server cannot be asked now (the count already says
    the dataset is short)."""
    from ycsbctl.processes import deferred_signals
    from ycsbctl.stores import registry

    with deferred_signals():
        try:
            return registry.ask(ep.store, what, ep.url)
        except registry.admin_errors(ep.store):  # a server gone or refusing since it was counted: the count says it
            return None
