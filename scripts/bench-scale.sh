#!/usr/bin/env bash
# make bench-scale: the indexer's cost per milestone as the chain grows (cmd/benchscale).
# BENCH_SCALE_N milestones (default 50000) shaped like Shimmer's are indexed by bin/indexer
# into $BENCH_SCALE_KEYSPACE (dropped first); the local node serves unless CQL_HOSTS is set.
# The indexer's and the API's logs go to .dev/bench-scale.log. BENCH_SCALE_FLAGS adds flags.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
if [ -z "${CQL_HOSTS:-}" ]; then
  line=$(STARDUST_DB_DIR=${DB_DIR:-$PWD/.dev/cassandra} "$BIN/devdb" up | tail -n 1)
  export "${line?}"
fi
mkdir -p .dev
log=$PWD/.dev/bench-scale.log
echo "CQL_HOSTS=$CQL_HOSTS; $(uptime); indexer and API logs: $log"
# shellcheck disable=SC2086
"$BIN/benchscale" -bin "$BIN" -n "${BENCH_SCALE_N:-50000}" -keyspace "${BENCH_SCALE_KEYSPACE:-stardust_bench_scale}" \
  ${BENCH_SCALE_FLAGS:-} 2>"$log"
echo "$(uptime)"
