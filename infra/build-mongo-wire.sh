#!/usr/bin/env bash
# Build infra/bin/mongo-wire: a MongoDB wire-protocol server (embedded FerretDB
# v1.24.0, SQLite backend) from infra/mongo-wire/.
#
# Idempotent: skips the build when the binary is newer than every source file
# (go.mod, go.sum, *.go, patch/*.go.txt). Set MONGO_WIRE_FORCE=1 to rebuild anyway.
# Needs a Go toolchain (>= 1.22) and the Go module proxy on the first build
# (modules are then cached in $(go env GOMODCACHE)). A clean build takes about
# 2 minutes on 2 cores (the pure-Go SQLite is most of it).
#
# The build compiles against a copy of the FerretDB module (taken from the
# module cache, so checksummed by go.sum) with infra/mongo-wire/patch/ applied:
# a one-line fix so that _id lookups use the _id index instead of a full table
# scan (see infra/mongo-wire/patch/README.md). The copy, and a go.mod with a
# replace directive (go build -modfile), live in infra/bin/.build/; the
# committed go.mod stays plain, so `go build .` also works (unpatched, it warns).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/mongo-wire"
out="$here/bin/mongo-wire"
ferretdb_mod="github.com/FerretDB/FerretDB"
patched_file="internal/backends/sqlite/metadata/metadata.go"
upstream_line="IDColumn = DefaultColumn + \"->'\$._id'\""

go_hint="Install a Go toolchain >= 1.22: the official one (go.dev/dl) unpacked into /usr/local/go, or a distribution package
(e.g. 'apt-get install golang', but Debian 12's golang-go is 1.19, too old: take a newer golang-1.2x package if your sources have one)."

log() { echo "build-mongo-wire: $*"; }
die() { echo "build-mongo-wire: ERROR: $*" >&2; exit 1; }

[ -f "$src/go.mod" ] || die "source directory $src (go.mod) not found"

# Up to date? (binary newer than go.mod, go.sum, every *.go file and patch/*.go.txt)
if [ -x "$out" ] && [ "${MONGO_WIRE_FORCE:-0}" != "1" ]; then
    newer="$(find "$src" -type f \( -name '*.go' -o -name go.mod -o -name go.sum -o -path '*/patch/*.go.txt' \) \
        -newer "$out" -print -quit)"
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
$go_hint"
    fi
fi

gover="$(go env GOVERSION 2>/dev/null || true)" # e.g. go1.26.8
log "using $(command -v go) (${gover:-unknown version})"
if [[ "$gover" =~ ^go1\.([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -lt 21 ]; then
    # go >= 1.21 fetches the go1.22 toolchain that go.mod asks for by itself; older ones cannot.
    die "$gover is too old to build mongo-wire (go >= 1.22 needed).
$go_hint"
fi

# If the local toolchain is older than go.mod requires, let Go fetch the right
# one from the module proxy rather than failing (default GOTOOLCHAIN=auto).
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"

cd "$src"

start=$(date +%s)
log "downloading $ferretdb_mod (go mod download; no-op when cached) ..."
go mod download "$ferretdb_mod" || die "go mod download failed: the Go module proxy must be reachable for the first build"

mod_dir="$(go list -m -f '{{.Dir}}' "$ferretdb_mod")"
mod_ver="$(go list -m -f '{{.Version}}' "$ferretdb_mod")"
[ -n "$mod_dir" ] && [ -f "$mod_dir/$patched_file" ] || die "cannot find $ferretdb_mod in the module cache"
grep -qF "$upstream_line" "$mod_dir/$patched_file" ||
    die "$mod_dir/$patched_file no longer contains: $upstream_line
(FerretDB version changed?) regenerate infra/mongo-wire/patch/sqlite_metadata.go.txt (see patch/README.md)"

# Patched copy of the module (3.4 MB) + a go.mod that points at it.
build_dir="$here/bin/.build"
patched_mod="$build_dir/ferretdb-$mod_ver"
log "preparing patched FerretDB $mod_ver copy in $patched_mod"
rm -rf "$patched_mod"
mkdir -p "$build_dir"
cp -R "$mod_dir" "$patched_mod"
chmod -R u+w "$patched_mod"
cp "$src/patch/sqlite_metadata.go.txt" "$patched_mod/$patched_file"
cp "$src/go.mod" "$build_dir/go.mod"
cp "$src/go.sum" "$build_dir/go.sum"
case "$patched_mod" in *'"'* | *'\'*) die "unsupported character in path: $patched_mod" ;; esac
printf '\nreplace %s => "%s"\n' "$ferretdb_mod" "$patched_mod" >>"$build_dir/go.mod"

trap 'rm -f "$out.tmp"' EXIT
mkdir -p "$here/bin"
log "building $out (go build -trimpath -modfile $build_dir/go.mod ...) ..."
# -buildvcs=false: the tree may be a fresh clone, a worktree or no repo at all.
# -mod=readonly (the default): go.mod and go.sum are committed and complete.
go build -trimpath -buildvcs=false -modfile "$build_dir/go.mod" \
    -ldflags "-X main.sqliteIDIndexFix=applied" -o "$out.tmp" . || die "go build failed (see above)"
mv -f "$out.tmp" "$out"
end=$(date +%s)

log "built $out in $((end - start))s ($(du -h "$out" | cut -f1)); $("$out" --version)"
