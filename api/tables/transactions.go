package tables

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TransactionAnswer is GET /transactions/{id}. A transaction's inputs and outputs are
// the same in every message carrying it, so they are listed once; the messages list
// says how each attachment was judged. Unlocks are this transaction's own (one per
// input, per carrying message); spentBy lists the transactions that spent an output.
type TransactionAnswer struct {
	ID       string          `json:"transactionId"`
	Messages []carrierJSON   `json:"messages"`
	Inputs   []txInputJSON   `json:"inputs"`
	Outputs  []txOutputJSON  `json:"outputs"`
	Unlocks  []unlockRowJSON `json:"unlocks"`
	tx       chain.TransactionID
	hrp      string
}

type carrierJSON struct {
	MessageID string `json:"messageId"`
	StateJSON
}

type txInputJSON struct {
	Index uint16 `json:"index"`
	inputJSON
}

type txOutputJSON struct {
	Index    uint16          `json:"index"`
	OutputID string          `json:"outputId"`
	Output   *outputJSON     `json:"output"`
	SpentBy  []unlockRowJSON `json:"spentBy,omitempty"`
}

// unlockRowJSON is an unlock row: transaction TransactionID's input InputIndex spends
// OutputID, carried by MessageID.
type unlockRowJSON struct {
	OutputID      string `json:"outputId"`
	TransactionID string `json:"transactionId"`
	InputIndex    uint16 `json:"inputIndex"`
	MessageID     string `json:"messageId"`
	StateJSON
	Unlock *unlockJSON `json:"unlock,omitempty"`
}

func newUnlockRowJSON(spent chain.OutputID, r *store.TxRow, state StateJSON) (unlockRowJSON, error) {
	sp, err := store.DecodeSpend(r.Data)
	if err != nil {
		return unlockRowJSON{}, err
	}
	j := unlockRowJSON{OutputID: spent.String(), TransactionID: sp.TransactionID.String(), InputIndex: sp.InputIndex,
		MessageID: r.MessageID, StateJSON: state}
	if u, err := chain.DecodeUnlock(sp.Unlock); err == nil {
		uj := newUnlockJSON(u)
		j.Unlock = &uj
	}
	return j, nil
}

// transactionIDParams name a transaction by its ID.
type transactionIDPathParams struct {
	ID chain.TransactionID `path:"id" kind:"transactionID" doc:"transaction ID"`
}

func (s *API) transaction(ctx context.Context, in *rest.Input, p *transactionIDPathParams) (any, error) {
	id := p.ID
	rows, err := s.st.TransactionRows(ctx, id.String())
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, rest.NotFound("transaction %s is not indexed", id)
	}
	a, err := assembleTransaction(id, rows, in.HRP)
	if err != nil {
		return nil, fmt.Errorf("transaction %s: %w", id, err)
	}
	a.Unlocks, err = s.ownUnlocks(ctx, a)
	return a, err
}

// assembleTransaction groups a transaction's rows: carriers, inputs and outputs once
// each, and the unlocks that spent each output.
func assembleTransaction(id chain.TransactionID, rows []store.TxRow, hrp string) (*TransactionAnswer, error) {
	a := &TransactionAnswer{ID: id.String(), tx: id, hrp: hrp, Messages: []carrierJSON{}, Inputs: []txInputJSON{}, Outputs: []txOutputJSON{}}
	carriers, inputs, outputs := map[string]bool{}, map[uint16]bool{}, map[uint16]int{}
	for i := range rows {
		r := &rows[i]
		if r.Variant != store.VariantUnlock && !carriers[r.MessageID] {
			carriers[r.MessageID] = true
			a.Messages = append(a.Messages, carrierJSON{MessageID: r.MessageID, StateJSON: txRowState(r)})
		}
		if err := a.addRow(r, inputs, outputs); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *TransactionAnswer) addRow(r *store.TxRow, inputs map[uint16]bool, outputs map[uint16]int) error {
	switch r.Variant {
	case store.VariantInput:
		if inputs[r.Index] {
			return nil
		}
		in, err := chain.DecodeInput(r.Data)
		inputs[r.Index] = true
		a.Inputs = append(a.Inputs, txInputJSON{Index: r.Index, inputJSON: newInputJSON(in)})
		return err
	case store.VariantOutput:
		if _, seen := outputs[r.Index]; seen {
			return nil
		}
		o, err := decodeOutputJSON(r.Data, a.hrp)
		outputs[r.Index] = len(a.Outputs)
		a.Outputs = append(a.Outputs, txOutputJSON{Index: r.Index, OutputID: chain.NewOutputID(a.tx, r.Index).String(), Output: o})
		return err
	case store.VariantUnlock:
		spend, err := newUnlockRowJSON(chain.NewOutputID(a.tx, r.Index), r, txRowState(r))
		if err != nil {
			return err
		}
		i, ok := outputs[r.Index] // rows are sorted by (idx, variant): the output row came first
		if ok {
			a.Outputs[i].SpentBy = append(a.Outputs[i].SpentBy, spend)
		}
	}
	return nil
}

// ownUnlocks reads the unlock rows of the transaction's inputs: they live under each
// spent output's transaction, next to that output (see store.VariantUnlock).
func (s *API) ownUnlocks(ctx context.Context, a *TransactionAnswer) ([]unlockRowJSON, error) {
	states := map[string]StateJSON{}
	for _, c := range a.Messages {
		states[c.MessageID] = c.StateJSON
	}
	var mu sync.Mutex
	out := []unlockRowJSON{}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(rest.MaxParallelReads)
	for _, in := range a.Inputs {
		spent, _ := chain.ParseOutputID(in.OutputID)
		g.Go(func() error {
			rows, err := s.st.OutputAndUnlocks(ctx, spent)
			mu.Lock()
			defer mu.Unlock()
			for i := range rows {
				if j, ok := ownUnlock(a.tx, spent, &rows[i], states); ok {
					out = append(out, j)
				}
			}
			return err
		})
	}
	err := g.Wait()
	slices.SortFunc(out, func(x, y unlockRowJSON) int {
		return cmp.Or(cmp.Compare(x.InputIndex, y.InputIndex), cmp.Compare(x.MessageID, y.MessageID))
	})
	return out, err
}

func ownUnlock(txID chain.TransactionID, spent chain.OutputID, r *store.TxRow, states map[string]StateJSON) (unlockRowJSON, bool) {
	if r.Variant != store.VariantUnlock {
		return unlockRowJSON{}, false
	}
	j, err := newUnlockRowJSON(spent, r, states[r.MessageID])
	return j, err == nil && j.TransactionID == txID.String()
}

func (s *API) includedMessage(ctx context.Context, in *rest.Input, p *transactionIDPathParams) (any, error) {
	id, err := s.st.IncludedMessage(ctx, p.ID.String())
	if errors.Is(err, store.ErrNotFound) {
		return nil, rest.NotFound("no included message carries transaction %s", p.ID)
	}
	if err != nil {
		return nil, err
	}
	return s.messageByID(ctx, id, in.HRP)
}
