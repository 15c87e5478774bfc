package cql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// A wrong number of values is refused before the driver sees it: gocql's token-aware
// routing would panic on too few.
func TestWrongNumberOfValuesIsRefused(t *testing.T) {
	s := cql.Wrap(nil, cql.DefaultConfig())
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"write": func() error { return s.Write(ctx, cql.InsertSync, 1, int32(0)) },
		"exec":  func() error { return s.Exec(ctx, cql.InsertSync, int32(0), int32(1), int8(1), int8(1), "extra") },
		"scan":  func() error { return s.Scan(ctx, cql.MessageRaw, nil) },
		"batch": func() error {
			var b cql.Batch
			b.Add(cql.InsertSync, int32(0))
			b.Add(cql.InsertSync, int32(0))
			return s.WriteBatch(ctx, &b, 1)
		},
	} {
		err := call()
		if err == nil || !strings.Contains(err.Error(), "bind markers") {
			t.Errorf("%s: got %v, want a bind-count error", name, err)
		}
	}
	if cql.InsertSync.Binds != 4 {
		t.Errorf("sync.insert has %d binds, want 4", cql.InsertSync.Binds)
	}
}
