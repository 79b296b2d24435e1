#!/usr/bin/env bash
# The project's test command (make test): every package under -race, a real Cassandra node for
# the cql3 adapter's suites, each fuzz target for a few seconds, then schemathesis against the
# OpenAPI document.
#
# TWISSANDRA_CQL_HOSTS set: the cql3 tests use that cluster and no node is started.
# Not set: a node is started with scripts/cassandra.sh when java and mvn exist, and stopped after.
# Under CI (CI=true) the cql3 suites must run: without a node they fail rather than skip.
set -euo pipefail
cd "$(dirname "$0")/.."

started_node=0
cleanup() {
	if [ "$started_node" = 1 ]; then
		scripts/cassandra.sh down || true
	fi
}
trap cleanup EXIT

if [ -z "${TWISSANDRA_CQL_HOSTS:-}" ]; then
	if command -v java >/dev/null && command -v mvn >/dev/null; then
		echo "== starting a local Cassandra node for the cql3 tests"
		scripts/cassandra.sh up
		started_node=1
		export TWISSANDRA_CQL_HOSTS=127.0.0.1
		export TWISSANDRA_CQL_PORT="${TWISSANDRA_CASSANDRA_PORT:-9042}"
	else
		echo "!! java or mvn missing: the cql3 adapter's tests will SKIP (set TWISSANDRA_CQL_HOSTS to use a cluster)" >&2
	fi
fi

# go test -json, reported as it runs by scripts/testsummary (packages, the output of failures,
# every skip with its reason), and summed up at the very end.
work=$(mktemp -d)
trap 'cleanup; rm -rf "$work"' EXIT
go build -o "$work/testsummary" ./scripts/testsummary
summary() {
	echo
	"$work/testsummary" <"$work/go-test.json" || true
}

echo "== go test -race ./..."
set +e
go test -race -count=1 -timeout 30m -json ./... 2>&1 | tee "$work/go-test.json" | "$work/testsummary" -stream
status=("${PIPESTATUS[@]}")
set -e
if [ "${status[0]}" != 0 ] || [ "${status[2]}" != 0 ]; then
	summary
	exit 1
fi

echo "== fuzz targets, ${FUZZTIME:-10000x} executions each"
scripts/fuzz.sh "${FUZZTIME:-10000x}"

echo "== schemathesis against the OpenAPI document (memory, widerow, and cql3 when a cluster is named)"
scripts/schemathesis.sh

echo
echo "fuzz targets: passed; schemathesis: passed"
summary
