#!/usr/bin/env bash
# scripts/cassandra.sh up|down|status|cql|logs
#
# Runs a real Apache Cassandra 5.0 node for tests, without Docker: the jars
# come from Maven Central (org.apache.cassandra:cassandra-all and its runtime
# dependencies), the node is a background JVM with its own fresh data dir.
#
#   up       fetch the jars (once, cached), start the node, wait until it
#            answers `SELECT release_version FROM system.local`. Does nothing
#            but say so when the node is already up.
#   down     SIGTERM, then SIGKILL after TWISSANDRA_CASSANDRA_STOP_TIMEOUT s;
#            removes the data dir unless TWISSANDRA_CASSANDRA_KEEP_DATA=1.
#   status   prints whether the node runs and answers CQL (exit 0 only if so).
#   cql STMTS  runs ';'-separated CQL statements against the node, prints rows
#            (without STMTS: reads the statements from stdin).
#   logs     prints the tail of the node's logs.
#
# Requirements: java 17 (or 11), mvn, go (builds scripts/cassandra/cqlping,
# the CQL client used for the readiness check). Nothing else.
#
# Environment knobs (defaults in brackets):
#   TWISSANDRA_CASSANDRA_VERSION      cassandra-all version                 [5.0.9]
#   TWISSANDRA_CASSANDRA_HOME         cache dir for lib/ and tools
#                                      [$HOME/.cache/twissandra/cassandra-$VERSION]
#   TWISSANDRA_CQLPING                a prebuilt cqlping to use instead of building one
#                                      (a machine without go; with TWISSANDRA_CASSANDRA_HOME
#                                      holding lib/, neither go nor mvn is needed)
#   TWISSANDRA_MAVEN_REPO             Maven local repository                [Maven's default, ~/.m2/repository]
#   TWISSANDRA_CASSANDRA_LISTEN       listen/rpc address of this node      [127.0.0.1]
#   TWISSANDRA_CASSANDRA_PORT         CQL native transport port             [9042]
#   TWISSANDRA_CASSANDRA_STORAGE_PORT internode storage port                [7000]
#   TWISSANDRA_CASSANDRA_SEEDS        comma-separated seed addresses        [$LISTEN]
#   TWISSANDRA_CASSANDRA_INITIAL_TOKEN token of this node (num_tokens is 1) [0]
#                                      (give each node of a cluster its own token)
#   TWISSANDRA_CASSANDRA_CLUSTER      cluster_name                          [twissandra-test]
#   TWISSANDRA_CASSANDRA_DATA         data dir of this node, wiped on `up`
#                                      [/tmp/twissandra-cassandra/$LISTEN-$PORT]
#   TWISSANDRA_CASSANDRA_RUN          dir for pid/state files               [/tmp/twissandra-cassandra/run]
#   TWISSANDRA_CASSANDRA_HEAP         -Xms/-Xmx                             [512M]
#   TWISSANDRA_CASSANDRA_JVM_OPTS     extra JVM flags, appended             []
#   TWISSANDRA_CASSANDRA_LOG_LEVEL    root level of the node's system.log   [WARN]
#   TWISSANDRA_CASSANDRA_START_TIMEOUT seconds `up` waits for CQL           [180]
#   TWISSANDRA_CASSANDRA_STOP_TIMEOUT  seconds `down` waits before SIGKILL  [20]
#   TWISSANDRA_CASSANDRA_KEEP_DATA    1: `down` keeps the data dir          [0]
#   JAVA                              java binary                           [java]
#
# Three nodes on one machine (loopback aliases 127.0.0.x work on Linux):
#   for i in 1 2 3; do
#     TWISSANDRA_CASSANDRA_LISTEN=127.0.0.$i TWISSANDRA_CASSANDRA_SEEDS=127.0.0.1 \
#     TWISSANDRA_CASSANDRA_INITIAL_TOKEN=$(( (i-2) * 3074457345618258602 )) \
#     scripts/cassandra.sh up
#   done
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUPPORT="$ROOT/scripts/cassandra"

