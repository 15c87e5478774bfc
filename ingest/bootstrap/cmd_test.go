package bootstrap

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
)

// TestRunGoesOnAfterTheBootstrap: the commands as an operator types them. `indexer
// bootstrap` loads the real Shimmer snapshot at 17338, then `indexer run -source node`
// without -start-at indexes 17339 and 17340 from the fake node, and nothing before. The
// node is pruned at 17338, as the node that wrote the snapshot is.
func TestRunGoesOnAfterTheBootstrap(t *testing.T) {
	bin := bintest.Indexer(t)
	st, cfg := storetest.New(t, 0)
	fake, _ := nodetest.Start(t)
	if err := fake.SetPruningIndex(17338); err != nil {
		t.Fatal(err)
	}
	db := []string{"-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ",")}
	steps := [][]string{
		append([]string{"bootstrap", "-snapshot", realSnapshot, "-ops-addr", ""}, db...),
		append([]string{"run", "-source", "node", "-node-url", fake.URL(), "-stop-at", "17340", "-follow=false",
			"-ops-addr", "", "-analytics-ledger=false"}, db...),
	}
	for _, args := range steps {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("indexer %s: %v\n%s", args[0], err, out)
		}
	}
	s, err := st.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Oldest != 17339 || s.Newest != 17340 || len(s.Gaps) != 0 {
		t.Errorf("synced %d..%d, gaps %v; want 17339..17340", s.Oldest, s.Newest, s.Gaps)
	}
	c, err := st.LedgerCoverage(context.Background())
	if err != nil || !c.Complete || c.Since != 17338 || c.Index != 17340 {
		t.Errorf("coverage %+v, %v; want complete since 17338 at 17340", c, err)
	}
}
