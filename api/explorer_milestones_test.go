package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testExplorerBlocks: each milestone's blocks, by index and by ID, are Truth's cone in
// white-flag order (sort=newest, the default: reversed), with the payload type of each message.
func testExplorerBlocks(t *testing.T, e *env, _ *explorerWant) {
	for i, m := range e.truth.Milestones {
		var want []explorer.BlockJSON
		for wf, id := range m.Messages {
			b := explorer.BlockJSON{BlockID: id.String(), WhiteFlagIndex: int32(wf)}
			if pt, ok := payloadTypeOf(e.truth.Messages[id].Message); ok {
				b.PayloadType = &pt
			}
			want = append(want, b)
		}
		path := fmt.Sprintf("%s/milestones/by-index/%d/blocks?sort=oldest", explorerPath, m.Index)
		if i%3 == 1 {
			path = fmt.Sprintf("%s/milestones/%s/blocks?sort=oldest", explorerPath, m.MilestoneID)
		}
		equalBlocks(t, path, blockPages(t, e, path, 1+i%7), want)
		if i%5 == 0 {
			newest := fmt.Sprintf("%s/milestones/by-index/%d/blocks?sort=newest", explorerPath, m.Index)
			if i%2 == 0 {
				newest = fmt.Sprintf("%s/milestones/%s/blocks?", explorerPath, m.MilestoneID) // the default
			}
			slices.Reverse(want)
			equalBlocks(t, newest, blockPages(t, e, newest, 4), want)
		}
	}
	if code, _ := e.fetch(t, fmt.Sprintf("%s/milestones/by-index/%d/blocks", explorerPath, chainLength+5)); code != http.StatusNotFound {
		t.Errorf("blocks of a milestone not indexed: %d, want 404", code)
	}
	unknown := explorerPath + "/milestones/0x" + strings.Repeat("ab", 32) + "/blocks"
	if code, _ := e.fetch(t, unknown); code != http.StatusNotFound {
		t.Errorf("blocks of an unknown milestone ID: %d, want 404", code)
	}
}

func payloadTypeOf(m *chain.Message) (uint32, bool) {
	switch m.Payload.(type) {
	case *chain.TaggedData:
		return 5, true
	case *chain.Transaction:
		return 6, true
	case *chain.MilestonePayload:
		return 7, true
	}
	return 0, false
}

func blockPages(t *testing.T, e *env, path string, size int) []explorer.BlockJSON {
	var out []explorer.BlockJSON
	for _, p := range getPages(t, e, path, size, func(p *explorer.MilestoneBlocksJSON) string { return p.Cursor }) {
		out = append(out, p.Blocks...)
	}
	return out
}

func equalBlocks(t *testing.T, what string, got, want []explorer.BlockJSON) {
	t.Helper()
	show := func(bs []explorer.BlockJSON) string {
		var parts []string
		for _, b := range bs {
			pt := "null"
			if b.PayloadType != nil {
				pt = fmt.Sprint(*b.PayloadType)
			}
			parts = append(parts, fmt.Sprintf("%d:%s:%s", b.WhiteFlagIndex, b.BlockID[:10], pt))
		}
		return strings.Join(parts, " ")
	}
	if show(got) != show(want) {
		t.Errorf("%s:\n got %s\nwant %s", what, show(got), show(want))
	}
}

// testExplorerMilestoneUpdates: each milestone's ledger updates, by index and by ID, are
// the outputs Truth says it created (first, by ID) and consumed.
func testExplorerMilestoneUpdates(t *testing.T, e *env, _ *explorerWant) {
	created, consumed := map[uint32][]string{}, map[uint32][]string{}
	for id, ot := range e.truth.Outputs {
		if ot.Output.Kind == chain.OutputLegacy {
			continue
		}
		created[ot.MilestoneIndex] = append(created[ot.MilestoneIndex], id.String())
		if ot.Spent {
			consumed[ot.SpentMilestone] = append(consumed[ot.SpentMilestone], id.String())
		}
	}
	total := 0
	for i, m := range e.truth.Milestones {
		var want []string
		for _, id := range slices.Sorted(slices.Values(created[m.Index])) {
			want = append(want, "created "+id)
		}
		for _, id := range slices.Sorted(slices.Values(consumed[m.Index])) {
			want = append(want, "spent "+id)
		}
		path := fmt.Sprintf("%s/milestones/by-index/%d/ledger-updates?", explorerPath, m.Index)
		if i%2 == 1 {
			path = fmt.Sprintf("%s/ledger/updates/by-milestone/%s?", explorerPath, m.MilestoneID)
		}
		var got []string
		for _, p := range getPages(t, e, path, 1+i%5, func(p *explorer.MilestoneUpdatesJSON) string { return p.Cursor }) {
			if p.MilestoneIndex != m.Index {
				t.Fatalf("%s: milestoneIndex %d", path, p.MilestoneIndex)
			}
			for _, it := range p.Items {
				got = append(got, map[bool]string{false: "created ", true: "spent "}[it.IsSpent]+it.OutputID)
				ot := e.truth.Outputs[mustOutputID(t, it.OutputID)]
				if ot == nil || it.Amount != explorer.U64(ot.Output.Amount) || it.Kind != ot.Output.Kind.String() ||
					(ot.Output.Kind != chain.OutputAlias && it.Address != addrText(ot.Output.Address)) {
					t.Errorf("%s: item %+v does not match its output", path, it)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", path, got, want)
		}
		total += len(want)
	}
	t.Logf("%d ledger updates over %d milestones", total, len(e.truth.Milestones))
}

func mustOutputID(t *testing.T, s string) chain.OutputID {
	id, err := chain.ParseOutputID(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
