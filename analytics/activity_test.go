package analytics

import (
	"maps"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The activity families on constructed milestones: what the real milestones do not
// exercise (alias changes, chains created and destroyed, implicit IDs, conflicting and
// treasury blocks, the larger size buckets, expirations).

var activityAt = time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC)

// txSpec is one transaction of a constructed milestone: the outputs it spends and
// creates, and its block's inclusion state (only an included one changes the ledger).
type txSpec struct {
	in, out []chain.Output
	state   chain.InclusionState
	inIDs   []chain.OutputID // the spent outputs' IDs; made up from the transaction's place when nil
}

// milestoneOf builds a milestone holding the transactions, each in its own block, with
// the ledger changes of the included ones.
func milestoneOf(specs ...txSpec) *chain.ConfirmedMilestone {
	cm := &chain.ConfirmedMilestone{Index: 5, Timestamp: activityAt}
	for k, s := range specs {
		tx := &chain.Transaction{}
		ids := s.inIDs
		for i := range s.in {
			if s.inIDs == nil {
				ids = append(ids, chain.NewOutputID(chain.TransactionID{0xee, byte(k)}, uint16(i)))
			}
			tx.Inputs = append(tx.Inputs, chain.Input{TransactionID: ids[i].TransactionID(), Index: uint16(i)})
		}
		tx.Outputs = s.out
		cm.Messages = append(cm.Messages, chain.ReferencedMessage{Message: &chain.Message{Payload: tx}, InclusionState: s.state})
		if s.state != chain.Included {
			continue
		}
		for i, o := range s.in {
			cm.Consumed = append(cm.Consumed, chain.LedgerSpent{LedgerOutput: chain.LedgerOutput{OutputID: ids[i], Output: o},
				SpentBy: tx.ID(), SpentTimestamp: activityAt})
		}
		for j, o := range s.out {
			cm.Created = append(cm.Created, chain.LedgerOutput{OutputID: chain.NewOutputID(tx.ID(), uint16(j)), Output: o})
		}
	}
	return cm
}

func included(in, out []chain.Output) txSpec {
	return txSpec{in: in, out: out, state: chain.Included}
}

func alias(id chain.AliasID, stateIndex uint32, governor chain.Address) chain.Output {
	controller := addr(0x51)
	return chain.Output{Kind: chain.OutputAlias, Amount: 1000, AliasID: id, StateIndex: stateIndex,
		StateController: &controller, Address: &controller, Governor: &governor}
}

func nft(id chain.NFTID, owner chain.Address) chain.Output {
	o := output(chain.OutputNFT, 1000, owner)
	o.NFTID = id
	return o
}

func foundry(serial uint32) chain.Output {
	a := chain.AliasAddress(chain.AliasID{0xa1})
	return chain.Output{Kind: chain.OutputFoundry, Amount: 1000, Address: &a, SerialNumber: serial,
		FoundryID: chain.NewFoundryID(chain.AliasID{0xa1}, serial, chain.TokenSchemeSimple)}
}

// family returns one family's figures of the milestone.
func family(t *testing.T, cm *chain.ConfirmedMilestone, name string) map[string]int64 {
	t.Helper()
	for _, f := range ActivityFamilies(cm) {
		if f.Family == name {
			return f.Figures
		}
	}
	t.Fatalf("no family %s", name)
	return nil
}

func wantFigures(t *testing.T, name string, got, want map[string]int64) {
	t.Helper()
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s.%s = %d, want %d", name, k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok && g != 0 {
			t.Errorf("%s.%s = %d, want 0", name, k, g)
		}
	}
}

