package explorer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// historyParams are the parameters of an address's ledger-update feed.
type historyParams struct {
	rest.AddressParams
	sortParams
	Start *uint32 `query:"startMilestoneIndex" kind:"index" doc:"only updates of this milestone or later"`
	historyTail
}

// chronicleHistoryParams are historyParams with startMilestoneIndex as Chronicle reads it.
type chronicleHistoryParams struct {
	rest.AddressParams
	sortParams
	Start *uint32 `query:"startMilestoneIndex" kind:"index" doc:"where the listing starts: updates of milestones before it (newest) or after it (oldest)"`
	historyTail
}

// historyTail are the feed's parameters after startMilestoneIndex.
type historyTail struct {
	End            *uint32    `query:"endMilestoneIndex" kind:"index" doc:"only updates of this milestone or earlier"`
	LedgerIndex    *uint32    `query:"ledgerIndex" kind:"index" doc:"the updates up to this ledger index (as endMilestoneIndex), with the coverage there; above the ledger index, 400"`
	StartTimestamp *time.Time `query:"startTimestamp" kind:"time" doc:"only updates of milestones at or after this time"`
	EndTimestamp   *time.Time `query:"endTimestamp" kind:"time" doc:"only updates of milestones before this time"`
	rest.ProofParams
	explorerPageParams
}

// historyRequest is a feed's request, whichever route's.
type historyRequest struct {
	address string
	oldest  bool
	start   *uint32
	tail    *historyTail
}

// HistoryJSON is a page of an address's ledger updates (Chronicle's
// LedgerUpdatesByAddressResponse, with the update's output kind, roles and amount).
type HistoryJSON struct {
	Address     string              `json:"address"`
	Items       []addressUpdateJSON `json:"items"`
	Cursor      string              `json:"cursor,omitempty"`
	MaxResults  int                 `json:"maxResults"`            // the page size in effect
	LedgerIndex uint32              `json:"ledgerIndex,omitempty"` // the ledgerIndex asked for, if any
	rest.WithCoverage
}

type addressUpdateJSON struct {
	OutputID           string   `json:"outputId"`
	IsSpent            bool     `json:"isSpent"`
	MilestoneIndex     uint32   `json:"milestoneIndex"`
	MilestoneTimestamp int64    `json:"milestoneTimestamp"` // unix seconds
	Kind               string   `json:"kind"`               // basic, alias, foundry, nft
	Roles              []string `json:"roles"`              // what the address is in the output
	Amount             string   `json:"amount"`

	Proof *rest.ProofJSON `json:"proof,omitempty"` // with ?proof=true: the proof of the update's block
}

// historyBounds are a feed's milestone range [first, last] and time range [from, to).
type historyBounds struct {
	first, last uint32
	from, to    time.Time // zero: unbounded
}

// readHistoryBounds reads the bounds; with chronicle, startMilestoneIndex is where the
// listing starts in the sort order, as on Chronicle's path: updates of milestones before
// it for newest, after it for oldest (Chronicle's query excludes the milestone itself).
func readHistoryBounds(r historyRequest, chronicle bool) (historyBounds, error) {
	b := historyBounds{last: math.MaxUint32}
	if t := r.tail; t.StartTimestamp != nil {
		b.from = *t.StartTimestamp
	}
	if t := r.tail; t.EndTimestamp != nil {
		b.to = *t.EndTimestamp
	}
	if r.tail.End != nil {
		b.last = *r.tail.End
	}
	if r.start != nil {
		start := *r.start
		switch {
		case !chronicle:
			b.first = start
		case r.oldest && start == math.MaxUint32, !r.oldest && start == 0:
			return b, errEmptyHistory
		case r.oldest:
			b.first = start + 1
		default:
			b.last = min(b.last, start-1)
		}
	}
	switch {
	case chronicle && b.last < b.first:
		return b, errEmptyHistory
	case b.last < b.first:
		return b, rest.BadParam("endMilestoneIndex", "%d is before startMilestoneIndex (%d)", b.last, b.first)
	case !b.to.IsZero() && !b.from.IsZero() && b.to.Before(b.from):
		return b, rest.BadParam("endTimestamp", "%s is before startTimestamp (%s)", b.to.Format(time.RFC3339),
			b.from.Format(time.RFC3339))
	}
	return b, nil
}

// keep filters by time (the milestone range is the reads' own bound).
func (b historyBounds) keep(u *store.AddressUpdate) bool {
	return (b.from.IsZero() || !u.Timestamp.Before(b.from)) && (b.to.IsZero() || u.Timestamp.Before(b.to))
}

// history is an address's ledger updates, every output kind and role, one feed: the
// partitions addresses_hints names (output_kind any, variant ledger_update) within the
// milestone bounds, walked in the sort order; each partition is read newest or oldest
// first by its clustering (milestone, output ID, spent). A time bound filters rows, so
// a page that meets few of them comes back short, with a cursor (at most
// maxReadsPerPage reads a page). The ledger's coverage is read beside the hints.
func (s *API) history(ctx context.Context, in *rest.Input, p *historyParams) (any, error) {
	return s.historyOf(ctx, in, historyRequest{p.Address.Text, p.oldest(), p.Start, &p.historyTail}, false)
}

