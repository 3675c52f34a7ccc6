#!/bin/sh
# Arguments starting with "-" are searchd's (ycsbctl passes --config /etc/sphinxsearch/sphinx.conf --listen … --nodetach).
set -e
case "${1:-}" in -*) set -- searchd "$@" ;; esac
exec "$@"
