// Package verify proves that the rows of synced milestones are whole (`indexer verify`):
// it derives every row a milestone must have from its stored milestone payload and
// message bytes (with the store's own writers) once those prove the milestone's signed
// Merkle roots, reads each back, compares the materialized views with their base rows
// and checks the partition hints, and with Repair rewrites what is missing or wrong. It
// walks milestone by milestone, so memory is bounded by one milestone.
package verify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Kinds of discrepancy.
const (
	KindMissing     = "missing"      // a row the milestone must have is absent
	KindDiffers     = "differs"      // the row exists with other column values
	KindUnexpected  = "unexpected"   // a row that must be absent (a spent output's unspent row) exists
	KindUndecodable = "undecodable"  // stored bytes do not decode (or hash to their ID)
	KindViewMissing = "view_missing" // a base row has no row in one of its views
	KindViewDiffers = "view_differs" // the view row's columns differ from the base row's
	KindViewOrphan  = "view_orphan"  // a view row of the milestone has no base row
	// KindIncompleteCone: the milestone's stored cone is not the one it signed (a
	// white-flag index hole, or Merkle roots that differ from the payload's).
	KindIncompleteCone = "incomplete_cone"
	// KindMissingCreation: a spent output's creation row is gone although a synced
	// milestone included the transaction that created it.
	KindMissingCreation = "missing_creation"
)

// Discrepancy is one finding, printed as one JSON line.
type Discrepancy struct {
	Kind      string            `json:"kind"`
	Table     string            `json:"table"`
	Milestone uint32            `json:"milestone"`
	Key       map[string]any    `json:"key"`
	Differs   map[string][2]any `json:"differs,omitempty"` // column -> [want, got]
	Detail    string            `json:"detail,omitempty"`
	Repair    string            `json:"repair,omitempty"` // with -repair: what it does about it
}

// Summary counts what a run found and did.
type Summary struct {
	Milestones      int            `json:"milestones"`       // synced milestones checked
	Rows            int            `json:"rows"`             // rows read back
	ViewRows        int            `json:"view_rows"`        // view rows compared
	Discrepancies   int            `json:"discrepancies"`    // findings
	ByKind          map[string]int `json:"by_kind"`          // findings per kind
	UncheckedSpends int            `json:"unchecked_spends"` // spent outputs created before the first indexed milestone
	// UnderivedAnalytics counts milestones whose analytics rows were not checked: the
	// milestone is marked for re-ingestion (its cone is not whole), or a spent output's
	// creation could be read nowhere, so the rows cannot be derived.
	UnderivedAnalytics int `json:"underived_analytics,omitempty"`
	// FoldedMilestones counts the milestones whose folded ledger families were checked.
	FoldedMilestones int      `json:"folded_milestones,omitempty"`
	Rewritten        int      `json:"rewritten"` // rows rewritten by -repair
	Reingest         []uint32 `json:"reingest"`  // milestones marked for re-ingestion by -repair
}

// Options of a run.
type Options struct {
	From, To uint32 // milestones [From, To], inclusive; only synced ones are checked
	Repair   bool
	// Report receives each discrepancy as it is found.
	Report func(Discrepancy)
	// Rows derives further rows every milestone must have, checked and repaired like its
	// own: `indexer verify` passes the analytics rows (analytics.Rows) unless told not to.
	Rows func(*chain.ConfirmedMilestone, *store.Store) []store.Write
	// Folds, if set, gives the check of the ledger families' folded rows (`indexer
	// verify` passes analytics.NewFoldSteps unless told not to): figures(m) -
	// figures(m-1) = delta(m) and the balance chain, for the folded milestones in range.
	Folds func(ctx context.Context, st *store.Store) (FoldSteps, bool, error)
	// Now is the clock of repair writes (default time.Now): they must be newer than
	// whatever removed or changed the rows, so they carry the wall clock, not the chain's.
	Now func() time.Time
}