// TestOutputActivityAliases: a state change, a governor change, both at once, an
// implicit ID on the input side (the alias's first transition), a creation (implicit
// ID) and a destruction; a conflicting transaction counts nothing.
func TestOutputActivityAliases(t *testing.T) {
	g1, g2 := addr(0x61), addr(0x62)
	firstID := chain.NewOutputID(chain.TransactionID{0x77}, 0)
	cm := milestoneOf(
		included([]chain.Output{alias(chain.AliasID{1}, 1, g1)}, []chain.Output{alias(chain.AliasID{1}, 2, g1)}),
		included([]chain.Output{alias(chain.AliasID{2}, 5, g1)}, []chain.Output{alias(chain.AliasID{2}, 5, g2)}),
		included([]chain.Output{alias(chain.AliasID{3}, 1, g1)}, []chain.Output{alias(chain.AliasID{3}, 2, g2)}),
		txSpec{in: []chain.Output{alias(chain.AliasID{}, 0, g1)}, inIDs: []chain.OutputID{firstID}, state: chain.Included,
			out: []chain.Output{alias(chain.AliasIDFromOutputID(firstID), 0, g1)}},
		included([]chain.Output{output(chain.OutputBasic, 5000, g1)}, []chain.Output{alias(chain.AliasID{}, 0, g1)}),
		included([]chain.Output{alias(chain.AliasID{4}, 9, g1)}, []chain.Output{output(chain.OutputBasic, 1000, g1)}),
		txSpec{in: []chain.Output{alias(chain.AliasID{5}, 1, g1)}, out: []chain.Output{alias(chain.AliasID{5}, 2, g2)},
			state: chain.Conflicting},
	)
	wantFigures(t, FamilyOutputActivity, family(t, cm, FamilyOutputActivity), map[string]int64{
		"alias.created_count": 1, "alias.state_changed_count": 2, "alias.governor_changed_count": 2, "alias.destroyed_count": 1})
}

// TestOutputActivityNFTsAndFoundries: minted (implicit ID), transferred (explicit, and
// implicit on the input side), burnt; a foundry created, kept and destroyed.
func TestOutputActivityNFTsAndFoundries(t *testing.T) {
	a, b := addr(1), addr(2)
	mintedAt := chain.NewOutputID(chain.TransactionID{0x78}, 0)
	cm := milestoneOf(
		included([]chain.Output{output(chain.OutputBasic, 5000, a)}, []chain.Output{nft(chain.NFTID{}, a)}),
		included([]chain.Output{nft(chain.NFTID{7}, a)}, []chain.Output{nft(chain.NFTID{7}, b)}),
		txSpec{in: []chain.Output{nft(chain.NFTID{}, a)}, inIDs: []chain.OutputID{mintedAt}, state: chain.Included,
			out: []chain.Output{nft(chain.NFTIDFromOutputID(mintedAt), b)}},
		included([]chain.Output{nft(chain.NFTID{8}, a)}, []chain.Output{output(chain.OutputBasic, 1000, a)}),
		included([]chain.Output{alias(chain.AliasID{0xa1}, 1, a), foundry(1), foundry(2)},
			[]chain.Output{alias(chain.AliasID{0xa1}, 1, a), foundry(2), foundry(3)}),
	)
	wantFigures(t, FamilyOutputActivity, family(t, cm, FamilyOutputActivity), map[string]int64{
		"nft.created_count": 1, "nft.transferred_count": 2, "nft.destroyed_count": 1,
		"foundry.created_count": 1, "foundry.transferred_count": 1, "foundry.destroyed_count": 1})
}

// TestBlockActivityAndSize: one block of every payload type (a treasury transaction
// only as a decoded payload: a Stardust block cannot carry one) and of every inclusion
// state; sizes are the raw bytes' lengths.
func TestBlockActivityAndSize(t *testing.T) {
	msg := func(p chain.Payload, state chain.InclusionState, size int) chain.ReferencedMessage {
		return chain.ReferencedMessage{Message: &chain.Message{Payload: p}, InclusionState: state, Raw: make([]byte, size)}
	}
	cm := &chain.ConfirmedMilestone{Timestamp: activityAt, Messages: []chain.ReferencedMessage{
		msg(&chain.MilestonePayload{}, chain.NoTransaction, 1000),
		msg(&chain.TaggedData{}, chain.NoTransaction, 200),
		msg(&chain.TaggedData{}, chain.NoTransaction, 201),
		msg(&chain.Transaction{}, chain.Included, 300),
		msg(&chain.Transaction{}, chain.Conflicting, 301),
		msg(&chain.TreasuryTransaction{}, chain.NoTransaction, 400),
		msg(nil, chain.NoTransaction, 50),
	}}
	wantFigures(t, FamilyBlockActivity, family(t, cm, FamilyBlockActivity), map[string]int64{
		"milestone_count": 1, "tagged_data_count": 2, "transaction_count": 2, "treasury_transaction_count": 1,
		"no_payload_count": 1, "confirmed_count": 1, "conflicting_count": 1, "no_transaction_count": 5})
	wantFigures(t, FamilyMilestoneSize, family(t, cm, FamilyMilestoneSize), map[string]int64{
		"total_milestone_payload_bytes": 1000, "total_tagged_data_payload_bytes": 401, "total_transaction_payload_bytes": 601,
		"total_treasury_transaction_payload_bytes": 400, "total_milestone_bytes": 2452})
}

