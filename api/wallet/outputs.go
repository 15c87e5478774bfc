package wallet

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// OwnerRoles are the roles in which an address owns an output for a wallet: it unlocks
// it (address unlock condition, an alias's state controller or governor, a foundry's
// alias address) or gets it or its deposit back (expiration and storage deposit return).
var OwnerRoles = map[chain.OutputKind][]string{
	chain.OutputBasic: {store.RoleAddress, store.RoleDustReturn, store.RoleExpirationReturn},
	chain.OutputNFT:   {store.RoleAddress, store.RoleDustReturn, store.RoleExpirationReturn},
	chain.OutputAlias: {store.RoleStateController, store.RoleGovernor}, chain.OutputFoundry: {store.RoleAddress},
}

var (
	ownerKinds = []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT}
	ownerRoles = []string{store.RoleAddress, store.RoleDustReturn, store.RoleExpirationReturn,
		store.RoleStateController, store.RoleGovernor}
)

// parallelReads bounds the reads one sync runs at once: one request stands for the
// requests of many addresses, each of which would run rest.MaxParallelReads.
const parallelReads = 32

// MaxRowsRead bounds the ledger-state rows one page reads; past it the answer is a 422
// that asks for fewer addresses or a smaller page.
const MaxRowsRead = 200_000

// OutputsJSON is the answer of POST /api/wallet/v1/outputs: one page of the outputs the
// addresses own, address by address in the body's order, each address's in TIP-26
// order, all at one ledger index.
type OutputsJSON struct {
	LedgerIndex uint32     `json:"ledgerIndex"`
	Items       []ItemJSON `json:"items"`
	Cursor      string     `json:"cursor,omitempty"`
	rest.WithCoverage
}

// ItemJSON is one output and one of the addresses that owns it, in the roles it does.
type ItemJSON struct {
	Address  string                    `json:"address"`
	Roles    []string                  `json:"roles"`
	OutputID string                    `json:"outputId"`
	Output   *tip25.OutputJSON         `json:"output"`
	Metadata *tip25.OutputMetadataJSON `json:"metadata"`
}

// held is one output one address owns, in the roles it does.
type held struct {
	address string
	row     store.UnspentRow
	roles   []string
}

func (s *API) outputs(ctx context.Context, in *rest.Input) (any, error) {
	req, err := parseRequest(in.Body, in.HRP)
	if err != nil {
		return nil, err
	}
	at, cov, err := s.ledgerAt(ctx, req)
	if err != nil || at.index == 0 {
		return &OutputsJSON{LedgerIndex: at.index, Items: []ItemJSON{}, WithCoverage: rest.WithCoverage{Coverage: cov}}, err
	}
	page, next, err := s.page(ctx, req, at)
	if errors.Is(err, errTooManyRows) {
		return nil, &rest.APIError{Status: http.StatusUnprocessableEntity, Title: "too many outputs",
			Detail: err.Error() + "; ask for fewer addresses or a smaller pageSize"}
	} else if err != nil {
		return nil, err
	}
	items, err := s.items(ctx, page, at.index)
	out := &OutputsJSON{LedgerIndex: at.index, Items: items, WithCoverage: rest.WithCoverage{Coverage: cov}}
	if next != nil {
		out.Cursor = req.cursorOf(*next, at.index)
	}
	return out, err
}

// ledger is the ledger index a sync answers at and whether it is an earlier one than
// the ledger index (so the spent twin holds what was unspent then).
type ledger struct {
	index uint32
	past  bool
	ledgerState
}

// ledgerState is what the ledger's coverage was when a request read it: its index, the
// first milestone it covers and the bootstrap's. While none changes, no hint was written
// since (a milestone moves the index, a backfill below it moves since, a bootstrap sets
// its index).
type ledgerState struct{ tip, since, bootstrap uint32 }

// ledgerAt is the ledger a request is answered at, with its coverage there: partial too
// when a read of the spent twin (an earlier index, or spent outputs too) may miss spends.
func (s *API) ledgerAt(ctx context.Context, req *syncRequest) (ledger, rest.CoverageJSON, error) {
	li, err := s.st.LedgerIndex(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return ledger{}, rest.CoverageOf(li.Coverage), nil
	} else if err != nil {
		return ledger{}, rest.CoverageJSON{}, err
	}
	index, cov, err := rest.AtLedgerIndex(li.Index, rest.CoverageOf(li.Coverage), req.asked)
	if err != nil {
		return ledger{}, cov, err
	}
	at := ledger{index: index, past: index < li.Index, ledgerState: stateOf(li)}
	if at.past || req.includeSpent {
		err = rest.MarkSpentMissing(ctx, s.st, li.Coverage, &cov)
	}
	return at, cov, err
}

func stateOf(li store.LedgerIndex) ledgerState {
	st := ledgerState{tip: li.Index, since: li.Coverage.Since}
	if b := li.Coverage.Bootstrap; b != nil {
		st.bootstrap = b.Index
	}
	return st
}

