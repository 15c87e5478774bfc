package api

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// realEnv is a keyspace holding Shimmer milestones 17339-17340, ingested (with analytics)
// from the fake Hornet node serving the real data, and the API over it.
type realEnv struct {
	*env
	set *realdata.Set
}

// newRealEnv is a realEnv of the test's own; with -short it skips the test.
func newRealEnv(t testing.TB) *realEnv {
	t.Helper()
	st, _ := storetest.NewOrSkip(t, store.DefaultChunkSize)
	fake, set := nodetest.Start(t)
	cfg := ingest.Config{Start: set.Lowest(), StopAt: set.Highest()}
	if err := realnettest.Ingest(t, st, node.Config{URL: fake.URL()}, cfg, quiet); err != nil {
		t.Fatalf("ingest from the node: %v", err)
	}
	e := &env{st: st}
	e.api = New(st, Config{RequestTimeout: 10 * time.Second})
	e.srv = httptest.NewServer(e.api.Handler())
	t.Cleanup(e.srv.Close)
	return &realEnv{env: e, set: set}
}

// forEachBlock runs check on every block of both cones, with its milestone's index, and
// fails the test unless the cones held all 81 blocks.
func (e *realEnv) forEachBlock(t *testing.T, check func(index uint32, b realdata.Block)) {
	t.Helper()
	n := 0
	for index, ms := range e.set.Milestones {
		for _, b := range ms.Cone {
			n++
			check(index, b)
		}
	}
	if n != 38+43 {
		t.Fatalf("%d blocks checked, the cones hold 81", n)
	}
}

// outputOf decodes an output of the data (serialized from the file's JSON).
func outputOf(t testing.TB, raw []byte) chain.Output {
	t.Helper()
	o, err := chain.DecodeOutput(raw)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
