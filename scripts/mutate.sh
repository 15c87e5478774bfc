#!/usr/bin/env bash
# make mutate: gremlins (mutation testing) over the packages whose tests need no
# database, one package at a time, then a table of efficacy and mutator coverage per
# package (docs/testing.md, "Mutation score").
#
# Gremlins runs a package's whole `go test` for each mutant and has no -run of its own,
# so the tests are chosen with GOFLAGS: -short (tests that need a Cassandra node skip
# themselves) and, where a package mixes database tests with unit tests, a -run of its
# unit tests. CQL_HOSTS points at a closed port so a database test that slipped in fails
# at once instead of starting a node. The mutated files are chosen per package too:
# only the files those tests are about (the rest are excluded, file by file).
#
# Env: GREMLINS (the binary), MUTATE_PKGS (a space-separated subset of the table's
# directories), MUTATE_OUT (logs and the table; .dev/mutate), MUTATE_WORKERS (1),
# MUTATE_TIMEOUT_COEFFICIENT (10: the machine is shared, a slow compile is not a hang).
set -euo pipefail

GREMLINS=${GREMLINS:-gremlins}
OUT=${MUTATE_OUT:-.dev/mutate}
WORKERS=${MUTATE_WORKERS:-1}
COEFF=${MUTATE_TIMEOUT_COEFFICIENT:-10}

# Files no package mutates: logging and metrics (what they print or count is not what the
# tests check, and a mutant there changes no result), package docs.
SKIP_FILES='(^|/)(metrics|log|logging|doc)\.go$'

# One line per package: directory | files to mutate (regexp on the file's path in the
# directory; empty: every file) | -run (empty: every test that runs under -short) |
# -skip (tests left out for their run time; they cover nothing the others do not).
PACKAGES='
chain             |                                                        |  |
tip25             |                                                        |  |
ledgerquery       |                                                        |  |
source/snapshot   |                                                        |  |
internal/adaptive |                                                        |  |
source/node       | ^(client|events_hub)\.go$                             |  | ^(TestEventsFromTheNode|TestSlowNodeIsBenched|TestHungInfoDoesNotHoldThePoll)$
archive           | ^(decode|limits|read|reader|source|writer)\.go$        | ^(TestOverCapRecordRefusedUnread|TestSourceCapFromLimits|TestRoundTripWithoutDatabase|TestReaderRefusesMissingEndMarker|FuzzReader|TestSourceServesAnyOrder|TestAlteredRecordWithValidChecksumFailsVerification|TestSourceAcrossArchives)$ |
api               | ^(input|limit|limit_conns|limit_queue|limit_table|bech32_cache)\.go$ | ^(Test(Limiter|ClientID|SiteBucket|DebtNeverForgotten|QueuesLeakNothing|ConnectionCap|GlobalQueue|RateQueue|StandingGlobalQueue|ClientQueue|Bech32Cache|CursorRoundTrip)|Fuzz(ParseCursor|ParseListParams|Tip26Params))
'

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

# excludes prints one -E flag per Go file of dir that is not to be mutated.
excludes() {
  local dir=$1 keep=$2 f rel
  printf -- '-E\n%s\n' "$SKIP_FILES"
  [ -z "$keep" ] && return 0
  while IFS= read -r f; do
    rel=${f#"$dir"/}
    if ! [[ $rel =~ $keep ]]; then
      printf -- '-E\n^%s$\n' "${rel//./\\.}"
    fi
  done < <(find "$dir" -name '*.go' ! -name '*_test.go' | sort)
}

# field prints the number after "label: " in a gremlins summary.
field() { grep -o "$2: [0-9.]*" "$1" | head -1 | awk '{print $NF}'; }

run_one() {
  local dir=$1 keep=$2 run=$3 skip=$4 log="$OUT/${1//\//_}.log" flags=-short start
  [ -n "$run" ] && flags+=" -run=$run"
  [ -n "$skip" ] && flags+=" -skip=$skip"
  mapfile -t ex < <(excludes "$dir" "$keep")
  echo "mutate: $dir (GOFLAGS=$flags)" >&2
  start=$(date +%s)
  CQL_HOSTS=127.0.0.1:1 GOFLAGS="$flags" "$GREMLINS" unleash --workers "$WORKERS" --test-cpu 1 \
    --timeout-coefficient "$COEFF" "${ex[@]}" -o "$OUT/${1//\//_}.json" "./$dir" >"$log" 2>&1 || {
    echo "mutate: $dir failed, see $log" >&2
    tail -20 "$log" >&2
    return 1
  }
  printf '%-18s %8s%% %8s%% %7s %6s %8s %6s %7ss\n' "$dir" \
    "$(field "$log" 'Test efficacy')" "$(field "$log" 'Mutator coverage')" \
    "$(field "$log" Killed)" "$(field "$log" Lived)" "$(field "$log" 'Not covered')" \
    "$(field "$log" 'Timed out')" "$(($(date +%s) - start))" >>"$OUT/table.txt"
}

mkdir -p "$OUT"
printf '%-18s %9s %9s %7s %6s %8s %6s %8s\n' package efficacy mcoverage killed lived notcov timeout time >"$OUT/table.txt"
status=0
while IFS='|' read -r dir keep run skip; do
  dir=$(trim "$dir")
  [ -z "$dir" ] && continue
  if [ -n "${MUTATE_PKGS:-}" ] && ! [[ " $MUTATE_PKGS " == *" $dir "* ]]; then
    continue
  fi
  run_one "$dir" "$(trim "$keep")" "$(trim "$run")" "$(trim "$skip")" || status=1
done <<<"$PACKAGES"
cat "$OUT/table.txt"
exit $status
