package ledgerquery

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Filter is a TIP-26 query's conditions, with inx-indexer's (Stardust) meaning; a nil,
// "" or zero field does not filter. Times are unix seconds; "before" and "after" are
// strict. Addresses come parsed, with the text the tables hold (bech32 under the
// network's HRP).
type Filter struct {
	HasNativeTokens  *bool
	MinNativeTokens  *int32
	MaxNativeTokens  *int32
	Address          chain.LocalAddress // the address unlock condition (basic, NFT)
	Unlockable       chain.LocalAddress // unlockableByAddress: see unlockableBy
	AliasAddress     chain.LocalAddress // a foundry's alias
	HasSDR           *bool              // storage deposit return condition present
	SDRAddress       chain.LocalAddress
	HasTimelock      *bool
	TimelockedBefore *int64
	TimelockedAfter  *int64
	HasExpiration    *bool
	ExpiresBefore    *int64
	ExpiresAfter     *int64
	ExpirationReturn chain.LocalAddress
	Sender           chain.LocalAddress
	Tag              string // 0x-hex, as the tables hold it
	Issuer           chain.LocalAddress
	StateController  chain.LocalAddress
	Governor         chain.LocalAddress
	CreatedBefore    *int64
	CreatedAfter     *int64
	// LedgerIndex: rows of later milestones (being written, not synced yet) are beyond
	// the answer's ledger index and left out; 0 leaves none out.
	LedgerIndex uint32
	// SpentAfter: a spent twin's row passes only when its output was spent after this
	// milestone (unspent at it); 0 lets every spent row through.
	SpentAfter uint32
	// Since: rows of milestones before it are left out (0 leaves none out). Without a
	// bootstrap, outputs created before the first indexed milestone have rows only as the
	// spent inputs of indexed milestones, in partitions past the coverage's; a list with
	// spent outputs leaves them out, as the coverage says it does.
	Since uint32
}

// Match reports whether a row satisfies every condition of f.
func (f *Filter) Match(r *store.UnspentRow) bool {
	return f.ledger(r) && f.tokens(r) && f.addresses(r) && f.conditions(r) && f.created(r)
}

func (f *Filter) ledger(r *store.UnspentRow) bool {
	return (f.LedgerIndex == 0 || r.MilestoneIndex <= int32(min(f.LedgerIndex, 1<<31-1))) &&
		int64(r.MilestoneIndex) >= int64(f.Since) &&
		(f.SpentAfter == 0 || r.SpentMilestoneIndex == 0 || int64(r.SpentMilestoneIndex) > int64(f.SpentAfter))
}

func (f *Filter) tokens(r *store.UnspentRow) bool {
	n := r.NativeTokenCount
	return (f.HasNativeTokens == nil || *f.HasNativeTokens == (n > 0)) &&
		(f.MinNativeTokens == nil || n >= *f.MinNativeTokens) &&
		(f.MaxNativeTokens == nil || n <= *f.MaxNativeTokens)
}

func (f *Filter) addresses(r *store.UnspentRow) bool {
	eq := func(want chain.LocalAddress, have string) bool { return want.IsZero() || want.Text == have }
	return eq(f.Address, r.Owner) && eq(f.AliasAddress, r.Owner) && eq(f.SDRAddress, r.DustReturnAddress) &&
		eq(f.ExpirationReturn, r.ExpirationReturnAddress) && eq(f.Sender, r.Sender) &&
		(f.Tag == "" || f.Tag == r.Tag) && eq(f.Issuer, r.Issuer) && eq(f.StateController, r.StateController) &&
		eq(f.Governor, r.Governor) && (f.Unlockable.IsZero() || unlockableBy(r, f.Unlockable.Text))
}

// unlockableBy is inx-indexer's unlockableByAddress: an alias by its state controller
// or governor; a foundry by its alias's address (inx-indexer's combined query matches
// foundries only for an alias address, and a foundry's owner is its alias's address, so
// no other address matches one); a basic or NFT output by its address, its expiration
// return address or its storage deposit return address.
func unlockableBy(r *store.UnspentRow, a string) bool {
	switch r.Kind {
	case "alias":
		return r.StateController == a || r.Governor == a
	case "foundry":
		return r.Owner == a
	}
	return r.Owner == a || r.ExpirationReturnAddress == a || r.DustReturnAddress == a
}

func (f *Filter) conditions(r *store.UnspentRow) bool {
	return has(f.HasSDR, r.DustReturnAmount != nil) && has(f.HasTimelock, r.Timelock != nil) &&
		has(f.HasExpiration, r.Expiration != nil) &&
		before(f.TimelockedBefore, r.Timelock) && after(f.TimelockedAfter, r.Timelock) &&
		before(f.ExpiresBefore, r.Expiration) && after(f.ExpiresAfter, r.Expiration)
}

func (f *Filter) created(r *store.UnspentRow) bool {
	at := &r.CreatedAt
	return before(f.CreatedBefore, at) && after(f.CreatedAfter, at)
}

func has(want *bool, present bool) bool { return want == nil || *want == present }

// before and after compare as SQL does: a missing value satisfies neither.
func before(limit, v *int64) bool { return limit == nil || (v != nil && *v < *limit) }
func after(limit, v *int64) bool  { return limit == nil || (v != nil && *v > *limit) }

// Empty reports whether no output can pass f whatever the data: an empty creation
// window (createdBefore 0 included, which Span could not express) or token bounds.
func (f *Filter) Empty() bool {
	return (f.CreatedBefore != nil && (*f.CreatedBefore <= 0 || (f.CreatedAfter != nil && *f.CreatedAfter+1 >= *f.CreatedBefore))) ||
		(f.MinNativeTokens != nil && f.MaxNativeTokens != nil && *f.MinNativeTokens > *f.MaxNativeTokens)
}

// Span is the part of TIP-26 order f's creation times and a cursor allow: from the
// cursor (inclusive) or the second after createdAfter, to createdBefore (exclusive).
func (f *Filter) Span(cursor *store.Position) store.Span {
	var s store.Span
	if cursor != nil {
		s.From = *cursor
	}
	if f.CreatedAfter != nil {
		if from := (store.Position{CreatedAt: *f.CreatedAfter + 1}); Less(s.From, from) {
			s.From = from
		}
	}
	if f.CreatedBefore != nil {
		s.To = store.Position{CreatedAt: *f.CreatedBefore}
	}
	return s
}
