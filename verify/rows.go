package verify

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// checkRows derives every row cm must have with the store's writers (the rows of its
// messages, transactions, outputs, spends, ledger state and partition hints, and the
// rows of Options.Rows) and reads each back.
func (v *Verifier) checkRows(ctx context.Context, cm *chain.ConfirmedMilestone) error {
	ws := v.st.MilestoneWrites(cm, 0, nil)
	writes := append(ws.Writes, ws.Hints.Writes(store.Timestamp(cm.Index, store.PhaseConfirmed))...)
	derived, err := v.derivedRows(ctx, cm)
	if err != nil {
		return err
	}
	checked := append(slices.Clip(writes), derived...)
	spent := map[string]bool{}
	for _, w := range checked {
		if !w.Checked() {
			continue
		}
		if err := v.checkWrite(ctx, cm.Index, w, spent); err != nil {
			return err
		}
	}
	return v.checkViews(ctx, cm.Index, writes)
}

// derivedRows are Options.Rows of cm, with the spends the base rows leave unchecked
// read where the recompute finds outputs no included transaction created
// (store.GenesisOutput, the fallback of store.CreatedOutput), since ingest counted them. None when cm is not the whole proven cone (the
// milestone is re-ingested, and rows summed over part of it, rewritten at the wall
// clock, would shadow the re-ingest's), or when a spent output can be read nowhere.
func (v *Verifier) derivedRows(ctx context.Context, cm *chain.ConfirmedMilestone) ([]store.Write, error) {
	if v.opts.Rows == nil {
		return nil, nil
	}
	if v.needsReingest[cm.Index] {
		v.summary.UnderivedAnalytics++
		return nil, nil
	}
	whole := *cm
	whole.Consumed = slices.Clone(cm.Consumed)
	for _, in := range v.unresolved {
		lo, err := v.st.GenesisOutput(ctx, in.OutputID)
		if errors.Is(err, store.ErrNotFound) {
			v.summary.UnderivedAnalytics++
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		whole.Consumed = append(whole.Consumed, chain.LedgerSpent{LedgerOutput: lo, SpentBy: in.SpentBy,
			SpentMilestoneIndex: cm.Index, SpentTimestamp: cm.Timestamp})
	}
	return v.opts.Rows(&whole, v.st), nil
}

// checkWrite reads back the row of one write: present with the values it binds, or, for
// a delete and for the unspent rows of an output spent since, absent.
func (v *Verifier) checkWrite(ctx context.Context, index uint32, w store.Write, spent map[string]bool) error {
	got, err := v.st.WrittenRow(ctx, w)
	if err != nil {
		return err
	}
	v.summary.Rows++
	absent := w.Deletes()
	if _, unspent := store.UnspentRemoval(w); unspent {
		id := fmt.Sprint(store.WriteValues(w)["output_id"])
		if absent, err = v.isSpent(ctx, id, spent); err != nil {
			return err
		}
	}
	d := Discrepancy{Table: w.Table(), Milestone: index, Key: keyOf(w)}
	switch {
	case absent && got != nil:
		d.Kind, d.Detail = KindUnexpected, "the output is spent: its unspent row must be gone"
		v.redo(removal(w))
	case absent:
		return nil
	case got == nil:
		d.Kind = KindMissing
		v.redo(w)
	default:
		if d.Differs = differs(store.WriteValues(w), got, store.PrimaryKey(w.Table())); len(d.Differs) == 0 {
			return nil
		}
		d.Kind = KindDiffers
		v.redo(w)
	}
	v.report(d)
	return nil
}

// removal is the delete undoing an unspent row (a delete write is its own removal).
func removal(w store.Write) store.Write {
	if del, ok := store.UnspentRemoval(w); ok {
		return del
	}
	return w
}

// isSpent: an included transaction spent output id (an unlock row of it is included).
// The transactions rows are base rows, written from the spending message's bytes.
func (v *Verifier) isSpent(ctx context.Context, id string, cache map[string]bool) (bool, error) {
	if s, ok := cache[id]; ok {
		return s, nil
	}
	oid, err := chain.ParseOutputID(id)
	if err != nil {
		return false, err
	}
	rows, err := v.st.OutputAndUnlocks(ctx, oid)
	if err != nil {
		return false, err
	}
	s := false
	for _, r := range rows {
		if r.Variant == store.VariantUnlock && r.InclusionState != nil &&
			chain.InclusionState(*r.InclusionState) == chain.Included {
			s = true
		}
	}
	cache[id] = s
	return s, nil
}

// keyOf is a write's primary key, printable.
func keyOf(w store.Write) map[string]any {
	vals := store.WriteValues(w)
	out := map[string]any{}
	for _, c := range store.PrimaryKey(w.Table()) {
		out[c] = printable(vals[c])
	}
	return out
}

// differs compares the columns want names (but the key) with got: column -> [want, got].
func differs(want, got store.Row, key []string) map[string][2]any {
	out := map[string][2]any{}
	for c, wv := range want {
		if contains(key, c) {
			continue
		}
		gv := got[c]
		if setColumns[c] {
			wv, gv = sorted(wv), sorted(gv)
		}
		if !same(wv, gv) {
			out[c] = [2]any{printable(wv), printable(gv)}
		}
	}
	return out
}

// setColumns are set-typed: read back sorted, bound in any order.
var setColumns = map[string]bool{"roles": true}

func sorted(v any) any {
	if s, ok := v.([]string); ok {
		return slices.Sorted(slices.Values(s))
	}
	return v
}

// same compares a bound value with a read one: pointers dereferenced, integers widened,
// times to the millisecond (timestamp columns), and null equal to a zero value (gocql
// reads a null int as 0, a null text as "").
func same(a, b any) bool { return reflect.DeepEqual(norm(a), norm(b)) }

func norm(v any) any {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if !rv.IsValid() || rv.IsZero() || (rv.Kind() == reflect.Slice && rv.Len() == 0) {
		return nil
	}
	switch x := rv.Interface().(type) {
	case time.Time:
		return x.UnixMilli()
	case []byte:
		return hex.EncodeToString(x)
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(rv.Uint())
	}
	return rv.Interface()
}

// printable is a value for a JSON line: bytes as 0x-hex, times in RFC 3339.
func printable(v any) any {
	if n := norm(v); n == nil {
		return deref(v)
	}
	switch x := norm(v).(type) {
	case string:
		if b, ok := v.([]byte); ok {
			return "0x" + hex.EncodeToString(b)
		}
		return x
	case int64:
		if t, ok := deref(v).(time.Time); ok {
			return t.UTC().Format(time.RFC3339Nano)
		}
		return x
	default:
		return x
	}
}

func deref(v any) any {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return nil
	}
	return rv.Interface()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
