#!/usr/bin/env bash
# make load: a loopback load on the API over a sim chain, with slow and oversized clients
# beside the normal ones. LOAD_URL aims at an API already running; otherwise the local
# node (unless CQL_HOSTS is set) gets a sim chain in $LOAD_KEYSPACE (created once,
# reused) and an API is started for the run, with cmd/api's default limits (LOAD_API_FLAGS
# adds flags): the normal clients stay within them, each from a loopback address of its
# own, while a flooding client gets 429s (docs/api-protection.md).
# First an open-loop run: LOAD_RATE requests a second (default 1000, 0 skips it) of the
# route mix for LOAD_OPEN_DURATION (default 60s), on a fixed schedule, spread over
# LOAD_CLIENTS loopback addresses (default 64: ~16 req/s each, under the API's default
# per-client -rate 50, so no 429s); latency from the scheduled send time. Then the
# closed-loop run with attackers for LOAD_DURATION (0 skips it). Last the flood
# comparison for LOAD_COMPARE_DURATION (default 120s, 0 skips it): the normal clients
# alone, beside a flood of /health, and beside a flood of a rate-limited route
# (LOAD_COMPARE, default /health,/api/core/v2/info), each flood from one client with
# 128 keep-alive connections. Then the caching run: LOAD_CACHE_ROUNDS requests (default
# 2000, 0 skips it) drawn from the mix, each replayed plain and with If-None-Match: the
# share of immutable answers and p50 of a 304 beside a 200 (docs/caching.md).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
DURATION=${LOAD_DURATION:-60s}
RATE=${LOAD_RATE:-1000}
OPEN_DURATION=${LOAD_OPEN_DURATION:-60s}
CLIENTS=${LOAD_CLIENTS:-64}
COMPARE=${LOAD_COMPARE:-/health,/api/core/v2/info}
COMPARE_DURATION=${LOAD_COMPARE_DURATION:-120s}
CACHE_ROUNDS=${LOAD_CACHE_ROUNDS:-2000}
ADDR=${LOAD_ADDR:-127.0.0.1:18080}
# shellcheck disable=SC2086
# loads URL: the open-loop run, the run with attackers, the flood comparison and the
# caching run (each unless disabled).
# A failing run (5xx, no answer) does not stop the next one; the status is the worst.
loads() {
  local rc=0
  # shellcheck disable=SC2086
  if [ "$RATE" != 0 ]; then
    "$BIN/loadtest" -url "$1" -rate "$RATE" -duration "$OPEN_DURATION" -clients "$CLIENTS" ${LOAD_FLAGS:-} || rc=$?
  fi
  # shellcheck disable=SC2086
  if [ "$DURATION" != 0 ]; then "$BIN/loadtest" -url "$1" -duration "$DURATION" ${LOAD_FLAGS:-} || rc=$((rc > $? ? rc : $?)); fi
  # shellcheck disable=SC2086
  if [ "$COMPARE_DURATION" != 0 ]; then
    "$BIN/loadtest" -url "$1" -flood-compare "$COMPARE" -duration "$COMPARE_DURATION" ${LOAD_FLAGS:-} || rc=$((rc > $? ? rc : $?))
  fi
  # shellcheck disable=SC2086
  if [ "$CACHE_ROUNDS" != 0 ]; then
    "$BIN/loadtest" -url "$1" -cache-rounds "$CACHE_ROUNDS" ${LOAD_FLAGS:-} || rc=$((rc > $? ? rc : $?))
  fi
  return "$rc"
}
if [ -n "${LOAD_URL:-}" ]; then
  loads "$LOAD_URL"
  exit
fi
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
# The sim chain is dated 2022: /health says healthy only with a max age past that.
"$BIN/api" -addr "$ADDR" -health-max-age 876000h ${LOAD_API_FLAGS:-} 2>>"$log" &
api=$!
trap 'kill $api 2>/dev/null; wait $api 2>/dev/null || true' EXIT
loads "http://$ADDR"