// Verifier checks one keyspace.
type Verifier struct {
	st            *store.Store
	opts          Options
	summary       Summary
	needsReingest map[uint32]bool
	repairs       []store.Write // writes to redo for the current milestone
	forget        tagForgetter  // tells the API processes to forget tags after repairs
	// unresolved are the current milestone's spends of outputs no indexed transaction
	// created (genesis or snapshot outputs, or ones created before the first indexed
	// milestone): the base rows leave them unchecked, the analytics rows count them.
	unresolved []chain.SpentInput
}

// Run checks (and with Repair, repairs) the synced milestones of [From, To].
func Run(ctx context.Context, st *store.Store, opts Options) (_ Summary, err error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	// Addresses are stored in bech32 under the recorded network's HRP: the writers that
	// derive the expected rows need it.
	if _, ok, err := st.Network(ctx); err != nil {
		return Summary{}, fmt.Errorf("the keyspace's network (needed to derive addresses): %w", err)
	} else if !ok {
		return Summary{}, errors.New("the keyspace's network (needed to derive addresses) is not recorded")
	}
	v := &Verifier{st: st, opts: opts, needsReingest: map[uint32]bool{},
		summary: Summary{ByKind: map[string]int{}, Reingest: []uint32{}}, forget: tagForgetter{st: st, now: opts.Now}}
	defer func() {
		if ferr := v.forget.flush(context.WithoutCancel(ctx)); ferr != nil {
			err = errors.Join(err, ferr)
		}
	}()
	for from := opts.From; from <= opts.To; {
		to := min(opts.To, from+999) // one sync read per 1000 milestones
		synced, err := st.Synced(ctx, from, to)
		if err != nil {
			return v.summary, err
		}
		for index := from; index <= to; index++ {
			if _, ok := synced[index]; !ok {
				continue
			}
			if err := v.milestone(ctx, index); err != nil {
				return v.summary, fmt.Errorf("milestone %d: %w", index, err)
			}
		}
		if to == opts.To {
			break
		}
		from = to + 1
	}
	return v.summary, v.checkFolds(ctx)
}

// milestone checks one milestone and repairs it when asked.
func (v *Verifier) milestone(ctx context.Context, index uint32) error {
	v.summary.Milestones++
	v.repairs, v.unresolved = v.repairs[:0], v.unresolved[:0]
	cm, err := v.rebuild(ctx, index)
	if err != nil {
		return err
	}
	if cm == nil {
		v.needsReingest[index] = true
	} else if err := v.checkRows(ctx, cm); err != nil {
		return err
	}
	if !v.opts.Repair {
		return nil
	}
	return v.repair(ctx, index)
}

func (v *Verifier) report(d Discrepancy) {
	switch {
	case !v.opts.Repair:
		d.Repair = ""
	case d.Repair == "":
		d.Repair = repairOf(d)
	}
	v.summary.Discrepancies++
	v.summary.ByKind[d.Kind]++
	if v.opts.Report != nil {
		v.opts.Report(d)
	}
}

// repairOf says what -repair does about a discrepancy (see repair).
func repairOf(d Discrepancy) string {
	switch {
	case d.Table == "messages" && (d.Kind == KindMissing || d.Kind == KindUndecodable),
		d.Table == "milestones" && d.Kind != KindDiffers:
		return "reingest: the milestone's sync row is deleted, the indexer writes it again from the node"
	case d.Kind == KindViewOrphan:
		return "none: a view row without its base row needs the view rebuilt (docs/verify.md)"
	case d.Kind == KindViewMissing || d.Kind == KindViewDiffers:
		return "rewrite: the base row is written again at the wall clock, Cassandra regenerates the view row"
	case d.Kind == KindUnexpected:
		return "delete at the wall clock"
	case d.Table == "ledger_family_deltas":
		return fmt.Sprintf("rewrite at the wall clock; the ledger families folded from the old row are refolded by "+
			"`indexer analytics -from %d -to %d`", d.Milestone, d.Milestone)
	}
	return "rewrite at the wall clock"
}
