package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testTransactions reads every transaction: carriers, inputs, outputs, unlocks, spends,
// and the included message.
func testTransactions(t *testing.T, e *env) {
	pendingCarriers := map[chain.TransactionID][]chain.MessageID{}
	for _, um := range e.pending {
		if tx := um.Message.TransactionOf(); tx != nil {
			pendingCarriers[tx.ID()] = append(pendingCarriers[tx.ID()], um.ID)
		}
	}
	for id, tt := range e.truth.Transactions {
		var got tables.TransactionAnswer
		e.mustGet(t, "/transactions/"+id.String(), &got)
		carriers := append(append([]chain.MessageID{}, tt.Attachments...), pendingCarriers[id]...)
		var ids []string
		for _, m := range got.Messages {
			ids = append(ids, m.MessageID)
		}
		checkIDs(t, "carriers of "+id.String(), ids, carriers)
		tx := tt.Transaction
		if len(got.Inputs) != len(tx.Inputs) || len(got.Outputs) != len(tx.Outputs) ||
			len(got.Unlocks) != len(tx.Inputs)*len(carriers) {
			t.Errorf("%s: %d inputs, %d outputs, %d unlocks; want %d, %d, %d", id, len(got.Inputs), len(got.Outputs),
				len(got.Unlocks), len(tx.Inputs), len(tx.Outputs), len(tx.Inputs)*len(carriers))
		}
		e.checkSpends(t, &got)
		e.checkIncluded(t, tt.ID, tt.Included, tt.Milestone != 0)
	}
}

// checkSpends: an output the truth says was spent lists that spend, included.
func (e *env) checkSpends(t *testing.T, got *tables.TransactionAnswer) {
	t.Helper()
	for _, o := range got.Outputs {
		id, _ := chain.ParseOutputID(o.OutputID)
		ot := e.truth.Outputs[id]
		if ot == nil || !ot.Spent {
			continue
		}
		found := false
		for _, s := range o.SpentBy {
			found = found || s.TransactionID == ot.SpentBy.String() && s.LedgerInclusionState == "included"
		}
		if !found {
			t.Errorf("output %s: spentBy %+v lacks the included spend by %s", id, o.SpentBy, ot.SpentBy)
		}
	}
}

func (e *env) checkIncluded(t *testing.T, tx chain.TransactionID, included chain.MessageID, wasIncluded bool) {
	t.Helper()
	var got tables.MessageAnswer
	code := e.get(t, "/transactions/"+tx.String()+"/included-message", &got)
	switch {
	case !wasIncluded && code != http.StatusNotFound:
		t.Errorf("%s: never included, included-message answers %d", tx, code)
	case wasIncluded && (code != http.StatusOK || got.ID != included.String()):
		t.Errorf("%s: included-message %d %s, want %s", tx, code, got.ID, included)
	}
}

// testOutputByID reads every output of the chain by ID: creation, booking, spend.
func testOutputByID(t *testing.T, e *env) {
	sources := map[string]int{}
	for id, ot := range e.truth.Outputs {
		var got tables.OutputAnswer
		e.mustGet(t, "/outputs/"+id.String(), &got)
		sources[got.Source]++
		switch {
		case got.Output == nil || got.Output.Type != ot.Output.Kind.String() || got.MessageID != ot.MessageID.String():
			t.Errorf("%s: %s output from %s, want %s from %s", id, got.Output.Type, got.MessageID, ot.Output.Kind, ot.MessageID)
		case got.MilestoneIndex == nil || *got.MilestoneIndex != int32(ot.MilestoneIndex):
			t.Errorf("%s: booked at %v, want %d", id, got.MilestoneIndex, ot.MilestoneIndex)
		case got.Spent != ot.Spent || ot.Spent && got.TransactionIDSpent != ot.SpentBy.String():
			t.Errorf("%s: spent %t by %s, want %t by %s", id, got.Spent, got.TransactionIDSpent, ot.Spent, ot.SpentBy)
		case ot.Spent && got.Source == "transactions" && *got.MilestoneIndexSpent != int32(ot.SpentMilestone):
			t.Errorf("%s: spent at %v, want %d", id, got.MilestoneIndexSpent, ot.SpentMilestone)
		}
	}
	if sources["transactions"] == 0 || sources["legacy_outputs"] == 0 {
		t.Errorf("sources %v: want outputs found through transactions and (genesis) legacy_outputs", sources)
	}
}

