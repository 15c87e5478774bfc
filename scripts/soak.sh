#!/usr/bin/env bash
# make soak: the indexer and the API running together for SOAK_DURATION, as an operator
# runs them, each process measured on its own: a local Cassandra (unless CQL_HOSTS is
# set), the simulated chain served by bin/simnode as a Hornet node (a milestone every
# SOAK_INTERVAL; its wallets keep SOAK_SPENDABLE spendable outputs, 0: a pool that grows, so
# that the load stays level), `indexer run -source node` into $SOAK_KEYSPACE (dropped first), the API,
# and loadtest's open-loop mix at SOAK_RATE requests a second. bin/soak reads both
# processes' /metrics every SOAK_SAMPLE into $SOAK_OUT/samples.csv and writes table.txt
# (start, middle and end after SOAK_WARMUP, growth per 10 000 milestones, flat or
# growing, per-route p50/p99/p999) and chart.svg there (docs/operations.md, "Running a
# soak"). Then, unless SOAK_COMPARE_PHASE is 0, bin/soak compare runs the same read mix
# in SOAK_COMPARE_ROUNDS rounds of a phase while the indexer ingests and a phase with
# the node and the indexer stopped (SIGSTOP), into $SOAK_OUT/compare.txt. Logs:
# $SOAK_OUT/*.log; loadtest's own report: $SOAK_OUT/load.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
DURATION=${SOAK_DURATION:-10m}
INTERVAL=${SOAK_INTERVAL:-200ms}
RATE=${SOAK_RATE:-200}
SAMPLE=${SOAK_SAMPLE:-10s}
OUT=${SOAK_OUT:-$PWD/.dev/soak}
WARMUP=${SOAK_WARMUP:-0}
RETAIN=${SOAK_RETAIN:-2048}
SPENDABLE=${SOAK_SPENDABLE:-4096}
COMPARE_PHASE=${SOAK_COMPARE_PHASE:-60s}
COMPARE_ROUNDS=${SOAK_COMPARE_ROUNDS:-2}
NODE_ADDR=${SOAK_NODE_ADDR:-127.0.0.1:24265}
API_ADDR=${SOAK_API_ADDR:-127.0.0.1:28080}
OPS_ADDR=${SOAK_OPS_ADDR:-127.0.0.1:29100}
API_OPS_ADDR=${SOAK_API_OPS_ADDR:-127.0.0.1:29101}
if [ -z "${CQL_HOSTS:-}" ]; then
  line=$(STARDUST_DB_DIR=${DB_DIR:-$PWD/.dev/cassandra} "$BIN/devdb" up | tail -n 1)
  export "${line?}"
fi
export CQL_KEYSPACE=${SOAK_KEYSPACE:-stardust_soak}
mkdir -p "$OUT"
rm -f "$OUT"/{samples.csv,latency.csv,table.txt,chart.svg,load.txt,compare.txt,sim-keys.json}
echo "soak: $DURATION, a milestone every $INTERVAL, $RATE req/s, a sample every $SAMPLE; CQL_HOSTS=$CQL_HOSTS" \
  "keyspace $CQL_KEYSPACE (dropped first); out: $OUT; $(uptime)"
"$BIN/soak" reset -keyspace "$CQL_KEYSPACE"
"$BIN/indexer" migrate 2>"$OUT/migrate.log"
pids=()
# SIGCONT first: a process soak compare left stopped would not act on the SIGTERM.
cleanup() { kill -CONT "${pids[@]}" 2>/dev/null || true; kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM
# shellcheck disable=SC2086
"$BIN/simnode" -addr "$NODE_ADDR" -every "$INTERVAL" -retain "$RETAIN" -spendable "$SPENDABLE" \
  -keys-out "$OUT/sim-keys.json" ${SOAK_SIM_FLAGS:-} 2>"$OUT/simnode.log" &
pids+=($!)
# The node writes its milestone keys as it starts: the indexer reads them at once.
for _ in $(seq 100); do [ -s "$OUT/sim-keys.json" ] && break; sleep 0.1; done
# shellcheck disable=SC2086
"$BIN/indexer" run -source node -node-url "http://$NODE_ADDR" -milestone-keys "$OUT/sim-keys.json" \
  -ops-addr "$OPS_ADDR" ${SOAK_INDEXER_FLAGS:-} 2>"$OUT/indexer.log" &
pids+=($!)
# The sim chain is dated 2022: /health says healthy only with a max age past that.
# shellcheck disable=SC2086
"$BIN/api" -addr "$API_ADDR" -ops-addr "$API_OPS_ADDR" -health-max-age 876000h ${SOAK_API_FLAGS:-} 2>"$OUT/api.log" &
pids+=($!)
# The load discovers its keys from what is indexed when it starts: wait for some.
for _ in $(seq 300); do
  ms=$(curl -fs "http://$OPS_ADDR/metrics" 2>/dev/null | awk '$1 == "indexer_last_milestone" {print int($2)}' || true)
  [ "${ms:-0}" -ge 50 ] && break
  sleep 1
done
echo "indexer at milestone ${ms:-0}: load and sampling start"
"$BIN/loadtest" -url "http://$API_ADDR" -rate "$RATE" -duration "$DURATION" -out "$OUT/load.txt" \
  >/dev/null 2>"$OUT/load.log" &
load=$!
rc=0
warm=()
[ "$WARMUP" != 0 ] && warm=(-warmup "$WARMUP")
"$BIN/soak" sample -indexer "http://$OPS_ADDR" -api "http://$API_OPS_ADDR" -every "$SAMPLE" -duration "$DURATION" \
  "${warm[@]}" -out "$OUT" || rc=$?
wait "$load" || echo "loadtest: exit $? (see $OUT/load.log, $OUT/load.txt)"
cat "$OUT/table.txt" 2>/dev/null || true
if [ "$COMPARE_PHASE" != 0 ]; then
  echo "reads during ingest vs paused: $COMPARE_ROUNDS rounds of $COMPARE_PHASE each at $RATE req/s"
  "$BIN/soak" compare -url "http://$API_ADDR" -indexer "http://$OPS_ADDR" -pids "${pids[0]},${pids[1]}" \
    -rate "$RATE" -phase "$COMPARE_PHASE" -rounds "$COMPARE_ROUNDS" -out "$OUT/compare.txt" 2>"$OUT/compare.log" || rc=$?
fi
echo "chart: $OUT/chart.svg; $(uptime)"
exit "$rc"
