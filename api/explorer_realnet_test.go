package api

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// TestExplorerRealNetwork reads Shimmer milestones 17339-17340 back through the
// explorer routes: each milestone's blocks in white-flag order with the payload type of
// its bytes, and its ledger updates as the data file's created and consumed outputs.
func TestExplorerRealNetwork(t *testing.T) {
	e := newRealEnv(t)
	blocks, updates := 0, 0
	for index, ms := range e.set.Milestones {
		var want []string
		for _, b := range ms.Cone {
			p, err := realdata.BlockPayload(b.Raw)
			if err != nil {
				t.Fatal(err)
			}
			pt := "null"
			if t := realdata.PayloadType(p); t != 0 {
				pt = fmt.Sprint(t)
			}
			want = append(want, fmt.Sprintf("%d %s %s", b.WhiteFlagIndex, chain.MessageID(b.ID), pt))
		}
		var got []string
		path := fmt.Sprintf("%s/milestones/%s/blocks?sort=oldest", explorerPath, chain.MilestoneID(ms.MilestoneID))
		for _, p := range getPages(t, e.env, path, 10, func(p *explorer.MilestoneBlocksJSON) string { return p.Cursor }) {
			for _, b := range p.Blocks {
				pt := "null"
				if b.PayloadType != nil {
					pt = fmt.Sprint(*b.PayloadType)
				}
				got = append(got, fmt.Sprintf("%d %s %s", b.WhiteFlagIndex, b.BlockID, pt))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("milestone %d blocks:\n got %v\nwant %v", index, got, want)
		}
		blocks += len(want)

		var wantUpdates, gotUpdates []string
		for _, o := range ms.Created {
			wantUpdates = append(wantUpdates, "created "+chain.OutputID(o.OutputID).String())
		}
		for _, o := range ms.Consumed {
			wantUpdates = append(wantUpdates, "spent "+chain.OutputID(o.OutputID).String())
		}
		path = fmt.Sprintf("%s/milestones/by-index/%d/ledger-updates?", explorerPath, index)
		for _, p := range getPages(t, e.env, path, 7, func(p *explorer.MilestoneUpdatesJSON) string { return p.Cursor }) {
			for _, it := range p.Items {
				gotUpdates = append(gotUpdates, map[bool]string{false: "created ", true: "spent "}[it.IsSpent]+it.OutputID)
			}
		}
		slices.Sort(wantUpdates)
		if !slices.Equal(slices.Sorted(slices.Values(gotUpdates)), wantUpdates) {
			t.Errorf("milestone %d ledger updates:\n got %v\nwant %v", index, gotUpdates, wantUpdates)
		}
		updates += len(wantUpdates)
	}
	if blocks != 81 || updates == 0 {
		t.Fatalf("%d blocks (want 81) and %d ledger updates checked", blocks, updates)
	}
}
