package events

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// event is one event of a stream: its milestone, its place among the milestone's events
// (seq, from 0), its SSE event name and data. key orders a milestone's events: the
// milestone first, then ledger changes by address, outputs, blocks by tag.
type event struct {
	milestone uint32
	seq       int
	name      string
	key       string
	data      any
}

type milestoneJSON struct {
	Index       uint32 `json:"index"`
	MilestoneID string `json:"milestoneId"`
	Timestamp   int64  `json:"timestamp"`
}

// ledgerJSON is a ledger change of an address: an output naming it created or spent.
type ledgerJSON struct {
	Topic              string   `json:"topic"`
	MilestoneIndex     uint32   `json:"milestoneIndex"`
	MilestoneTimestamp int64    `json:"milestoneTimestamp"`
	Address            string   `json:"address"`
	OutputID           string   `json:"outputId"`
	IsSpent            bool     `json:"isSpent"`
	Kind               string   `json:"kind"`
	Roles              []string `json:"roles"`
	Amount             string   `json:"amount"`
}

// outputJSON is an output's creation or spend.
type outputJSON struct {
	Topic          string `json:"topic"`
	MilestoneIndex uint32 `json:"milestoneIndex"`
	OutputID       string `json:"outputId"`
	IsSpent        bool   `json:"isSpent"`
	Kind           string `json:"kind"`
	Amount         string `json:"amount"`
	Address        string `json:"address"` // its owner
}

// blockJSON is a block with a tag that a milestone referenced (included or not).
type blockJSON struct {
	Topic          string `json:"topic"`
	MilestoneIndex uint32 `json:"milestoneIndex"`
	BlockID        string `json:"blockId"`
}

