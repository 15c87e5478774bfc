package explorer

import (
	"context"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// exportParams name the address, the time range and the format of an export.
type exportParams struct {
	rest.AddressParams
	From   *time.Time    `query:"from" kind:"time" doc:"only changes of milestones at or after this time (default: from the first milestone whose changes are indexed)"`
	To     *time.Time    `query:"to" kind:"time" doc:"only changes of milestones before this time (default: up to the ledger index)"`
	Format *exportFormat `query:"format" kind:"exportFormat" doc:"csv (default) or jsonl"`
}

// export streams an address's ledger changes in a time range, oldest first, one row per
// output that changed its balance (the balance history's rule: created, spent, or passed
// on by an expiration), each with its block, transaction, amounts, native tokens,
// counterparties and the balance after it; a header record states the network, the
// address, the range and the coverage, and an end record the row count and the closing
// balance. The stream reads the holdings first (a 422 past MaxBalanceOutputs: no byte is
// sent before), then the rows' details as it writes them.
func (s *API) export(ctx context.Context, _ *rest.Input, p *exportParams) (any, error) {
	if p.From != nil && p.To != nil && !p.To.After(*p.From) {
		return nil, rest.BadParam("to", "%s is not after from (%s)", p.To.UTC().Format(time.RFC3339),
			p.From.UTC().Format(time.RFC3339))
	}
	li, err := s.ledgerIndex(ctx)
	if err != nil {
		return nil, err
	}
	h, err := s.exportHeader(ctx, li, p)
	if err != nil {
		return nil, err
	}
	f := p.Format.orDefault()
	return &rest.Stream{Media: f.media(), Filename: h.filename(f), WithCoverage: rest.WithCoverage{Coverage: h.Coverage},
		Write: func(ctx context.Context, w rest.StreamWriter) error {
			return s.writeExport(ctx, f.writer(w), &h, li)
		},
		WriteFailure: func(w io.Writer, err error) { f.writer(w).failure(err) },
	}, nil
}

// writeExport reads the address's holdings (a 422 past MaxBalanceOutputs, before the
// first byte) and writes the export.
func (s *API) writeExport(ctx context.Context, w exportWriter, h *exportHeaderJSON, li store.LedgerIndex) error {
	hs, rows, err := s.holdings(ctx, h.Address, li)
	if err != nil {
		return err
	}
	start := balanceAfter(hs, h.startsAfter)
	h.StartBalance = strconv.FormatInt(start, 10)
	var changes []outputChange
	if h.FirstMilestone != 0 {
		changes = changesIn(hs, h.FirstMilestone, h.LastMilestone)
	}
	x := &exportRows{s: s, address: h.Address, hrp: h.hrp, rows: rows, times: s.changeTimes(hs),
		decimals: h.Token.Decimals, blocks: map[string]*txParties{}}
	return x.write(ctx, w, h, changes, start)
}

// exportHeader is the export's header: the network and its token, the address, the
// time range asked for and the milestones it covers, and the coverage there.
func (s *API) exportHeader(ctx context.Context, li store.LedgerIndex, p *exportParams) (exportHeaderJSON, error) {
	net, err := s.Network(ctx)
	if err != nil {
		return exportHeaderJSON{}, err
	}
	h := exportHeaderJSON{Record: "header", Network: net.Name, Address: p.Address.Text, From: unixOf(p.From),
		To: unixOf(p.To), LedgerIndex: li.Index, Token: rest.BaseTokenOf(net), hrp: net.HRP}
	lo, hi, err := s.exportMilestones(ctx, li, p.From, p.To)
	if err != nil {
		return h, err
	}
	floor := li.Coverage.FirstChange()
	first := floor
	if lo != nil {
		first = max(*lo, floor)
	}
	h.startsAfter = first - 1
	empty := first > li.Index || (hi != nil && *hi < first)
	if empty {
		h.startsAfter = li.Index
		if hi != nil {
			h.startsAfter = min(*hi, li.Index)
		}
		first, hi = li.Index, nil
	}
	if h.FirstMilestone, h.LastMilestone, h.Coverage, err = s.historyRange(ctx, li, &first, hi); err != nil {
		return h, err
	}
	if empty {
		h.FirstMilestone, h.LastMilestone = 0, 0
	}
	before, err := s.startsBeforeChanges(ctx, li.Coverage, floor, p.From)
	if before {
		h.Coverage.Partial(store.ChangesBeforeReason(floor))
	}
	return h, err
}

// startsBeforeChanges says whether from is at or before the time of the milestone before
// floor, whose changes the keyspace lacks.
func (s *API) startsBeforeChanges(ctx context.Context, c store.LedgerCoverage, floor uint32, from *time.Time) (bool, error) {
	if from == nil || floor <= 1 {
		return false, nil
	}
	at, err := s.st.LedgerAt(ctx, c, floor-1)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	return err == nil && from.Unix() <= at.Timestamp, err
}

// exportMilestones are the milestones of a time range: the first at or after from, and
// the last before to (at most the ledger index); nil where the range is open, and both
// nil before any milestone is synced (a bootstrap alone has no changes to list).
func (s *API) exportMilestones(ctx context.Context, li store.LedgerIndex, from, to *time.Time) (*uint32, *uint32, error) {
	span, err := s.st.SyncTip(ctx)
	if errors.Is(err, store.ErrNothingSynced) || (from == nil && to == nil) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	var lo, hi *uint32
	if from != nil {
		x, err := s.firstAtOrAfter(ctx, span, from.Unix())
		if err != nil {
			return nil, nil, err
		}
		lo = &x
	}
	if to != nil {
		x, err := s.firstAtOrAfter(ctx, span, to.Unix())
		if err != nil {
			return nil, nil, err
		}
		x = min(x-1, li.Index)
		hi = &x
	}
	return lo, hi, nil
}

// unixOf is t in unix seconds (nil: none).
func unixOf(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	u := t.Unix()
	return &u
}
