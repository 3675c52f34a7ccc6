"""The media-items study (restream/reindexer-benchmarks): see :mod:`.workload`; the executor contract
a store implements is :mod:`.contract`."""

from ycsbctl.workload.media_items.workload import MediaItems

__all__ = ["MediaItems"]
