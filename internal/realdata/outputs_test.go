package realdata

import (
	"bytes"
	"encoding/binary"
	"testing"

	"golang.org/x/crypto/blake2b"
)

// TestRentBytes: every serialized output has the length Chronicle counted for its storage
// deposit (num_data_bytes = output length + 32 block ID + 4 + 4 milestone index and timestamp).
func TestRentBytes(t *testing.T) {
	s := mustLoad(t)
	for idx, m := range s.Milestones {
		outs := append([]Output{}, m.Created...)
		for _, sp := range m.Consumed {
			outs = append(outs, sp.Output)
		}
		for _, o := range outs {
			if uint32(len(o.Raw))+40 != o.RentDataBytes || o.RentKeyBytes != 34 {
				t.Errorf("%d: output %x: %d bytes, rent data %d key %d", idx, o.OutputID, len(o.Raw), o.RentDataBytes, o.RentKeyBytes)
			}
		}
	}
}

// TestCreatedOutputsInBlocks: the created outputs of each included transaction, serialized from
// JSON and concatenated by index, are exactly the outputs field of the transaction in the raw
// block (the bytes before and after them parse as the TIP-20 frame), and their transaction ID is
// the hash of that payload. Every created record belongs to one of these transactions.
func TestCreatedOutputsInBlocks(t *testing.T) {
	s := mustLoad(t)
	for idx, m := range s.Milestones {
		payloads, blockIDs := includedTxs(t, m.Cone)
		byTx := map[[32]byte][]Output{}
		for _, o := range m.Created {
			byTx[[32]byte(o.OutputID[:32])] = append(byTx[[32]byte(o.OutputID[:32])], o)
		}
		for i, p := range payloads {
			txID := blake2b.Sum256(p)
			checkTxOutputs(t, p, byTx[txID], blockIDs[i])
			delete(byTx, txID)
		}
		if len(byTx) != 0 {
			t.Errorf("%d: %d created transactions without an included block", idx, len(byTx))
		}
	}
}

func checkTxOutputs(t *testing.T, p []byte, outs []Output, blockID [32]byte) {
	t.Helper()
	l, err := parseTxHead(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != l.outputsCount {
		t.Fatalf("tx in block %x: %d outputs, %d created records", blockID, l.outputsCount, len(outs))
	}
	off := l.outputsAt
	for i := range outs {
		o := findIndex(outs, uint16(i))
		if o == nil || o.BlockID != blockID {
			t.Fatalf("tx in block %x: output %d missing or booked in another block", blockID, i)
		}
		if !bytes.HasPrefix(p[off:], o.Raw) {
			t.Fatalf("output %x: serialized bytes differ from the block's", o.OutputID)
		}
		off += len(o.Raw)
	}
	if err := parseTxTail(p, off, len(l.inputs)); err != nil {
		t.Errorf("tx in block %x: %v", blockID, err)
	}
}

func findIndex(outs []Output, i uint16) *Output {
	for k := range outs {
		if binary.LittleEndian.Uint16(outs[k].OutputID[32:]) == i {
			return &outs[k]
		}
	}
	return nil
}

// TestConsumedOutputs: the inputs of the included transactions are exactly the consumed
// records, spent by that transaction, and the inputs commitment computed from the consumed
// outputs serialized from JSON matches the one in the block (so those bytes are right too, for
// outputs created long before these milestones).
func TestConsumedOutputs(t *testing.T) {
	s := mustLoad(t)
	for idx, m := range s.Milestones {
		spent := map[[34]byte]Spent{}
		for _, sp := range m.Consumed {
			spent[sp.OutputID] = sp
		}
		payloads, _ := includedTxs(t, m.Cone)
		for _, p := range payloads {
			txID := blake2b.Sum256(p)
			l, err := parseTxHead(p)
			if err != nil {
				t.Fatal(err)
			}
			var hashes []byte
			for _, in := range l.inputs {
				sp, ok := spent[in]
				if !ok || sp.SpentBy != txID || sp.Spent != idx || sp.SpentTimestamp != m.Timestamp {
					t.Fatalf("%d: input %x not consumed by tx %x here", idx, in, txID)
				}
				h := blake2b.Sum256(sp.Raw)
				hashes = append(hashes, h[:]...)
				delete(spent, in)
			}
			if blake2b.Sum256(hashes) != l.commitment {
				t.Errorf("%d: tx %x: inputs commitment differs", idx, txID)
			}
		}
		if len(spent) != 0 {
			t.Errorf("%d: %d consumed records not spent by an included transaction", idx, len(spent))
		}
	}
}
