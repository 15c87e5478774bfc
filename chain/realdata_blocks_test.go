package chain_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Every real block decodes, re-encodes to the same bytes and hashes to its recorded ID.

func TestRealBlocksRoundTrip(t *testing.T) {
	blocks := allRealBlocks(t)
	if len(blocks) != 38+43+88 {
		t.Fatalf("%d blocks", len(blocks))
	}
	for _, b := range blocks {
		m := decodeReal(t, b)
		if !bytes.Equal(chain.EncodeMessage(m), b.Raw) {
			t.Fatalf("block %x: re-encoding differs", b.ID)
		}
		if chain.MessageIDOf(b.Raw) != b.ID || m.ID() != b.ID {
			t.Fatalf("block %x hashes to %s", b.ID, m.ID())
		}
		if !slices.Equal(m.Parents, toMessageIDs(b.Parents)) {
			t.Fatalf("block %x: parents differ from the metadata", b.ID)
		}
		if err := chain.ValidateMessage(m, b.Raw); err != nil {
			t.Fatalf("block %x: %v", b.ID, err)
		}
	}
}

func toMessageIDs(in [][32]byte) []chain.MessageID {
	out := make([]chain.MessageID, len(in))
	for i, b := range in {
		out[i] = b
	}
	return out
}

func TestRealPayloadKinds(t *testing.T) {
	cases := []struct {
		name                    string
		blocks                  []realdata.Block
		tagged, txs, milestones int
	}{
		{"17339", realMilestone(t, 17339).Cone, 32, 5, 1},
		{"17340", realMilestone(t, 17340).Cone, 35, 7, 1},
		{"2418187", realBlocks2418187(t), 86, 1, 1},
	}
	for _, c := range cases {
		var tagged, txs, milestones int
		for _, b := range c.blocks {
			switch p := decodeReal(t, b).Payload.(type) {
			case *chain.TaggedData:
				tagged++
			case *chain.Transaction:
				txs++
			case *chain.MilestonePayload:
				milestones++
				if b.MilestoneIndex != p.Index || !bytes.HasSuffix(b.Raw, make([]byte, 8)) {
					t.Errorf("%s: milestone block %x: index %d/%d, nonce not 0", c.name, b.ID, b.MilestoneIndex, p.Index)
				}
			}
		}
		if tagged != c.tagged || txs != c.txs || milestones != c.milestones {
			t.Errorf("%s: %d tagged, %d transactions, %d milestones", c.name, tagged, txs, milestones)
		}
	}
}

// Transaction nonces use the whole uint64 range (stardust-wire.md section 2).
func TestRealNonceAbove63Bits(t *testing.T) {
	for _, b := range allRealBlocks(t) {
		if decodeReal(t, b).Nonce > 1<<63 {
			return
		}
	}
	t.Fatal("no block with a nonce above 2^63")
}
