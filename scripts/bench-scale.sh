#!/usr/bin/env bash
# make bench-scale: the indexer's cost per milestone as the chain grows (cmd/benchscale).
# BENCH_SCALE_N milestones (default 50000) shaped like Shimmer's are indexed by bin/indexer
# into $BENCH_SCALE_KEYSPACE (dropped first); the local node serves unless CQL_HOSTS is set.
# The indexer's and the API's logs go to .dev/bench-scale.log. BENCH_SCALE_FLAGS adds flags.
# The routes are timed again after a flush of the keyspace when the node is local: the one
# started here, or the one in BENCH_SCALE_NODE_DIR (a devdb -dir) when CQL_HOSTS is given.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
node_dir=${BENCH_SCALE_NODE_DIR:-}
if [ -z "${CQL_HOSTS:-}" ]; then
  node_dir=${DB_DIR:-$PWD/.dev/cassandra}
  line=$(STARDUST_DB_DIR=$node_dir "$BIN/devdb" up | tail -n 1)
  export "${line?}"
fi
mkdir -p .dev
log=$PWD/.dev/bench-scale.log
echo "CQL_HOSTS=$CQL_HOSTS; $(uptime); indexer and API logs: $log"
# shellcheck disable=SC2086
"$BIN/benchscale" -bin "$BIN" -n "${BENCH_SCALE_N:-50000}" -keyspace "${BENCH_SCALE_KEYSPACE:-stardust_bench_scale}" \
  ${node_dir:+-node-dir "$node_dir"} ${BENCH_SCALE_FLAGS:-} 2>"$log"
echo "$(uptime)"
