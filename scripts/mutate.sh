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
# Gremlins runs a mutant only if a block of Go's coverage profile that ran holds it. Go's
# profile leaves out the case expressions of a switch and a function's constants, so
# gremlins would call their mutants "not covered" whatever the tests do. Gremlins is run
# with a `go` in front of the real one that widens the coverage run's profile to every
# function that ran (internal/mutation.Widen): those mutants are run against the tests
# like the others. What stays "not covered" is code no test runs, and package-level
# constants ("outside" in the table: in no function, never run by gremlins).
#
# Env: GREMLINS (the binary), MUTATE_PKGS (a space-separated subset of the table's
# directories), MUTATE_OUT (logs and the table; .dev/mutate), MUTATE_WORKERS (1),
# MUTATE_TIMEOUT_COEFFICIENT (30: a mutant's run compiles its package, the coverage run does not; the machine is shared),
# MUTATE_TABLE_ONLY (1: the table again from the last run's outputs, without gremlins),
# MUTATE_RECHECK (the MUTATE_OUT of an earlier run: instead of gremlins, run again only the
# mutants that lived in it, against the tests as they are now; internal/mutation.Recheck.
# Tests added since cannot bring a killed mutant back; changed production code needs a
# whole run).
set -euo pipefail

GREMLINS=${GREMLINS:-gremlins}
OUT=${MUTATE_OUT:-.dev/mutate}
WORKERS=${MUTATE_WORKERS:-1}
COEFF=${MUTATE_TIMEOUT_COEFFICIENT:-30}

# Files no package mutates: logging and metrics (what they print or count is not what the
# tests check, and a mutant there changes no result), package docs.
SKIP_FILES='(^|/)(metrics|log|logging|doc)\.go$'

# One line per package, fields apart by ' ; ': directory ; files to mutate (regexp on the
# file's path in the directory; empty: every file) ; -run (empty: every test that runs
# under -short) ; -skip (tests left out for their run time; they cover nothing the others do not).
PACKAGES='
chain             ;  ;  ;
tip25             ;  ;  ;
ledgerquery       ;  ;  ;
source/snapshot   ;  ;  ;
internal/adaptive ;  ;  ;
source/node       ; ^(client|events_hub)\.go$ ;  ; ^(TestEventsFromTheNode|TestSlowNodeIsBenched|TestHungInfoDoesNotHoldThePoll)$
archive           ; ^(decode|limits|read|reader|source|writer)\.go$ ; ^(TestOverCapRecordRefusedUnread|TestSourceCapFromLimits|TestRoundTripWithoutDatabase|TestReaderRefusesMissingEndMarker|FuzzReader|TestSourceServesAnyOrder|TestAlteredRecordWithValidChecksumFailsVerification|TestSourceAcrossArchives|TestWindowOfOneKept|TestBodyTakesEveryByteLeft|TestCountThatFillsTheRecord|TestArchiveOfOneMilestone|TestRecordAtTheCapRead|TestSkippedRecordChecked|TestDamagedEndMarker|TestCloseBeforeTheRangeEnds|TestBodyEmptyField)$ ;
api               ; ^(input|limit|limit_conns|limit_queue|limit_table|bech32_cache)\.go$ ; ^(Test(Limiter|ClientID|SiteBucket|DebtNeverForgotten|QueuesLeakNothing|ConnectionCap|GlobalQueue|RateQueue|StandingGlobalQueue|ClientQueue|Bech32Cache|CursorRoundTrip|Query|TimeRange|PageSize|CursorOfThePage|LimitsEnabled|TrustedProxyForms|RemoteAddrForms|ConnectionsKeep|BurstDefaults|RowsCost|ChargeBeyond|EmptyBucket|SweepEvery|EvictionLooks|BusyHolds|Slots|Reserve|Tarpit|AfterWait|Admit)|Fuzz(ParseCursor|ParseListParams|Tip26Params)) ;
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

