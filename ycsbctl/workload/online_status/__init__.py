"""The online-status workload ("which users were online"): see :mod:`.workload`."""

from ycsbctl.workload.online_status.workload import OnlineStatus

__all__ = ["OnlineStatus"]