var errTooManyRows = errors.New("the addresses name more outputs than one page may read")

// page is one page of items from the cursor's place: the addresses read parallelReads
// at a time, in the body's order, each from the start of its outputs (the cursor's
// address from the cursor's output), until the page is full; next is the place of the
// item after it (nil: the page is the last).
func (s *API) page(ctx context.Context, req *syncRequest, at ledger) ([]*held, *place, error) {
	var (
		out    []*held
		budget atomic.Int64
	)
	budget.Store(MaxRowsRead)
	for k := req.at.address; k < len(req.addresses); k += parallelReads {
		batch := make([][]*held, min(parallelReads, len(req.addresses)-k))
		want := req.size + 1 - len(out)
		g, ctx := errgroup.WithContext(ctx)
		for i := range batch {
			from := store.Position{}
			if k+i == req.at.address {
				from = req.at.from
			}
			g.Go(func() (err error) {
				batch[i], err = s.ownedBy(ctx, req.addresses[k+i], from, want, req, at, &budget)
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return nil, nil, err
		}
		for i, owned := range batch {
			for _, h := range owned {
				if len(out) == req.size {
					return out, &place{address: k + i, from: ledgerquery.PositionOf(&h.row)}, nil
				}
				out = append(out, h)
			}
		}
	}
	return out, nil, nil
}

// ownedBy is the first want outputs addr owns from position from on, in TIP-26 order: the
// streams of its owning roles in the partitions its hints name (those beginning by the
// ledger index).
func (s *API) ownedBy(ctx context.Context, addr string, from store.Position, want int, req *syncRequest, at ledger,
	budget *atomic.Int64) ([]*held, error) {
	hints, err := s.hintsOf(ctx, addr, at)
	if err != nil {
		return nil, err
	}
	found := map[string]*held{}
	for _, h := range hints {
		kind, _ := chain.ParseOutputKind(h.OutputKind)
		if !slices.Contains(OwnerRoles[kind], h.Variant) || h.Range == store.PendingRange ||
			s.st.RangeStart(h.Range) > at.index {
			continue
		}
		for _, spent := range []bool{false, true} {
			if spent && !at.past && !req.includeSpent {
				continue
			}
			stream := store.LedgerStream{Address: addr, Kind: h.OutputKind, Role: h.Variant, Spent: spent, Outputs: true}
			if err := s.readStream(ctx, stream, h.Range, from, want, req, at, budget, found); err != nil {
				return nil, err
			}
		}
	}
	all := slices.SortedFunc(maps.Values(found), func(a, b *held) int {
		return cmp.Or(cmp.Compare(a.row.CreatedAt, b.row.CreatedAt), strings.Compare(a.row.OutputID, b.row.OutputID))
	})
	return all[:min(want, len(all))], nil
}

// readStream adds to found the first want rows of one partition of one stream from
// position from that the ledger held at its index: created by it and, from the spent
// twin, spent after it (any, with includeSpent).
func (s *API) readStream(ctx context.Context, stream store.LedgerStream, rng int32, from store.Position, want int,
	req *syncRequest, at ledger, budget *atomic.Int64, found map[string]*held) error {
	page, kept := store.PageRequest{Size: min(want, maxFetch)}, 0
	for {
		rows, next, err := s.st.LedgerPage(ctx, stream, rng, store.Span{From: from}, page)
		if err != nil {
			return err
		}
		if budget.Add(-int64(len(rows))) < 0 {
			return errTooManyRows
		}
		for _, r := range rows {
			if uint32(r.MilestoneIndex) <= at.index &&
				(!stream.Spent || req.includeSpent || uint32(r.SpentMilestoneIndex) > at.index) {
				kept++
				add(found, stream.Address, r, stream.Role)
			}
		}
		if kept >= want || len(next) == 0 {
			return nil
		}
		// The rows the ledger held then are sparse (the spent twin at an earlier index):
		// read more at a time, up to maxFetch.
		page.State, page.Size = next, min(2*page.Size, maxFetch)
	}
}

// maxFetch is the most rows one read asks for.
const maxFetch = 1000

// hintsOf is the partitions of addr's owning roles, from the cache when an entry holds
// them at the request's ledger index.
func (s *API) hintsOf(ctx context.Context, addr string, at ledger) ([]store.AddressHint, error) {
	if hints, ok := s.hints.get(addr, at.ledgerState); ok {
		return hints, nil
	}
	hints, err := s.st.AddressHintsOf(ctx, addr, ownerKinds, ownerRoles)
	if err == nil {
		s.hints.put(addr, hintEntry{hints: hints, state: at.ledgerState})
	}
	return hints, err
}

func add(found map[string]*held, addr string, r store.UnspentRow, role string) {
	h := found[r.OutputID]
	if h == nil {
		h = &held{address: addr, row: r}
		found[r.OutputID] = h
	}
	if !slices.Contains(h.roles, role) {
		h.roles = append(h.roles, role)
	}
}
