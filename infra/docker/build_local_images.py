#!/usr/bin/env python3
"""Build small Docker images from this host's server binaries, with no registry and no Dockerfile.

Each image is a root filesystem holding one binary and the shared libraries ``ldd`` lists,
imported with ``docker import`` (through the docker SDK). Labels say what the image is
(``ycsbctl.flavor`` tells ycsbctl which command-line dialect the entrypoint speaks).

    python infra/docker/build_local_images.py                 # every image
    python infra/docker/build_local_images.py --only redis
    ycsbctl up redis --backend docker --image ycsbctl-test/redis:local --host-network
    ycsbctl up ferretdb --backend docker --image ycsbctl-test/mongo-wire:local --host-network

Images: ``<prefix>/redis:<tag>`` (the host's ``redis-server``), ``<prefix>/mongo-wire:<tag>``
(``infra/bin/mongo-wire``, FerretDB 1.24 embedded with SQLite; build it with
``bash infra/build-mongo-wire.sh``) and ``<prefix>/iperf3:<tag>`` (the host's ``iperf3``, for the
baseline next to a server on a remote engine: ``--image iperf3=<prefix>/iperf3:<tag>``).
Defaults: prefix ``ycsbctl-test``, tag ``local``. ``DOCKER_HOST=tcp://DBHOST:2375`` builds them
on a remote engine.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MONGO_WIRE = ROOT / "infra" / "bin" / "mongo-wire"


def shared_libraries(binary: str) -> list[str]:
    """Absolute paths of the libraries (and the loader) ``binary`` needs, as ``ldd`` resolves them."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True)
    if out.returncode != 0 and "not a dynamic executable" in (out.stdout + out.stderr):
        return []  # static binary
    if out.returncode != 0:
        raise RuntimeError(f"ldd {binary} failed: {out.stderr.strip()}")
    return sorted(set(re.findall(r"(/\S+)\s+\(0x", out.stdout)))


def rootfs_tar(files: dict[str, str], dirs: tuple[str, ...] = ("/tmp", "/data")) -> bytes:
    """A tar of a root filesystem: ``files`` maps the path in the image to the host file (followed)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        made: set[str] = set()
        for d in dirs:
            info = tarfile.TarInfo(d.lstrip("/"))
            info.type, info.mode = tarfile.DIRTYPE, 0o1777
            tar.addfile(info)
            made.add(d)
        for dest, src in sorted(files.items()):
            parent = Path(dest).parent
            for p in reversed([parent, *parent.parents]):
                if str(p) not in made and str(p) != "/":
                    info = tarfile.TarInfo(str(p).lstrip("/"))
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                    made.add(str(p))
            real = os.path.realpath(src)
            info = tar.gettarinfo(real, arcname=dest.lstrip("/"))
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            with open(real, "rb") as f:
                tar.addfile(info, f)
    return buf.getvalue()


def build_image(client, tag: str, binary: str, dest: str, changes: list[str],
                extra_files: dict[str, str] | None = None) -> str:
    """Import an image holding ``binary`` at ``dest`` plus its libraries; returns the image id."""
    files = {dest: binary, **(extra_files or {})}
    for path in list(files.values()):
        for lib in shared_libraries(path):
            files.setdefault(lib, lib)
    repo, _, version = tag.rpartition(":")
    if "/" in version or not repo:
        repo, version = tag, "latest"
    result = client.api.import_image_from_data(rootfs_tar(files), repository=repo, tag=version, changes=changes)
    status = json.loads(result.strip().splitlines()[-1]) if isinstance(result, str) and result.strip() else {}
    if "error" in status:
        raise RuntimeError(f"docker import {tag} failed: {status['error']}")
    return client.images.get(tag).id


def first_line(argv: list[str]) -> str:
    out = subprocess.run(argv, capture_output=True, text=True)
    return (out.stdout + out.stderr).strip().splitlines()[0] if (out.stdout + out.stderr).strip() else ""


def build_redis(client, tag: str) -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
    return build_image(client, tag, binary, "/usr/local/bin/redis-server", [
        'ENTRYPOINT ["/usr/local/bin/redis-server"]', "WORKDIR /data", "EXPOSE 6379/tcp",
        "LABEL ycsbctl.flavor=redis", f'LABEL ycsbctl.built-from="{first_line([binary, "--version"])}"',
    ])


def build_mongo_wire(client, tag: str) -> str:
    if not MONGO_WIRE.exists():
        raise FileNotFoundError(f"{MONGO_WIRE} is not built (bash infra/build-mongo-wire.sh)")
    return build_image(client, tag, str(MONGO_WIRE), "/usr/local/bin/mongo-wire", [
        'ENTRYPOINT ["/usr/local/bin/mongo-wire"]', "WORKDIR /data", "EXPOSE 27017/tcp",
        "LABEL ycsbctl.flavor=mongo-wire", f'LABEL ycsbctl.built-from="{first_line([str(MONGO_WIRE), "--version"])}"',
    ])


def build_iperf3(client, tag: str) -> str:
    """iperf3 (entrypoint ``iperf3``, as networkstatic/iperf3): the baseline server next to a remote database."""
    binary = shutil.which("iperf3")
    if binary is None:
        raise FileNotFoundError("iperf3 is not installed (apt-get install iperf3)")
    return build_image(client, tag, binary, "/usr/bin/iperf3", [
        'ENTRYPOINT ["/usr/bin/iperf3"]', "EXPOSE 5201/tcp",
        f'LABEL ycsbctl.built-from="{first_line([binary, "--version"])}"',
    ])


BUILDERS = {"redis": build_redis, "mongo-wire": build_mongo_wire, "iperf3": build_iperf3}


def build_all(client, prefix: str = "ycsbctl-test", tag: str = "local", only: list[str] | None = None) -> dict[str, str]:
    """Build the images; returns name -> image tag (e.g. ``redis`` -> ``ycsbctl-test/redis:local``)."""
    built = {}
    for name in only or list(BUILDERS):
        image = f"{prefix}/{name}:{tag}"
        BUILDERS[name](client, image)
        built[name] = image
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(BUILDERS), help="build only this image (repeatable)")
    parser.add_argument("--prefix", default="ycsbctl-test", help="image repository prefix")
    parser.add_argument("--tag", default="local", help="image tag")
    args = parser.parse_args(argv)
    import docker

    try:
        client = docker.from_env()
        client.ping()
    except Exception as exc:  # noqa: BLE001 - report and exit
        print(f"error: Docker does not answer ({exc}): start dockerd first", file=sys.stderr)
        return 1
    try:
        for name, image in build_all(client, args.prefix, args.tag, args.only).items():
            print(f"built {image} ({name})")
    except (FileNotFoundError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
