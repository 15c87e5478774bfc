package analytics

import (
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func TestNextDailyRun(t *testing.T) {
	at := 15 * time.Minute
	for _, c := range []struct{ now, want string }{
		{"2024-03-10T00:00:00Z", "2024-03-10T00:15:00Z"},
		{"2024-03-10T00:15:00Z", "2024-03-11T00:15:00Z"}, // just ran: tomorrow
		{"2024-03-10T23:59:59Z", "2024-03-11T00:15:00Z"},
		{"2024-12-31T12:00:00Z", "2025-01-01T00:15:00Z"},
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		if got := nextDailyRun(now, at).Format(time.RFC3339); got != c.want {
			t.Errorf("nextDailyRun(%s) = %s, want %s", c.now, got, c.want)
		}
	}
	now, _ := time.Parse(time.RFC3339, "2024-03-10T00:00:00Z")
	if got := nextDailyRun(now, 24*time.Hour); !got.Equal(now.Add(24 * time.Hour)) {
		t.Errorf("midnight (24h) after %v: %v, want the next midnight", now, got)
	}
}

// TestSummarizeTransferExcludesChange: A sends 100 to B and 40 back to itself; genesis
// hands C 7. Only the 100 is transferred; A sent 140 and received 40.
func TestSummarizeTransferExcludesChange(t *testing.T) {
	a, b, c := addr(1), addr(2), addr(3)
	tx := &chain.Transaction{Inputs: []chain.Input{{Index: 0}},
		Outputs: []chain.Output{output(chain.OutputBasic, 100, b), output(chain.OutputBasic, 40, a)}}
	txID := tx.ID()
	cm := &chain.ConfirmedMilestone{Index: 9, Timestamp: time.Date(2022, 10, 2, 23, 59, 0, 0, time.UTC),
		Messages: []chain.ReferencedMessage{
			{Message: &chain.Message{Payload: tx}, InclusionState: chain.Included},
			{Message: &chain.Message{Payload: tx}, InclusionState: chain.Conflicting},
			{Message: &chain.Message{Payload: &chain.TaggedData{Tag: []byte{0xab}}}},
		},
		Created: []chain.LedgerOutput{
			{OutputID: chain.NewOutputID(txID, 0), Output: tx.Outputs[0]},
			{OutputID: chain.NewOutputID(txID, 1), Output: tx.Outputs[1]},
			{OutputID: chain.NewOutputID(chain.TransactionID{9}, 0), Output: output(chain.OutputLegacy, 7, c)},
		},
		Consumed: []chain.LedgerSpent{{LedgerOutput: chain.LedgerOutput{Output: output(chain.OutputBasic, 140, a)}, SpentBy: txID}},
	}
	s := Summarize(cm)
	if s.Messages != 3 || s.Transactions != 1 || s.Transferred != 100 || !s.Tags["0xab"] || s.Date.Day() != 2 {
		t.Fatalf("summary %+v: want 3 messages, 1 transaction, 100 transferred, tag 0xab, 2nd October", s)
	}
	for who, want := range map[chain.Address]Flow{a: {140, 40}, b: {0, 100}, c: {0, 7}} {
		if got := s.Flows[who]; got == nil || *got != want {
			t.Errorf("flow of %s: %v, want %v", who, got, want)
		}
	}
}

func TestOwner(t *testing.T) {
	holder, controller, alias := addr(1), addr(2), chain.AliasAddress(chain.AliasID{7})
	for _, c := range []struct {
		o    chain.Output
		want *chain.Address
	}{
		{chain.Output{Kind: chain.OutputBasic, Address: &holder}, &holder},
		{chain.Output{Kind: chain.OutputNFT, Address: &holder}, &holder},
		{chain.Output{Kind: chain.OutputLegacy, Address: &holder}, &holder},
		{chain.Output{Kind: chain.OutputAlias, StateController: &controller, Governor: &holder}, &controller},
		{chain.Output{Kind: chain.OutputFoundry, Address: &alias}, &alias},
		{chain.Output{Kind: chain.OutputBasic}, nil},
	} {
		got, ok := Owner(&c.o)
		if ok != (c.want != nil) || ok && got != *c.want {
			t.Errorf("Owner(%v output) = %v, %v; want %v", c.o.Kind, got, ok, c.want)
		}
	}
}

func addr(b byte) chain.Address { return chain.Address{Kind: chain.AddressEd25519, ID: [32]byte{b}} }

func output(kind chain.OutputKind, amount uint64, owner chain.Address) chain.Output {
	return chain.Output{Kind: kind, Amount: amount, Address: &owner}
}
