package verify

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// baseRow is a base row a milestone wrote, with the writes that wrote it.
type baseRow struct {
	table  string
	key    []any
	row    store.Row
	writes []store.Write
}

// checkViews compares every materialized view with the base rows the milestone wrote:
// for each base row, the view row of its key exists with equal columns; and the view
// rows of the milestone in each view partition it touched each have their base row.
func (v *Verifier) checkViews(ctx context.Context, index uint32, writes []store.Write) error {
	bases, err := v.baseRows(ctx, writes)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, b := range bases {
		known[b.table+fmt.Sprint(b.key)] = true
	}
	read := map[string]bool{} // view partitions whose milestone slice was read
	for _, b := range bases {
		for _, view := range store.ViewsOf(b.table) {
			if err := v.checkViewRow(ctx, index, b, view); err != nil {
				return err
			}
			if err := v.checkOrphans(ctx, index, b, view, known, read); err != nil {
				return err
			}
		}
	}
	return nil
}

// baseRows reads, once per key, the rows of tables with views that writes wrote.
func (v *Verifier) baseRows(ctx context.Context, writes []store.Write) ([]*baseRow, error) {
	byKey := map[string]*baseRow{}
	var out []*baseRow
	for _, w := range writes {
		if w.Deletes() || !store.HasViews(w.Table()) || !w.Checked() {
			continue
		}
		key, err := store.KeyArgs(w)
		if err != nil {
			return nil, err
		}
		id := w.Table() + fmt.Sprint(key)
		if b, ok := byKey[id]; ok {
			b.writes = append(b.writes, w)
			continue
		}
		b := &baseRow{table: w.Table(), key: key, writes: []store.Write{w}}
		byKey[id] = b
		out = append(out, b)
	}
	for _, b := range out {
		row, err := v.st.FullRow(ctx, b.table, b.key)
		if err != nil {
			return nil, err
		}
		b.row = row
	}
	return out, nil
}

// checkViewRow: the view row of a base row exists and equals it.
func (v *Verifier) checkViewRow(ctx context.Context, index uint32, b *baseRow, view store.View) error {
	if b.row == nil {
		return nil // the base row itself is reported missing
	}
	args, ok := values(b.row, view.Key)
	if !ok {
		return nil // a null view key column: the view holds no row for it
	}
	rows, err := v.st.ViewRowsByKey(ctx, view, args)
	if err != nil {
		return err
	}
	v.summary.ViewRows++
	d := Discrepancy{Table: view.Name, Milestone: index, Key: printableKey(view.Key, args)}
	if len(rows) == 0 {
		d.Kind, d.Detail = KindViewMissing, "base row "+view.Base+" has no view row"
	} else if d.Differs = differs(rows[0], b.row, view.Key); len(d.Differs) > 0 {
		d.Kind, d.Detail = KindViewDiffers, "view row [view, base] differs from its base row"
		for c, pair := range d.Differs { // differs gives [view, base]: report [want = base, got = view]
			d.Differs[c] = [2]any{pair[1], pair[0]}
		}
	} else {
		return nil
	}
	v.report(d)
	v.redo(b.writes...)
	return nil
}

// checkOrphans: each view row of this milestone in the view partition of b has a base
// row (read once per partition): one the milestone wrote, or else one read by the view
// row's base key with the same columns.
func (v *Verifier) checkOrphans(ctx context.Context, index uint32, b *baseRow, view store.View, known, done map[string]bool) error {
	if !view.HasMilestoneSlice() || b.row == nil {
		return nil
	}
	args, ok := values(b.row, append(append([]string{}, view.Partition...), "ms_timestamp", "milestone_index"))
	if !ok || fmt.Sprint(args[len(args)-1]) != fmt.Sprint(index) {
		return nil
	}
	slice := view.Name + fmt.Sprint(args)
	if done[slice] {
		return nil
	}
	done[slice] = true
	rows, err := v.st.ViewSliceRows(ctx, view, args)
	if err != nil {
		return err
	}
	for _, r := range rows {
		v.summary.ViewRows++
		key, _ := values(r, view.BaseKey)
		if known[view.Base+fmt.Sprint(key)] {
			continue
		}
		base, err := v.st.FullRow(ctx, view.Base, key) // a row this milestone's stored bytes did not derive
		if err != nil {
			return err
		}
		if base != nil && len(differs(r, base, view.Key)) == 0 {
			continue
		}
		vk, _ := values(r, view.Key)
		v.report(Discrepancy{Kind: KindViewOrphan, Table: view.Name, Milestone: index, Key: printableKey(view.Key, vk),
			Detail: "view row without its base row in " + view.Base + ": rebuild the view (docs/verify.md)"})
	}
	return nil
}

// values picks cols from a row; false when one is null.
func values(r store.Row, cols []string) ([]any, bool) {
	out := make([]any, len(cols))
	for i, c := range cols {
		if norm(r[c]) == nil && !zeroAllowed(c) {
			return nil, false
		}
		out[i] = r[c]
	}
	return out, true
}

// zeroAllowed: key columns whose zero value is a real value, not a null (gocql reads
// both alike).
func zeroAllowed(col string) bool {
	switch col {
	case "ms_range_id", "milestone_index", "inclusion_state", "idx", "white_flag_index":
		return true
	}
	return false
}

func printableKey(cols []string, vals []any) map[string]any {
	out := map[string]any{}
	for i, c := range cols {
		if i < len(vals) {
			out[c] = printable(vals[i])
		}
	}
	return out
}