// window is the events of milestones [lo, hi] (within one ms_range_id partition) that
// sub follows, in milestone order, each milestone's numbered from 0.
func (a *API) window(ctx context.Context, sub *subscription, lo, hi uint32) ([]event, error) {
	var evs []event
	if sub.milestones {
		ms, err := a.milestonesIn(ctx, lo, hi)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			evs = append(evs, event{milestone: m.Index, name: "milestone", key: "0",
				data: milestoneJSON{m.Index, m.MilestoneID, m.Timestamp}})
		}
	}
	lo = max(lo, sub.changesFrom)
	if lo > hi {
		return sortEvents(evs), nil
	}
	for _, address := range sub.addresses {
		more, err := a.addressEvents(ctx, address, lo, hi)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	if len(sub.outputs) > 0 {
		more, err := a.outputEvents(ctx, sub.outputs, lo, hi)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	for _, tag := range sub.tags {
		more, err := a.tagEvents(ctx, tag, lo, hi)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return sortEvents(evs), nil
}

// sortEvents puts events in milestone order, each milestone's by key, numbered from 0.
func sortEvents(evs []event) []event {
	slices.SortFunc(evs, func(x, y event) int { return cmp.Or(cmp.Compare(x.milestone, y.milestone), cmp.Compare(x.key, y.key)) })
	for i := range evs {
		if i > 0 && evs[i-1].milestone == evs[i].milestone {
			evs[i].seq = evs[i-1].seq + 1
		}
	}
	return evs
}

// milestonesIn are the indexed milestones of [lo, hi], oldest first (shared).
func (a *API) milestonesIn(ctx context.Context, lo, hi uint32) ([]store.MilestoneRecord, error) {
	return share(ctx, a.shared, windowKey("milestones", lo, hi), func(ctx context.Context) ([]store.MilestoneRecord, error) {
		ms, err := a.MilestonesIn(ctx, lo, hi)
		slices.Reverse(ms)
		return ms, err
	})
}

// addressEvents are an address's ledger updates in [lo, hi] (address_ledger_updates;
// shared).
func (a *API) addressEvents(ctx context.Context, address string, lo, hi uint32) ([]event, error) {
	return share(ctx, a.shared, windowKey("address "+address, lo, hi), func(ctx context.Context) ([]event, error) {
		return a.readAddressEvents(ctx, address, lo, hi)
	})
}

func (a *API) readAddressEvents(ctx context.Context, address string, lo, hi uint32) ([]event, error) {
	ups, err := allPages(func(req store.PageRequest) ([]store.AddressUpdate, []byte, error) {
		return a.st.AddressUpdatesPage(ctx, address, a.st.RangeID(lo), lo, hi, true, req)
	})
	out := make([]event, len(ups))
	for i, u := range ups {
		out[i] = event{milestone: uint32(u.MilestoneIndex), name: "ledger",
			key: "1 " + address + " " + u.OutputID + " " + strconv.FormatBool(u.IsSpent),
			data: ledgerJSON{Topic: "address:" + address, MilestoneIndex: uint32(u.MilestoneIndex),
				MilestoneTimestamp: u.Timestamp.Unix(), Address: address, OutputID: u.OutputID, IsSpent: u.IsSpent,
				Kind: u.Kind, Roles: u.Roles, Amount: strconv.FormatInt(u.Amount, 10)}}
	}
	return out, err
}

// allPages reads every page fetch gives, in pages of rest.MaxPageSize rows.
func allPages[R any](fetch func(req store.PageRequest) ([]R, []byte, error)) ([]R, error) {
	var out []R
	req := store.PageRequest{Size: rest.MaxPageSize}
	for {
		rows, next, err := fetch(req)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
		if len(next) == 0 {
			return out, nil
		}
		req.State = next
	}
}

// outputEvents are the creations and spends of outputs in [lo, hi]: each milestone's
// ledger updates (milestone_ledger_updates), read 8 at a time.
func (a *API) outputEvents(ctx context.Context, ids []string, lo, hi uint32) ([]event, error) {
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	found := make([][]event, hi-lo+1)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(rest.MaxParallelReads)
	for i := range found {
		k := lo + uint32(i)
		g.Go(func() error {
			ups, err := share(ctx, a.shared, windowKey("updates", k, k), func(ctx context.Context) ([]store.MilestoneUpdate, error) {
				return a.st.MilestoneUpdates(ctx, k)
			})
			for _, u := range ups {
				if want[u.OutputID] {
					found[i] = append(found[i], event{milestone: k, name: "output",
						key: "2 " + u.OutputID + " " + strconv.FormatBool(u.IsSpent),
						data: outputJSON{Topic: "output:" + u.OutputID, MilestoneIndex: k, OutputID: u.OutputID,
							IsSpent: u.IsSpent, Kind: u.Kind, Amount: strconv.FormatInt(u.Amount, 10), Address: u.Address}})
				}
			}
			return err
		})
	}
	err := g.Wait()
	return slices.Concat(found...), err
}

// tagEvents are the blocks with a tag that milestones in [lo, hi] referenced: the tag's
// rows of the partition from lo's time on (shared).
func (a *API) tagEvents(ctx context.Context, tag string, lo, hi uint32) ([]event, error) {
	return share(ctx, a.shared, windowKey("tag "+tag, lo, hi), func(ctx context.Context) ([]event, error) {
		return a.readTagEvents(ctx, tag, lo, hi)
	})
}

func (a *API) readTagEvents(ctx context.Context, tag string, lo, hi uint32) ([]event, error) {
	from, err := a.st.MilestoneTime(ctx, lo)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	rows, err := allPages(func(req store.PageRequest) ([]store.TagRow, []byte, error) {
		return a.st.TagPage(ctx, tag, a.st.RangeID(lo), store.TimeRange{From: from}, req)
	})
	var out []event
	for _, r := range rows {
		k := uint32(max(r.MilestoneIndex, 0))
		if r.InclusionState != nil && k >= lo && k <= hi {
			out = append(out, event{milestone: k, name: "block", key: "3 " + tag + " " + r.MessageID,
				data: blockJSON{"tag:" + tag, k, r.MessageID}})
		}
	}
	return out, err
}
