#!/usr/bin/env python3
"""Build small Docker images from this host's server binaries, with no registry and no Dockerfile.

Each image is a root filesystem holding the server's files and the shared libraries ``ldd`` lists,
imported with ``docker import`` (through the docker SDK). Labels say what the image is
(``ycsbctl.flavor`` tells ycsbctl which command-line dialect the entrypoint speaks).

    python infra/docker/build_local_images.py                 # every image
    python infra/docker/build_local_images.py --only redis
    ycsbctl up redis --backend docker --image ycsbctl-test/redis:local --host-network
    ycsbctl up ferretdb --backend docker --image ycsbctl-test/mongo-wire:local --host-network

Images: ``<prefix>/redis:<tag>`` (the host's ``redis-server``), ``<prefix>/mongo-wire:<tag>``
(``infra/bin/mongo-wire``, FerretDB 1.24 embedded with SQLite; build it with
``bash infra/build-mongo-wire.sh``), ``<prefix>/iperf3:<tag>`` (the host's ``iperf3``, for the
baseline next to a server on a remote engine: ``--image iperf3=<prefix>/iperf3:<tag>``), and
``<prefix>/memcached:<tag>``, ``<prefix>/postgresql:<tag>``, ``<prefix>/mariadb:<tag>``, ``<prefix>/tarantool:<tag>``,
``<prefix>/clickhouse:<tag>``, ``<prefix>/sphinx:<tag>`` from the host's Debian packages (``memcached``,
``postgresql-15``, ``mariadb-server``, ``tarantool``, ``clickhouse-server``, ``sphinxsearch``), each with a small
entrypoint (``entrypoints/``) keeping the official image's first-start contract for what ycsbctl passes:

    ycsbctl up postgresql --backend docker --image ycsbctl-test/postgresql:local --host-network

Defaults: prefix ``ycsbctl-test``, tag ``local``. ``DOCKER_HOST=tcp://DBHOST:2375`` builds them
on a remote engine.
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# image_rootfs.py beside this file, also when it is loaded by its path (tests/fixtures/docker.py)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from image_rootfs import build_image, first_line  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MONGO_WIRE = ROOT / "infra" / "bin" / "mongo-wire"


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


ENTRYPOINTS = Path(__file__).resolve().parent / "entrypoints"
# What the entrypoints run besides the server (each a small binary needing only libc)
SHELL_TOOLS = ("id", "mkdir", "chown", "chmod", "rm", "cat", "mktemp", "setpriv")


def _host_file(name: str, hint: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise FileNotFoundError(f"{name} is not installed ({hint})")
    return path


def shell_files() -> dict[str, str]:
    """``/bin/sh`` (dash) and :data:`SHELL_TOOLS` in ``/usr/bin``, for an entrypoint script."""
    files = {"/bin/sh": _host_file("dash", "apt-get install dash")}
    for tool in SHELL_TOOLS:
        files[f"/usr/bin/{tool}"] = _host_file(tool, "apt-get install coreutils util-linux")
    return files


def accounts(*users: tuple[str, int]) -> dict[str, tuple[bytes, int]]:
    """``/etc/passwd`` and ``/etc/group`` with root and ``users`` (name, uid = gid), as the official images
    have them (a server that drops root, or refuses it, looks its user up there)."""
    passwd = ["root:x:0:0:root:/root:/bin/sh"] + [f"{n}:x:{u}:{u}::/nonexistent:/bin/sh" for n, u in users]
    group = ["root:x:0:"] + [f"{n}:x:{u}:" for n, u in users]
    return {"/etc/passwd": ("\n".join(passwd + [""]).encode(), 0o644),
            "/etc/group": ("\n".join(group + [""]).encode(), 0o644)}


def entrypoint(name: str) -> dict[str, tuple[bytes, int]]:
    return {"/usr/local/bin/docker-entrypoint.sh": ((ENTRYPOINTS / f"{name}.sh").read_bytes(), 0o755)}


def tree(host_dir: str, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file under ``host_dir`` (same path in the image), but names containing one of ``skip``."""
    out = {}
    for folder, _, names in os.walk(host_dir):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not any(s in path for s in skip):
                out[path] = path
    return out


def build_memcached(client, tag: str) -> str:
    """memcached as the official ``memcached`` image: user ``memcache`` (uid 11211), arguments starting
    with ``-`` are memcached's."""
    binary = _host_file("memcached", "apt-get install memcached")
    return build_image(client, tag, binary, "/usr/local/bin/memcached", [
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'CMD ["memcached"]', "USER memcache", "EXPOSE 11211/tcp",
        "LABEL ycsbctl.flavor=memcached", f'LABEL ycsbctl.built-from="{first_line([binary, "-V"])}"',
    ], extra_files={"/bin/sh": _host_file("dash", "apt-get install dash")},
        blobs={**accounts(("memcache", 11211), ("nobody", 65534)), **entrypoint("memcached")})


