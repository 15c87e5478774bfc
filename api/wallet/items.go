package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// items are the page's items, each output with its TIP-25 JSON and its metadata at the
// ledger index: one read of its output-table row (once for an output two addresses own),
// and one of each spending milestone's time.
func (s *API) items(ctx context.Context, page []*held, at uint32) ([]ItemJSON, error) {
	outputs := map[string]*ItemJSON{}
	for _, h := range page {
		outputs[h.row.OutputID] = &ItemJSON{}
	}
	times := &spendTimes{st: s.st, at: map[uint32]store.MilestoneRecord{}}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(parallelReads)
	for _, h := range page {
		if it := outputs[h.row.OutputID]; it.OutputID == "" {
			it.OutputID = h.row.OutputID
			g.Go(func() error { return s.readOutput(ctx, &h.row, at, times, it) })
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([]ItemJSON, len(page))
	for i, h := range page {
		slices.Sort(h.roles)
		out[i] = *outputs[h.row.OutputID]
		out[i].Address, out[i].Roles = h.address, h.roles
	}
	return out, nil
}

// readOutput fills an item's output and metadata from what its ledger row carries (its
// bytes, its block and, spent, what spent it), or, for a row written before ledger rows
// carried them, from the output's row booked in its creating milestone.
func (s *API) readOutput(ctx context.Context, r *store.UnspentRow, at uint32, times *spendTimes, it *ItemJSON) error {
	id, err := chain.ParseOutputID(r.OutputID)
	if err != nil {
		return fmt.Errorf("ledger row %q: %w", r.OutputID, err)
	}
	booked := uint32(r.MilestoneIndex)
	row, err := s.outputRow(ctx, r, id)
	if err != nil {
		return err
	}
	var block chain.MessageID // zero for a genesis output
	if row.MessageID != "" {
		if block, err = chain.ParseMessageID(row.MessageID); err != nil {
			return fmt.Errorf("output %s: creating block %q: %w", id, row.MessageID, err)
		}
	}
	if it.Metadata, err = rest.OutputMetadataAt(ctx, id, block, &row, booked, at, times.of); err != nil {
		return err
	}
	o, err := chain.DecodeOutput(row.Data)
	if err != nil {
		return fmt.Errorf("output %s: stored bytes do not decode: %w", id, err)
	}
	if it.Output, err = tip25.Output(o); err != nil {
		return fmt.Errorf("output %s: %w", id, err)
	}
	return nil
}

// outputRow is the output-table row of a ledger row's output: built from what the ledger
// row carries, or read.
func (s *API) outputRow(ctx context.Context, r *store.UnspentRow, id chain.OutputID) (store.OutputRow, error) {
	if r.OutputData != nil {
		row := store.OutputRow{Data: r.OutputData, MessageID: r.MessageID, Timestamp: time.Unix(r.CreatedAt, 0),
			SpentBy: r.SpentBy}
		if r.SpentMilestoneIndex != 0 {
			row.SpentMilestoneIndex = &r.SpentMilestoneIndex
		}
		return row, nil
	}
	kind, _ := chain.ParseOutputKind(r.Kind)
	booked := uint32(r.MilestoneIndex)
	row, err := s.st.BookedRow(ctx, kind, r.RowKey(), id, booked)
	if errors.Is(err, store.ErrNotFound) { // the ledger row names an output its table lacks: not the client's 404
		return row, fmt.Errorf("output %s: the ledger lists it, its %s row booked in %d is missing", id, kind, booked)
	}
	return row, err
}

// spendTimes reads each spending milestone once per request.
type spendTimes struct {
	st Store
	mu sync.Mutex
	at map[uint32]store.MilestoneRecord
}

// of reads milestone index (a rest.MilestoneReader), once.
func (t *spendTimes) of(ctx context.Context, index uint32) (store.MilestoneRecord, error) {
	t.mu.Lock()
	m, ok := t.at[index]
	t.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := t.st.Milestone(ctx, index)
	if err == nil {
		t.mu.Lock()
		t.at[index] = m
		t.mu.Unlock()
	}
	return m, err
}
