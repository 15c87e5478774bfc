package snapshot_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// Hornet's own test files, as its tools/intsnap and `hornet tools snap-gen` wrote them
// (integration-tests/createSnapshotFiles.sh).
func TestHornetFiles(t *testing.T) {
	const supply = 2_779_530_283_277_761 // alphanet1's token supply
	tests := []struct {
		name     string
		kind     snapshot.Kind
		outputs  int
		diffs    []uint32
		seps     int
		treasury uint64
		size     int64
	}{
		{"full_snapshot.bin", snapshot.KindFull, 1, nil, 1, 0, 304},
		{"migration_full_snapshot.bin", snapshot.KindFull, 1, nil, 1, 10_000_000_000, 304},
		{"snapshot_full_snapshot.bin", snapshot.KindFull, 2, []uint32{3, 2}, 10, supply - 30_000_000, 2613},
		{"snapshot_delta_snapshot.bin", snapshot.KindDelta, 0, []uint32{2, 3, 4, 5}, 10, 0, 4232},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := hornetFile(t, tt.name)
			c := snapshottest.MustReadAll(t, data)
			if c.Kind != tt.kind || len(c.Outputs) != tt.outputs || len(c.SEPs) != tt.seps || int64(len(data)) != tt.size {
				t.Fatalf("kind %v, %d outputs, %d SEPs, %d bytes", c.Kind, len(c.Outputs), len(c.SEPs), len(data))
			}
			if got := snapshottest.DiffIndexes(c.Diffs); !slices.Equal(got, tt.diffs) {
				t.Fatalf("diffs of milestones %v, want %v", got, tt.diffs)
			}
			checkDiffs(t, c.Diffs)
			if c.Full == nil {
				return
			}
			if c.Full.TreasuryAmount != tt.treasury || c.Full.Protocol.Params.TokenSupply != supply {
				t.Fatalf("treasury %d, token supply %d", c.Full.TreasuryAmount, c.Full.Protocol.Params.TokenSupply)
			}
			if sum := ledgerSum(t, c.Outputs) + c.Full.TreasuryAmount; sum != supply {
				t.Fatalf("outputs + treasury = %d, want the token supply %d", sum, supply)
			}
		})
	}
}

// checkDiffs: every output decodes, and every payload re-encodes to the file's bytes.
func checkDiffs(t *testing.T, diffs []*snapshot.Diff) {
	t.Helper()
	for _, d := range diffs {
		if !bytes.Equal(d.Milestone.Encode(), d.RawMilestone) {
			t.Fatalf("milestone %d does not re-encode to its bytes", d.Index())
		}
		created, consumed, err := d.Ledger()
		if err != nil {
			t.Fatalf("milestone %d: %v", d.Index(), err)
		}
		for _, ls := range consumed {
			if ls.SpentMilestoneIndex != d.Index() || ls.SpentTimestamp.Unix() != int64(d.Milestone.Timestamp) {
				t.Fatalf("milestone %d: spent at %d", d.Index(), ls.SpentMilestoneIndex)
			}
		}
		if len(created) != len(d.Created) {
			t.Fatal("created outputs lost")
		}
	}
}

func ledgerSum(t *testing.T, outputs []*snapshot.Output) uint64 {
	t.Helper()
	var sum uint64
	for _, o := range outputs {
		lo, err := o.Ledger()
		if err != nil {
			t.Fatal(err)
		}
		sum += lo.Output.Amount
	}
	return sum
}

// The delta file's fields as Hornet's tools/intsnap set them: milestone 5 has a receipt
// (migrating 10 Mi) whose treasury transaction spends the full file's treasury.
func TestHornetDeltaHeaderAndReceipt(t *testing.T) {
	c := snapshottest.MustReadAll(t, hornetFile(t, "snapshot_delta_snapshot.bin"))
	want := snapshot.DeltaHeader{TargetIndex: 5, SEPOffset: 3912, DiffCount: 4, SEPCount: 10}
	if *c.Delta != want {
		t.Fatalf("header %+v, want %+v", *c.Delta, want)
	}
	const treasury = 2_779_530_253_277_761
	for _, d := range c.Diffs[:3] {
		if d.Treasury != nil || d.Milestone.Receipt != nil {
			t.Fatalf("milestone %d: receipt or treasury input", d.Index())
		}
	}
	d := c.Diffs[3]
	rc := d.Milestone.Receipt
	if rc == nil || d.Treasury == nil {
		t.Fatal("milestone 5 lost its receipt or treasury input")
	}
	if rc.MigratedAt != 9001 || rc.Final || len(rc.Funds) != 1 || rc.Funds[0].Deposit != 10_000_000 {
		t.Fatalf("receipt %+v", rc)
	}
	if *d.Treasury != (snapshot.TreasuryInput{Amount: treasury}) || rc.Transaction.OutputAmount != treasury-10_000_000 {
		t.Fatalf("treasury input %+v, treasury output %d", *d.Treasury, rc.Transaction.OutputAmount)
	}
	// In the receipt, the treasury transaction comes behind a u32 length (46), as iota.go
	// writes it; TIP-34's table shows none. Then payload type 4, input type 1.
	if !bytes.Contains(d.RawMilestone, []byte{46, 0, 0, 0, 4, 0, 0, 0, 1}) {
		t.Fatal("no length-prefixed treasury transaction in the receipt")
	}
}

// The full file that the delta builds on: ledger 3, target 1, diffs 3 and 2 rolling the
// ledger back (each moves both outputs to new IDs).
func TestHornetFullHeader(t *testing.T) {
	c := snapshottest.MustReadAll(t, hornetFile(t, "snapshot_full_snapshot.bin"))
	h := c.Full
	if h.LedgerIndex != 3 || h.TargetIndex != 1 || h.GenesisIndex != 0 || h.OutputCount != 2 || h.DiffCount != 2 || h.SEPCount != 10 {
		t.Fatalf("header %+v", h)
	}
	p := h.Protocol
	want := chain.ProtocolParameters{Version: 2, NetworkName: "alphanet1", Bech32HRP: "atoi", MinPoWScore: 10,
		BelowMaxDepth: 15, TokenSupply: 2_779_530_283_277_761}
	if p.TargetIndex != 0 || p.ProtocolVersion != 2 || p.Params != want {
		t.Fatalf("protocol option %+v", p)
	}
	if !bytes.Equal(p.Raw, chain.EncodeProtocolParameters(want)) {
		t.Fatal("raw parameters differ from their encoding")
	}
	if c.SEPs[0] != (chain.MessageID{}) {
		t.Fatal("the first SEP is the zero block ID")
	}
}

// The strongest independent check: the Writer reproduces Hornet's files byte for byte
// (and the real-data file), from what the Reader read.
func TestRewriteIdentical(t *testing.T) {
	for name, data := range allFiles(t) {
		t.Run(name, func(t *testing.T) {
			got, err := write(snapshottest.MustReadAll(t, data))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("rewritten file differs (%d bytes, want %d) from byte %d", len(got), len(data), snapshottest.FirstDiff(got, data))
			}
		})
	}
}

// The Writer builds the same bytes from decoded values alone (Raw fields dropped).
func TestRewriteFromDecodedValues(t *testing.T) {
	for name, data := range allFiles(t) {
		t.Run(name, func(t *testing.T) {
			c := snapshottest.MustReadAll(t, data)
			if c.Full != nil {
				c.Full.Protocol.Raw = nil
			}
			for _, d := range c.Diffs {
				d.RawMilestone = nil
			}
			got, err := write(c)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("rewritten file differs from byte %d", snapshottest.FirstDiff(got, data))
			}
		})
	}
}