def postgres_bindir() -> Path:
    """The newest ``/usr/lib/postgresql/<major>/bin`` holding ``postgres`` and ``initdb``."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name),
                         reverse=True):
        if all(os.access(Path(folder) / b, os.X_OK) for b in ("postgres", "initdb")):
            return Path(folder)
    raise FileNotFoundError("PostgreSQL is not installed (apt-get install postgresql)")


def build_postgresql(client, tag: str) -> str:
    """PostgreSQL as the official ``postgres`` image: ``postgres`` and ``initdb``, the server's modules
    (no JIT) and share folder from the Debian package, ``$PGDATA`` initialised at first start by
    entrypoints/postgres.sh (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_HOST_AUTH_METHOD, POSTGRES_DB,
    POSTGRES_INITDB_ARGS), user ``postgres`` (uid 999). ``docker import`` takes no STOPSIGNAL: ycsbctl's docker
    backend gives the container SIGINT (fast shutdown) as the official image's STOPSIGNAL does."""
    bindir = postgres_bindir()
    major = bindir.parent.name
    share = f"/usr/share/postgresql/{major}"
    files = {str(bindir / b): str(bindir / b) for b in ("postgres", "initdb")}
    files.update(tree(str(bindir.parent / "lib"), skip=("llvmjit", "/bitcode/", "/pgxs/")))
    files.update(tree(share, skip=("postgresql.conf.sample",)))
    files.update({f"/usr/share/zoneinfo/{z}": f"/usr/share/zoneinfo/{z}" for z in ("UTC", "Etc/UTC", "GMT")})
    sample = Path(share, "postgresql.conf.sample").read_text()  # the official image listens on all addresses
    sample = sample.replace("#listen_addresses = 'localhost'", "listen_addresses = '*'")
    blobs = {**accounts(("postgres", 999)), **entrypoint("postgres"),
             f"{share}/postgresql.conf.sample": (sample.encode(), 0o644)}
    return build_image(client, tag, str(bindir / "postgres"), str(bindir / "postgres"), [
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'CMD ["postgres"]', "EXPOSE 5432/tcp",
        f"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:{bindir}",
        f"ENV PG_MAJOR={major}", "ENV PGDATA=/var/lib/postgresql/data", "ENV TZ=UTC",
        "LABEL ycsbctl.flavor=postgres", f'LABEL ycsbctl.built-from="{first_line([str(bindir / "postgres"), "-V"])}"',
    ], extra_files={**files, **shell_files()}, blobs=blobs)


def mariadb_bootstrap_sql(mariadbd: str) -> bytes:
    """The statements ``mariadb-install-db`` feeds ``mariadbd --bootstrap`` (system tables, help tables,
    root@localhost without a password), captured through its ``MYSQLD_BOOTSTRAP`` hook; the lines naming
    this host's name are left out, as its own ``--cross-bootstrap`` does."""
    install = _host_file("mariadb-install-db", "apt-get install mariadb-server")
    with tempfile.TemporaryDirectory(prefix="ycsbctl-mariadb-sql-") as tmp:
        capture = Path(tmp, "capture.sh")
        capture.write_text(f'#!/bin/sh\ncat > "{tmp}/bootstrap.sql"\n')
        capture.chmod(0o755)
        done = subprocess.run([install, "--no-defaults", f"--datadir={tmp}/data", "--skip-test-db",
                               "--auth-root-authentication-method=normal", f"--basedir={Path(mariadbd).parents[1]}",
                               f"--user={pwd.getpwuid(os.getuid()).pw_name}"],
                              env={**os.environ, "MYSQLD_BOOTSTRAP": str(capture)}, capture_output=True, text=True)
        sql = Path(tmp, "bootstrap.sql")
        if done.returncode or not sql.exists():
            raise RuntimeError(f"mariadb-install-db did not give its bootstrap statements: {done.stderr.strip()}")
        lines = sql.read_bytes().splitlines(keepends=True)
    return b"".join(line for line in lines if b"@current_hostname" not in line)


