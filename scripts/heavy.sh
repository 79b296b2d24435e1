#!/usr/bin/env bash
# scripts/heavy.sh: the heavy reliability tests of the cql3 backend (make heavy). They start
# Cassandra nodes of their own with scripts/cassandra.sh, one at a time:
#   - TestCQL3NodeStopDuringLoad: one node on 127.0.0.2:9043 (storage port 7043), stopped and
#     started again on its data (scripts/cassandra-restart.sh) under a write load through serve;
#   - TestCQL3ThreeNodesOneDown: three nodes on 127.0.0.1-3:9044 (storage port 7044), RF=3, one
#     stopped while serve keeps working at LOCAL_QUORUM;
#   - TestCQL3ReplicasAreTheNodes: three nodes on 127.0.0.1-3:9046 (storage port 7046), RF=2: the
#     replicas the cql3 store derives from the driver's token metadata (the tokens lesson) are
#     those of the tokens each node reports, and a traced write at ALL lands on exactly them.
#   - TestCQL3ThreeNodesLevels: three nodes on 127.0.0.1-3:9048 (storage port 7048), RF=3: every
#     consistency level tried by the cql3 adapter with all up, then with one stopped (ALL answers
#     Unavailable, ONE and QUORUM succeed).
#   - TestCQL3IndexAsksEveryNode: three nodes on 127.0.0.1-3:9056 (storage port 7056), RF=2: the
#     lesson on indexes' reads by name, traced: the 2i's and the SAI's worked on by every node,
#     the hand-kept table's and the view's by the name's replicas only.
#   - TestClassLoadHeavy (cmd/twissandra): the class load test (docs/class.md), 200 learners from
#     one address for three minutes on one widerow server, then on three cql3 servers over the
#     node of TWISSANDRA_CQL_HOSTS (skipped without it); built without -race, so that its times
#     are a server's.
# Each JVM takes about 1 GiB of RAM (512M heap); each three-node test needs about 3 GiB and
# several minutes on two cores. Extra arguments go to go test (e.g. -run TestCQL3NodeStop).
set -euo pipefail
cd "$(dirname "$0")/.."
TWISSANDRA_HEAVY=1 go test -race -count=1 -timeout 30m -v \
	-run 'TestCQL3NodeStopDuringLoad|TestCQL3ThreeNodesOneDown|TestCQL3ReplicasAreTheNodes|TestCQL3ThreeNodesLevels|TestCQL3IndexAsksEveryNode' "$@" ./tests/reliability
TWISSANDRA_HEAVY=1 exec go test -count=1 -timeout 30m -v -run 'TestClassLoadHeavy' "$@" ./cmd/twissandra
