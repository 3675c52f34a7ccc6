#!/bin/sh
# First start of a PostgreSQL image built from this host's Debian package by build_local_images.py:
# what the official postgres image's docker-entrypoint.sh does for the settings ycsbctl passes.
#   - arguments starting with "-" are postgres's (`-p 5432 -c fsync=off`, `--fsync=off`);
#   - as root: the data folder ($PGDATA) and /var/run/postgresql are given to "postgres", and the
#     script runs again as that user;
#   - an empty data folder is initialised (initdb --username=$POSTGRES_USER, the superuser's password
#     $POSTGRES_PASSWORD, $POSTGRES_INITDB_ARGS; default --encoding=UTF8 --locale=C: the image has no
#     locale data), clients from any address authenticate with $POSTGRES_HOST_AUTH_METHOD (default
#     scram-sha-256, as PostgreSQL 15's password_encryption), and $POSTGRES_DB is created;
#   - an uninitialised folder without POSTGRES_PASSWORD nor POSTGRES_HOST_AUTH_METHOD=trust is refused.
set -eu
case "${1:-}" in -*) set -- postgres "$@" ;; esac
[ "${1:-}" = postgres ] || exec "$@"

PGDATA="${PGDATA:-/var/lib/postgresql/data}"
POSTGRES_USER="${POSTGRES_USER:-postgres}"
POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
export PGDATA

if [ "$(id -u)" = 0 ]; then
	mkdir -p "$PGDATA" /var/run/postgresql
	chown postgres:postgres "$PGDATA" /var/run/postgresql
	chmod 700 "$PGDATA"
	chmod 3777 /var/run/postgresql
	exec setpriv --reuid=postgres --regid=postgres --clear-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
	if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != trust ]; then
		echo "Error: Database is uninitialized and superuser password is not specified." >&2
		echo "       Set POSTGRES_PASSWORD to a non-empty value, or POSTGRES_HOST_AUTH_METHOD=trust." >&2
		exit 1
	fi
	pwfile="$(umask 077 && mktemp)"
	printf '%s\n' "${POSTGRES_PASSWORD:-}" > "$pwfile"  # initdb refuses an empty file: one line
	# shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of arguments, as in the official image
	initdb --username="$POSTGRES_USER" --pwfile="$pwfile" ${POSTGRES_INITDB_ARGS:---encoding=UTF8 --locale=C} \
		--no-instructions
	rm -f "$pwfile"
	printf '\nhost all all all %s\n' "${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >> "$PGDATA/pg_hba.conf"
	if [ "$POSTGRES_DB" != postgres ]; then  # a standalone backend runs as the bootstrap superuser
		printf 'CREATE DATABASE "%s";\n' "$POSTGRES_DB" | postgres --single -D "$PGDATA" postgres > /dev/null
	fi
	echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
