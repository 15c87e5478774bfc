package api

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// wantOutput is an output row the truth says a list must hold: confirmed (from
// Truth.Outputs) or pending (an output of a transaction seen unreferenced).
type wantOutput struct {
	id      chain.OutputID
	out     *chain.Output
	pending bool
	spent   bool
	spentBy chain.TransactionID
	ms      uint32    // booked milestone; the estimated one when pending
	at      time.Time // milestone time; when it was seen if pending
}

func (w wantOutput) key() string { return fmt.Sprintf("%s/%t", w.id, w.pending) }

// outputs lists every output row of kind for which match holds.
func (e *env) outputs(kind chain.OutputKind, match func(id chain.OutputID, o *chain.Output) bool) []wantOutput {
	var out []wantOutput
	for id, ot := range e.truth.Outputs {
		if ot.Output.Kind == kind && match(id, &ot.Output) {
			out = append(out, wantOutput{id: id, out: &ot.Output, spent: ot.Spent, spentBy: ot.SpentBy,
				ms: ot.MilestoneIndex, at: ot.Timestamp})
		}
	}
	for _, um := range e.pending {
		tx := um.Message.TransactionOf()
		if tx == nil {
			continue
		}
		for j := range tx.Outputs {
			id := chain.NewOutputID(tx.ID(), uint16(j))
			if tx.Outputs[j].Kind == kind && match(id, &tx.Outputs[j]) {
				out = append(out, wantOutput{id: id, out: &tx.Outputs[j], pending: true, ms: um.EstMilestoneIndex,
					at: um.SeenAt})
			}
		}
	}
	return out
}

// role is the value an output holds in an indexed column, as the indexer writes it.
func role(o *chain.Output, column string) string {
	text := func(a *chain.Address) string {
		if a == nil {
			return ""
		}
		return a.Bech32(sim.HRP)
	}
	switch column {
	case "address":
		return text(o.Address)
	case "sender":
		return text(o.Sender)
	case "issuer":
		return text(o.Issuer)
	case "state_controller":
		return text(o.StateController)
	case "governor":
		return text(o.Governor)
	case "tag":
		return tagHex(o.Tag)
	case "dust_return_address":
		if o.StorageDepositReturn != nil {
			return o.StorageDepositReturn.ReturnAddress.Bech32(sim.HRP)
		}
		return ""
	}
	panic("role: " + column)
}

func tagHex(tag []byte) string {
	if len(tag) == 0 {
		return ""
	}
	return "0x" + hex.EncodeToString(tag)
}

// chainKey is the alias, NFT or foundry ID an output version is filed under.
func chainKey(id chain.OutputID, o *chain.Output) string {
	switch o.Kind {
	case chain.OutputAlias:
		if o.AliasID.IsZero() {
			return chain.AliasIDFromOutputID(id).String()
		}
		return o.AliasID.String()
	case chain.OutputNFT:
		if o.NFTID.IsZero() {
			return chain.NFTIDFromOutputID(id).String()
		}
		return o.NFTID.String()
	case chain.OutputFoundry:
		return o.FoundryID.String()
	}
	return id.String()
}

// busiest returns the value of column held by the most outputs of kind.
func (e *env) busiest(kind chain.OutputKind, column string) string {
	counts := map[string]int{}
	for _, w := range e.outputs(kind, func(chain.OutputID, *chain.Output) bool { return true }) {
		if v := role(w.out, column); v != "" {
			counts[v]++
		}
	}
	best := ""
	for v, n := range counts {
		if n > counts[best] || n == counts[best] && v < best {
			best = v
		}
	}
	return best
}

// checkOutputItems compares a walked list with the rows the truth expects: the same
// rows once each, each with the right state, and newest first by partition and time.
func checkOutputItems(t *testing.T, what string, got []tables.OutputItemJSON, want []wantOutput) {
	t.Helper()
	wantByKey := map[string]wantOutput{}
	for _, w := range want {
		wantByKey[w.key()] = w
	}
	seen := map[string]bool{}
	for _, it := range got {
		k := fmt.Sprintf("%s/%t", it.OutputID, !it.Referenced)
		w, ok := wantByKey[k]
		switch {
		case seen[k]:
			t.Errorf("%s: %s listed twice", what, k)
		case !ok:
			t.Errorf("%s: %s listed, not expected", what, k)
		case !w.pending && (it.Spent != w.spent || w.spent && it.SpentBy != w.spentBy.String()):
			t.Errorf("%s: %s spent=%t by %s, want %t by %s", what, k, it.Spent, it.SpentBy, w.spent, w.spentBy)
		case it.Output == nil || it.Output.Type != w.out.Kind.String():
			t.Errorf("%s: %s output %+v, want a %s", what, k, it.Output, w.out.Kind)
		}
		seen[k] = true
	}
	if len(seen) != len(want) {
		t.Errorf("%s: %d distinct rows listed, want %d", what, len(seen), len(want))
	}
	checkNewestFirst(t, what, got)
}

// checkNewestFirst: pending rows first, then partitions descending and, within one,
// time descending.
func checkNewestFirst(t *testing.T, what string, items []tables.OutputItemJSON) {
	t.Helper()
	order := func(it tables.OutputItemJSON) [2]int64 {
		if !it.Referenced {
			return [2]int64{1 << 40, it.Timestamp}
		}
		return [2]int64{int64(*it.MilestoneIndex / testChunk), it.Timestamp}
	}
	for i := 1; i < len(items); i++ {
		a, b := order(items[i-1]), order(items[i])
		if slices.Compare(a[:], b[:]) < 0 {
			t.Fatalf("%s: item %d (%v) sorts before item %d (%v): not newest first", what, i-1, a, i, b)
		}
	}
}

// withQuery appends a query parameter to a path.
func withQuery(path, kv string) string {
	if strings.Contains(path, "?") {
		return path + "&" + kv
	}
	return path + "?" + kv
}
