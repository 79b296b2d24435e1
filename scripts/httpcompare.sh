#!/usr/bin/env bash
# The HTTP comparison of issue #15, in one run: widerow (on disk, as serve runs it), memory, and
# a bare gin handler serving the same bytes, measured with wrk in alternating rounds.
#
# The data: 8 authors with 30 tweets each, all followed by a reader. The pages of 40:
#   timeline     GET /api/v1/timeline?limit=40 as the reader (never cached)
#   public-2     GET /api/v1/public?limit=40&start=<the first page's next> (never cached)
#   public-1     GET /api/v1/public?limit=40 (served from the public line's page cache)
# The bare handler serves the widerow timeline page's bytes: the floor of gin and net/http.
#
# Environment: ROUNDS (3), DURATION (5s), CONNS (32), THREADS (1), PAGES ("timeline public-2
# public-1"); on a many-core machine SERVER_CPUS and LOAD_CPUS (taskset lists, e.g. 0-3 and
# 4-11) pin the servers and wrk apart, and GOMAXPROCS applies to the servers. PROFILE=file
# writes a CPU profile of the widerow server during its first measurement (scripts/profile.sh).
# Needs wrk, curl and jq. Usage: make httpcompare
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-32}
THREADS=${THREADS:-1}
PAGES=${PAGES:-timeline public-2 public-1}
for tool in wrk curl jq; do
	command -v "$tool" >/dev/null || { echo "httpcompare: $tool is needed (apt-get install $tool)" >&2; exit 2; }
done

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

bin=${BIN:-$tmp/twissandra}
if [[ -z "${BIN:-}" ]]; then go build -o "$bin" ./cmd/twissandra; fi
go build -o "$tmp/bare" ./tools/bench/bare

pin() { # pin CPUS command...: run command on CPUS when taskset and CPUS are given (exec, so that
	# a server started as "pin ... &" is the process whose pid $! holds)
	local cpus=$1; shift
	if [[ -n "$cpus" ]] && command -v taskset >/dev/null; then exec taskset -c "$cpus" "$@"; else exec "$@"; fi
}

declare -A PORT=([widerow]=18081 [memory]=18082 [bare]=18083)
serve() { # serve BACKEND ARGS...
	local backend=$1; shift
	pin "${SERVER_CPUS:-}" "$bin" serve --backend "$backend" --addr "127.0.0.1:${PORT[$backend]}" \
		--bcrypt-cost 4 --log-level warn "$@" >"$tmp/$backend.log" 2>&1 &
	pids+=($!)
}
ready() { # ready PORT
	for _ in $(seq 1 200); do
		curl -sf "http://127.0.0.1:$1/readyz" >/dev/null && return 0
		sleep 0.1
	done
	echo "httpcompare: the server on port $1 did not start" >&2
	exit 1
}

if [[ -n "${PROFILE:-}" ]]; then
	serve widerow --data-dir "$tmp/data" --pprof-addr 127.0.0.1:18091
else
	serve widerow --data-dir "$tmp/data"
fi
serve memory
ready "${PORT[widerow]}"
ready "${PORT[memory]}"

declare -A TOKEN URL_timeline URL_public1 URL_public2
seed() { # seed BACKEND: the authors, their tweets and the reader, through the API
	local api="http://127.0.0.1:${PORT[$1]}/api/v1" a i tok
	curl -sf -XPOST "$api/users" -d '{"username":"reader","password":"reader-password"}' >/dev/null
	TOKEN[$1]=$(curl -sf -XPOST "$api/sessions" -d '{"username":"reader","password":"reader-password"}' | jq -r .token)
	for a in $(seq 1 8); do
		curl -sf -XPOST "$api/users" -d "{\"username\":\"author$a\",\"password\":\"author-password\"}" >/dev/null
		tok=$(curl -sf -XPOST "$api/sessions" -d "{\"username\":\"author$a\",\"password\":\"author-password\"}" | jq -r .token)
		curl -sf -XPUT -H "Authorization: Bearer ${TOKEN[$1]}" "$api/users/reader/friends/author$a" >/dev/null
		for i in $(seq 1 30); do
			curl -sf -XPOST -H "Authorization: Bearer $tok" "$api/tweets" -d "{\"body\":\"tweet $i of author $a, about the column families of Cassandra 0.6\"}" >/dev/null
		done
	done
	URL_timeline[$1]="$api/timeline?limit=40"
	URL_public1[$1]="$api/public?limit=40"
	local next
	next=$(curl -sf "$api/public?limit=40" | jq -r .next)
	URL_public2[$1]="$api/public?limit=40&start=$next"
}
seed widerow
seed memory

# The bare handler serves what widerow's timeline page returns.
curl -sf -H "Authorization: Bearer ${TOKEN[widerow]}" "${URL_timeline[widerow]}" >"$tmp/page.json"
pin "${SERVER_CPUS:-}" "$tmp/bare" --addr "127.0.0.1:${PORT[bare]}" --path /api/v1/timeline --file "$tmp/page.json" &
pids+=($!)
ready "${PORT[bare]}"
TOKEN[bare]=none
URL_timeline[bare]="http://127.0.0.1:${PORT[bare]}/api/v1/timeline"

url() { # url PAGE BACKEND
	case $1 in
	timeline) echo "${URL_timeline[$2]:-}" ;;
	public-1) echo "${URL_public1[$2]:-}" ;;
	public-2) echo "${URL_public2[$2]:-}" ;;
	esac
}
measure() { # measure URL TOKEN: pages/s
	(pin "${LOAD_CPUS:-}" wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" -H "Authorization: Bearer $2" "$1") |
		awk '/Non-2xx/ {bad=1} /^Requests\/sec:/ {rps=$2} END {if (bad) print "error"; else printf "%.0f", rps}'
}

echo "wrk -t$THREADS -c$CONNS -d$DURATION, $ROUNDS rounds; pages of 40; servers on ${SERVER_CPUS:-any CPU}, wrk on ${LOAD_CPUS:-any CPU}"
printf '%-10s %5s %10s %10s %10s %16s\n' page round bare memory widerow widerow/memory
for page in $PAGES; do
	for r in $(seq 1 "$ROUNDS"); do
		declare -A rate=()
		for backend in bare memory widerow; do
			u=$(url "$page" "$backend")
			if [[ -z "$u" ]]; then rate[$backend]=-; continue; fi
			if [[ -n "${PROFILE:-}" && $backend == widerow ]]; then
				secs=${DURATION%s}
				curl -sf -o "$PROFILE" "http://127.0.0.1:18091/debug/pprof/profile?seconds=$((secs > 2 ? secs - 1 : 1))" &
				prof=$!
				rate[$backend]=$(measure "$u" "${TOKEN[$backend]}")
				wait "$prof"
				PROFILE=
			else
				rate[$backend]=$(measure "$u" "${TOKEN[$backend]}")
			fi
		done
		printf '%-10s %5s %10s %10s %10s %16s\n' "$page" "$r" "${rate[bare]}" "${rate[memory]}" "${rate[widerow]}" \
			"$(awk -v w="${rate[widerow]}" -v m="${rate[memory]}" 'BEGIN { if (m > 0) printf "%.2f", w / m; else print "-" }')"
	done
done
