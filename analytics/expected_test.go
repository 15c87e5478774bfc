package analytics_test

import (
	"context"
	"encoding/hex"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// The expected side of every test, computed here from the generator's milestones in
// plain maps, without the package under test: transactions are read from the messages
// themselves (inputs looked up among earlier outputs), not from the ledger-change lists
// the package uses.

type msWant struct {
	messages, txs int
	transferred   uint64
}

type flowWant struct{ sent, recv uint64 }

// statesWant are a milestone's blocks counted by inclusion state.
type statesWant struct{ confirmed, conflicting, noTransaction int64 }

type dayWant struct {
	first, last          uint32
	sent, recv, any, tag map[string]bool
}

type want struct {
	ms     map[uint32]msWant
	states map[uint32]statesWant
	flows  map[string]map[uint32]*flowWant // address → milestone → flow
	days   map[string]*dayWant             // YYYY-MM-DD → sets
	kinds  map[chain.OutputKind]int        // outputs of included transactions, by kind (coverage)
	change int                             // outputs back to an input's owner (not transferred)
}

// ownerText is the owner definition, restated for the test: the address unlock
// condition; an alias's state controller; a foundry's immutable alias address.
func ownerText(o chain.Output) string {
	if o.Kind == chain.OutputAlias {
		return o.StateController.Bech32(sim.HRP)
	}
	return o.Address.Bech32(sim.HRP)
}

func expected(t testing.TB, src *sim.Sim, upTo uint32) *want {
	t.Helper()
	w := &want{ms: map[uint32]msWant{}, states: map[uint32]statesWant{}, flows: map[string]map[uint32]*flowWant{}, days: map[string]*dayWant{},
		kinds: map[chain.OutputKind]int{}}
	outputs := map[chain.OutputID]chain.Output{}
	for i := uint32(1); i <= upTo; i++ {
		cm, err := src.Confirmed(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		for _, lo := range cm.Created {
			if lo.MessageID == (chain.MessageID{}) { // genesis: received, never transferred
				w.flow(ownerText(lo.Output), i).recv += lo.Output.Amount
				outputs[lo.OutputID] = lo.Output
			}
		}
		day := w.day(cm.Timestamp.UTC().Format("2006-01-02"), i)
		row := msWant{messages: len(cm.Messages)}
		var states statesWant
		for _, rm := range cm.Messages {
			switch rm.InclusionState {
			case chain.Included:
				states.confirmed++
			case chain.Conflicting:
				states.conflicting++
			case chain.NoTransaction:
				states.noTransaction++
			}
			if tag := rm.Message.Tag(); len(tag) > 0 {
				day.tag["0x"+hex.EncodeToString(tag)] = true
			}
			if tx, ok := rm.Message.Payload.(*chain.Transaction); ok && rm.InclusionState == chain.Included {
				row.txs++
				row.transferred += w.applyTx(tx, i, outputs)
			}
		}
		w.ms[i] = row
		w.states[i] = states
		w.addToDay(day, i)
	}
	return w
}

// applyTx books one included transaction and returns what it transferred.
func (w *want) applyTx(tx *chain.Transaction, index uint32, outputs map[chain.OutputID]chain.Output) uint64 {
	from := map[string]bool{}
	for _, in := range tx.Inputs {
		o := outputs[in.OutputID()]
		from[ownerText(o)] = true
		w.flow(ownerText(o), index).sent += o.Amount
	}
	var transferred uint64
	for j, o := range tx.Outputs {
		to := ownerText(o)
		w.flow(to, index).recv += o.Amount
		if from[to] {
			w.change++
		} else {
			transferred += o.Amount
		}
		w.kinds[o.Kind]++
		outputs[chain.NewOutputID(tx.ID(), uint16(j))] = o
	}
	return transferred
}

func (w *want) flow(addr string, index uint32) *flowWant {
	if w.flows[addr] == nil {
		w.flows[addr] = map[uint32]*flowWant{}
	}
	if w.flows[addr][index] == nil {
		w.flows[addr][index] = &flowWant{}
	}
	return w.flows[addr][index]
}

func (w *want) day(d string, index uint32) *dayWant {
	if w.days[d] == nil {
		w.days[d] = &dayWant{first: index, sent: map[string]bool{}, recv: map[string]bool{}, any: map[string]bool{},
			tag: map[string]bool{}}
	}
	w.days[d].last = index
	return w.days[d]
}

func (w *want) addToDay(day *dayWant, index uint32) {
	for addr, byMs := range w.flows {
		f := byMs[index]
		if f == nil {
			continue
		}
		day.any[addr] = true
		if f.sent > 0 {
			day.sent[addr] = true
		}
		if f.recv > 0 {
			day.recv[addr] = true
		}
	}
}
