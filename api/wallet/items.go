package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

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
	times := &spendTimes{st: s.st, at: map[uint32]uint32{}}
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

// readOutput fills an item's output and metadata: the output's row booked in its creating
// milestone gives its bytes, its block and, once a milestone up to at spent it, what
// spent it.
func (s *API) readOutput(ctx context.Context, r *store.UnspentRow, at uint32, times *spendTimes, it *ItemJSON) error {
	id, err := chain.ParseOutputID(r.OutputID)
	if err != nil {
		return fmt.Errorf("ledger row %q: %w", r.OutputID, err)
	}
	kind, _ := chain.ParseOutputKind(r.Kind)
	key := r.ChainID
	if kind == chain.OutputBasic {
		key = r.OutputID
	}
	booked := uint32(r.MilestoneIndex)
	row, err := s.st.BookedRow(ctx, kind, key, id, booked)
	if errors.Is(err, store.ErrNotFound) { // the ledger row names an output its table lacks: not the client's 404
		return fmt.Errorf("output %s: the ledger lists it, its %s row booked in %d is missing", id, kind, booked)
	} else if err != nil {
		return err
	}
	if it.Metadata, err = s.metadata(ctx, id, &row, booked, at, times); err != nil {
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

// metadata is an output's TIP-25 metadata at ledger index at.
func (s *API) metadata(ctx context.Context, id chain.OutputID, row *store.OutputRow, booked, at uint32,
	times *spendTimes) (*tip25.OutputMetadataJSON, error) {
	var block chain.MessageID
	if row.MessageID != "" {
		var err error
		if block, err = chain.ParseMessageID(row.MessageID); err != nil {
			return nil, fmt.Errorf("output %s: creating block %q: %w", id, row.MessageID, err)
		}
	}
	var spent *tip25.Spent
	if row.SpentBy != "" && row.SpentMilestoneIndex != nil && uint32(*row.SpentMilestoneIndex) <= at {
		tx, err := chain.ParseTransactionID(row.SpentBy)
		if err != nil {
			return nil, fmt.Errorf("output %s: spent by %q: %w", id, row.SpentBy, err)
		}
		index := uint32(*row.SpentMilestoneIndex)
		ts, ok, err := times.of(ctx, index)
		if err != nil {
			return nil, fmt.Errorf("output %s: spending milestone %d: %w", id, index, err)
		}
		if ok { // else a milestone of a gap being filled: its spend shows once it is written
			spent = &tip25.Spent{TransactionID: tx, MilestoneIndex: index, MilestoneTimestamp: ts}
		}
	}
	return tip25.OutputMetadata(id, block, tip25.Booked{MilestoneIndex: booked,
		MilestoneTimestamp: uint32(row.Timestamp.Unix())}, spent, at), nil
}

// spendTimes reads each spending milestone's time once per request.
type spendTimes struct {
	st Store
	mu sync.Mutex
	at map[uint32]uint32
}

func (t *spendTimes) of(ctx context.Context, index uint32) (ts uint32, ok bool, err error) {
	t.mu.Lock()
	ts, ok = t.at[index]
	t.mu.Unlock()
	if ok {
		return ts, true, nil
	}
	m, err := t.st.Milestone(ctx, index)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	t.mu.Lock()
	t.at[index] = uint32(m.Timestamp)
	t.mu.Unlock()
	return uint32(m.Timestamp), true, nil
}
