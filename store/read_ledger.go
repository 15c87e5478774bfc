package store

import (
	"context"
	"math"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// UnspentRow is an unspent output's row in unspent_outputs, or (with Address and Role)
// in unspent_outputs_by_address. Optional numbers are nil when the output lacks them.
type UnspentRow struct {
	Address                 string `cql:"address"` // by address: the partition's address
	Role                    string `cql:"role"`    // by address: the role it plays (Role* constants)
	Kind                    string `cql:"output_kind"`
	RangeID                 int32  `cql:"ms_range_id"`
	CreatedAt               int64  `cql:"created_at"` // unix seconds of the creating milestone
	OutputID                string `cql:"output_id"`
	MilestoneIndex          int32  `cql:"milestone_index"`
	Amount                  int64  `cql:"amount"`
	NativeTokenCount        int32  `cql:"native_token_count"`
	Owner                   string `cql:"owner"` // address unlock condition; alias: state controller; foundry: alias
	DustReturnAddress       string `cql:"dust_return_address"`
	DustReturnAmount        *int64 `cql:"dust_return_amount"`
	Timelock                *int64 `cql:"timelock"`   // unix seconds
	Expiration              *int64 `cql:"expiration"` // unix seconds
	ExpirationReturnAddress string `cql:"expiration_return_address"`
	Sender                  string `cql:"sender"`
	Tag                     string `cql:"tag"`
	Issuer                  string `cql:"issuer"`
	StateController         string `cql:"state_controller"`
	Governor                string `cql:"governor"`
	ChainID                 string `cql:"chain_id"`              // alias, NFT or foundry ID; "" for basic outputs
	SpentMilestoneIndex     int32  `cql:"spent_milestone_index"` // spent twin rows: the milestone that spent it
	// What a by-address row carries of its output (LedgerStream.Outputs; nil and "" in
	// rows written before migration 000014): its bytes, its creating block ("" for a
	// genesis output) and, spent, the spending transaction.
	OutputData []byte `cql:"output_data"`
	MessageID  string `cql:"message_id"`
	SpentBy    string `cql:"spent_by"`
}

// RowKey is the key of the output's rows in its output table (BookedRow): a basic
// output's ID, the chain ID of the others.
func (r *UnspentRow) RowKey() string {
	if r.Kind == chain.OutputBasic.String() {
		return r.OutputID
	}
	return r.ChainID
}

// Position is a place in TIP-26 order: creation time (unix seconds), then output ID.
type Position struct {
	CreatedAt int64
	OutputID  string
}

// Span is [From, To) in TIP-26 order. The zero To is the end of time.
type Span struct{ From, To Position }

func (s Span) binds() []any {
	to := s.To
	if to == (Position{}) {
		to = Position{CreatedAt: math.MaxInt64}
	}
	return []any{s.From.CreatedAt, s.From.OutputID, to.CreatedAt, to.OutputID}
}

// LedgerStream names one stream of the ledger-state tables: unspent_outputs by kind
// (Address ""), or unspent_outputs_by_address by address, kind and role; Spent reads
// their spent twins; Newest reads newest first (reverse TIP-26 order).
type LedgerStream struct {
	Kind, Address, Role string
	Spent, Newest       bool
	// Outputs: rows by address, in TIP-26 order, with the output each carries.
	Outputs bool
}

// ledgerPageKey picks a LedgerPage statement: spent twin, by address, newest first.
type ledgerPageKey struct{ spent, byAddress, newest bool }

var ledgerPages = map[ledgerPageKey]*cql.Statement{
	{false, false, false}: cql.UnspentPages.ByKind, {false, false, true}: cql.UnspentPages.ByKindNewest,
	{false, true, false}: cql.UnspentPages.ByAddress, {false, true, true}: cql.UnspentPages.ByAddressNewest,
	{true, false, false}: cql.SpentPages.ByKind, {true, false, true}: cql.SpentPages.ByKindNewest,
	{true, true, false}: cql.SpentPages.ByAddress, {true, true, true}: cql.SpentPages.ByAddressNewest,
}

// LedgerPage reads up to req.Size rows of stream s created in partition rng within span,
// in the stream's order.
func (st *Store) LedgerPage(ctx context.Context, s LedgerStream, rng int32, span Span, req PageRequest) (
	[]UnspentRow, []byte, error) {
	stmt := ledgerPages[ledgerPageKey{s.Spent, s.Address != "", s.Newest}]
	if s.Outputs && s.Address != "" && !s.Newest {
		stmt = cql.UnspentPages.ByAddressOutputs
		if s.Spent {
			stmt = cql.SpentPages.ByAddressOutputs
		}
	}
	key := []any{s.Kind, rng}
	if s.Address != "" {
		key = []any{s.Address, rng, s.Kind, s.Role}
	}
	if s.Newest {
		return st.unspentRowsNewest(ctx, stmt, key, span, req)
	}
	return st.unspentRows(ctx, stmt, key, rng, span, req)
}

// AddressUpdate is a ledger update of an address: an output naming it was created or
// spent in a milestone.
type AddressUpdate struct {
	Address        string    `cql:"address"`
	RangeID        int32     `cql:"ms_range_id"`
	MilestoneIndex int32     `cql:"milestone_index"`
	OutputID       string    `cql:"output_id"`
	IsSpent        bool      `cql:"is_spent"`
	Timestamp      time.Time `cql:"ms_timestamp"`
	Kind           string    `cql:"output_kind"`
	Roles          []string  `cql:"roles"`
	Amount         int64     `cql:"amount"`
}

// AddressUpdatesPage reads one page of an address's ledger updates in partition rng,
// within milestones [first, last], newest first or (oldest) oldest first.
func (st *Store) AddressUpdatesPage(ctx context.Context, address string, rng int32, first, last uint32, oldest bool,
	req PageRequest) ([]AddressUpdate, []byte, error) {
	stmt := cql.AddressUpdatesNewest
	if oldest {
		stmt = cql.AddressUpdatesOldest
	}
	return readRows[AddressUpdate](ctx, st, stmt, []any{address, rng, int32(first), int32(min(last, math.MaxInt32))}, req)
}

// MilestoneUpdate is an output a milestone created (IsSpent false) or consumed.
type MilestoneUpdate struct {
	MilestoneIndex int32  `cql:"milestone_index"`
	IsSpent        bool   `cql:"is_spent"`
	OutputID       string `cql:"output_id"`
	Kind           string `cql:"output_kind"`
	Amount         int64  `cql:"amount"`
	Address        string `cql:"address"` // the output's owner
}

// MilestoneUpdates reads every output milestone index created and consumed: created
// first, each group by output ID.
func (st *Store) MilestoneUpdates(ctx context.Context, index uint32) ([]MilestoneUpdate, error) {
	return cql.Records[MilestoneUpdate](ctx, st.s, cql.MilestoneUpdates, []any{int32(index)})
}

// readRows reads one page of a statement into records of type R (cql.RecordPage: each
// column into the field its `cql` tag names).
func readRows[R any](ctx context.Context, st *Store, stmt *cql.Statement, args []any, req PageRequest) ([]R, []byte, error) {
	return cql.RecordPage[R](ctx, st.s, stmt, args, req.Size, req.State)
}

// MilestoneUpdatesPage reads one page of the outputs a milestone created (first) and
// consumed, each group by output ID.
func (st *Store) MilestoneUpdatesPage(ctx context.Context, index uint32, req PageRequest) ([]MilestoneUpdate, []byte, error) {
	return readRows[MilestoneUpdate](ctx, st, cql.MilestoneUpdates, []any{int32(index)}, req)
}

// LedgerUpdateRanges lists the partitions of address_ledger_updates holding an address
// (addresses_hints: output_kind "any", variant "ledger_update").
func (st *Store) LedgerUpdateRanges(ctx context.Context, address string) ([]int32, error) {
	return st.ranges(ctx, cql.AddressHints, address, LedgerUpdateHintKind, LedgerUpdateHintRoles)
}
