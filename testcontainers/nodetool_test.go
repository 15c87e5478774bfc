package testcontainers

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/gocql/gocql"
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
// finds the table's rows in an SSTable (nodetool tablestats), where a fresh write
// stays in the memtable until a flush.
func TestSettleFlushesAKeyspace(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a Cassandra node (-short)")
	}
	n, err := Open(DefaultDir())
	if err != nil {
		t.Skipf("the test cluster is not a local node of this package (%v)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks := fmt.Sprintf("t_settle_%d", os.Getpid())
	s := rawSession(t, n)
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
	if got := sstables(ctx, t, n, ks+".t"); got != "0" {
		t.Fatalf("SSTables before the flush: %s, want 0", got)
	}
	if err := n.Settle(ctx, ks); err != nil {
		t.Fatal(err)
	}
	if got := sstables(ctx, t, n, ks+".t"); got != "1" {
		t.Fatalf("SSTables after Settle: %s, want 1", got)
	}
}

var sstableCount = regexp.MustCompile(`SSTable count: (\d+)`)

func sstables(ctx context.Context, t *testing.T, n *Node, table string) string {
	t.Helper()
	out, err := n.NodeTool(ctx, "tablestats", table)
	if err != nil {
		t.Fatal(err)
	}
	m := sstableCount.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no SSTable count in nodetool tablestats:\n%s", out)
	}
	return m[1]
}

func rawSession(t *testing.T, n *Node) *gocql.Session {
	t.Helper()
	c := gocql.NewCluster(n.Addr())
	n.Secure.apply(c)
	c.Timeout = 20 * time.Second
	c.DisableInitialHostLookup = true
	s, err := c.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
