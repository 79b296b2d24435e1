#!/usr/bin/env bash
# CPU and allocation profiles of the widerow hot paths, in artifacts/profiles/, to read with
# go tool pprof (each file's command is printed):
#   slice     the engine's reversed slice of 40 columns (BenchmarkReversedSlice40/1e6)
#   post      a post fanned out to 10,000 followers on disk (BenchmarkPost/followers=10000)
#   page      serve's handler, the home timeline page of 40 (BenchmarkAPIPageWiderowVersusMemory)
#   wrk       a CPU profile of a widerow server under wrk (scripts/httpcompare.sh with PROFILE)
# Usage: make profile [WHAT="slice post page wrk"]
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/profiles
mkdir -p "$out"
WHAT=${WHAT:-slice post page wrk}

bench() { # bench NAME PACKAGE BENCH BENCHTIME
	local name=$1 pkg=$2 pattern=$3 benchtime=$4
	go test -run '^$' -bench "$pattern" -benchtime "$benchtime" -benchmem \
		-cpuprofile "$out/$name.cpu" -memprofile "$out/$name.mem" -o "$out/$name.test" "$pkg" | grep -E '^(Benchmark|ok|FAIL)'
	echo "  go tool pprof -top $out/$name.test $out/$name.cpu"
	echo "  go tool pprof -sample_index=alloc_objects -top $out/$name.test $out/$name.mem"
}

for w in $WHAT; do
	case $w in
	slice) bench slice ./adapters/widerow/engine 'ReversedSlice40/1e6$' 100000x ;;
	post) bench post ./adapters/widerow 'Post/followers=10000' 100x ;;
	page) bench page ./cmd/twissandra 'APIPageWiderowVersusMemory/timeline' 40x ;;
	wrk)
		PROFILE="$out/wrk.cpu" ROUNDS=1 PAGES=timeline scripts/httpcompare.sh
		echo "  go tool pprof -top $out/wrk.cpu"
		;;
	*) echo "profile: unknown profile $w (slice, post, page or wrk)" >&2; exit 2 ;;
	esac
done
