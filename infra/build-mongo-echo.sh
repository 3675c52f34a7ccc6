#!/usr/bin/env bash
# Build infra/bin/mongo-echo: an in-memory MongoDB OP_MSG responder that exists only to
# benchmark ycsbctl's MongoDB client path (see infra/mongo-echo/README.md).
#
# Idempotent: skips the build when the binary is newer than every source file
# (go.mod, *.go). Set MONGO_ECHO_FORCE=1 to rebuild anyway. Needs a Go toolchain
# (>= 1.22); standard library only, so no module download. Takes a few seconds.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/mongo-echo"
out="$here/bin/mongo-echo"

log() { echo "build-mongo-echo: $*"; }
die() { echo "build-mongo-echo: ERROR: $*" >&2; exit 1; }

[ -f "$src/go.mod" ] || die "source directory $src (go.mod) not found"

if [ -x "$out" ] && [ "${MONGO_ECHO_FORCE:-0}" != "1" ]; then
    newer="$(find "$src" -type f \( -name '*.go' -o -name go.mod \) -newer "$out" -print -quit)"
    if [ -z "$newer" ]; then
        log "up to date: $out (set MONGO_ECHO_FORCE=1 to rebuild)"
        exit 0
    fi
    log "source changed ($newer is newer than the binary); rebuilding"
fi

if ! command -v go >/dev/null 2>&1; then
    if [ -x /usr/local/go/bin/go ]; then
        export PATH="$PATH:/usr/local/go/bin"
    else
        die "the Go toolchain (go >= 1.22) is needed to build mongo-echo but 'go' was not found on PATH or at /usr/local/go/bin/go.
Install one: the official toolchain (go.dev/dl) unpacked into /usr/local/go, or a golang-1.22+ distribution package."
    fi
fi
gover="$(go env GOVERSION 2>/dev/null || true)"
if [[ "$gover" =~ ^go1\.([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -lt 22 ]; then
    die "$gover is too old to build mongo-echo (go >= 1.22 needed)"
fi

trap 'rm -f "$out.tmp"' EXIT
mkdir -p "$here/bin"
cd "$src"
# GOTOOLCHAIN=local: the standard library is all it needs; never fetch a toolchain for it.
GOTOOLCHAIN=local go build -trimpath -buildvcs=false -o "$out.tmp" . || die "go build failed (see above)"
mv -f "$out.tmp" "$out"
log "built $out; $("$out" --version)"