func (s *API) historyOf(ctx context.Context, in *rest.Input, r historyRequest, chronicle bool) (any, error) {
	list := "address-history"
	if chronicle && r.start != nil {
		list = "ledger-updates-by-address" // the same query lists other updates here
	}
	if err := explorerPaging(in, list, &r.tail.explorerPageParams); err != nil {
		return nil, err
	}
	address := r.address
	b, err := readHistoryBounds(r, chronicle)
	if errors.Is(err, errEmptyHistory) {
		cov, err := s.Coverage(ctx)
		if err == nil {
			cov, err = historyAt(cov, r.tail, &b)
		}
		return HistoryJSON{Address: address, Items: []addressUpdateJSON{}, MaxResults: in.PageSize,
			LedgerIndex: askedIndex(r.tail), WithCoverage: rest.WithCoverage{Coverage: cov}}, err
	}
	if err != nil {
		return nil, err
	}
	var (
		parts []int32
		cov   rest.CoverageJSON
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { parts, err = s.st.LedgerUpdateRanges(gctx, address); return err })
	g.Go(func() (err error) { cov, err = s.Coverage(gctx); return err })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if cov, err = historyAt(cov, r.tail, &b); err != nil {
		return nil, err
	}
	parts = withinRanges(parts, s.st.RangeID(b.first), s.st.RangeID(b.last))
	oldest := r.oldest
	fetch := func(ctx context.Context, rng int32, req store.PageRequest) ([]store.AddressUpdate, []byte, error) {
		return s.st.AddressUpdatesPage(ctx, address, rng, b.first, b.last, oldest, req)
	}
	p, err := rest.WalkSorted(ctx, in, parts, oldest, fetch, b.keep, func(u *store.AddressUpdate) addressUpdateJSON {
		return addressUpdateJSON{OutputID: u.OutputID, IsSpent: u.IsSpent, MilestoneIndex: uint32(u.MilestoneIndex),
			MilestoneTimestamp: rest.UnixTime(u.Timestamp), Kind: u.Kind, Roles: u.Roles,
			Amount: strconv.FormatInt(u.Amount, 10)}
	})
	if err == nil {
		err = s.attachHistoryProofs(ctx, r.tail.Wanted(), p.Items)
	}
	if err != nil {
		return nil, err
	}
	return HistoryJSON{Address: address, Items: p.Items, Cursor: p.Cursor, MaxResults: in.PageSize,
		LedgerIndex: askedIndex(r.tail), WithCoverage: rest.WithCoverage{Coverage: cov}}, nil
}

// historyAt ends a feed's milestones at the ledger index its request asks for, if any (a
// 400 above the ledger index), and is the coverage there.
func historyAt(cov rest.CoverageJSON, t *historyTail, b *historyBounds) (rest.CoverageJSON, error) {
	at, cov, err := rest.AtLedgerIndex(cov.LedgerIndex, cov, t.LedgerIndex)
	if err == nil && t.LedgerIndex != nil {
		b.last = min(b.last, at)
	}
	return cov, err
}

// askedIndex is the ledgerIndex a feed's request asks for (0: none).
func askedIndex(t *historyTail) uint32 {
	if t.LedgerIndex == nil {
		return 0
	}
	return *t.LedgerIndex
}

// withinRanges keeps the partitions in [lo, hi].
func withinRanges(parts []int32, lo, hi int32) []int32 {
	out := parts[:0:0]
	for _, p := range parts {
		if p >= lo && p <= hi {
			out = append(out, p)
		}
	}
	return out
}

// attachHistoryProofs gives each address-history item the proof of its block: the
// block that included the transaction creating the output (a created item) or spending
// it (a spent item). An output whose creating block is not indexed (a genesis output, or
// one created before the keyspace's first milestone) has none.
func (s *API) attachHistoryProofs(ctx context.Context, proofs bool, items []addressUpdateJSON) error {
	if !proofs {
		return nil
	}
	p := s.NewProver()
	for i := range items {
		block, err := s.updateBlock(ctx, &items[i])
		if err != nil || block == "" {
			return err
		}
		if items[i].Proof, err = p.Prove(ctx, block, rest.ReferencedTree); err != nil {
			return rest.MissingIsInternal(err)
		}
	}
	return nil
}

// updateBlock is the block of the transaction that made an address update ("" for the
// creation of an output whose creating block is not indexed).
func (s *API) updateBlock(ctx context.Context, u *addressUpdateJSON) (string, error) {
	id, err := chain.ParseOutputID(u.OutputID)
	if err != nil {
		return "", fmt.Errorf("history item %q: %w", u.OutputID, err)
	}
	tx := id.TransactionID().String()
	if u.IsSpent {
		lo, err := s.LedgerOutput(ctx, id)
		if err != nil {
			return "", rest.MissingIsInternal(err)
		}
		tx = lo.Row.SpentBy
	}
	block, err := s.st.IncludedMessage(ctx, tx)
	if errors.Is(err, store.ErrNotFound) && !u.IsSpent {
		return "", nil
	}
	return block, rest.MissingIsInternal(err)
}
