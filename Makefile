# stardust-indexer: the two user commands are `make run` and `make test`.
# Neither needs Docker: when CQL_HOSTS is unset they start a local Apache Cassandra 5.0
# from Maven Central jars (JDK 17 + Maven needed; jars are fetched once).

GO        ?= go
BIN       ?= $(CURDIR)/bin
DB_DIR    ?= $(CURDIR)/.dev/cassandra
TEST_DB_DIR ?= $(CURDIR)/.dev/cassandra-test
TEST_FLAGS ?= -count=1 -timeout 30m
PKGS      ?= ./...

.PHONY: all build run test test-short test-faults bench fuzz db-up db-down db-logs db-nodetool vet fmt clean

all: build

build:
	$(GO) build -o $(BIN)/ ./cmd/...

## run: local node (unless CQL_HOSTS is set), migrate, then the indexer on the sim source and the API.
run: build
	@scripts/run.sh

## test: the errwrap check, then every test against one real Cassandra node (started
## here unless CQL_HOSTS is set).
test: errwrap
	@STARDUST_DB_DIR=$(TEST_DB_DIR) GO="$(GO)" TEST_FLAGS="$(TEST_FLAGS)" PKGS="$(PKGS)" scripts/test.sh

## errwrap: fmt.Errorf formats errors only with %w (internal/errwrap), in tests too.
.PHONY: errwrap
errwrap:
	$(GO) run ./internal/errwrap/cmd/errwrap ./...

## mutate: gremlins (mutation testing) over the packages whose tests need no database, one
## at a time; prints efficacy and mutator coverage per package (docs/testing.md). Not part of
## `make test`. MUTATE_PKGS (a subset, e.g. "chain tip25"), MUTATE_WORKERS, MUTATE_OUT: scripts/mutate.sh.
GREMLINS_VERSION ?= v0.6.0
.PHONY: mutate
mutate: $(BIN)/gremlins
	@GREMLINS=$(BIN)/gremlins scripts/mutate.sh

$(BIN)/gremlins:
	GOBIN=$(BIN) $(GO) install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)

test-short:
	@$(GO) test -short $(TEST_FLAGS) $(PKGS)

## test-faults: slow fault-injection tests (build tag faults), each on its own Cassandra
## nodes in temp dirs (CQL_HOSTS and the shared test node are not used): the only node
## killed for 30 s mid-ingest, and a three-node cluster (127.0.0.1-3, RF 3, QUORUM)
## losing a node. FAULTS_HEAP (512M), FAULTS_TIP, FAULTS_OUTAGE, FAULTS_CLUSTER_* tune them.
FAULTS_FLAGS ?= -count=1 -timeout 45m -v
test-faults:
	$(GO) test -tags faults $(FAULTS_FLAGS) ./faults/

## test-faults-ci: the single-node outage test and the three-node cluster losing a node
## (CI runs them after `make test`); the cluster test prints its slowest API read.
.PHONY: test-faults-ci
test-faults-ci:
	$(GO) test -tags faults $(FAULTS_FLAGS) -run '^(TestDatabaseOutageMidIngest|TestClusterKeepsWorkingWithOneNodeKilled)$$' ./faults/

## bench: benchmarks that print side-by-side figures (docs/benchmarks.md); BOOTSTRAP_BENCH_OUTPUTS, BOOTSTRAP_BENCH_LARGE size the bootstrap benchmark.
bench:
	@STARDUST_DB_DIR=$(TEST_DB_DIR) GO="$(GO)" TEST_FLAGS="-count=1 -run ^$$ -bench . -benchtime 1x -timeout 90m" PKGS="./ingest/... ./api/..." scripts/test.sh

## bench-compare BASE=<commit>: the indexer's ingest rows/s and the API's p50/p99 of a build of BASE against
## the working tree, in alternating rounds on one node (COMPARE_ROUNDS, COMPARE_MILESTONES, COMPARE_API_TIME).
.PHONY: bench-compare
bench-compare:
	@GO="$(GO)" DB_DIR=$(DB_DIR) scripts/bench-compare.sh

## bench-scale: the indexer's cost per milestone as the chain grows: BENCH_SCALE_N (50000) milestones
## shaped like Shimmer's, rows/s, p50/p99 and RSS per 1000, the slope, list routes at 1000 and at N
## (docs/benchmarks.md). BENCH_SCALE_KEYSPACE (dropped first), BENCH_SCALE_FLAGS: scripts/bench-scale.sh.
.PHONY: bench-scale
bench-scale: build
	@DB_DIR=$(DB_DIR) BIN=$(BIN) scripts/bench-scale.sh

db-up:
	@STARDUST_DB_DIR=$(DB_DIR) $(GO) run ./cmd/devdb up

db-down:
	@STARDUST_DB_DIR=$(DB_DIR) $(GO) run ./cmd/devdb down

db-logs:
	@STARDUST_DB_DIR=$(DB_DIR) $(GO) run ./cmd/devdb logs

## db-nodetool: Cassandra's nodetool against the local node, e.g. make db-nodetool ARGS="tablestats stardust"
db-nodetool:
	@STARDUST_DB_DIR=$(DB_DIR) $(GO) run ./cmd/devdb nodetool $(ARGS)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l . && echo "gofmt: files above need formatting" && exit 1)

fmt:
	gofmt -w .

clean:
	rm -rf $(BIN)

## load: a loopback load on the API over a sim chain: 60 s open loop at 1000 req/s (latency from
## the scheduled send times, p50/p99/p999), then 60 s with slow and oversized clients beside the
## normal ones; then 120 s comparing the normal clients' latency beside a flood of /health and
## beside a flood of a rate-limited route; then a caching run (share of immutable answers, p50
## of a 304 vs a 200); prints per-route req/s, percentiles, 2xx/4xx/5xx
## (docs/benchmarks.md, docs/caching.md). LOAD_CACHE_ROUNDS, LOAD_COMPARE, LOAD_COMPARE_DURATION,
## LOAD_RATE, LOAD_OPEN_DURATION, LOAD_CLIENTS, LOAD_DURATION, LOAD_KEYSPACE, LOAD_MILESTONES, LOAD_ADDR,
## LOAD_FLAGS, LOAD_API_FLAGS, LOAD_URL: scripts/load.sh.
.PHONY: load
load: build
	@DB_DIR=$(DB_DIR) BIN=$(BIN) scripts/load.sh

## soak: node (bin/simnode), indexer (-source node), API and the open-loop load together, each
## process's heap, RSS, goroutines, open files and the API's per-route latency sampled into
## SOAK_OUT (default .dev/soak): table.txt (flat or growing) and chart.svg (docs/operations.md).
## SOAK_DURATION (10m), SOAK_INTERVAL (200ms), SOAK_RATE (200), SOAK_SAMPLE (10s), SOAK_WARMUP,
## SOAK_RETAIN, SOAK_KEYSPACE (dropped first), SOAK_*_ADDR, SOAK_INDEXER_FLAGS, SOAK_API_FLAGS: scripts/soak.sh.
.PHONY: soak
soak: build
	@DB_DIR=$(DB_DIR) BIN=$(BIN) scripts/soak.sh
