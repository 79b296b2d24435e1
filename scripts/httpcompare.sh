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
# The same pages as HTML (issue #26), with the footer of what each cost the storage, against the
# API's (the html/api lines at the end):
#   html-home    GET / signed in as the reader (the session cookie of a log-in)
#   html-public-2, html-public-1   GET /public?start=<next>, GET /public
#   html-userline  GET /users/author1 (45 tweets; its friends and followers too), beside
#   userline       GET /api/v1/users/author1/tweets?limit=40
#
# Each round also states the pages each server served per second of its own CPU time (user and
# system, from /proc), and widerow/memory by it: on a machine others load, the pages per second
# move with their load, the pages per CPU-second far less.
#
# Environment: ROUNDS (3), DURATION (5s), CONNS (32), THREADS (1), PAGES ("timeline public-2
# public-1"; add html-home html-public-2 html-public-1 userline html-userline for the pages); on a many-core machine SERVER_CPUS and LOAD_CPUS (taskset lists, e.g. 0-3 and
# 4-11) pin the servers and wrk apart, and GOMAXPROCS applies to the servers. PROFILE=file
# writes a CPU profile of the PROFILE_BACKEND server (widerow) during its first measurement, and
# file.mutex the contention seen so far (scripts/profile.sh).
# BIN and BARE name prebuilt binaries of twissandra and tools/bench/bare (then go is not needed).
#
# CQL_HOSTS (e.g. 127.0.0.1, a node of scripts/cassandra.sh) adds the cql3 backend of issue #13,
# in a fresh keyspace httpcompare_<time> (left for inspection), and beside it "raw": the raw gocql
# driver reading the same page of 40 as one slice of one partition from CONNS goroutines
# (tools/bench/rawslice, or RAWSLICE prebuilt), on the servers' CPUs, as the API's ceiling.
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
bare=${BARE:-$tmp/bare}
if [[ -z "${BARE:-}" ]]; then go build -o "$bare" ./tools/bench/bare; fi

pin() { # pin CPUS command...: run command on CPUS when taskset and CPUS are given (exec, so that
	# a server started as "pin ... &" is the process whose pid $! holds)
	local cpus=$1; shift
	if [[ -n "$cpus" ]] && command -v taskset >/dev/null; then exec taskset -c "$cpus" "$@"; else exec "$@"; fi
}

declare -A PORT=([widerow]=18081 [memory]=18082 [bare]=18083 [cql3]=18084)
declare -A SPID # the servers' process ids, for their CPU time
ticks() { # ticks PID: the user and system time the process has used, in clock ticks
	awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}
TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
PROFILE_BACKEND=${PROFILE_BACKEND:-widerow}
serve() { # serve BACKEND ARGS...
	local backend=$1; shift
	if [[ -n "${PROFILE:-}" && $backend == "$PROFILE_BACKEND" ]]; then set -- "$@" --pprof-addr 127.0.0.1:18091; fi
	pin "${SERVER_CPUS:-}" "$bin" serve --backend "$backend" --addr "127.0.0.1:${PORT[$backend]}" \
		--bcrypt-cost 4 --log-level warn "$@" >"$tmp/$backend.log" 2>&1 &
	pids+=($!)
	SPID[$backend]=$!
}
ready() { # ready PORT
	for _ in $(seq 1 200); do
		curl -sf "http://127.0.0.1:$1/readyz" >/dev/null && return 0
		sleep 0.1
	done
	echo "httpcompare: the server on port $1 did not start" >&2
	exit 1
}

serve widerow --data-dir "$tmp/data"
serve memory
BACKENDS="bare memory widerow"
if [[ -n "${CQL_HOSTS:-}" ]]; then
	keyspace=httpcompare_$(date +%s)
	serve cql3 --cql-hosts "$CQL_HOSTS" --cql-keyspace "$keyspace"
	rawslice=${RAWSLICE:-$tmp/rawslice}
	if [[ -z "${RAWSLICE:-}" ]]; then go build -o "$rawslice" ./tools/bench/rawslice; fi
	ready "${PORT[cql3]}"
	BACKENDS+=" cql3 raw"
fi
ready "${PORT[widerow]}"
ready "${PORT[memory]}"

