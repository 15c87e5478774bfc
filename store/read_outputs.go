package store

import (
	"context"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// PendingRange is the ms_range_id of the rows of messages not referenced yet.
const PendingRange = cql.PendingRange

// outputTables are the tables of each output kind but legacy (legacy_outputs, a table of
// its own, see read_legacy.go).
var outputTables = map[chain.OutputKind]cql.OutputTable{
	chain.OutputBasic: cql.BasicOutputs, chain.OutputAlias: cql.AliasOutputs,
	chain.OutputFoundry: cql.FoundryOutputs, chain.OutputNFT: cql.NFTOutputs,
}

func outputTable(kind chain.OutputKind) (cql.OutputTable, error) {
	t, ok := outputTables[kind]
	if !ok {
		return t, fmt.Errorf("store: %s outputs have no output table", kind)
	}
	return t, nil
}

// OutputRow is a row of one of the output tables (basic, alias, foundry, nft).
// Columns a table does not have stay empty; a null text column reads as "".
type OutputRow struct {
	Kind                chain.OutputKind
	Table               string
	AliasID             string    `cql:"alias_id"`   // alias_outputs rows only (see Key)
	FoundryID           string    `cql:"foundry_id"` // foundry_outputs rows only
	NFTID               string    `cql:"nft_id"`     // nft_outputs rows only
	OutputID            string    `cql:"output_id"`
	RangeID             int32     `cql:"ms_range_id"`
	MilestoneIndex      int32     `cql:"milestone_index"` // estimated for an output of a message not referenced yet
	Timestamp           time.Time `cql:"ms_timestamp"`
	InclusionState      *int8     `cql:"inclusion_state"` // nil in the pending partition
	MessageID           string    `cql:"message_id"`
	Amount              int64     `cql:"amount"`
	Address             string    `cql:"address"`
	DustReturnAddress   string    `cql:"dust_return_address"`
	Sender              string    `cql:"sender"`
	Issuer              string    `cql:"issuer"`
	StateController     string    `cql:"state_controller"`
	Governor            string    `cql:"governor"`
	Tag                 string    `cql:"tag"`
	StateIndex          *int32    `cql:"state_index"`
	Data                []byte    `cql:"data"`
	SpentBy             string    `cql:"spent_by"` // transaction ID; "" while unspent
	SpentMilestoneIndex *int32    `cql:"spent_milestone_index"`
}

// Key is the row's partition key: a basic output's ID, or the alias, foundry or NFT ID.
func (r *OutputRow) Key() string { return r.Role(outputTables[r.Kind].Key) }

// Pending reports whether the row is in the partition of messages not referenced yet.
func (r *OutputRow) Pending() bool { return r.RangeID == PendingRange }

// OutputVersions reads one page of the rows of one key: an output's rows (basic) or
// every version of an alias, foundry or NFT, newest first (pending ones first of all).
func (st *Store) OutputVersions(ctx context.Context, kind chain.OutputKind, key string, req PageRequest) ([]OutputRow, []byte, error) {
	t, err := outputTable(kind)
	if err != nil {
		return nil, nil, err
	}
	return st.outputPage(ctx, kind, t, cql.Outputs[t.Table].ByKey, []any{key}, req)
}

// OutputsPage reads one page of a view (outputs whose column equals value) in
// partition rng, newest first, optionally within tr.
func (st *Store) OutputsPage(ctx context.Context, kind chain.OutputKind, column, value string, rng int32, tr TimeRange,
	req PageRequest) ([]OutputRow, []byte, error) {
	t, err := outputTable(kind)
	if err != nil {
		return nil, nil, err
	}
	sts := cql.Outputs[t.Table]
	stmt, args := sts.ByView[column], []any{value, rng}
	if !tr.IsZero() {
		from, to := tr.bounds()
		stmt, args = sts.ByViewTime[column], append(args, from, to)
	}
	return st.outputPage(ctx, kind, t, stmt, args, req)
}

func (st *Store) outputPage(ctx context.Context, kind chain.OutputKind, t cql.OutputTable, stmt *cql.Statement, args []any,
	req PageRequest) ([]OutputRow, []byte, error) {
	rows, next, err := cql.RecordPage[OutputRow](ctx, st.s, stmt, args, req.Size, req.State)
	for i := range rows {
		rows[i].Kind, rows[i].Table = kind, t.Table
	}
	return rows, next, err
}

// Role is the address (or tag) in one of the row's indexed columns ("address",
// "sender", "issuer", "state_controller", "governor", "dust_return_address", "tag"), or
// in another of its text columns.
func (r *OutputRow) Role(column string) string { return *fieldsOf(r)(column).(*string) }
