#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store/postgres tests.
#
#   eval "$(bash .ci/postgres.sh start [DIR])"   # prints export lines
#   go test ./store/postgres/
#   bash .ci/postgres.sh stop DIR                # DIR as printed in RECALL_TEST_POSTGRES_DIR
#
# start installs PostgreSQL from the distribution's packages when it is
# missing and the script runs as root (Debian: apt-get install postgresql),
# runs initdb into DIR/data (a new temporary folder by default), and starts
# the server listening on a unix socket in DIR/sock only (no TCP), on a
# free port number (the number names the socket file). Local connections
# are trusted, except for the role recall_test_password, which must give a
# password (the tests check how a wrong one is reported). When run as root
# the cluster belongs to the postgres user, since PostgreSQL refuses to run
# as root.
#
# It prints, for the tests:
#   RECALL_TEST_POSTGRES_URL   a URL the tests connect with (superuser)
#   RECALL_TEST_POSTGRES_DATA  the data directory (for pg_ctl -D, psql logs…)
#   RECALL_TEST_POSTGRES_BIN   the folder of initdb and pg_ctl; with it the
#                              server-restart test runs this script to start
#                              a cluster of its own, which it stops and
#                              starts mid-test without disturbing the tests
#                              of other packages that use the shared one
#   RECALL_TEST_POSTGRES_DIR   the folder to give to stop
set -euo pipefail

find_bin() {
	local d
	if command -v pg_config >/dev/null 2>&1; then
		d=$(pg_config --bindir 2>/dev/null || true)
		if [[ -x "$d/initdb" ]]; then echo "$d"; return; fi
	fi
	for d in /usr/lib/postgresql/*/bin; do
		if [[ -x "$d/initdb" ]]; then echo "$d"; return; fi
	done
	d=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
	if [[ -x "$d/initdb" ]]; then echo "$d"; return; fi
}

# as_owner runs a command as the cluster's owner: the postgres user when
# we are root, else ourselves.
as_owner() {
	if [[ $(id -u) -eq 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

free_port() {
	local p
	for p in $(seq 15432 15532); do
		if [[ ! -e "/tmp/.s.PGSQL.$p" ]] && ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	echo 15432
}

start() {
	local bin dir port
	bin=$(find_bin || true)
	if [[ -z "$bin" ]]; then
		if [[ $(id -u) -ne 0 ]]; then
			echo "postgres.sh: PostgreSQL is not installed (initdb not found); install it (Debian: apt-get install postgresql)" >&2
			exit 1
		fi
		echo "postgres.sh: installing PostgreSQL" >&2
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
		bin=$(find_bin)
	fi
	dir=${1:-$(mktemp -d /tmp/recall-pg.XXXXXX)}
	mkdir -p "$dir/sock"
	if [[ $(id -u) -eq 0 ]]; then
		chown -R postgres: "$dir"
	fi
	chmod 0755 "$dir"
	port=$(free_port)
	as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=reject \
		-E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; exit 1; }
	# The password test's role first: pg_hba.conf is read top down.
	as_owner sh -c "printf '%s\n' 'local all recall_test_password scram-sha-256' 'local all all trust' >'$dir/data/pg_hba.conf'"
	cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = ''
port = $port
unix_socket_directories = '$dir/sock'
max_connections = 200
fsync = on
EOF
	as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >&2 ||
		{ cat "$dir/server.log" >&2; exit 1; }
	echo "export RECALL_TEST_POSTGRES_URL='postgres:///postgres?host=$dir/sock&port=$port&user=postgres'"
	echo "export RECALL_TEST_POSTGRES_DATA='$dir/data'"
	echo "export RECALL_TEST_POSTGRES_BIN='$bin'"
	echo "export RECALL_TEST_POSTGRES_DIR='$dir'"
}

stop() {
	local dir=${1:?usage: postgres.sh stop DIR}
	local bin
	bin=$(find_bin)
	if [[ -f "$dir/data/postmaster.pid" ]]; then
		as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
	fi
	case "$dir" in
	/tmp/recall-pg.*) rm -rf "$dir" ;;
	*) echo "postgres.sh: left $dir in place (not a folder this script made)" >&2 ;;
	esac
}

case "${1:-}" in
start) shift; start "$@" ;;
stop) shift; stop "$@" ;;
*) echo "usage: postgres.sh start [DIR] | stop DIR" >&2; exit 2 ;;
esac
