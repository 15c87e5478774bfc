#!/usr/bin/env bash
# make bench-compare BASE=<commit>: the indexer and the API built from BASE against the
# working tree, side by side on one node, in alternating rounds (base, new, new, base, ...):
#  - ingest: each build's `indexer run` indexes the same simulated chain (COMPARE_MILESTONES
#    milestones of COMPARE_MESSAGES messages, backfilled at once) into a fresh keyspace;
#    the same rows each time, so rows/s new ÷ base is seconds base ÷ new;
#  - API: both builds serve the last of those keyspaces and `loadtest -ab` sends them the
#    same route mix in turns (1 client, then 4), p50 and p99 per route and new ÷ base.
# The local node serves unless CQL_HOSTS is set. Logs go to .dev/bench-compare/.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${BASE:?BASE=<commit> to compare the working tree with}
rounds=${COMPARE_ROUNDS:-3}
milestones=${COMPARE_MILESTONES:-400}
messages=${COMPARE_MESSAGES:-20}
api_time=${COMPARE_API_TIME:-120s}
GO=${GO:-go}
work=$PWD/.dev/bench-compare
rm -rf "$work" && mkdir -p "$work/base" "$work/new"
if [ -z "${CQL_HOSTS:-}" ]; then
  line=$(STARDUST_DB_DIR=${DB_DIR:-$PWD/.dev/cassandra} $GO run ./cmd/devdb up | tail -n 1)
  export "${line?}"
fi
tree=$(mktemp -d)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true; kill $(jobs -p) 2>/dev/null || true' EXIT
git worktree add -q --detach "$tree" "$base"
(cd "$tree" && $GO build -o "$work/base/" ./cmd/indexer ./cmd/api)
$GO build -o "$work/new/" ./cmd/indexer ./cmd/api ./cmd/loadtest
echo "base $(git rev-parse --short "$base"), new $(git rev-parse --short HEAD)$(git diff --quiet || echo ' + changes'); CQL_HOSTS=$CQL_HOSTS; $(uptime)"

# ingest LABEL N: one indexing of the chain by build LABEL into keyspace bc_LABEL_N; prints seconds.
ingest() {
  local ks="bc_$1_$2_$$" bin="$work/$1/indexer"
  "$bin" migrate -keyspace "$ks" >>"$work/$1.log" 2>&1
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" run -keyspace "$ks" -source sim -sim-backfill "$milestones" -sim-every 0 -sim-messages "$messages" \
    -stop-at "$milestones" -ops-addr 127.0.0.1:0 >>"$work/$1.log" 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

declare -a base_s new_s
for r in $(seq 1 "$rounds"); do
  order="base new"; [ $((r % 2)) -eq 0 ] && order="new base"
  for label in $order; do
    s=$(ingest "$label" "$r")
    echo "ingest round $r $label: $s s"
    if [ "$label" = base ]; then base_s+=("$s"); else new_s+=("$s"); fi
  done
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
mb=$(median "${base_s[@]}"); mn=$(median "${new_s[@]}")
echo "ingest: $milestones milestones of $messages messages, median seconds base $mb, new $mn; rows/s new ÷ base = $(echo "scale=3; $mb / $mn" | bc)"
per_round=()
for i in "${!base_s[@]}"; do per_round+=("$(echo "scale=2; ${base_s[$i]} / ${new_s[$i]}" | bc)"); done
echo "each round's rows/s new ÷ base: ${per_round[*]}"

limits=(-rate 0 -client-concurrency 0)
export CQL_KEYSPACE="bc_new_${rounds}_$$"
"$work/base/api" -addr 127.0.0.1:18181 -ops-addr 127.0.0.1:18191 "${limits[@]}" >>"$work/base.log" 2>&1 &
"$work/new/api" -addr 127.0.0.1:18182 -ops-addr 127.0.0.1:18192 "${limits[@]}" >>"$work/new.log" 2>&1 &
for clients in 1 4; do
  "$work/new/loadtest" -url http://127.0.0.1:18181 -ab http://127.0.0.1:18182 -workers "$clients" \
    -rounds "$((rounds * 2))" -duration "$api_time" -distinct-clients=false 2>>"$work/loadtest.log"
done
echo "$(uptime)"
