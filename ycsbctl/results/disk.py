"""Can the result folder be written? Checked before a sweep starts; the errors that mean no."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.user_input import writable_folder

DISK_ERRNOS = (errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EIO)
MIN_FREE_BYTES = 20 * 2**20  # a sweep's folder is a few MB; less free space than this fails at the first point


def disk_error(exc: BaseException) -> bool:
    """Is ``exc`` the file system refusing a write (full, read-only, no permission)?"""
    return isinstance(exc, OSError) and exc.errno in DISK_ERRNOS


def check_writable(folder: Path) -> None:
    """Before anything starts: ``folder``'s nearest existing parent takes a file (else one line naming the folder,
    exit 2: :func:`ycsbctl.user_input.writable_folder`) and has room (else one line, exit 1: free space)."""
    writable_folder(folder, "the result folder")
    parent = Path(folder).absolute()
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    free = shutil.disk_usage(parent).free
    if free < MIN_FREE_BYTES:
        raise UserError(f"only {free / 2**20:.1f} MiB free for the result folder {folder} ({parent}); free some "
                        f"space or pass --out DIR elsewhere (ycsbctl needs about {MIN_FREE_BYTES // 2**20} MiB)",
                        exit_code=1)
