#!/bin/sh
# As the official memcached image's docker-entrypoint.sh: arguments starting with "-" are memcached's.
set -e
case "${1:-}" in -*) set -- memcached "$@" ;; esac
exec "$@"
