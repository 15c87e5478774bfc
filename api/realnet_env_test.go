package api

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// realEnv is a keyspace holding Shimmer milestones 17339-17340, ingested (with analytics)
// from the fake Hornet node serving the real data, and the API over it.
type realEnv struct {
	*env
	set *realdata.Set
}

func newRealEnv(t testing.TB) *realEnv {
	t.Helper()
	fake, set := nodetest.Start(t)
	src, err := node.New(node.Config{URL: fake.URL()})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := storetest.New(t, store.DefaultChunkSize)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := ingest.New(src, st, ingest.Config{Start: set.Lowest(), StopAt: set.Highest()}, nil, quiet)
	p.AddRows(analytics.Rows)
	if err := p.Run(ctx); err != nil {
		t.Fatalf("ingest from the node: %v", err)
	}
	e := &env{st: st}
	e.api = New(st, Config{RequestTimeout: 10 * time.Second})
	e.srv = httptest.NewServer(e.api.Handler())
	t.Cleanup(e.srv.Close)
	return &realEnv{env: e, set: set}
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