VERSION=${TWISSANDRA_CASSANDRA_VERSION:-5.0.9}
HOME_DIR=${TWISSANDRA_CASSANDRA_HOME:-$HOME/.cache/twissandra/cassandra-$VERSION}
LISTEN=${TWISSANDRA_CASSANDRA_LISTEN:-127.0.0.1}
PORT=${TWISSANDRA_CASSANDRA_PORT:-9042}
STORAGE_PORT=${TWISSANDRA_CASSANDRA_STORAGE_PORT:-7000}
SEEDS=${TWISSANDRA_CASSANDRA_SEEDS:-$LISTEN}
INITIAL_TOKEN=${TWISSANDRA_CASSANDRA_INITIAL_TOKEN:-0}
CLUSTER=${TWISSANDRA_CASSANDRA_CLUSTER:-twissandra-test}
NODE="$LISTEN-$PORT"
DATA=${TWISSANDRA_CASSANDRA_DATA:-/tmp/twissandra-cassandra/$NODE}
RUN=${TWISSANDRA_CASSANDRA_RUN:-/tmp/twissandra-cassandra/run}
HEAP=${TWISSANDRA_CASSANDRA_HEAP:-512M}
LOG_LEVEL=${TWISSANDRA_CASSANDRA_LOG_LEVEL:-WARN}
START_TIMEOUT=${TWISSANDRA_CASSANDRA_START_TIMEOUT:-180}
STOP_TIMEOUT=${TWISSANDRA_CASSANDRA_STOP_TIMEOUT:-20}
KEEP_DATA=${TWISSANDRA_CASSANDRA_KEEP_DATA:-0}
JAVA=${JAVA:-java}

LIB="$HOME_DIR/lib"
CQLPING=${TWISSANDRA_CQLPING:-$HOME_DIR/bin/cqlping}
PIDFILE="$RUN/$NODE.pid"
STATEFILE="$RUN/$NODE.data" # data dir of the running node, for `down`
LOCKFILE="$RUN/$NODE.lock"

