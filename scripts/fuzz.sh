#!/usr/bin/env bash
# Runs every Fuzz* target of the module for a bounded budget each: scripts/fuzz.sh [fuzztime].
#
# The budget is a count of executions (e.g. 5000x), not a duration: with a duration, Go 1.26's
# fuzz coordinator can report a spurious "context deadline exceeded" failure when the time runs
# out while a worker is busy (golang/go#75804, fixed in Go 1.27), and a count has no deadline.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-5000x}"
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		echo "-- $pkg $target"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
	done
done
