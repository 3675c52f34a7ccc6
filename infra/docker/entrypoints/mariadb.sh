#!/bin/sh
# First start of a MariaDB image built from this host's Debian package by build_local_images.py:
# what the official mariadb image's docker-entrypoint.sh does for the settings ycsbctl passes.
#   - arguments starting with "-" are mariadbd's (`--no-defaults --port=3306 …`);
#   - as root: the data folder (--datadir, default /var/lib/mysql) and the socket's folder are given to
#     "mysql", and the script runs again as that user;
#   - a data folder without system tables gets them (the statements mariadb-install-db feeds
#     `mariadbd --bootstrap`, kept in the image at build time), then, in the same bootstrap:
#     root@localhost with $MARIADB_ROOT_PASSWORD, root@$MARIADB_ROOT_HOST (default %) with the same
#     password and all privileges (no PROXY grant: a bootstrap session may not give it), no other root
#     accounts, $MARIADB_DATABASE, and $MARIADB_USER with
#     $MARIADB_PASSWORD on it (MYSQL_* names are read too, as the official image does);
#   - an uninitialised folder needs MARIADB_ROOT_PASSWORD or MARIADB_ALLOW_EMPTY_ROOT_PASSWORD.
set -eu
BOOTSTRAP_SQL=/usr/share/ycsbctl/mariadb-bootstrap.sql
case "${1:-}" in -*) set -- mariadbd "$@" ;; esac
case "${1:-}" in mariadbd|mysqld) ;; *) exec "$@" ;; esac

DATADIR=/var/lib/mysql
SOCKET=/run/mysqld/mysqld.sock
for arg in "$@"; do
	case "$arg" in
		--datadir=*) DATADIR="${arg#--datadir=}" ;;
		--socket=*) SOCKET="${arg#--socket=}" ;;
	esac
done

if [ "$(id -u)" = 0 ]; then
	mkdir -p "$DATADIR" "${SOCKET%/*}"
	chown mysql:mysql "$DATADIR" "${SOCKET%/*}"
	exec setpriv --reuid=mysql --regid=mysql --clear-groups "$0" "$@"
fi

if [ ! -d "$DATADIR/mysql" ]; then
	root_password="${MARIADB_ROOT_PASSWORD:-${MYSQL_ROOT_PASSWORD:-}}"
	allow_empty="${MARIADB_ALLOW_EMPTY_ROOT_PASSWORD:-${MYSQL_ALLOW_EMPTY_PASSWORD:-}}"
	root_host="${MARIADB_ROOT_HOST:-${MYSQL_ROOT_HOST:-%}}"
	database="${MARIADB_DATABASE:-${MYSQL_DATABASE:-}}"
	user="${MARIADB_USER:-${MYSQL_USER:-}}"
	password="${MARIADB_PASSWORD:-${MYSQL_PASSWORD:-}}"
	if [ -n "${MARIADB_RANDOM_ROOT_PASSWORD:-${MYSQL_RANDOM_ROOT_PASSWORD:-}}" ]; then
		echo "error: this image does not generate root passwords: set MARIADB_ROOT_PASSWORD" >&2
		exit 1
	fi
	if [ -z "$root_password" ] && [ -z "$allow_empty" ]; then
		echo "error: Database is uninitialized and password option is not specified" >&2
		echo "       You need to specify one of MARIADB_ROOT_PASSWORD or MARIADB_ALLOW_EMPTY_ROOT_PASSWORD" >&2
		exit 1
	fi
	case "$root_password$root_host$database$user$password" in
		*\'*|*\\*|*\`*) echo "error: quotes and backslashes are not taken in the MARIADB_* settings" >&2; exit 1 ;;
	esac
	{
		cat "$BOOTSTRAP_SQL"
		echo "FLUSH PRIVILEGES;"
		echo "DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1';"
		[ -z "$root_password" ] || echo "SET PASSWORD FOR 'root'@'localhost' = PASSWORD('$root_password');"
		if [ "$root_host" != localhost ]; then
			echo "CREATE USER 'root'@'$root_host' IDENTIFIED BY '$root_password';"
			echo "GRANT ALL ON *.* TO 'root'@'$root_host' WITH GRANT OPTION;"
		fi
		[ -z "$database" ] || echo "CREATE DATABASE IF NOT EXISTS \`$database\`;"
		if [ -n "$user" ] && [ -n "$password" ]; then
			echo "CREATE USER '$user'@'%' IDENTIFIED BY '$password';"
			[ -z "$database" ] || echo "GRANT ALL ON \`$database\`.* TO '$user'@'%';"
		fi
	} | "$@" --bootstrap --datadir="$DATADIR" --log-warnings=0 --enforce-storage-engine= --skip-log-bin \
		--max_allowed_packet=8M --net_buffer_length=16K
	echo "MariaDB init process done. Ready for start up."
fi
exec "$@"
