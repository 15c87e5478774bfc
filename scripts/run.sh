#!/usr/bin/env bash
# make run: a local Cassandra (unless CQL_HOSTS is set), the schema, then the indexer on
# the simulated chain and the read API, until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
API_ADDR=${API_ADDR:-127.0.0.1:8080}
OPS_ADDR=${OPS_ADDR:-127.0.0.1:9100}
API_OPS_ADDR=${API_OPS_ADDR:-127.0.0.1:9101}
if [ -z "${CQL_HOSTS:-}" ]; then
  line=$(STARDUST_DB_DIR=${DB_DIR:-$PWD/.dev/cassandra} "$BIN/devdb" up | tail -n 1)
  export "${line?}"
fi
echo "database: CQL_HOSTS=$CQL_HOSTS"
"$BIN/indexer" migrate
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM
"$BIN/indexer" run --source sim --sim-backfill "${SIM_BACKFILL:-2000}" --sim-every "${SIM_EVERY:-5s}" \
  --ops-addr "$OPS_ADDR" &
pids+=($!)
if [ -x "$BIN/api" ]; then
  # The sim's milestones carry times from 2022 on, so /health's staleness limit is lifted
  # here (HEALTH_MAX_AGE): against a real network keep the default (2m).
  "$BIN/api" --addr "$API_ADDR" --ops-addr "$API_OPS_ADDR" --health-max-age "${HEALTH_MAX_AGE:-87600h}" &
  pids+=($!)
  echo "API:      http://$API_ADDR  (try /sync, /milestones/1, /openapi.json)"
  # The dashboard reads the API with the read token it finds in the URL's fragment; the
  # token itself is not printed.
  if [ -n "${API_READ_TOKEN:-}" ]; then
    echo "dashboard: http://$API_ADDR/dashboard#token=<read token> (API_READ_TOKEN is set)"
  else
    echo "dashboard: http://$API_ADDR/dashboard"
  fi
fi
echo "indexer:  http://$OPS_ADDR/metrics  http://$OPS_ADDR/readyz"
echo "status:   $BIN/indexer status"
echo "stop:     Ctrl-C (the database keeps running: make db-down)"
wait -n "${pids[@]}"