def build_mariadb(client, tag: str) -> str:
    """MariaDB as the official ``mariadb`` image: ``mariadbd``, its English error messages and character
    sets from the Debian package, the system tables made at first start by entrypoints/mariadb.sh
    (MARIADB_ROOT_PASSWORD, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD, MARIADB_ROOT_HOST, MARIADB_DATABASE,
    MARIADB_USER/PASSWORD), user ``mysql`` (uid 999)."""
    binary = "/usr/sbin/mariadbd"
    if not os.access(binary, os.X_OK):
        raise FileNotFoundError("mariadbd is not installed (apt-get install mariadb-server)")
    files = {**tree("/usr/share/mysql/english"), **tree("/usr/share/mysql/charsets"), **shell_files()}
    blobs = {**accounts(("mysql", 999)), **entrypoint("mariadb"),
             "/usr/share/ycsbctl/mariadb-bootstrap.sql": (mariadb_bootstrap_sql(binary), 0o644)}
    return build_image(client, tag, binary, "/usr/sbin/mariadbd", [
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'CMD ["mariadbd"]', "EXPOSE 3306/tcp",
        "LABEL ycsbctl.flavor=mariadbd", f'LABEL ycsbctl.built-from="{first_line([binary, "--version"])}"',
    ], extra_files=files, blobs=blobs)


def build_tarantool(client, tag: str) -> str:
    """Tarantool from the Debian package (its Lua modules are built into the binary): ``tarantool`` on PATH,
    arguments starting with ``-`` are its own (entrypoints/tarantool.sh), user ``tarantool`` (uid 999)."""
    binary = _host_file("tarantool", "apt-get install tarantool")
    return build_image(client, tag, binary, "/usr/bin/tarantool", [
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'CMD ["tarantool"]', "USER tarantool", "WORKDIR /tmp",
        "EXPOSE 3301/tcp", "LABEL ycsbctl.flavor=tarantool",
        f'LABEL ycsbctl.built-from="{first_line([binary, "--version"])}"',
    ], extra_files={"/bin/sh": _host_file("dash", "apt-get install dash")},
        blobs={**accounts(("tarantool", 999)), **entrypoint("tarantool")})


def build_clickhouse(client, tag: str) -> str:
    """ClickHouse from the Debian package (``clickhouse-server`` and its ``libclickhouse``), ycsbctl's config and
    users at ``/etc/clickhouse-server/`` (infra/clickhouse/: HTTP interface only, ``default`` without a password),
    arguments starting with ``-`` are the server's (entrypoints/clickhouse.sh), user ``clickhouse`` (uid 101, as
    the official image); its data folder, ``/var/lib/clickhouse``, is a tmpfs mount ycsbctl gives the container."""
    binary = "/usr/sbin/clickhouse-server"
    if not os.access(binary, os.X_OK):
        raise FileNotFoundError("clickhouse-server is not installed (apt-get install clickhouse-server)")
    configs = ROOT / "infra" / "clickhouse"
    files = {"/etc/clickhouse-server/config.xml": str(configs / "config.xml"),
             "/etc/clickhouse-server/users.xml": str(configs / "users.xml"),
             "/bin/sh": _host_file("dash", "apt-get install dash"),
             **{f"/usr/share/zoneinfo/{z}": f"/usr/share/zoneinfo/{z}" for z in ("UTC", "Etc/UTC")}}
    return build_image(client, tag, binary, binary, [
        'ENTRYPOINT ["docker-entrypoint.sh"]',
        'CMD ["clickhouse-server", "--config-file=/etc/clickhouse-server/config.xml"]',
        "USER clickhouse", "WORKDIR /tmp", "EXPOSE 8123/tcp", "LABEL ycsbctl.flavor=clickhouse",
        f'LABEL ycsbctl.built-from="{first_line(["dpkg-query", "-W", "clickhouse-server"])}"',
    ], extra_files=files, blobs={**accounts(("clickhouse", 101)), **entrypoint("clickhouse")})


def build_sphinx(client, tag: str) -> str:
    """Sphinx's ``searchd`` from the Debian package (sphinxsearch), ycsbctl's config (infra/sphinx/sphinx.conf) at
    ``/etc/sphinxsearch/sphinx.conf`` with its data in ``/var/lib/sphinxsearch`` (a tmpfs mount ycsbctl gives the
    container), arguments starting with ``-`` are searchd's (entrypoints/sphinx.sh), user ``sphinxsearch``."""
    binary = _host_file("searchd", "apt-get install sphinxsearch")
    config = (ROOT / "infra" / "sphinx" / "sphinx.conf").read_text().replace("DATA/", "/var/lib/sphinxsearch/")
    return build_image(client, tag, binary, "/usr/bin/searchd", [
        'ENTRYPOINT ["docker-entrypoint.sh"]',
        'CMD ["searchd", "--config", "/etc/sphinxsearch/sphinx.conf", "--nodetach"]',
        "USER sphinxsearch", "WORKDIR /tmp", "EXPOSE 9306/tcp", "LABEL ycsbctl.flavor=sphinx",
        f'LABEL ycsbctl.built-from="{first_line([binary, "--help"])}"',
    ], extra_files={"/bin/sh": _host_file("dash", "apt-get install dash")},
        blobs={**accounts(("sphinxsearch", 999)), **entrypoint("sphinx"),
               "/etc/sphinxsearch/sphinx.conf": (config.encode(), 0o644)})