# row prints the package's line of the table (internal/mutation): gremlins' figures and how
# many not-covered mutants lie outside every coverage block, from a profile of the same tests.
row() {
  local dir=$1 flags=$2 name=${1//\//_}
  CQL_HOSTS=127.0.0.1:1 GOFLAGS="$flags" "${GO:-go}" test -count=1 -coverprofile "$OUT/$name.cover" "./$dir/..." >/dev/null
  "$OUT/mutationtable" -widen "$OUT/$name.cover" "$MODULE"
  "$OUT/mutationtable" "$dir" "$MODULE/$dir" "$OUT/$name.json" "$OUT/$name.cover"
}

# shim writes the `go` gremlins calls: the real go, and after a run with -coverprofile the
# profile widened to whole functions.
shim() {
  local real
  real=$(command -v "${GO:-go}")
  mkdir -p "$OUT/shim"
  cat >"$OUT/shim/go" <<EOF
#!/usr/bin/env bash
# Written by scripts/mutate.sh for gremlins: go, with a coverage profile widened to functions.
profile=
prev=
for a in "\$@"; do
  [ "\$prev" = -coverprofile ] && profile=\$a
  prev=\$a
done
[ -z "\$profile" ] && exec "$real" "\$@"
"$real" "\$@" || exit \$?
exec "$(cd "$OUT" && pwd)/mutationtable" -widen "\$profile" "$MODULE"
EOF
  chmod +x "$OUT/shim/go"
}

run_one() {
  local dir=$1 keep=$2 run=$3 skip=$4 name=${1//\//_} flags="-short -count=1" start
  [ -n "$run" ] && flags+=" -run=$run"
  [ -n "$skip" ] && flags+=" -skip=$skip"
  if [ -n "${MUTATE_RECHECK:-}" ]; then
    echo "mutate: $dir, the mutants that lived in $MUTATE_RECHECK (GOFLAGS=$flags)" >&2
    start=$(date +%s)
    CQL_HOSTS=127.0.0.1:1 GOFLAGS="$flags" "$OUT/mutationtable" -recheck "$dir" "$MUTATE_RECHECK/$name.json" \
      "$OUT/$name.json" 300s || return 1
    echo "$(($(date +%s) - start))" >"$OUT/$name.seconds"
  elif [ -z "${MUTATE_TABLE_ONLY:-}" ]; then
    mapfile -t ex < <(excludes "$dir" "$keep")
    echo "mutate: $dir (GOFLAGS=$flags)" >&2
    start=$(date +%s)
    PATH="$(cd "$OUT" && pwd)/shim:$PATH" CQL_HOSTS=127.0.0.1:1 GOFLAGS="$flags" "$GREMLINS" unleash --workers "$WORKERS" \
      --timeout-coefficient "$COEFF" "${ex[@]}" -o "$OUT/$name.json" "./$dir" >"$OUT/$name.log" 2>&1 || {
      echo "mutate: $dir failed, see $OUT/$name.log" >&2
      tail -20 "$OUT/$name.log" >&2
      return 1
    }
    echo "$(($(date +%s) - start))" >"$OUT/$name.seconds"
  fi
  printf '%s %6ss\n' "$(row "$dir" "$flags")" "$(cat "$OUT/$name.seconds" 2>/dev/null || echo '?')" >>"$OUT/table.txt"
}

mkdir -p "$OUT"
"${GO:-go}" build -o "$OUT/mutationtable" ./internal/mutation/cmd/mutationtable
MODULE=$("${GO:-go}" list -m)
shim
printf '%s %7s\n' "$("$OUT/mutationtable" -header)" time >"$OUT/table.txt"
status=0
while IFS=';' read -r dir keep run skip; do
  dir=$(trim "$dir")
  [ -z "$dir" ] && continue
  if [ -n "${MUTATE_PKGS:-}" ] && ! [[ " $MUTATE_PKGS " == *" $dir "* ]]; then
    continue
  fi
  run_one "$dir" "$(trim "$keep")" "$(trim "$run")" "$(trim "$skip")" || status=1
done <<<"$PACKAGES"
cat "$OUT/table.txt"
exit $status
