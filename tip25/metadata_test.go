package tip25

import (
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// referenced is the Referenced view of a real block's recorded metadata.
func referenced(b realdata.Block) Referenced {
	return Referenced{MilestoneIndex: b.ReferencedBy, WhiteFlagIndex: b.WhiteFlagIndex, State: b.InclusionState,
		ConflictReason: b.ConflictReason, CarriedMilestone: b.MilestoneIndex}
}

func TestBlockMetadataJSON(t *testing.T) {
	var milestoneBlock, example realdata.Block
	for _, b := range realMilestones(t)[1].Cone { // 17340: white-flag 0 carries milestone 17339
		if b.WhiteFlagIndex == 0 {
			milestoneBlock = b
		}
	}
	for _, b := range realMilestones(t)[0].Cone {
		if b.WhiteFlagIndex == 3 {
			example = b
		}
	}
	parents := func(b realdata.Block) []chain.MessageID {
		out := make([]chain.MessageID, len(b.Parents))
		for i, p := range b.Parents {
			out[i] = p
		}
		return out
	}
	got := string(marshal(t, BlockMetadata(example.ID, parents(example), referenced(example))))
	want := `{"blockId":"` + exampleBlockID + `","parents":["0x1880f601afb0907cfc84712a7730df6bc7924bf8af8a70326300a1ceb7c685ab",` +
		`"0x39381eb9c51bb12f25f3d9c99c8770f5ce89a2f3d085bd36f639a438a211f4f1","0x874e2d50b95ecf932308dd530b234db9682793d7011572684c6d4dd99e8e8c1d",` +
		`"0xec7939d0186b32ef9588217a4fbba950f8495c2fdc5af1c98c21f1fd5feec70f"],"isSolid":true,"referencedByMilestoneIndex":17339,` +
		`"ledgerInclusionState":"included","whiteFlagIndex":3}`
	if got != want {
		t.Errorf("example block metadata:\n got %s\nwant %s", got, want)
	}
	got = string(marshal(t, BlockMetadata(milestoneBlock.ID, parents(milestoneBlock), referenced(milestoneBlock))))
	for _, w := range []string{`"referencedByMilestoneIndex":17340,"milestoneIndex":17339,"ledgerInclusionState":"noTransaction","whiteFlagIndex":0}`} {
		if !strings.HasSuffix(got, w) {
			t.Errorf("milestone block metadata %s lacks %s", got, w)
		}
	}
	conflict := referenced(example)
	conflict.State, conflict.ConflictReason = LedgerConflicting, 1
	got = string(marshal(t, BlockMetadata(example.ID, nil, conflict)))
	if !strings.Contains(got, `"parents":[],`) || !strings.Contains(got, `"ledgerInclusionState":"conflicting","conflictReason":1,`) {
		t.Errorf("conflicting block metadata: %s", got)
	}
}

func TestOutputMetadataJSON(t *testing.T) {
	rec := realMilestones(t)[0].Consumed[0]
	id := chain.OutputID(rec.OutputID)
	spent := &Spent{TransactionID: rec.SpentBy, MilestoneIndex: rec.Spent, MilestoneTimestamp: rec.SpentTimestamp}
	meta := OutputMetadata(id, rec.BlockID, Booked{rec.Booked, rec.BookedTimestamp}, spent, 17340)
	o, err := chain.DecodeOutput(rec.Raw)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := OutputResponse(o, meta)
	if err != nil {
		t.Fatal(err)
	}
	got := string(marshal(t, resp))
	want := `{"metadata":{"blockId":"` + chain.MessageID(rec.BlockID).String() + `","transactionId":"` + id.TransactionID().String() +
		`","outputIndex":` + itoa(id.Index()) + `,"isSpent":true,"milestoneIndexSpent":17339,"milestoneTimestampSpent":` + itoa(rec.SpentTimestamp) +
		`,"transactionIdSpent":"` + chain.TransactionID(rec.SpentBy).String() + `","milestoneIndexBooked":` + itoa(rec.Booked) +
		`,"milestoneTimestampBooked":` + itoa(rec.BookedTimestamp) + `,"ledgerIndex":17340},"output":{"type":`
	if !strings.HasPrefix(got, want) {
		t.Errorf("spent output response:\n got %s\nwant %s...", got, want)
	}
	unspent := string(marshal(t, OutputMetadata(id, rec.BlockID, Booked{rec.Booked, rec.BookedTimestamp}, nil, 17340)))
	if strings.Contains(unspent, "IndexSpent") || strings.Contains(unspent, "TimestampSpent") ||
		strings.Contains(unspent, "IdSpent") || !strings.Contains(unspent, `"isSpent":false`) {
		t.Errorf("unspent output metadata carries spent fields: %s", unspent)
	}
}

func TestUTXOChangesAndErrorJSON(t *testing.T) {
	m := realMilestones(t)[0]
	var created, consumed []chain.OutputID
	for _, o := range m.Created {
		created = append(created, o.OutputID)
	}
	for _, o := range m.Consumed {
		consumed = append(consumed, o.OutputID)
	}
	got := string(marshal(t, UTXOChanges(m.Index, created, consumed)))
	if !strings.HasPrefix(got, `{"index":17339,"createdOutputs":["0x`) || strings.Count(got, `"0x`) != 32+12 {
		t.Errorf("utxo changes: %s", got)
	}
	if got := string(marshal(t, UTXOChanges(5, nil, nil))); got != `{"index":5,"createdOutputs":[],"consumedOutputs":[]}` {
		t.Errorf("empty utxo changes: %s", got)
	}
	if got := string(marshal(t, Error(404, "block not found"))); got != `{"error":{"code":"404","message":"block not found"}}` {
		t.Errorf("error body: %s", got)
	}
}

func itoa[T ~uint16 | ~uint32](v T) string { return u64(uint64(v)) }
