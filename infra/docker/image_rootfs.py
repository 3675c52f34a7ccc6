"""A Docker image made from this host's files, with no registry and no Dockerfile: a root filesystem tar
(:func:`rootfs_tar`) holding the files asked for and the shared libraries ``ldd`` lists for each
executable among them, imported with ``docker import`` through the docker SDK (:func:`build_image`).
The images themselves (which server, its entrypoint, its labels) are ``build_local_images.py``'s."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import tarfile
from pathlib import Path


def shared_libraries(binary: str) -> list[str]:
    """Absolute paths of the libraries (and the loader) ``binary`` needs, as ``ldd`` resolves them."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True)
    if out.returncode != 0 and "not a dynamic executable" in (out.stdout + out.stderr):
        return []  # static binary
    if out.returncode != 0:
        raise RuntimeError(f"ldd {binary} failed: {out.stderr.strip()}")
    # normalised: java's ldd says /usr/lib/jvm/…/bin/../lib/libjli.so, a path the image has by its plain name
    return sorted({os.path.normpath(p) for p in re.findall(r"(/\S+)\s+\(0x", out.stdout)})


def is_elf(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def _add_parents(tar: tarfile.TarFile, dest: str, made: set[str]) -> None:
    parent = Path(dest).parent
    for p in reversed([parent, *parent.parents]):
        if str(p) not in made and str(p) != "/":
            info = tarfile.TarInfo(str(p).lstrip("/"))
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)
            made.add(str(p))


def rootfs_tar(files: dict[str, str], dirs: tuple[str, ...] = ("/tmp", "/data"),
               blobs: dict[str, tuple[bytes, int]] | None = None) -> bytes:
    """A tar of a root filesystem: ``files`` maps the path in the image to the host file (followed);
    ``blobs`` maps a path to (content, mode) written here (an entrypoint, ``/etc/passwd``)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        made: set[str] = set()
        for d in dirs:
            info = tarfile.TarInfo(d.lstrip("/"))
            info.type, info.mode = tarfile.DIRTYPE, 0o1777
            tar.addfile(info)
            made.add(d)
        for dest, src in sorted(files.items()):
            _add_parents(tar, dest, made)
            real = os.path.realpath(src)
            info = tar.gettarinfo(real, arcname=dest.lstrip("/"))
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mode |= 0o444  # root's in the image: readable by the server's user (a zip keeps 0660 files)
            with open(real, "rb") as f:
                tar.addfile(info, f)
        for dest, (content, mode) in sorted((blobs or {}).items()):
            _add_parents(tar, dest, made)
            info = tarfile.TarInfo(dest.lstrip("/"))
            info.size, info.mode = len(content), mode
            tar.addfile(info, io.BytesIO(content))
    return buf.getvalue()


def build_image(client, tag: str, binary: str, dest: str, changes: list[str],
                extra_files: dict[str, str] | None = None,
                blobs: dict[str, tuple[bytes, int]] | None = None, writable: tuple[str, ...] = ()) -> str:
    """Import an image holding ``binary`` at ``dest``, ``extra_files`` and ``blobs`` (see :func:`rootfs_tar`),
    plus the libraries of every executable among them, and ``writable`` folders anyone may write (as /tmp);
    returns the image id."""
    files = {dest: binary, **(extra_files or {})}
    for path in list(files.values()):
        if is_elf(os.path.realpath(path)):
            for lib in shared_libraries(path):
                files.setdefault(lib, lib)
    repo, _, version = tag.rpartition(":")
    if "/" in version or not repo:
        repo, version = tag, "latest"
    result = client.api.import_image_from_data(rootfs_tar(files, ("/tmp", "/data", *writable), blobs=blobs),
                                               repository=repo, tag=version,
                                               changes=changes)
    status = json.loads(result.strip().splitlines()[-1]) if isinstance(result, str) and result.strip() else {}
    if "error" in status:
        raise RuntimeError(f"docker import {tag} failed: {status['error']}")
    return client.images.get(tag).id


def first_line(argv: list[str]) -> str:
    out = subprocess.run(argv, capture_output=True, text=True)
    return (out.stdout + out.stderr).strip().splitlines()[0] if (out.stdout + out.stderr).strip() else ""