// TestTransactionSizeBuckets: every bucket's bounds, on the input and the output side
// (each transaction has the counts of both ends of the list: n inputs, and the count
// as far from the other end as outputs).
func TestTransactionSizeBuckets(t *testing.T) {
	bounds := []struct {
		n      int
		bucket string
	}{{1, "single(1)"}, {2, "single(2)"}, {7, "single(7)"}, {8, "small"}, {15, "small"}, {16, "medium"},
		{31, "medium"}, {32, "large"}, {63, "large"}, {64, "huge"}, {128, "huge"}}
	var specs []txSpec
	want := map[string]int64{}
	for i, in := range bounds {
		out := bounds[len(bounds)-1-i]
		specs = append(specs, included(basics(in.n), basics(out.n)))
		want["input_buckets."+in.bucket]++
		want["output_buckets."+out.bucket]++
	}
	got := family(t, milestoneOf(specs...), FamilyTransactionSize)
	if len(got) != 22 {
		t.Errorf("%d figures, want 22 (11 buckets a side)", len(got))
	}
	wantFigures(t, FamilyTransactionSize, got, want)
}

func basics(n int) []chain.Output {
	out := make([]chain.Output, n)
	for i := range out {
		out[i] = output(chain.OutputBasic, 1000+uint64(i), addr(byte(i)))
	}
	return out
}

// TestBaseTokensAndActiveAddresses: A spends its 100 and D's 50, whose expiration has
// handed it to A; it sends 60 to B, 40 back to itself and 50 to C under an expiration
// to A that has passed at the milestone. Booked: all 150. Transferred: B's gain only
// (A's 90 is back with A). Active: A (both inputs, at their spend), B, C (outputs: the
// address unlock condition): D is not.
func TestBaseTokensAndActiveAddresses(t *testing.T) {
	a, b, c, d := addr(0xa), addr(0xb), addr(0xc), addr(0xd)
	expired := func(o chain.Output, to chain.Address) chain.Output {
		o.Expiration = &chain.Expiration{ReturnAddress: to, UnixTime: uint32(activityAt.Unix())}
		return o
	}
	cm := milestoneOf(
		included([]chain.Output{output(chain.OutputBasic, 100, a), expired(output(chain.OutputBasic, 50, d), a)},
			[]chain.Output{output(chain.OutputBasic, 60, b), output(chain.OutputBasic, 40, a), expired(output(chain.OutputBasic, 50, c), a)}),
		txSpec{in: []chain.Output{output(chain.OutputBasic, 70, d)}, out: []chain.Output{output(chain.OutputBasic, 70, b)},
			state: chain.Conflicting},
	)
	wantFigures(t, FamilyBaseTokens, family(t, cm, FamilyBaseTokens), map[string]int64{"booked_amount": 150, "transferred_amount": 60})
	wantFigures(t, FamilyActiveAddresses, family(t, cm, FamilyActiveAddresses), map[string]int64{"count": 3})

	// Before the expiration, D owns its input and C its output; the tokens C gets count as transferred.
	cm.Timestamp = activityAt.Add(-time.Second)
	for i := range cm.Consumed {
		cm.Consumed[i].SpentTimestamp = cm.Timestamp
	}
	wantFigures(t, FamilyBaseTokens, family(t, cm, FamilyBaseTokens), map[string]int64{"booked_amount": 150, "transferred_amount": 110})
	wantFigures(t, FamilyActiveAddresses, family(t, cm, FamilyActiveAddresses), map[string]int64{"count": 4})
}

// TestActivityFamiliesAllFigures: an empty milestone still has all six families, every
// figure present and zero.
func TestActivityFamiliesAllFigures(t *testing.T) {
	sizes := map[string]int{FamilyBlockActivity: 8, FamilyMilestoneSize: 5, FamilyActiveAddresses: 1, FamilyBaseTokens: 2,
		FamilyOutputActivity: 10, FamilyTransactionSize: 22}
	fams := ActivityFamilies(&chain.ConfirmedMilestone{Timestamp: activityAt})
	if len(fams) != len(sizes) {
		t.Fatalf("%d families, want %d", len(fams), len(sizes))
	}
	for _, f := range fams {
		if len(f.Figures) != sizes[f.Family] || !maps.Equal(f.Figures, zeros(f.Figures)) {
			t.Errorf("%s: %v, want %d zero figures", f.Family, f.Figures, sizes[f.Family])
		}
	}
}

func zeros(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k := range m {
		out[k] = 0
	}
	return out
}