log() { printf 'cassandra[%s]: %s\n' "$NODE" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# --- jars --------------------------------------------------------------------

lib_complete() { [[ -f "$LIB/.complete" ]]; }

fetch_lib() {
	lib_complete && return 0
	command -v mvn >/dev/null || die "mvn not found (Maven is needed to fetch cassandra-all $VERSION)"
	mkdir -p "$HOME_DIR"
	exec 8>"$HOME_DIR/.fetch.lock"
	flock -w 900 8 || die "timed out waiting for another fetch of $LIB"
	if lib_complete; then exec 8>&-; return 0; fi
	local work="$HOME_DIR/fetch.$$" t0=$SECONDS
	rm -rf "$work" && mkdir -p "$work"
	sed "s/@VERSION@/$VERSION/" "$SUPPORT/pom.xml" >"$work/pom.xml"
	local repo=()
	[[ -n "${TWISSANDRA_MAVEN_REPO:-}" ]] && repo=("-Dmaven.repo.local=$TWISSANDRA_MAVEN_REPO")
	log "fetching cassandra-all $VERSION and its dependencies from Maven Central into $LIB"
	if ! (cd "$work" && mvn -B -q "${repo[@]}" \
		org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
		-DoutputDirectory="$work/lib" -DincludeScope=runtime) >"$work/mvn.log" 2>&1; then
		tail -n 40 "$work/mvn.log" >&2
		die "mvn could not fetch cassandra-all $VERSION (log: $work/mvn.log)"
	fi
	local n
	n=$(find "$work/lib" -name '*.jar' | wc -l)
	[[ -f "$work/lib/cassandra-all-$VERSION.jar" ]] || die "cassandra-all-$VERSION.jar missing from $work/lib"
	ls "$work/lib"/jamm-*.jar >/dev/null 2>&1 || die "jamm jar missing from $work/lib"
	echo "$n jars, cassandra-all $VERSION" >"$work/lib/.complete"
	rm -rf "$LIB" && mv "$work/lib" "$LIB" && rm -rf "$work"
	log "fetched $n jars in $((SECONDS - t0)) s"
	exec 8>&-
}

# --- CQL client ----------------------------------------------------------------

build_cqlping() {
	[[ -n "${TWISSANDRA_CQLPING:-}" ]] && return 0 # prebuilt: a machine without go
	command -v go >/dev/null || die "go not found (needed to build $SUPPORT/cqlping)"
	mkdir -p "$HOME_DIR/bin"
	# Always rebuild through go's build cache: cheap, and never stale.
	(cd "$ROOT" && go build -o "$CQLPING.$$" ./scripts/cassandra/cqlping) || die "building cqlping failed"
	mv -f "$CQLPING.$$" "$CQLPING"
}

cql_ok() { [[ -x "$CQLPING" ]] && "$CQLPING" -q -host "$LISTEN" -port "$PORT" -timeout "${1:-5s}" >/dev/null 2>&1; }

port_open() { (exec 3<>"/dev/tcp/$LISTEN/$PORT") 2>/dev/null; }

# --- node process ----------------------------------------------------------------

node_pid() {
	local pid
	[[ -f "$PIDFILE" ]] || return 1
	pid=$(<"$PIDFILE")
	[[ "$pid" =~ ^[0-9]+$ ]] || return 1
	# Only a live Cassandra JVM counts (pids get reused).
	grep -qa 'org.apache.cassandra.service.CassandraDaemon' "/proc/$pid/cmdline" 2>/dev/null || return 1
	echo "$pid"
}

node_data() { if [[ -f "$STATEFILE" ]]; then cat "$STATEFILE"; else echo "$DATA"; fi; }

rss() { awk '/^VmRSS/ {printf "%d MiB", $2/1024}' "/proc/$1/status" 2>/dev/null || true; }

write_config() {
	local conf="$DATA/conf" seeds="" s
	mkdir -p "$conf" "$DATA/logs" "$DATA/triggers"
	for s in ${SEEDS//,/ }; do seeds+="${seeds:+,}$s:$STORAGE_PORT"; done
	sed -e "s|@CLUSTER@|$CLUSTER|g" -e "s|@LISTEN@|$LISTEN|g" -e "s|@SEEDS@|$seeds|g" \
		-e "s|@PORT@|$PORT|g" -e "s|@STORAGE_PORT@|$STORAGE_PORT|g" \
		-e "s|@TOKEN@|$INITIAL_TOKEN|g" -e "s|@DATA@|$DATA|g" \
		"$SUPPORT/cassandra.yaml" >"$conf/cassandra.yaml"
	sed -e "s|@LOGDIR@|$DATA/logs|g" -e "s|@LEVEL@|$LOG_LEVEL|g" \
		"$SUPPORT/logback.xml" >"$conf/logback.xml"
}

java_args() {
	local jamm
	jamm=$(ls "$LIB"/jamm-*.jar | head -n 1)
	local -a a=(
		-Xms"$HEAP" -Xmx"$HEAP" -Xss256k
		-XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -XX:+PerfDisableSharedMem
		# C1 only: starts in about half the time on two cores and leaves the
		# CPU to the tests; plenty fast for test workloads. Override with
		# TWISSANDRA_CASSANDRA_JVM_OPTS=-XX:TieredStopAtLevel=4.
		-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=64m
		-Djava.net.preferIPv4Stack=true
		-javaagent:"$jamm" -Djdk.attach.allowAttachSelf=true
		-Dio.netty.tryReflectionSetAccessible=true
		-Dcassandra-foreground=yes
		-Dcassandra.config="file://$DATA/conf/cassandra.yaml"
		-Dcassandra.storagedir="$DATA"
		-Dcassandra.logdir="$DATA/logs"
		-Dcassandra.triggers_dir="$DATA/triggers"
		-Dlogback.configurationFile="file://$DATA/conf/logback.xml"
		-Dcassandra.skip_wait_for_gossip_to_settle=0
		-Dcassandra.load_ring_state=false
		-Dcassandra.unsafesystem=true
		-Dcassandra.superuser_setup_delay_ms=0
	)
	local m
	for m in java.base/jdk.internal.misc java.management.rmi/com.sun.jmx.remote.internal.rmi \
		java.management/com.sun.jmx.remote.security java.rmi/sun.rmi.registry java.rmi/sun.rmi.server \
		java.sql/java.sql java.base/java.lang.ref jdk.unsupported/sun.misc \
		jdk.compiler/com.sun.tools.javac.file jdk.attach/sun.tools.attach; do
		a+=(--add-exports "$m=ALL-UNNAMED")
	done
	for m in java.base/java.lang.module java.base/jdk.internal.loader java.base/jdk.internal.ref \
		java.base/jdk.internal.reflect java.base/jdk.internal.math java.base/jdk.internal.module \
		java.base/jdk.internal.util.jar java.base/sun.nio.ch java.base/java.io java.base/java.lang.reflect \
		java.base/java.lang java.base/java.util java.base/java.nio \
		jdk.management/com.sun.management.internal jdk.compiler/com.sun.tools.javac; do
		a+=(--add-opens "$m=ALL-UNNAMED")
	done
	# shellcheck disable=SC2206 # word splitting of the extra flags is wanted
	a+=(${TWISSANDRA_CASSANDRA_JVM_OPTS:-})
	a+=(-cp "$LIB/*" org.apache.cassandra.service.CassandraDaemon)
	printf '%s\n' "${a[@]}"
}

show_logs() {
	local d
	d=$(node_data)
	for f in "$d/logs/output.log" "$d/logs/system.log"; do
		[[ -s "$f" ]] || continue
		echo "----- tail of $f -----" >&2
		tail -n "${1:-40}" "$f" >&2
	done
}

wait_ready() {
	local pid=$1 t0=$SECONDS next=0 phase
	while :; do
		if ! kill -0 "$pid" 2>/dev/null; then
			log "the node (pid $pid) exited during startup"
			show_logs 60
			rm -f "$PIDFILE"
			exit 1
		fi
		if cql_ok 5s; then
			log "up: CQL answers on $LISTEN:$PORT after $((SECONDS - t0)) s (pid $pid, RSS $(rss "$pid"), data $(node_data))"
			return 0
		fi
		if ((SECONDS - t0 >= START_TIMEOUT)); then
			log "no CQL answer on $LISTEN:$PORT after $START_TIMEOUT s; stopping the node"
			show_logs 60
			stop_node keep
			exit 1
		fi
		if ((SECONDS >= next)); then
			if port_open; then phase="port open, waiting for a query answer"; else phase="JVM starting"; fi
			log "waiting ($((SECONDS - t0)) s): $phase"
			next=$((SECONDS + 10))
		fi
		sleep 1
	done
}

cmd_up() {
	mkdir -p "$RUN"
	exec 9>"$LOCKFILE"
	flock -w $((START_TIMEOUT + 960)) 9 || die "timed out waiting for another '$0 up' of $NODE"
	build_cqlping

	local pid
	if pid=$(node_pid); then
		if cql_ok 5s; then
			log "already up (pid $pid, RSS $(rss "$pid"))"
			return 0
		fi
		log "node pid $pid runs but does not answer yet; waiting"
		wait_ready "$pid"
		return 0
	fi
	rm -f "$PIDFILE" "$STATEFILE"
	if port_open; then
		die "something else already listens on $LISTEN:$PORT (not a node started by this script)"
	fi

	command -v "$JAVA" >/dev/null || die "java not found"
	fetch_lib

	rm -rf "$DATA"
	mkdir -p "$DATA"
	write_config
	echo "$DATA" >"$STATEFILE"

	local -a args
	mapfile -t args < <(java_args)
	log "starting Cassandra $VERSION (heap $HEAP, data $DATA, log $DATA/logs/system.log)"
	# setsid: the node outlives this shell and is not hit by the caller's ^C.
	# The inner shell writes its own pid and then becomes the JVM. The lock fds
	# are closed so that the JVM does not hold the locks for its whole life.
	# Few malloc arenas: glibc's default (8 per core) costs RSS for nothing here.
	MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PIDFILE" "$JAVA" "${args[@]}" \
		>"$DATA/logs/output.log" 2>&1 </dev/null 8>&- 9>&- &
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -s "$PIDFILE" ]] && break
		sleep 0.1
	done
	pid=$(<"$PIDFILE") || die "the node did not start"
	wait_ready "$pid"
}