def build_elasticsearch(client, tag: str) -> str:
    """Elasticsearch 6.8 OSS as scripts/setup.sh installs it (the zip from Maven Central beside its launcher,
    infra/elasticsearch/elasticsearch-oss) with this host's OpenJDK 17 (its runtime: no jmods, headers or docs),
    ycsbctl's config at ``/usr/share/elasticsearch/config`` and its data in ``/usr/share/elasticsearch/data`` (a
    tmpfs mount ycsbctl gives the container), user ``elasticsearch`` (uid 1000, as the official image)."""
    launcher = shutil.which("elasticsearch-oss")
    if launcher is None:
        raise FileNotFoundError("Elasticsearch 6.8 is not installed (scripts/setup.sh fetches it from Maven Central)")
    lib = Path(launcher).resolve().parent
    homes = sorted(lib.glob("elasticsearch-6.8.*"))
    jdk = Path("/usr/lib/jvm/java-17-openjdk-amd64")
    if not homes or not (jdk / "bin" / "java").exists():
        raise FileNotFoundError("Elasticsearch 6.8 beside elasticsearch-oss and OpenJDK 17 are needed "
                                "(scripts/setup.sh; apt-get install openjdk-17-jre-headless)")
    home = homes[-1]
    files = {f"/usr/local/lib/ycsbctl/{p.relative_to(lib)}": str(p) for p in home.rglob("*") if p.is_file()}
    files["/usr/local/lib/ycsbctl/elasticsearch-oss"] = str(ROOT / "infra" / "elasticsearch" / "elasticsearch-oss")
    for part in ("bin", "conf", "lib", "release"):
        base = jdk / part
        for p in ([base] if base.is_file() else base.rglob("*")):
            if p.is_file() and not p.name.endswith(".diz"):
                files[str(jdk / p.relative_to(jdk))] = str(p)
    config = ROOT / "infra" / "elasticsearch"
    for name in ("elasticsearch.yml", "jvm.options"):
        files[f"/usr/share/elasticsearch/config/{name}"] = str(config / name)
    files["/usr/share/elasticsearch/config/log4j2.properties"] = str(home / "config" / "log4j2.properties")
    files["/bin/bash"] = _host_file("bash", "apt-get install bash")  # Elasticsearch's own scripts are bash
    for tool in ("dirname", "basename", "readlink", "ls", "tail", "uname", "grep", "cut", "env", "expr", "which"):
        files[f"/usr/bin/{tool}"] = _host_file(tool, "apt-get install coreutils grep debianutils")
    files.update(shell_files())
    return build_image(client, tag, str(lib / "elasticsearch-oss"), "/usr/local/bin/elasticsearch-oss", [
        'ENTRYPOINT ["docker-entrypoint.sh"]', 'CMD ["elasticsearch-oss", "--conf", "/usr/share/elasticsearch/config"]',
        "USER elasticsearch", "WORKDIR /usr/share/elasticsearch", "EXPOSE 9200/tcp", f"ENV JAVA_HOME={jdk}",
        "ENV YCSBCTL_ES_HOME=" + f"/usr/local/lib/ycsbctl/{home.name}", "LABEL ycsbctl.flavor=elasticsearch",
        f'LABEL ycsbctl.built-from="Elasticsearch {home.name.split("-")[-1]} OSS (Maven Central), OpenJDK 17"',
    ], extra_files=files, blobs={**accounts(("elasticsearch", 1000)), **entrypoint("elasticsearch")},
        # its keystore, its logs, and the zip's empty plugins folder (Elasticsearch refuses to start without one)
        writable=("/usr/share/elasticsearch/config", "/usr/share/elasticsearch/logs",
                  f"/usr/local/lib/ycsbctl/{home.name}/plugins"))


BUILDERS = {"redis": build_redis, "mongo-wire": build_mongo_wire, "iperf3": build_iperf3,
            "memcached": build_memcached, "postgresql": build_postgresql, "mariadb": build_mariadb,
            "tarantool": build_tarantool, "clickhouse": build_clickhouse, "sphinx": build_sphinx,
            "elasticsearch": build_elasticsearch}


def build_all(client, prefix: str = "ycsbctl-test", tag: str = "local",
              only: list[str] | None = None) -> dict[str, str]:
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