declare -A TOKEN COOKIE URL_timeline URL_public1 URL_public2 URL_userline
seed() { # seed BACKEND: the authors, their tweets and the reader, through the API
	local api="http://127.0.0.1:${PORT[$1]}/api/v1" a i tok
	curl -sf --json '{"username":"reader","password":"reader-password"}' "$api/users" >/dev/null
	TOKEN[$1]=$(curl -sf --json '{"username":"reader","password":"reader-password"}' "$api/sessions" | jq -r .token)
	for a in $(seq 1 8); do
		curl -sf --json "{\"username\":\"author$a\",\"password\":\"author-password\"}" "$api/users" >/dev/null
		tok=$(curl -sf --json "{\"username\":\"author$a\",\"password\":\"author-password\"}" "$api/sessions" | jq -r .token)
		curl -sf -XPUT -H "Authorization: Bearer ${TOKEN[$1]}" "$api/users/reader/friends/author$a" >/dev/null
		n=30
		if [[ $a == 1 ]]; then n=45; fi # a userline with a page of 40
		for i in $(seq 1 "$n"); do
			curl -sf --json "{\"body\":\"tweet $i of author $a, about the column families of Cassandra 0.6\"}" -H "Authorization: Bearer $tok" "$api/tweets" >/dev/null
		done
	done
	URL_timeline[$1]="$api/timeline?limit=40"
	URL_userline[$1]="$api/users/author1/tweets?limit=40"
	# The pages' session: log in through the form, as a browser does, then read the page that
	# shows the welcome once (the cookie after it is what a browser sends from then on).
	local base="http://127.0.0.1:${PORT[$1]}" jar="$tmp/$1.cookies" csrf
	csrf=$(curl -sf -c "$jar" "$base/login" | sed -n 's/.*name="csrf_token" value="\([^"]*\)".*/\1/p' | head -1)
	curl -sf -b "$jar" -c "$jar" -o /dev/null --data-urlencode "csrf_token=$csrf" -d username=reader -d password=reader-password "$base/login"
	curl -sf -b "$jar" -c "$jar" -o /dev/null "$base/"
	COOKIE[$1]=$(awk '$6 == "twissandra_session" {print $6 "=" $7}' "$jar")
	URL_public1[$1]="$api/public?limit=40"
	local next
	next=$(curl -sf "$api/public?limit=40" | jq -r .next)
	URL_public2[$1]="$api/public?limit=40&start=$next"
}
seed widerow
seed memory
if [[ -n "${CQL_HOSTS:-}" ]]; then seed cql3; fi

# The bare handler serves what widerow's timeline page returns.
curl -sf -H "Authorization: Bearer ${TOKEN[widerow]}" "${URL_timeline[widerow]}" >"$tmp/page.json"
pin "${SERVER_CPUS:-}" "$bare" --addr "127.0.0.1:${PORT[bare]}" --path /api/v1/timeline --file "$tmp/page.json" &
pids+=($!)
SPID[bare]=$!
ready "${PORT[bare]}"
TOKEN[bare]=none
URL_timeline[bare]="http://127.0.0.1:${PORT[bare]}/api/v1/timeline"

url() { # url PAGE BACKEND
	local base="http://127.0.0.1:${PORT[$2]}"
	case $1 in
	timeline) echo "${URL_timeline[$2]:-}" ;;
	public-1) echo "${URL_public1[$2]:-}" ;;
	public-2) echo "${URL_public2[$2]:-}" ;;
	userline) echo "${URL_userline[$2]:-}" ;;
	html-*)
		if [[ -z "${COOKIE[$2]:-}" ]]; then return 0; fi # no pages (the bare handler)
		case $1 in
		html-home) echo "$base/" ;;
		html-public-1) echo "$base/public" ;;
		html-public-2) echo "$base/public?${URL_public2[$2]#*\?limit=40&}" ;;
		html-userline) echo "$base/users/author1" ;;
		esac
		;;
	esac
}
# The API of each page, for the html/api lines.
declare -A API_OF=([html-home]=timeline [html-public-1]=public-1 [html-public-2]=public-2 [html-userline]=userline)
measure_raw() { # measure_raw PAGE: slices/s of the raw driver
	local args
	case $1 in
	timeline) args=(-line timeline -user reader) ;;
	public-1) args=(-line public -page 1) ;;
	public-2) args=(-line public -page 2) ;;
	esac
	(pin "${SERVER_CPUS:-}" "$rawslice" -hosts "$CQL_HOSTS" -keyspace "$keyspace" -conns "$CONNS" -duration "$DURATION" "${args[@]}") |
		awk '/^Requests\/sec:/ {printf "%.0f", $2}'
}
measure() { # measure URL TOKEN [COOKIE]: pages/s
	local auth=(-H "Authorization: Bearer $2")
	if [[ -n "${3:-}" ]]; then auth=(-H "Cookie: $3"); fi
	(pin "${LOAD_CPUS:-}" wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" "${auth[@]}" "$1") |
		awk '/Non-2xx/ {bad=1} /^Requests\/sec:/ {rps=$2} END {if (bad) print "error"; else printf "%.0f", rps}'
}

cookie() { # cookie PAGE BACKEND: the session cookie a page is read with, "" for the API
	case $1 in html-*) echo "${COOKIE[$2]:-}" ;; esac
}
declare -A RATES # "page,backend" -> the rates of each round
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a + 0 == a) printf "%.2f", a / b; else print "-" }'; }
echo "wrk -t$THREADS -c$CONNS -d$DURATION, $ROUNDS rounds; pages of 40; servers on ${SERVER_CPUS:-any CPU}, wrk on ${LOAD_CPUS:-any CPU}"
header=$(printf '%-10s %5s %10s %10s %10s %16s %12s %12s %10s' page round bare memory widerow widerow/memory memory/cpu-s widerow/cpu-s "(by CPU)")
if [[ -n "${CQL_HOSTS:-}" ]]; then header+=$(printf ' %10s %10s %10s' cql3 raw cql3/raw); fi
echo "$header"
# A Cassandra node compiles its hot paths during the first seconds of load: each page is read
# once through the API and once raw before anything is measured, so that neither the API nor
# the driver measures a colder node than the other.
if [[ -n "${CQL_HOSTS:-}" ]]; then
	for page in $PAGES; do
		measure "$(url "$page" cql3)" "${TOKEN[cql3]}" >/dev/null
		measure_raw "$page" >/dev/null
	done
