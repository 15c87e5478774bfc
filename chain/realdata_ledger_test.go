package chain_test

import (
	"bytes"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Included transactions against the ledger records, whose output bytes realdata
// serializes from the JSON with its own code.

func TestRealCreatedOutputs(t *testing.T) {
	forEachRealMilestone(t, func(t *testing.T, index uint32) {
		created := realMilestone(t, index).Created
		blocks, txs := realIncluded(t, index)
		n := 0
		for i, tx := range txs {
			for k, out := range tx.Outputs {
				rec := findOutput(created, chain.NewOutputID(tx.ID(), uint16(k)))
				switch {
				case rec == nil:
					t.Fatalf("output %s is not among the created records", chain.NewOutputID(tx.ID(), uint16(k)))
				case !bytes.Equal(chain.EncodeOutput(out), rec.Raw):
					t.Fatalf("output %s:\n codec %x\n data  %x", rec.OutputID, chain.EncodeOutput(out), rec.Raw)
				case rec.BlockID != blocks[i].ID || rec.Booked != index:
					t.Fatalf("output %s: block %x booked %d", chain.NewOutputID(tx.ID(), uint16(k)), rec.BlockID, rec.Booked)
				}
				n++
			}
		}
		if n != len(created) {
			t.Fatalf("included transactions create %d outputs, the data records %d", n, len(created))
		}
	})
}

func TestRealRecordedOutputsDecode(t *testing.T) {
	for _, index := range realMilestones {
		for _, raw := range recordedOutputs(t, index) {
			o, err := chain.DecodeOutput(raw)
			if err != nil || !bytes.Equal(chain.EncodeOutput(o), raw) {
				t.Fatalf("%d: output %x: %v", index, raw, err)
			}
		}
	}
}

// The inputs commitment is the hash of the hashes of the consumed outputs' bytes.
func TestRealInputsCommitments(t *testing.T) {
	for _, index := range realMilestones {
		consumed := realMilestone(t, index).Consumed
		_, txs := realIncluded(t, index)
		n := 0
		for _, tx := range txs {
			var hashes []byte
			for _, in := range tx.Inputs {
				rec := findSpent(consumed, in.OutputID())
				if rec == nil || rec.SpentBy != tx.ID() || rec.Spent != index {
					t.Fatalf("%d: input %s: record %+v", index, in.OutputID(), rec)
				}
				h := blake2b.Sum256(rec.Raw)
				hashes = append(hashes, h[:]...)
				n++
			}
			if blake2b.Sum256(hashes) != tx.InputsCommitment {
				t.Fatalf("%d: transaction %s: inputs commitment differs", index, tx.ID())
			}
		}
		if n != len(consumed) {
			t.Fatalf("%d: included transactions spend %d outputs, the data records %d", index, n, len(consumed))
		}
	}
}

func TestRealNetworkIDs(t *testing.T) {
	for _, index := range realMilestones {
		_, txs := realIncluded(t, index)
		for _, tx := range txs {
			if tx.NetworkID != chain.Shimmer().ID() {
				t.Fatalf("%d: transaction %s: network ID %d", index, tx.ID(), tx.NetworkID)
			}
		}
	}
}
