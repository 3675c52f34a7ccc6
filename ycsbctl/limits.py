"""Process limits a sweep needs: one open file (socket) per client thread, plus some to spare."""

from __future__ import annotations

import math
import resource

from ycsbctl.errors import UserError

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
