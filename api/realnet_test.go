package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// TestRealNetwork ingests Shimmer milestones 17339-17340 from a fake Hornet node serving
// the real data and reads everything back through the API, against the data file.
func TestRealNetwork(t *testing.T) {
	e := newRealEnv(t)
	t.Run("milestones", e.testMilestones)
	t.Run("blocks", e.testBlocks)
	t.Run("transactions", e.testTransactions)
	t.Run("created outputs", e.testCreated)
	t.Run("consumed outputs", e.testConsumed)
	t.Run("tags", e.testTags)
	t.Run("analytics", e.testAnalytics)
}

func (e *realEnv) testMilestones(t *testing.T) {
	carrier := e.set.Milestones[17340].Cone[0] // 17340's cone holds the block carrying 17339
	for index, ms := range e.set.Milestones {
		var got tables.MilestoneJSON
		e.mustGet(t, "/milestones/"+rest.Itoa(int(index)), &got)
		want := ""
		if index == 17339 {
			want = chain.MessageID(carrier.ID).String()
		}
		p := got.Payload
		if got.MilestoneID != chain.MilestoneID(ms.MilestoneID).String() || got.MessageID != want ||
			got.Timestamp != int64(ms.Timestamp) || p == nil || len(p.Signatures) != len(ms.Signatures) ||
			p.InclusionMerkleRoot != tables.HexText(ms.InclusionMerkleRoot[:]) || p.AppliedMerkleRoot != tables.HexText(ms.AppliedMerkleRoot[:]) {
			t.Errorf("milestone %d: %+v, want carrier %q", index, got, want)
		}
	}
	var m struct {
		Payload struct {
			Type  string `json:"type"`
			Index uint32 `json:"index"`
		} `json:"payload"`
	}
	e.mustGet(t, "/messages/"+chain.MessageID(carrier.ID).String(), &m)
	if m.Payload.Type != "milestone" || m.Payload.Index != 17339 {
		t.Errorf("the message carrying 17339: payload %+v", m.Payload)
	}
	if code := e.get(t, "/milestones/17338", nil); code != http.StatusNotFound {
		t.Errorf("milestone 17338 (its message known, itself not indexed): status %d, want 404", code)
	}
	var st tables.SyncJSON
	e.mustGet(t, "/sync", &st)
	if st.Oldest != 17339 || st.Newest != 17340 || len(st.Gaps) != 0 {
		t.Errorf("sync: %+v", st)
	}
}

// testBlocks: every block of both cones, its bytes, and its metadata (milestone,
// white-flag index, inclusion state).
func (e *realEnv) testBlocks(t *testing.T) {
	e.forEachBlock(t, func(index uint32, b realdata.Block) {
		id := chain.MessageID(b.ID).String()
		if raw := e.raw(t, "/messages/"+id+"/raw"); !bytes.Equal(raw, b.Raw) {
			t.Errorf("block %s: raw bytes differ", id)
		}
		var got tables.MessageAnswer
		e.mustGet(t, "/messages/"+id, &got)
		md := got.Metadata
		if got.ID != id || len(got.Parents) != len(b.Parents) || md.MilestoneIndex == nil ||
			*md.MilestoneIndex != int32(index) || *md.WhiteFlagIndex != int32(b.WhiteFlagIndex) ||
			md.LedgerInclusionState != b.InclusionState || *md.ConflictReason != int8(b.ConflictReason) {
			t.Errorf("block %s of %d: %+v", id, index, md)
		}
	})
}

func (e *realEnv) raw(t *testing.T, path string) []byte {
	t.Helper()
	status, body := e.fetch(t, path)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, status, body)
	}
	return body
}

// testTransactions: each included transaction, its outputs and the block including it.
func (e *realEnv) testTransactions(t *testing.T) {
	n := 0
	for _, ms := range e.set.Milestones {
		for _, b := range ms.Cone {
			if b.InclusionState != "included" {
				continue
			}
			n++
			m, err := chain.DecodeMessage(b.Raw)
			if err != nil {
				t.Fatal(err)
			}
			tx := m.TransactionOf()
			var inc tables.MessageAnswer
			e.mustGet(t, "/transactions/"+tx.ID().String()+"/included-message", &inc)
			var got tables.TransactionAnswer
			e.mustGet(t, "/transactions/"+tx.ID().String(), &got)
			if inc.ID != chain.MessageID(b.ID).String() || len(got.Outputs) != len(tx.Outputs) || len(got.Inputs) != len(tx.Inputs) {
				t.Errorf("transaction %s: included in %s, %d outputs, %d inputs", tx.ID(), inc.ID, len(got.Outputs), len(got.Inputs))
			}
		}
	}
	if n != 12 {
		t.Fatalf("%d included transactions in the data, want 12", n)
	}
}

