package ingest

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// The slow node: one CPU (pinned to CPU 0 where taskset exists, and the JVM told it has
// one processor) and concurrent_writes 2 instead of the test node's 8. A reproducibly
// slower node on the same machine, whose best write concurrency is not the test node's.
const (
	slowCPUs   = 1
	slowWrites = 2
)

// startSlowNode starts the benchmark's slow node (stopped and removed when the benchmark
// ends), or says why it did not: INGEST_BENCH_SLOW=off, or the node failed to start.
func startSlowNode(b *testing.B) (*benchNode, string) {
	b.Helper()
	if os.Getenv("INGEST_BENCH_SLOW") == "off" {
		return nil, "INGEST_BENCH_SLOW=off"
	}
	dir, err := os.MkdirTemp("", "bench-slow-node-")
	if err != nil {
		return nil, err.Error()
	}
	n, err := testcontainers.StartNode(context.Background(), testcontainers.Node{Dir: dir, CPUs: slowCPUs,
		ConcurrentWrites: slowWrites})
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Sprintf("cannot start it: %v", err)
	}
	b.Cleanup(func() {
		_ = n.Stop()
		os.RemoveAll(dir)
	})
	name := fmt.Sprintf("slow node (%d CPU, concurrent_writes %d)", slowCPUs, slowWrites)
	return &benchNode{label: "slow", name: name, hosts: []string{n.Addr()}}, ""
}
