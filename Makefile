# Twissandra in Go. `make run` serves on http://127.0.0.1:8080 (widerow backend, ./data);
# `make test` runs every test with the race detector, starting a real Cassandra node for the
# cql3 adapter when TWISSANDRA_CQL_HOSTS is not set and Java and Maven are installed.
GO ?= go

.PHONY: run compare build generate test test-short lint bench fuzz loadtest httpcompare profile schemathesis heavy cassandra-up cassandra-down

run:
	$(GO) run ./cmd/twissandra serve

# Compare mode: widerow answers, a local Cassandra node (started here) runs every action too,
# and every page shows both models' operations side by side.
compare:
	scripts/cassandra.sh up
	$(GO) run ./cmd/twissandra serve --backend widerow --compare cql3 --cql-hosts 127.0.0.1

build:
	$(GO) build -o bin/twissandra ./cmd/twissandra

# The port wrappers of web/metrics and adapters/compare (internal/portgen) and the Go of the templ
# pages (go tool templ); a test fails while either is stale.
generate:
	$(GO) generate ./...

test:
	scripts/test.sh

# The tests that need neither Cassandra nor a browser.
test-short:
	$(GO) test -race -count=1 -short ./...

# gofmt, go vet and staticcheck (a tool of the module, as templ is: nothing to install).
lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	scripts/fuzz.sh 200000x

# Load-test a running server: make loadtest URL=http://127.0.0.1:8080 (serve with --bcrypt-cost 4
# for a quick set-up). Writes a latency/throughput plot to artifacts/bench.svg.
loadtest:
	$(GO) run ./cmd/twissandra bench --url $(or $(URL),http://127.0.0.1:8080) --svg artifacts/bench.svg

# The HTTP comparison of widerow, memory and a bare gin handler serving the same bytes: wrk in
# alternating rounds, pages of 40 (needs wrk, curl, jq; see the script for its settings).
httpcompare:
	scripts/httpcompare.sh

# CPU and allocation profiles of the widerow hot paths and of a wrk run, in artifacts/profiles.
profile:
	scripts/profile.sh

# schemathesis (PyPI) against the OpenAPI document, on memory and widerow.
schemathesis:
	scripts/schemathesis.sh

# Heavy reliability tests (TWISSANDRA_HEAVY=1): a Cassandra node stopped and restarted under
# load, and a three-node cluster with RF=3 serving at LOCAL_QUORUM with one node down.
heavy:
	scripts/heavy.sh

cassandra-up:
	scripts/cassandra.sh up

cassandra-down:
	scripts/cassandra.sh down
