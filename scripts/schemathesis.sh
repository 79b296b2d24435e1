#!/usr/bin/env bash
# Property-based tests of the JSON API against its OpenAPI document (web/openapi/openapi.json)
# with schemathesis: scripts/schemathesis.sh [backend ...] (default: memory widerow, and cql3 when
# TWISSANDRA_CQL_HOSTS names a cluster; it then works in a keyspace of its own).
#
# For each backend it starts `twissandra serve` on a free loopback port, signs a user up for a
# bearer token, and runs schemathesis with the checks not_a_server_error and
# response_schema_conformance, bounded by MAX_EXAMPLES (default 50) examples per operation.
# It fails on any 5xx or any response the document does not allow. schemathesis lives in a venv
# under ~/.cache/twissandra (made on first use with pip).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${HOME}/.cache/twissandra/venv-schemathesis"
if [ ! -x "$venv/bin/schemathesis" ]; then
	echo "== making $venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q 'schemathesis>=4,<5'
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/twissandra" ./cmd/twissandra

defaults="memory widerow"
if [ -n "${TWISSANDRA_CQL_HOSTS:-}" ]; then
	defaults="$defaults cql3"
fi
status=0
for backend in "${@:-$defaults}"; do
	for b in $backend; do
		extra=()
		if [ "$b" = cql3 ]; then
			extra=(--cql-hosts "${TWISSANDRA_CQL_HOSTS:-127.0.0.1}" --cql-port "${TWISSANDRA_CQL_PORT:-9042}" --cql-keyspace "schemathesis_$$")
		fi
		echo "== schemathesis on $b"
		log="$work/serve-$b.log"
		"$work/twissandra" serve --backend "$b" --data-dir "$work/data-$b" --addr 127.0.0.1:0 \
			--bcrypt-cost 4 --log-level info --token-secret "schemathesis-secret-0123456789abcdef" "${extra[@]}" >"$log" 2>&1 &
		server_pid=$!
		addr=""
		for _ in $(seq 1200); do # up to 120 s: a cql3 start creates a keyspace and migrates
			addr=$(sed -n 's/.*msg=serving addr=\(127\.0\.0\.1:[0-9]*\).*/\1/p' "$log" | head -1)
			if [ -n "$addr" ] && curl -fs "http://$addr/healthz" >/dev/null; then break; fi
			if ! kill -0 "$server_pid" 2>/dev/null; then cat "$log"; exit 1; fi
			sleep 0.1
		done
		[ -n "$addr" ] || { echo "serve did not start"; cat "$log"; exit 1; }
		base="http://$addr"
		curl -fs -H 'Content-Type: application/json' -d '{"username":"schemathesis","password":"schemathesis password"}' "$base/api/v1/users" >/dev/null
		token=$(curl -fs -H 'Content-Type: application/json' -d '{"username":"schemathesis","password":"schemathesis password"}' "$base/api/v1/sessions" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
		# Run from the scratch dir: schemathesis keeps its example database in the working directory.
		if ! (cd "$work" && "$venv/bin/schemathesis" run "$base/api/v1/openapi.json" --url "$base" \
			--checks not_a_server_error,response_schema_conformance \
			--max-examples "${MAX_EXAMPLES:-50}" --seed "${SEED:-1}" --request-timeout 10 \
			--header "Authorization: Bearer $token" --exclude-operation-id logOut --no-color); then
			status=1
			echo "!! schemathesis found problems on $b (server log: the 5xx details are logged)" >&2
			grep -i 'level=ERROR' "$log" | head -20 >&2 || true
		fi
		kill "$server_pid"
		wait "$server_pid" 2>/dev/null || true
		server_pid=""
	done
done
exit $status
