package node

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// utxoChanges asks for milestone index's utxo-changes at once and returns a function
// that waits for the answer (as often as called): the request runs while the cone is walked.
func (s *member) utxoChanges(ctx context.Context, index uint32) func() (tip25.UTXOChangesJSON, error) {
	route := fmt.Sprintf("/milestones/by-index/%d/utxo-changes", index)
	var changes tip25.UTXOChangesJSON
	done := make(chan error, 1)
	go func() { done <- s.c.getJSON(ctx, route, &changes) }()
	return sync.OnceValues(func() (tip25.UTXOChangesJSON, error) {
		err := <-done
		return changes, err
	})
}

// ledger derives the milestone's ledger changes from its included transactions: their
// outputs are created, their inputs consumed. The node's utxo-changes (the answer
// utxoChanges waits for) must list exactly these outputs: a difference means the node
// gave an incomplete cone or wrong verdicts.
func (s *member) ledger(ctx context.Context, cm *chain.ConfirmedMilestone, utxo func() (tip25.UTXOChangesJSON, error)) error {
	route := fmt.Sprintf("/milestones/by-index/%d/utxo-changes", cm.Index)
	changes, err := utxo()
	if err != nil {
		return err
	}
	created, inputs := cm.LedgerChanges()
	cm.Created = append(cm.Created, created...)
	spentBy := make(map[chain.OutputID]chain.TransactionID, len(inputs))
	consumed := make([]chain.OutputID, len(inputs))
	for i, in := range inputs {
		spentBy[in.OutputID], consumed[i] = in.SpentBy, in.OutputID
	}
	if err := sameOutputs(route, "createdOutputs", changes.CreatedOutputs, createdIDs(cm.Created)); err != nil {
		return err
	}
	if err := sameOutputs(route, "consumedOutputs", changes.ConsumedOutputs, consumed); err != nil {
		return err
	}
	if err := s.spend(ctx, cm, consumed, spentBy); err != nil {
		return err
	}
	s.outputs.add(cm.Created)
	s.outputs.forget(consumed)
	return nil
}

func createdIDs(created []chain.LedgerOutput) []chain.OutputID {
	ids := make([]chain.OutputID, len(created))
	for i := range created {
		ids[i] = created[i].OutputID
	}
	return ids
}

// sameOutputs compares the node's list with the derived one as sets.
func sameOutputs(route, field string, node []string, derived []chain.OutputID) error {
	want := make([]string, len(derived))
	for i, id := range derived {
		want[i] = id.String()
	}
	got := make([]string, len(node))
	for i, id := range node {
		got[i] = strings.ToLower(id)
	}
	slices.Sort(want)
	slices.Sort(got)
	if slices.Equal(got, want) {
		return nil
	}
	return source.Refuse(fmt.Errorf("GET %s%s: %s lists %d outputs, the included transactions of the cone %d: %s",
		apiBase, route, field, len(got), len(want), firstDifference(got, want)))
}

func firstDifference(got, want []string) string {
	for _, id := range want {
		if _, found := slices.BinarySearch(got, id); !found {
			return id + " is missing"
		}
	}
	for _, id := range got {
		if _, found := slices.BinarySearch(want, id); !found {
			return id + " is not created or spent by them"
		}
	}
	return "duplicates differ"
}

// spend fills cm.Consumed: each consumed output as created (from this source's cache,
// else from the node) and the transaction that spent it.
func (s *member) spend(ctx context.Context, cm *chain.ConfirmedMilestone, ids []chain.OutputID,
	spentBy map[chain.OutputID]chain.TransactionID) error {
	cm.Consumed = make([]chain.LedgerSpent, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.cfg.Concurrency)
	for i, id := range ids {
		g.Go(func() error {
			lo, err := s.ledgerOutput(gctx, id)
			cm.Consumed[i] = chain.LedgerSpent{LedgerOutput: lo, SpentBy: spentBy[id],
				SpentMilestoneIndex: cm.Index, SpentTimestamp: cm.Timestamp}
			return err
		})
	}
	return g.Wait()
}
