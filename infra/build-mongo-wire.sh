#!/usr/bin/env bash
# Build infra/bin/mongo-wire: a MongoDB wire-protocol server (embedded FerretDB
# v1.24.0, SQLite backend) from infra/mongo-wire/.
#
# Idempotent: skips the build when the binary is newer than every source file
# (go.mod, go.sum, *.go). Set MONGO_WIRE_FORCE=1 to rebuild anyway.
# Needs a Go toolchain (>= 1.22) and access to the Go module proxy on the
# first build (modules are then cached in $(go env GOMODCACHE)).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/mongo-wire"
out="$here/bin/mongo-wire"

log() { echo "build-mongo-wire: $*"; }
die() { echo "build-mongo-wire: ERROR: $*" >&2; exit 1; }

[ -f "$src/go.mod" ] || die "source directory $src (go.mod) not found"

# Up to date? (binary newer than go.mod, go.sum and every *.go file)
if [ -x "$out" ] && [ "${MONGO_WIRE_FORCE:-0}" != "1" ]; then
    newer="$(find "$src" -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -newer "$out" -print -quit)"
    if [ -z "$newer" ]; then
        log "up to date: $out (set MONGO_WIRE_FORCE=1 to rebuild)"
        exit 0
    fi
    log "source changed ($newer is newer than the binary); rebuilding"
fi

if ! command -v go >/dev/null 2>&1; then
    if [ -x /usr/local/go/bin/go ]; then
        export PATH="$PATH:/usr/local/go/bin"
        log "go not on PATH; using /usr/local/go/bin/go"
    else
        die "the Go toolchain (go >= 1.22) is needed to build mongo-wire but 'go' was not found on PATH or at /usr/local/go/bin/go.
Install it, e.g. 'apt-get install golang' (Debian 12 ships 1.19, too old: use bookworm-backports 'golang-1.22' or newer)
or the official toolchain from https://go.dev/dl/ unpacked into /usr/local/go."
    fi
fi

gover="$(go env GOVERSION 2>/dev/null || true)"
log "using $(command -v go) (${gover:-unknown version})"

# If the local toolchain is older than go.mod requires, let Go fetch the right
# one from the module proxy rather than failing (default GOTOOLCHAIN=auto).
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"

mkdir -p "$here/bin"
log "building $out (go build -trimpath) ..."
start=$(date +%s)
(
    cd "$src"
    # -mod=readonly (the default): go.mod and go.sum are committed and complete.
    # -buildvcs=false: the tree may be a fresh clone, a worktree or no repo at all.
    go build -trimpath -buildvcs=false -o "$out.tmp" .
) || { rm -f "$out.tmp"; die "go build failed (see above)"; }
mv -f "$out.tmp" "$out"
end=$(date +%s)

log "built $out in $((end - start))s ($(du -h "$out" | cut -f1)); $("$out" --version)"
