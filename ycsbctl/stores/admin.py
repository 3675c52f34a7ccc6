"""Housekeeping outside the timed loop (redis-py, sync pymongo): clear and count the dataset."""

from __future__ import annotations

from ycsbctl.errors import UserError, first_line
from ycsbctl.stores import registry
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.urls import redact_url


def clear_dataset(url: str, table: str = "usertable", store: ServerProtocol | None = None) -> None:
    """Remove what a load wrote (``FLUSHDB`` on Redis, drop ``usertable`` on MongoDB); one line on failure.
    ``store``: ``url``'s store, as the caller resolved it already (else found from ``url``)."""
    proto = store or registry.for_url(url)
    try:
        proto.clear(url, table)
    except Exception as exc:  # noqa: BLE001 - one line for the user
        raise UserError(f"cannot clear the dataset at {redact_url(url)}: {first_line(exc)}", exit_code=1) from None


def count_records(url: str, table: str = "usertable") -> int | None:
    """Records stored (hashes other than ``_indices``; documents in ``usertable``); None for basic://.
    Cheap (DBSIZE, an estimated count) and bounded: a server that does not answer in 5 s raises."""
    return registry.for_url(url).count(url, table)
