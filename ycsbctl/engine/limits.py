"""Process limits a sweep needs: one open file (socket) per client thread, plus some to spare; memory
for the values its client threads hold in flight."""

from __future__ import annotations

import math
import resource
from typing import TYPE_CHECKING

from ycsbctl.errors import UserError

if TYPE_CHECKING:
    from ycsbctl.workload.core import CoreWorkload

SPARE_FDS = 128  # pipes to the workers, telemetry connections, result files, the interpreter's own


def raise_fd_limit(threads: int, processes: int | None) -> int:
    """Make room for ``threads`` connections spread over ``processes`` worker processes (the
    worst case, one process, when unknown): raise the soft open-file limit as far as the hard limit
    allows (workers inherit it). Returns the soft limit; one line naming ``ulimit -n`` when even
    the hard limit is too low."""
    need = math.ceil(threads / max(1, processes or 1)) + SPARE_FDS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= need:
        return soft
    target = hard if hard == resource.RLIM_INFINITY else min(hard, max(need, 65536))
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        target = soft
    if target != resource.RLIM_INFINITY and target < need:
        raise UserError(f"{threads:,} client threads need about {need:,} open files, but this process may open "
                        f"{target:,} (hard limit {hard:,}): raise it with `ulimit -n {need}` (as root, or in "
                        "/etc/security/limits.conf) or use fewer threads", exit_code=1)
    return target


VALUE_COPIES = 3  # a record in flight: its values, the request encoding them (or the reply), the buffer they came from
MEMORY_SHARE = 0.5  # of the memory this host has available, for the values of all client threads


def record_bytes(fieldcount: int, max_fieldlength: int) -> int:
    """The largest record a workload writes (bytes of field values)."""
    return fieldcount * max_fieldlength


def check_value_memory(fieldcount: int, max_fieldlength: int, threads: int, available: int | None = None) -> None:
    """Refuse a plan whose client threads could hold more values in flight than half of the memory
    available (``available`` bytes; default: what the host has now): each thread holds one record
    (fieldcount × fieldlength) about :data:`VALUE_COPIES` times while its insert or update is sent.
    A ``-p fieldlength=10000000`` once grew one worker to 23.7 GB before the kernel killed it."""
    import psutil

    per_record = record_bytes(fieldcount, max_fieldlength)
    need = VALUE_COPIES * per_record * threads
    free = psutil.virtual_memory().available if available is None else available
    if need > MEMORY_SHARE * free:
        raise UserError(
            f"fieldcount={fieldcount} × fieldlength={max_fieldlength:,} is {per_record / 1e9:,.2f} GB per record, and "
            f"{threads:,} client threads would hold up to {need / 1e9:,.1f} GB of values in flight, more than "
            f"{MEMORY_SHARE:.0%} of the {free / 1e9:,.1f} GB this host has available: lower -p fieldlength or "
            "-p fieldcount, or use fewer --threads")


def check_workload_memory(w: CoreWorkload, threads: int) -> None:
    """:func:`check_value_memory` for a parsed workload (its longest field: ``fieldlength``, or the
    top of its ``fieldlengthhistogram``): a read holds a whole record too."""
    longest = w.histogram[0] * len(w.histogram[1]) if w.histogram else w.fieldlength
    check_value_memory(w.fieldcount, longest, threads)
