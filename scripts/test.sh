#!/usr/bin/env bash
# Runs the Go tests against one real Cassandra node. With CQL_HOSTS set, that cluster is
# used; otherwise a local node is started in $STARDUST_DB_DIR and stopped afterwards
# (unless it was already running, or KEEP_DB=1).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
started=""
if [ -z "${CQL_HOSTS:-}" ]; then
  was_running=$($GO run ./cmd/devdb status 2>/dev/null || true)
  line=$($GO run ./cmd/devdb up | tail -n 1)
  export "${line?}"
  echo "test node: $line"
  if [ "$was_running" != "running" ] && [ "${KEEP_DB:-0}" != "1" ]; then
    started=1
    trap '$GO run ./cmd/devdb down >/dev/null 2>&1 || true' EXIT
  fi
fi
$GO vet ./...
unformatted=$(gofmt -l . | grep -v '^.dev/' || true)
if [ -n "$unformatted" ]; then echo "gofmt needed:"; echo "$unformatted"; exit 1; fi
# shellcheck disable=SC2086
$GO test $TEST_FLAGS $PKGS
