#!/usr/bin/env bash
# make load: a loopback load on the API over a sim chain, with slow and oversized clients
# beside the normal ones. LOAD_URL aims at an API already running; otherwise the local
# node (unless CQL_HOSTS is set) gets a sim chain in $LOAD_KEYSPACE (created once,
# reused) and an API is started for the run, with cmd/api's default limits (LOAD_API_FLAGS
# adds flags): the normal clients stay within them, each from a loopback address of its
# own, while a flooding client gets 429s (docs/api-protection.md).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
DURATION=${LOAD_DURATION:-60s}
ADDR=${LOAD_ADDR:-127.0.0.1:18080}
# shellcheck disable=SC2086
if [ -n "${LOAD_URL:-}" ]; then exec "$BIN/loadtest" -url "$LOAD_URL" -duration "$DURATION" ${LOAD_FLAGS:-}; fi
if [ -z "${CQL_HOSTS:-}" ]; then
  line=$(STARDUST_DB_DIR=${DB_DIR:-$PWD/.dev/cassandra} "$BIN/devdb" up | tail -n 1)
  export "${line?}"
fi
export CQL_KEYSPACE=${LOAD_KEYSPACE:-stardust_load}
mkdir -p .dev
log=$PWD/.dev/load.log
: >"$log"
echo "database CQL_HOSTS=$CQL_HOSTS keyspace $CQL_KEYSPACE; sim chain of ${LOAD_MILESTONES:-300} milestones (log: $log)"
"$BIN/indexer" migrate 2>>"$log"
"$BIN/indexer" run -source sim -sim-backfill "${LOAD_MILESTONES:-300}" -sim-every 0 -follow=false -ops-addr "" 2>>"$log"
# shellcheck disable=SC2086
"$BIN/api" -addr "$ADDR" ${LOAD_API_FLAGS:-} 2>>"$log" &
api=$!
trap 'kill $api 2>/dev/null; wait $api 2>/dev/null || true' EXIT
# shellcheck disable=SC2086
"$BIN/loadtest" -url "http://$ADDR" -duration "$DURATION" ${LOAD_FLAGS:-}
