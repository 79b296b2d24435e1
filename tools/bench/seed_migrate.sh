#!/bin/sh
# Seeds 100,000 tweets by 2,000 users on widerow (on disk, periodic commit log) and on memory,
# then migrates the widerow store to memory and to a second widerow store, printing the wall
# time of each step. Usage: tools/bench/seed_migrate.sh [workdir]
set -eu
work=${1:-$(mktemp -d)}
bin="$work/twissandra"
go build -o "$bin" ./cmd/twissandra
gen="--users 2000 --tweets 100000 --span 720h --until 2010-05-12T00:00:00Z --seed 42 --quiet"
echo "== seed widerow (disk, periodic)"
time "$bin" seed --data-dir "$work/a" --commitlog-sync periodic $gen
echo "== seed memory"
time "$bin" seed --backend memory $gen
echo "== migrate widerow -> memory"
time "$bin" migrate --from widerow --from-data-dir "$work/a" --from-commitlog-sync periodic --to memory --checkpoint "" --quiet
echo "== migrate widerow -> widerow"
time "$bin" migrate --from widerow --from-data-dir "$work/a" --from-commitlog-sync periodic \
	--to widerow --to-data-dir "$work/b" --to-commitlog-sync periodic --checkpoint "$work/cp.json" --quiet