// testCreated: every created output by its ID, and in the list of its owner's address.
func (e *realEnv) testCreated(t *testing.T) {
	n := 0
	for _, ms := range e.set.Milestones {
		for _, o := range ms.Created {
			n++
			id := chain.OutputID(o.OutputID).String()
			var got tables.OutputAnswer
			e.mustGet(t, "/outputs/"+id, &got)
			out := outputOf(t, o.Raw)
			owner := e.owner(out)
			if got.MessageID != chain.MessageID(o.BlockID).String() || *got.MilestoneIndex != int32(o.Booked) ||
				got.Output.Amount != strconv.FormatUint(out.Amount, 10) || got.Spent {
				t.Errorf("created %s: %+v", id, got)
			}
			if !e.listed(t, listPath(out, owner), id) {
				t.Errorf("created %s: not listed under %s", id, listPath(out, owner))
			}
		}
	}
	if n != 40 {
		t.Fatalf("%d created outputs checked, the data has 40", n)
	}
}

// owner is the address an output is listed under, in bech32 as Shimmer writes it.
func (e *realEnv) owner(o chain.Output) string {
	a := o.Address
	if o.Kind == chain.OutputAlias {
		a = o.StateController
	}
	return a.Bech32(e.set.Protocol.Bech32HRP)
}

func listPath(o chain.Output, owner string) string {
	switch o.Kind {
	case chain.OutputNFT:
		return "/nft?address=" + owner
	case chain.OutputAlias:
		return "/aliases?stateController=" + owner
	}
	return "/outputs?address=" + owner
}

// listed pages through path looking for the output.
func (e *realEnv) listed(t *testing.T, path, outputID string) bool {
	t.Helper()
	cursor := ""
	for range 100 {
		var p rest.Page[tables.OutputItemJSON]
		e.mustGet(t, path+"&page_size=1000"+cursor, &p)
		for _, it := range p.Items {
			if it.OutputID == outputID {
				return true
			}
		}
		if p.Cursor == "" {
			return false
		}
		cursor = "&cursor=" + p.Cursor
	}
	return false
}

// testConsumed: every consumed output, created before or in the range, is spent by its
// transaction in its milestone.
func (e *realEnv) testConsumed(t *testing.T) {
	n := 0
	for _, ms := range e.set.Milestones {
		for _, sp := range ms.Consumed {
			n++
			id := chain.OutputID(sp.OutputID).String()
			var got tables.OutputAnswer
			e.mustGet(t, "/outputs/"+id, &got)
			out := outputOf(t, sp.Raw)
			if !got.Spent || got.TransactionIDSpent != chain.TransactionID(sp.SpentBy).String() ||
				got.MilestoneIndexSpent == nil || *got.MilestoneIndexSpent != int32(sp.Spent) ||
				got.MessageID != chain.MessageID(sp.BlockID).String() || got.Output.Amount != strconv.FormatUint(out.Amount, 10) {
				t.Errorf("consumed %s (booked %d): %+v", id, sp.Booked, got)
			}
		}
	}
	if n != 20 {
		t.Fatalf("%d consumed outputs checked, the data has 20", n)
	}
}

// testTags: every tagged block is listed under its tag; the data's NFTs under their tag
// feature.
func (e *realEnv) testTags(t *testing.T) {
	tagged := 0
	for _, ms := range e.set.Milestones {
		for _, b := range ms.Cone {
			m, _ := chain.DecodeMessage(b.Raw)
			tag := m.Tag()
			if len(tag) == 0 {
				continue
			}
			tagged++
			var p rest.Page[tables.TagMessageJSON]
			e.mustGet(t, "/tags/"+tables.HexText(tag)+"/messages?page_size=1000", &p)
			if !containsMessage(p.Items, chain.MessageID(b.ID).String()) {
				t.Errorf("block %x not listed under tag %q", b.ID, tag)
			}
		}
	}
	if tagged < 60 {
		t.Errorf("only %d tagged blocks checked", tagged)
	}
	var nfts rest.Page[tables.OutputItemJSON]
	e.mustGet(t, "/nft?tag="+tables.HexText([]byte("Soonaverse"))+"&page_size=1000", &nfts)
	if len(nfts.Items) < 20 {
		t.Errorf("%d NFTs tagged Soonaverse, the data mints 22 in 17339", len(nfts.Items))
	}
}

func containsMessage(items []tables.TagMessageJSON, id string) bool {
	for _, it := range items {
		if it.MessageID == id {
			return true
		}
	}
	return false
}

// testAnalytics: per-milestone message and included-transaction counts.
func (e *realEnv) testAnalytics(t *testing.T) {
	var got struct{ Items []tables.MilestoneStatJSON }
	e.mustGet(t, "/analytics/milestones?start=17339&end=17340", &got)
	want := map[uint32]string{}
	for index, ms := range e.set.Milestones {
		want[index] = fmt.Sprint(len(ms.Cone), "/", includedCount(ms))
	}
	if len(got.Items) != 2 {
		t.Fatalf("analytics: %+v", got.Items)
	}
	for _, it := range got.Items {
		if fmt.Sprint(it.MessageCount, "/", it.TransactionCount) != want[it.MilestoneIndex] {
			t.Errorf("analytics of %d: %d messages, %d transactions; want %s", it.MilestoneIndex,
				it.MessageCount, it.TransactionCount, want[it.MilestoneIndex])
		}
	}
}

func includedCount(ms *realdata.Milestone) int {
	n := 0
	for _, b := range ms.Cone {
		if b.InclusionState == "included" {
			n++
		}
	}
	return n
}
