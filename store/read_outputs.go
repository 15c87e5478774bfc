package store

import (
	"context"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// OutputRow is a row of one of the output tables (basic, alias, foundry, nft).
// Columns a table does not have stay empty.
type OutputRow struct {
	Table               string
	Key                 string // output ID (basic), alias, foundry or NFT ID
	OutputID            string
	RangeID             int32
	MilestoneIndex      int32 // estimated for an output of a message not referenced yet
	Timestamp           time.Time
	InclusionState      *int8 // nil in the pending partition
	MessageID           string
	Amount              int64
	Address             string
	DustReturnAddress   string
	Sender              string
	Issuer              string
	StateController     string
	Governor            string
	Tag                 string
	StateIndex          *int32
	Data                []byte
	SpentBy             string // transaction ID; "" while unspent
	SpentMilestoneIndex *int32
}

// Pending reports whether the row is in the partition of messages not referenced yet.
func (r *OutputRow) Pending() bool { return r.RangeID == cql.PendingRange }

// OutputVersions reads one page of the rows of one key: an output's rows (basic) or
// every version of an alias, foundry or NFT, newest first (pending ones first of all).
func (st *Store) OutputVersions(ctx context.Context, t cql.OutputTable, key string, req PageRequest) ([]OutputRow, []byte, error) {
	return st.outputPage(ctx, t, cql.Outputs[t.Table].ByKey, []any{key}, req)
}

// OutputsPage reads one page of a view (outputs whose column equals value) in
// partition rng, newest first, optionally within tr.
func (st *Store) OutputsPage(ctx context.Context, t cql.OutputTable, column, value string, rng int32, tr TimeRange,
	req PageRequest) ([]OutputRow, []byte, error) {
	sts := cql.Outputs[t.Table]
	stmt, args := sts.ByView[column], []any{value, rng}
	if !tr.IsZero() {
		from, to := tr.bounds()
		stmt, args = sts.ByViewTime[column], append(args, from, to)
	}
	return st.outputPage(ctx, t, stmt, args, req)
}

func (st *Store) outputPage(ctx context.Context, t cql.OutputTable, stmt *cql.Statement, args []any,
	req PageRequest) ([]OutputRow, []byte, error) {
	return cql.CollectPage(ctx, st.S, stmt, args, req.Size, req.State, func(it *gocql.Iter, r *OutputRow) bool {
		return scanOutputRow(it, t, r)
	})
}

// scanOutputRow reads the columns every output select names (the table's columns, then
// spent_by, spent_milestone_index) into r. A null text column reads as "".
func scanOutputRow(it *gocql.Iter, t cql.OutputTable, r *OutputRow) bool {
	dest := make([]any, 0, len(t.Columns)+2)
	for _, col := range t.Columns {
		dest = append(dest, r.column(t, col))
	}
	dest = append(dest, &r.SpentBy, &r.SpentMilestoneIndex)
	r.Table = t.Table
	ok := it.Scan(dest...)
	if t.Key == "output_id" {
		r.Key = r.OutputID
	}
	return ok
}

// column is where the value of col goes.
func (r *OutputRow) column(t cql.OutputTable, col string) any {
	switch col {
	case t.Key:
		if col == "output_id" {
			return &r.OutputID // basic outputs: the key is the output ID (copied to Key below)
		}
		return &r.Key
	case "output_id":
		return &r.OutputID
	case "ms_range_id":
		return &r.RangeID
	case "milestone_index":
		return &r.MilestoneIndex
	case "ms_timestamp":
		return &r.Timestamp
	case "inclusion_state":
		return &r.InclusionState
	case "message_id":
		return &r.MessageID
	case "amount":
		return &r.Amount
	case "data":
		return &r.Data
	case "state_index":
		return &r.StateIndex
	}
	return r.addressColumn(col)
}

// Role is the address (or tag) in one of the row's indexed columns ("address",
// "sender", "issuer", "state_controller", "governor", "dust_return_address", "tag").
func (r *OutputRow) Role(column string) string { return *r.addressColumn(column).(*string) }

func (r *OutputRow) addressColumn(col string) any {
	switch col {
	case "address":
		return &r.Address
	case "dust_return_address":
		return &r.DustReturnAddress
	case "sender":
		return &r.Sender
	case "issuer":
		return &r.Issuer
	case "state_controller":
		return &r.StateController
	case "governor":
		return &r.Governor
	case "tag":
		return &r.Tag
	}
	panic("store: output column " + col + " has no field") // a schema change this reader misses
}
