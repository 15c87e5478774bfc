package realdata

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func TestLoadCounts(t *testing.T) {
	s := mustLoad(t)
	if again, _ := Load(); again != s {
		t.Error("Load parsed twice")
	}
	want := map[uint32][3]int{17339: {38, 32, 12}, 17340: {43, 8, 8}}
	if len(s.Milestones) != len(want) || s.Lowest() != 17339 || s.Highest() != 17340 {
		t.Fatalf("milestones %d, lowest %d, highest %d", len(s.Milestones), s.Lowest(), s.Highest())
	}
	for idx, w := range want {
		m := s.Milestones[idx]
		if got := [3]int{len(m.Cone), len(m.Created), len(m.Consumed)}; got != w {
			t.Errorf("%d: cone, created, consumed = %v, want %v", idx, got, w)
		}
		for i, b := range m.Cone {
			if b.WhiteFlagIndex != uint32(i) || b.ReferencedBy != idx {
				t.Errorf("%d: cone[%d] has white-flag index %d, referenced by %d", idx, i, b.WhiteFlagIndex, b.ReferencedBy)
			}
		}
	}
}

func TestLoadConfig(t *testing.T) {
	s := mustLoad(t)
	p := s.Protocol
	rent := chain.RentStructure{VByteCost: 100, VByteFactorData: 1, VByteFactorKey: 10}
	if p.Version != 2 || p.NetworkName != "shimmer" || p.Bech32HRP != "smr" || p.MinPoWScore != 1500 ||
		p.BelowMaxDepth != 15 || p.TokenSupply != 1813620509061365 || p.RentStructure != rent {
		t.Errorf("protocol %+v", p)
	}
	if len(s.KeyRanges) != 10 || s.KeyThreshold != 7 {
		t.Errorf("%d key ranges, threshold %d", len(s.KeyRanges), s.KeyThreshold)
	}
	want := chain.BaseToken{Name: "Shimmer", TickerSymbol: "SMR", Unit: "SMR", Subunit: "glow", Decimals: 6}
	if s.BaseToken != want {
		t.Errorf("base token %+v", s.BaseToken)
	}
}

// TestBlockStates pins the states and payload kinds of every block of both files.
func TestBlockStates(t *testing.T) {
	s := mustLoad(t)
	b2, err := Blocks2418187()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		blocks []Block
		want   map[uint32]int // payload type -> count
	}{
		{"17339", s.Milestones[17339].Cone, map[uint32]int{5: 32, 6: 5, 7: 1}},
		{"17340", s.Milestones[17340].Cone, map[uint32]int{5: 35, 6: 7, 7: 1}},
		{"2418187", b2, map[uint32]int{5: 86, 6: 1, 7: 1}},
	}
	for _, c := range cases {
		got := map[uint32]int{}
		for _, b := range c.blocks {
			p, err := BlockPayload(b.Raw)
			if err != nil {
				t.Fatal(err)
			}
			got[PayloadType(p)]++
			checkState(t, c.name, b, PayloadType(p))
		}
		if len(got) != len(c.want) || got[5] != c.want[5] || got[6] != c.want[6] || got[7] != c.want[7] {
			t.Errorf("%s: payload types %v, want %v", c.name, got, c.want)
		}
	}
}

// checkState: in this data every transaction is included, the rest noTransaction, no conflicts,
// and only milestone blocks carry a milestone index (the previous milestone's).
func checkState(t *testing.T, name string, b Block, typ uint32) {
	t.Helper()
	wantState := map[bool]string{true: "included", false: "noTransaction"}[typ == 6]
	if b.InclusionState != wantState || b.ConflictReason != 0 {
		t.Errorf("%s: block %x (type %d): %s / %d", name, b.ID, typ, b.InclusionState, b.ConflictReason)
	}
	if (typ == 7) != (b.MilestoneIndex != 0) || (typ == 7 && b.MilestoneIndex != b.ReferencedBy-1) {
		t.Errorf("%s: block %x (type %d) milestone index %d", name, b.ID, typ, b.MilestoneIndex)
	}
}
