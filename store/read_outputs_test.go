package store

import (
	"context"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// TestOutputRowColumns: every column each output select names lands in its own field
// (a column added to cql.OutputTable without a field here panics).
func TestOutputRowColumns(t *testing.T) {
	for _, table := range []cql.OutputTable{cql.BasicOutputs, cql.AliasOutputs, cql.FoundryOutputs, cql.NFTOutputs} {
		var r OutputRow
		seen := map[any]string{}
		for _, col := range table.Columns {
			dest := fieldsOf(&r)(col)
			if other, dup := seen[dest]; dup {
				t.Errorf("%s: %s and %s share a field", table.Table, col, other)
			}
			seen[dest] = col
		}
		for _, view := range table.Views {
			*fieldsOf(&r)(view).(*string) = view + "-value"
			if got := r.Role(view); got != view+"-value" {
				t.Errorf("%s: Role(%s) = %q", table.Table, view, got)
			}
		}
	}
}

// TestReadersNotFound: lookups of keys nothing was written under answer ErrNotFound,
// and pages of empty partitions are empty and final.
func TestReadersNotFound(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	id := chain.MessageID{1}.String()
	lookups := map[string]func() error{
		"Message":         func() error { _, err := st.Message(ctx, id); return err },
		"MessageRaw":      func() error { _, err := st.MessageRaw(ctx, id); return err },
		"MessageMetadata": func() error { _, err := st.MessageMetadata(ctx, id); return err },
		"Milestone":       func() error { _, err := st.Milestone(ctx, 7); return err },
		"IncludedMessage": func() error { _, err := st.IncludedMessage(ctx, id); return err },
		"LegacyOutput":    func() error { _, err := st.LegacyOutput(ctx, id+"0000"); return err },
	}
	for name, lookup := range lookups {
		if err := lookup(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
	req := PageRequest{Size: 5}
	rows, next, err := st.OutputsPage(ctx, chain.OutputNFT, "issuer", "smr1x", 3, TimeRange{}, req)
	if err != nil || len(rows) != 0 || len(next) != 0 {
		t.Errorf("empty view partition: %d rows, state %x, %v", len(rows), next, err)
	}
	tags, next, err := st.TagPage(ctx, "0x01", cql.PendingRange, TimeRange{}, req)
	if err != nil || len(tags) != 0 || len(next) != 0 {
		t.Errorf("empty tag partition: %d rows, state %x, %v", len(tags), next, err)
	}
	txRows, err := st.TransactionRows(ctx, id)
	if err != nil || len(txRows) != 0 {
		t.Errorf("unknown transaction: %d rows, %v", len(txRows), err)
	}
}