# stop_node [keep]: SIGTERM, SIGKILL after STOP_TIMEOUT, remove data dir.
stop_node() {
	local pid data i
	data=$(node_data)
	if pid=$(node_pid); then
		log "stopping pid $pid"
		kill -TERM "$pid" 2>/dev/null || true
		for ((i = 0; i < STOP_TIMEOUT * 10; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			log "still running after $STOP_TIMEOUT s; SIGKILL"
			kill -KILL "$pid" 2>/dev/null || true
			for ((i = 0; i < 50; i++)); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.1
			done
		fi
		kill -0 "$pid" 2>/dev/null && die "pid $pid survived SIGKILL"
		log "stopped"
	else
		log "not running"
	fi
	rm -f "$PIDFILE"
	if [[ "${1:-}" != keep && "$KEEP_DATA" != 1 && -d "$data" ]]; then
		rm -rf "$data"
		rm -f "$STATEFILE"
	elif [[ -d "$data" ]]; then
		log "kept data dir $data"
	fi
}

cmd_down() {
	mkdir -p "$RUN"
	exec 9>"$LOCKFILE"
	flock -w 60 9 || die "timed out waiting for the lock of $NODE"
	stop_node
}

cmd_status() {
	local pid
	if ! pid=$(node_pid); then
		echo "down: no node running for $NODE"
		return 3
	fi
	[[ -x "$CQLPING" ]] || build_cqlping
	local v
	if v=$("$CQLPING" -host "$LISTEN" -port "$PORT" -timeout 5s 2>/dev/null); then
		echo "up: Cassandra $v answers on $LISTEN:$PORT (pid $pid, RSS $(rss "$pid"), data $(node_data))"
		return 0
	fi
	echo "starting: pid $pid runs but $LISTEN:$PORT does not answer CQL (yet)"
	return 1
}

cmd_cql() {
	[[ -x "$CQLPING" ]] || build_cqlping
	if (($#)); then
		"$CQLPING" -host "$LISTEN" -port "$PORT" -timeout 20s -e "$*"
	else
		"$CQLPING" -host "$LISTEN" -port "$PORT" -timeout 20s -e -
	fi
}

case "${1:-}" in
up) cmd_up ;;
down) cmd_down ;;
status) cmd_status ;;
cql) shift; cmd_cql "$@" ;;
logs) show_logs "${2:-60}" 2>&1 ;;
*)
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 2
	;;
esac
