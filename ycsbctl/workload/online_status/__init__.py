"""The online-status workload ("which users were online"): see :mod:`.workload`.

``OnlineStatus`` (``workload=ycsbctl.workload.online_status:OnlineStatus``) is imported when first asked for: each
store's executor imports :mod:`.ops` when the registry loads the stores, and that need not import the workload
(numpy) into every command."""

from __future__ import annotations

from typing import Any

__all__ = ["OnlineStatus"]


def __getattr__(name: str) -> Any:
    if name == "OnlineStatus":
        from ycsbctl.workload.online_status.workload import OnlineStatus

        return OnlineStatus
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
