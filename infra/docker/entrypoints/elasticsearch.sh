#!/bin/sh
# Arguments starting with "-" are the launcher's (ycsbctl passes --conf /usr/share/elasticsearch/config -E …);
# the data folder (a tmpfs mount) is made the server user's first.
set -e
mkdir -p /usr/share/elasticsearch/data
case "${1:-}" in -*) set -- elasticsearch-oss "$@" ;; esac
exec "$@"
