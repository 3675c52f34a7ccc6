"""The media-items study (restream/reindexer-benchmarks): see :mod:`.workload`; the executor contract
a store implements is :mod:`.contract`.

``MediaItems`` (``workload=ycsbctl.workload.media_items:MediaItems``) is imported when first asked for: each
store's executor imports :mod:`.contract` when the registry loads the stores, and that need not import the
workload (numpy) into every command."""

from __future__ import annotations

from typing import Any

__all__ = ["MediaItems"]


def __getattr__(name: str) -> Any:
    if name == "MediaItems":
        from ycsbctl.workload.media_items.workload import MediaItems

        return MediaItems
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