// testLegacy lists the legacy outputs of the genesis addresses, then only unspent ones.
func testLegacy(t *testing.T, e *env) {
	addr := e.busiest(chain.OutputLegacy, "address")
	want := e.outputs(chain.OutputLegacy, hasRole("address", addr))
	for _, unspentOnly := range []bool{false, true} {
		path := "/legacy-outputs?address=" + addr
		if unspentOnly {
			path += "&unspent=true"
		}
		got := walkAll[tables.LegacyItemJSON](t, e, path, 2)
		n := 0
		for _, w := range want {
			if !unspentOnly || !w.spent {
				n++
			}
		}
		if len(got) != n || n == 0 && !unspentOnly {
			t.Errorf("%s: %d outputs, want %d", path, len(got), n)
		}
		for _, it := range got {
			id, _ := chain.ParseOutputID(it.OutputID)
			if ot := e.truth.Outputs[id]; ot == nil || it.Spent != ot.Spent || it.Address != addr {
				t.Errorf("%s: %+v does not match the truth", path, it)
			}
		}
	}
}

// testMilestones reads each milestone, a range, and the sync status.
func testMilestones(t *testing.T, e *env) {
	for _, ms := range e.truth.Milestones {
		var got tables.MilestoneJSON
		e.mustGet(t, "/milestones/"+rest.Itoa(int(ms.Index)), &got)
		carrier := ms.MessageID.String()
		if ms.Index == e.truth.UpTo {
			carrier = "" // the next milestone, which references it, is not indexed
		}
		if got.MilestoneID != ms.MilestoneID.String() || got.MessageID != carrier ||
			got.Timestamp != ms.Timestamp.Unix() {
			t.Errorf("milestone %d: %+v, want %s %s %d", ms.Index, got, ms.MilestoneID, carrier, ms.Timestamp.Unix())
		}
		if p := got.Payload; p == nil || p.Type != 7 || p.Index != ms.Index ||
			len(p.Signatures) != 3 || p.PreviousMilestoneID != ms.PreviousMilestoneID.String() {
			t.Errorf("milestone %d: payload %+v", ms.Index, p)
		}
	}
	var list rest.Page[tables.MilestoneJSON]
	e.mustGet(t, "/milestones?start=35&end=45", &list) // 41..45 are not indexed
	if len(list.Items) != 6 || list.Items[0].Index != 40 || list.Items[5].Index != 35 {
		t.Errorf("milestones 35..45: %+v, want 40 down to 35", list.Items)
	}
	// The list came from milestones_by_bucket (the pipeline found the keyspace empty and
	// recorded it as listed); a keyspace whose buckets are not filled yet reads milestone
	// by milestone, and must answer the same.
	if listed, err := rest.NewReads(e.st).MilestonesListed(context.Background()); !listed || err != nil {
		t.Errorf("milestones listed: %v, %v; want the buckets in use", listed, err)
	}
	oneByOne, err := rest.NewReads(e.st).MilestonesOneByOne(context.Background(), 35, 45)
	if err != nil {
		t.Fatal(err)
	}
	if len(oneByOne) != len(list.Items) {
		t.Errorf("milestone by milestone: %d milestones, the list %d", len(oneByOne), len(list.Items))
	}
	for i := range oneByOne {
		if i >= len(list.Items) || tables.NewMilestoneJSON(oneByOne[i]) != list.Items[i] {
			t.Errorf("milestone by milestone %d: %+v, the list has %+v", i, tables.NewMilestoneJSON(oneByOne[i]), list.Items)
		}
	}
	var st tables.SyncJSON
	e.mustGet(t, "/sync", &st)
	if st.Oldest != 1 || st.Newest != chainLength || len(st.Gaps) != 0 || len(st.Synced) != 1 || st.ChunkSize != testChunk {
		t.Errorf("sync: %+v, want 1..%d synced, no gaps", st, chainLength)
	}
}
