//go:build faults

package faults_test

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// verifyClean ends a fault test with `indexer verify` over [1, tip]: what it finds is
// logged and repaired (milestones it marks for re-ingestion are ingested again), and a
// second verify must then be clean.
func verifyClean(t *testing.T, st *store.Store, tip uint32) {
	t.Helper()
	ctx := context.Background()
	report := func(d verify.Discrepancy) { t.Logf("verify: %+v", d) }
	sum, err := verify.Run(ctx, st, verify.Options{From: 1, To: tip, Repair: true, Report: report})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	t.Logf("verify -repair: %+v", sum)
	if sum.Discrepancies == 0 {
		return
	}
	if len(sum.Reingest) > 0 {
		ingestAll(t, st, tip)
	}
	again, err := verify.Run(ctx, st, verify.Options{From: 1, To: tip, Report: func(d verify.Discrepancy) {
		t.Errorf("after repair: %+v", d)
	}})
	if err != nil {
		t.Fatalf("verify after repair: %v", err)
	}
	if again.Milestones != int(tip) {
		t.Errorf("verify after repair checked %d synced milestones, want %d", again.Milestones, tip)
	}
}
