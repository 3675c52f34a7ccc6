#!/bin/sh
# As the official memcached image's contract, for tarantool: arguments starting with "-" are tarantool's
# (ycsbctl passes `-e <bootstrap>`); anything else runs as given.
set -e
case "${1:-}" in -*) set -- tarantool "$@" ;; esac
exec "$@"
