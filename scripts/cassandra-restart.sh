#!/usr/bin/env bash
# scripts/cassandra-restart.sh stop|start
#
# Stops a node of scripts/cassandra.sh keeping its data, and starts it again on that same
# data. `cassandra.sh up` always starts from a fresh data dir, so this relaunches the stopped
# JVM's own command line instead: the outage tests need a node that comes back with what it
# had acknowledged.
#
#   stop    records the running node's command line next to its pid file, then runs
#           `cassandra.sh down` with TWISSANDRA_CASSANDRA_KEEP_DATA=1 (SIGTERM: the node drains)
#   start   relaunches the recorded command line on the kept data dir and waits until the
#           node answers CQL; `cassandra.sh down` stops it afterwards as usual
#
# The node is chosen with the knobs of scripts/cassandra.sh: TWISSANDRA_CASSANDRA_LISTEN, _PORT,
# _RUN, _VERSION, _HOME, _START_TIMEOUT (same defaults).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VERSION=${TWISSANDRA_CASSANDRA_VERSION:-5.0.9}
HOME_DIR=${TWISSANDRA_CASSANDRA_HOME:-$HOME/.cache/twissandra/cassandra-$VERSION}
LISTEN=${TWISSANDRA_CASSANDRA_LISTEN:-127.0.0.1}
PORT=${TWISSANDRA_CASSANDRA_PORT:-9042}
RUN=${TWISSANDRA_CASSANDRA_RUN:-/tmp/twissandra-cassandra/run}
START_TIMEOUT=${TWISSANDRA_CASSANDRA_START_TIMEOUT:-180}
NODE="$LISTEN-$PORT"
PIDFILE="$RUN/$NODE.pid"
STATEFILE="$RUN/$NODE.data"
ARGVFILE="$RUN/$NODE.argv"
CQLPING="$HOME_DIR/bin/cqlping"

log() { printf 'cassandra-restart[%s]: %s\n' "$NODE" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

node_pid() {
	local pid
	[[ -f "$PIDFILE" ]] || return 1
	pid=$(<"$PIDFILE")
	[[ "$pid" =~ ^[0-9]+$ ]] || return 1
	grep -qa 'org.apache.cassandra.service.CassandraDaemon' "/proc/$pid/cmdline" 2>/dev/null || return 1
	echo "$pid"
}

cmd_stop() {
	local pid
	pid=$(node_pid) || die "no running node for $NODE"
	cp "/proc/$pid/cmdline" "$ARGVFILE.tmp" && mv "$ARGVFILE.tmp" "$ARGVFILE"
	TWISSANDRA_CASSANDRA_KEEP_DATA=1 "$ROOT/scripts/cassandra.sh" down
}

cmd_start() {
	local pid data t0=$SECONDS
	if pid=$(node_pid); then
		log "already running (pid $pid)"
		return 0
	fi
	[[ -s "$ARGVFILE" ]] || die "no recorded command line ($ARGVFILE): stop the node with '$0 stop' first"
	[[ -f "$STATEFILE" ]] || die "no kept data dir recorded for $NODE"
	data=$(<"$STATEFILE")
	[[ -d "$data" ]] || die "the kept data dir $data is gone"
	local -a argv
	mapfile -d '' -t argv <"$ARGVFILE"
	log "starting again on $data"
	MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PIDFILE" "${argv[@]}" \
		>>"$data/logs/output.log" 2>&1 </dev/null &
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -s "$PIDFILE" ]] && break
		sleep 0.1
	done
	pid=$(<"$PIDFILE") || die "the node did not start"
	while :; do
		kill -0 "$pid" 2>/dev/null || { tail -n 40 "$data/logs/output.log" >&2; die "the node (pid $pid) exited during startup"; }
		if "$CQLPING" -q -host "$LISTEN" -port "$PORT" -timeout 5s >/dev/null 2>&1; then
			log "up again: CQL answers on $LISTEN:$PORT after $((SECONDS - t0)) s (pid $pid)"
			return 0
		fi
		((SECONDS - t0 < START_TIMEOUT)) || die "no CQL answer on $LISTEN:$PORT after $START_TIMEOUT s"
		sleep 1
	done
}

case "${1:-}" in
stop) cmd_stop ;;
start) cmd_start ;;
*)
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 2
	;;
esac
