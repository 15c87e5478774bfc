package testcontainers

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"
)

func TestIdleReadsCompactionstats(t *testing.T) {
	for _, c := range []struct {
		out  string
		want bool
	}{
		{"concurrent compactors            1\npending tasks                    0\ncompactions completed 4\n", true},
		{"pending tasks: 0\n", true},
		{"pending tasks                    3\n", false},
		{"pending tasks                    0\nid   compaction type   keyspace   table   completed   total   unit   progress\n", false},
		{"error: connection refused\n", false},
	} {
		if got := idle(c.out); got != c.want {
			t.Errorf("idle(%q) = %v, want %v", c.out, got, c.want)
		}
	}
}

// TestSettleFlushesAKeyspace writes a row on the test node, settles the keyspace and
// finds the table's memtable empty and its row in an SSTable (nodetool tablestats).
func TestSettleFlushesAKeyspace(t *testing.T) {
	SkipShort(t)
	n, err := Open(DefaultDir())
	if err != nil {
		t.Skipf("the test cluster is not a local node of this package (%v)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks := fmt.Sprintf("t_settle_%d", os.Getpid())
	s := Session(t, configFor(t, []string{n.Addr()}, "")).Gocql()
	for _, q := range []string{
		"CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
		"CREATE TABLE " + ks + ".t (k int PRIMARY KEY, v text)",
		"INSERT INTO " + ks + ".t (k, v) VALUES (1, 'x')",
	} {
		if err := s.Query(q).WithContext(ctx).Exec(); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { _ = s.Query("DROP KEYSPACE " + ks).Exec() }()
	// No check of the state before: test packages writing in parallel fill the commit
	// log, which flushes every table now and then, this one included.
	if err := n.Settle(ctx, ks); err != nil {
		t.Fatal(err)
	}
	stats := tablestats(ctx, t, n, ks+".t")
	if m := memtableCells.FindStringSubmatch(stats); m == nil || m[1] != "0" {
		t.Fatalf("after Settle the memtable still holds cells:\n%s", stats)
	}
	if m := sstableCount.FindStringSubmatch(stats); m == nil || m[1] == "0" {
		t.Fatalf("after Settle no SSTable holds the row:\n%s", stats)
	}
}

var (
	sstableCount  = regexp.MustCompile(`SSTable count: (\d+)`)
	memtableCells = regexp.MustCompile(`Memtable cell count: (\d+)`)
)

func tablestats(ctx context.Context, t *testing.T, n *Node, table string) string {
	t.Helper()
	out, err := n.NodeTool(ctx, "tablestats", table)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
