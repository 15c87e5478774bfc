package snapshot_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// expectedFile is the part of snapshot_dev_full_17338.expected.json these tests check.
type expectedFile struct {
	Size   int
	SHA256 string `json:"sha256"`
	Header struct {
		Version, Type            int
		GenesisMilestoneIndex    uint32
		TargetMilestoneIndex     uint32
		TargetMilestoneTimestamp uint32
		TargetMilestoneID        string `json:"targetMilestoneId"`
		LedgerMilestoneIndex     uint32
		TreasuryOutput           struct {
			MilestoneID string `json:"milestoneId"`
			Amount      string
		}
		ProtocolParamsOption struct {
			TargetMilestoneIndex uint32
			ProtocolVersion      uint8
			Params               string
		}
		OutputCount        uint64
		MilestoneDiffCount uint32
		SEPCount           uint16 `json:"sepCount"`
	}
	Outputs map[string]expectedOutput
}

type expectedOutput struct {
	Kind                     string
	Amount                   string
	TransactionID            string `json:"transactionId"`
	OutputIndex              uint16
	BlockID                  string `json:"blockId"`
	MilestoneIndexBooked     uint32
	MilestoneTimestampBooked uint32
	Bytes                    string
}

func loadExpected(t *testing.T) *expectedFile {
	t.Helper()
	var e expectedFile
	if err := json.Unmarshal(snapshottest.Testdata(t, "snapshot_dev_full_17338.expected.json"), &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parseU64(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRealFileHeader(t *testing.T) {
	e, data := loadExpected(t), snapshottest.Testdata(t, snapshottest.RealFile)
	if sum := sha256.Sum256(data); len(data) != e.Size || hex.EncodeToString(sum[:]) != e.SHA256 {
		t.Fatalf("file of %d bytes, sha256 %x: not the one the expectations describe", len(data), sum)
	}
	h, w := snapshottest.MustReadAll(t, data).Full, e.Header
	if h == nil || w.Version != 2 || w.Type != 0 {
		t.Fatal("not a full file")
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"genesis index", h.GenesisIndex, w.GenesisMilestoneIndex},
		{"target index", h.TargetIndex, w.TargetMilestoneIndex},
		{"target timestamp", h.TargetTimestamp, w.TargetMilestoneTimestamp},
		{"target milestone ID", h.TargetMilestoneID.String(), w.TargetMilestoneID},
		{"ledger index", h.LedgerIndex, w.LedgerMilestoneIndex},
		{"treasury milestone ID", h.TreasuryMilestoneID.String(), w.TreasuryOutput.MilestoneID},
		{"treasury amount", h.TreasuryAmount, parseU64(t, w.TreasuryOutput.Amount)},
		{"option target index", h.Protocol.TargetIndex, w.ProtocolParamsOption.TargetMilestoneIndex},
		{"option protocol version", h.Protocol.ProtocolVersion, w.ProtocolParamsOption.ProtocolVersion},
		{"option params", hex.EncodeToString(h.Protocol.Raw), hex.EncodeToString(unhex(t, w.ProtocolParamsOption.Params))},
		{"params", h.Protocol.Params, chain.Shimmer().Params},
		{"outputs count", h.OutputCount, w.OutputCount},
		{"diffs count", h.DiffCount, w.MilestoneDiffCount},
		{"SEPs count", h.SEPCount, w.SEPCount},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// Every output of the file against the expectations, and the ledger's total.
func TestRealFileOutputs(t *testing.T) {
	e := loadExpected(t)
	c := snapshottest.MustReadAll(t, snapshottest.Testdata(t, snapshottest.RealFile))
	if len(c.Outputs) != 38 || len(e.Outputs) != 38 || len(c.Diffs) != 0 {
		t.Fatalf("%d outputs (%d expected), %d diffs", len(c.Outputs), len(e.Outputs), len(c.Diffs))
	}
	seen := map[chain.OutputID]bool{}
	for _, o := range c.Outputs {
		w, ok := e.Outputs[o.OutputID.String()]
		if !ok || seen[o.OutputID] {
			t.Fatalf("output %s unexpected or repeated", o.OutputID)
		}
		seen[o.OutputID] = true
		lo, err := o.Ledger()
		if err != nil {
			t.Fatal(err)
		}
		tx := o.OutputID.TransactionID()
		switch {
		case tx.String() != w.TransactionID || o.OutputID.Index() != w.OutputIndex:
			t.Errorf("%s: transaction or index differ", o.OutputID)
		case o.BlockID.String() != w.BlockID || lo.MessageID != o.BlockID:
			t.Errorf("%s: block ID %s, want %s", o.OutputID, o.BlockID, w.BlockID)
		case o.BookedIndex != w.MilestoneIndexBooked || lo.Timestamp.Unix() != int64(w.MilestoneTimestampBooked):
			t.Errorf("%s: booked %d at %d", o.OutputID, o.BookedIndex, o.BookedTimestamp)
		case !bytes.Equal(o.Raw, unhex(t, w.Bytes)) || lo.Output.Kind.String() != w.Kind:
			t.Errorf("%s: bytes or kind (%s) differ", o.OutputID, lo.Output.Kind)
		case lo.Output.Amount != parseU64(t, w.Amount):
			t.Errorf("%s: amount %d, want %s", o.OutputID, lo.Output.Amount, w.Amount)
		}
	}
	const supply = 1_813_620_509_061_365
	if sum := ledgerSum(t, c.Outputs) + c.Full.TreasuryAmount; sum != supply {
		t.Fatalf("outputs + treasury = %d, want the token supply %d", sum, supply)
	}
}

func TestRealFileSEPs(t *testing.T) {
	c := snapshottest.MustReadAll(t, snapshottest.Testdata(t, snapshottest.RealFile))
	seen := map[chain.MessageID]bool{}
	for _, id := range c.SEPs {
		if seen[id] || id == (chain.MessageID{}) {
			t.Fatalf("SEP %s repeated or zero", id)
		}
		seen[id] = true
	}
	if len(seen) != 48 {
		t.Fatalf("%d SEPs, want 48", len(seen))
	}
}
