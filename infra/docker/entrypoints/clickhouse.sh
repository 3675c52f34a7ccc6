#!/bin/sh
# As the official clickhouse-server image's contract for what ycsbctl passes: arguments starting with "-" are
# clickhouse-server's (ycsbctl passes --config-file=/etc/clickhouse-server/config.xml and overrides of its keys).
set -e
case "${1:-}" in -*) set -- clickhouse-server "$@" ;; esac
exec "$@"
