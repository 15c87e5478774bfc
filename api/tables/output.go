package tables

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// OutputAnswer is GET /outputs/{outputId}: the output, the message that created it
// (its state: milestoneIndex is the milestone that booked it) and, once spent, what
// spent it.
type OutputAnswer struct {
	OutputID      string `json:"outputId"`
	TransactionID string `json:"transactionId"`
	OutputIndex   uint16 `json:"outputIndex"`
	MessageID     string `json:"messageId"`
	StateJSON
	Output              *outputJSON    `json:"output"`
	Spent               bool           `json:"spent"`
	TransactionIDSpent  string         `json:"transactionIdSpent,omitempty"`
	MilestoneIndexSpent *int32         `json:"milestoneIndexSpent,omitempty"`
	Spend               *unlockRowJSON `json:"spend,omitempty"` // the spending input and its unlock
	Source              string         `json:"source"`          // the table it was found in
}

// Final: an output's answer no longer changes once a milestone confirmed its spend.
func (a *OutputAnswer) Final() bool { return a.Spent && a.MilestoneIndexSpent != nil }

// output reads the output's rows in the transactions table (seed select 1): the
// output as each carrying message created it, and the unlocks that spent it. Genesis
// outputs have no output row there (no transaction created them), so their creation
// comes from the output tables; their spends still have unlock rows. Alias, NFT and
// foundry outputs are always created by a transaction.
func (s *API) output(ctx context.Context, in *rest.Input, p *rest.OutputIDParams) (any, error) {
	id := p.OutputID
	rows, err := s.st.OutputAndUnlocks(ctx, id)
	if err != nil {
		return nil, err
	}
	created, spend := rest.PickCreatedAndSpend(rows)
	states, err := s.messageStates(ctx, messageOf(created), messageOf(spend))
	if err != nil {
		return nil, err
	}
	a := newOutputAnswer(id, "transactions")
	if created != nil {
		a.MessageID, a.StateJSON = created.MessageID, states[created.MessageID]
		a.Output, err = decodeOutputJSON(created.Data, in.HRP)
	} else {
		a, err = s.outputFromTables(ctx, id, in.HRP)
	}
	if err != nil {
		return nil, err
	}
	if spend != nil {
		err = a.setSpend(id, spend, states[spend.MessageID])
	}
	return a, err
}

func newOutputAnswer(id chain.OutputID, source string) *OutputAnswer {
	return &OutputAnswer{OutputID: id.String(), TransactionID: id.TransactionID().String(), OutputIndex: id.Index(),
		Source: source}
}

func (a *OutputAnswer) setSpend(id chain.OutputID, spend *store.TxRow, state StateJSON) error {
	j, err := newUnlockRowJSON(id, spend, state)
	if err == nil {
		a.Spent, a.TransactionIDSpent, a.MilestoneIndexSpent, a.Spend = true, j.TransactionID, j.MilestoneIndex, &j
	}
	return err
}

func messageOf(r *store.TxRow) string {
	if r == nil {
		return ""
	}
	return r.MessageID
}

// messageStates reads the state of each message (ids "" are skipped), in parallel.
func (s *API) messageStates(ctx context.Context, ids ...string) (map[string]StateJSON, error) {
	var mu sync.Mutex
	out := map[string]StateJSON{}
	g, ctx := errgroup.WithContext(ctx)
	for _, id := range ids {
		if id == "" {
			continue
		}
		g.Go(func() error {
			m, err := s.st.MessageMetadata(ctx, id)
			mu.Lock()
			defer mu.Unlock()
			out[id] = newState(m.MilestoneIndex, m.InclusionState, m.EstMilestoneIndex)
			return rest.IgnoreNotFound(err)
		})
	}
	return out, g.Wait()
}

// outputFromTables finds an output no transaction row describes (a genesis output) in
// the tables genesis outputs land in.
func (s *API) outputFromTables(ctx context.Context, id chain.OutputID, hrp string) (*OutputAnswer, error) {
	for _, look := range []func(context.Context, chain.OutputID, string) (*OutputAnswer, error){s.outputFromBasic, s.outputFromLegacy} {
		if a, err := look(ctx, id, hrp); !errors.Is(err, store.ErrNotFound) {
			return a, err
		}
	}
	return nil, rest.NotFound("output %s is not indexed", id)
}

func (s *API) outputFromBasic(ctx context.Context, id chain.OutputID, hrp string) (*OutputAnswer, error) {
	// A basic output has one confirmed row and pending ones (one per attachment seen
	// unreferenced); pending rows sort first.
	rows, _, err := s.st.OutputVersions(ctx, chain.OutputBasic, id.String(), store.PageRequest{Size: 16})
	if err != nil {
		return nil, err
	}
	r := rest.ConfirmedRow(rows)
	if r == nil {
		return nil, store.ErrNotFound
	}
	a := newOutputAnswer(id, r.Table)
	if a.Output, err = decodeOutputJSON(r.Data, hrp); err != nil {
		return nil, err
	}
	a.MessageID, a.StateJSON = r.MessageID, partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState)
	a.Spent, a.TransactionIDSpent, a.MilestoneIndexSpent = r.SpentBy != "", r.SpentBy, r.SpentMilestoneIndex
	return a, nil
}

func (s *API) outputFromLegacy(ctx context.Context, id chain.OutputID, hrp string) (*OutputAnswer, error) {
	rows, err := s.st.LegacyOutput(ctx, id.String())
	if err != nil {
		return nil, err
	}
	r := &rows[len(rows)-1] // is_used sorts false before true: the used row wins
	a := newOutputAnswer(id, "legacy_outputs")
	if a.Output, err = decodeOutputJSON(r.Data, hrp); err != nil {
		return nil, err
	}
	a.MessageID, a.StateJSON, a.Spent = r.MessageID, partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState), r.IsUsed
	return a, nil
}