fi
for page in $PAGES; do
	for r in $(seq 1 "$ROUNDS"); do
		declare -A rate=() cpu=()
		order=$BACKENDS # every other round runs the backends in the reverse order
		if ((r % 2 == 0)); then order=$(echo "$BACKENDS" | tr ' ' '\n' | tac | tr '\n' ' '); fi
		for backend in $order; do
			if [[ $backend == raw ]]; then rate[raw]=$(measure_raw "$page"); continue; fi
			u=$(url "$page" "$backend")
			if [[ -z "$u" ]]; then rate[$backend]=-; continue; fi
			if [[ -n "${PROFILE:-}" && $backend == "$PROFILE_BACKEND" ]]; then
				secs=${DURATION%s}
				curl -sf -o "$PROFILE" "http://127.0.0.1:18091/debug/pprof/profile?seconds=$((secs > 2 ? secs - 1 : 1))" &
				prof=$!
				rate[$backend]=$(measure "$u" "${TOKEN[$backend]}" "$(cookie "$page" "$backend")")
				wait "$prof"
				curl -sf -o "$PROFILE.mutex" "http://127.0.0.1:18091/debug/pprof/mutex"
				PROFILE=
			else
				t0=$(ticks "${SPID[$backend]:-0}")
				rate[$backend]=$(measure "$u" "${TOKEN[$backend]}" "$(cookie "$page" "$backend")")
				t1=$(ticks "${SPID[$backend]:-0}")
				# Pages per CPU-second of the server: what a busy machine's other work leaves alone.
				cpu[$backend]=$(awk -v r="${rate[$backend]}" -v d="${DURATION%s}" -v t=$((t1 - t0)) -v hz="$TCK" \
					'BEGIN { if (t > 0 && r + 0 == r) printf "%.0f", r * d * hz / t; else print "-" }')
			fi
			RATES["$page,$backend"]+=" ${rate[$backend]}"
		done
		line=$(printf '%-10s %5s %10s %10s %10s %16s %12s %12s %10s' "$page" "$r" "${rate[bare]}" "${rate[memory]}" "${rate[widerow]}" \
			"$(ratio "${rate[widerow]}" "${rate[memory]}")" "${cpu[memory]:--}" "${cpu[widerow]:--}" "$(ratio "${cpu[widerow]:-}" "${cpu[memory]:-}")")
		if [[ -n "${CQL_HOSTS:-}" ]]; then
			line+=$(printf ' %10s %10s %10s' "${rate[cql3]}" "${rate[raw]}" "$(ratio "${rate[cql3]}" "${rate[raw]}")")
		fi
		echo "$line"
	done
done

# html/api: each HTML page's rate against its API page's, round by round (both in this run).
for page in $PAGES; do
	api=${API_OF[$page]:-}
	if [[ -z "$api" || " $PAGES " != *" $api "* ]]; then continue; fi
	for backend in memory widerow cql3; do
		h=(${RATES["$page,$backend"]:-}) a=(${RATES["$api,$backend"]:-})
		if [[ ${#h[@]} -eq 0 || ${#a[@]} -eq 0 ]]; then continue; fi
		line=$(printf 'html/api %-14s %-8s' "$page" "$backend")
		for i in "${!h[@]}"; do line+=" $(ratio "${h[$i]}" "${a[$i]:-0}")"; done
		echo "$line"
	done
done
