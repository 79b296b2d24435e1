#!/usr/bin/env bash
# The device machine's figures, where a quiet machine of many cores is lent: the abuse figure
# (docs/security.md) with the server on two cores and the load generator on the rest, and the
# page rate of two binaries, alternating. Prepare on a machine with Go, then carry
# artifacts/device:
#
#   mkdir -p artifacts/device && cp scripts/device-figures.sh artifacts/device/run.sh
#   CGO_ENABLED=0 go build -ldflags='-s -w' -o artifacts/device/tw-after ./cmd/twissandra
#   (the same from the commit to compare with, as tw-before), then gzip -9 both
#   on the device: cd artifacts/device && OUT=$OUT ./run.sh
#
# SRV_CPUS and GEN_CPUS pick the cores (0,1 and 2-15); ABUSE_S and BENCH_S the phases' length.
set -u
cd "$(dirname "$0")"
gunzip -kf tw-before.gz tw-after.gz; chmod +x tw-before tw-after
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nproc > "$OUT/nproc.txt"
waitup() { for i in $(seq 1 200); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; return 1; }
# 1. The abuse figure, on the new binary.
rm -rf /tmp/d1; ./tw-after seed --articles --data-dir /tmp/d1 >/dev/null 2>&1
taskset -c ${SRV_CPUS:-0,1} ./tw-after serve --data-dir /tmp/d1 --addr 127.0.0.1:18300 --trusted-proxies 127.0.0.1 --log-level error >"$OUT/serve-abuse.log" 2>&1 &
P=$!; waitup 18300
taskset -c ${GEN_CPUS:-2-15} ./tw-after abuse --url http://127.0.0.1:18300 --duration ${ABUSE_S:-8}s --workers 8 >"$OUT/abuse.txt" 2>"$OUT/abuse.log"
kill $P; wait $P 2>/dev/null
# 2. Pages before and after, alternating, fresh store each run.
for round in 1 2; do
  for b in tw-before tw-after; do
    rm -rf /tmp/d2; ./$b seed --articles --data-dir /tmp/d2 >/dev/null 2>&1
    taskset -c ${SRV_CPUS:-0,1} ./$b serve --data-dir /tmp/d2 --addr 127.0.0.1:18400 --bcrypt-cost 4 --log-level error >"$OUT/serve-$b-$round.log" 2>&1 &
    P=$!; waitup 18400
    taskset -c ${GEN_CPUS:-2-15} ./tw-after bench --url http://127.0.0.1:18400 --duration ${BENCH_S:-4}s --clients 64 --users 100 --paced-share -1 --svg "" >"$OUT/bench-$b-$round.txt" 2>"$OUT/bench-$b-$round.log"
    kill $P; wait $P 2>/dev/null
  done
done
cat "$OUT/abuse.txt"; for f in "$OUT"/bench-*.txt; do echo "== $f"; cat "$f"; done
