package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// errDiscrepancies makes `indexer verify` exit non-zero when it found anything.
var errDiscrepancies = errors.New("discrepancies found")

// cmdVerify: indexer verify [-from N] [-to M] [-repair] [-json] [-analytics=false] (docs/verify.md).
func cmdVerify(ctx context.Context, args []string) error {
	var db dbFlags
	var from, to uint
	var repair, asJSON, withAnalytics bool
	err := parseFlags("verify", args, func(fs *flag.FlagSet) {
		db.register(fs)
		fs.UintVar(&from, "from", 0, "first milestone to check (0: the oldest synced)")
		fs.UintVar(&to, "to", 0, "last milestone to check (0: the newest synced)")
		fs.BoolVar(&repair, "repair", false, "rewrite missing or wrong rows; mark unrebuildable milestones for re-ingestion")
		fs.BoolVar(&asJSON, "json", false, "print the summary as one JSON line (discrepancies are always JSON lines)")
		fs.BoolVar(&withAnalytics, "analytics", true, "check the analytics rows every milestone writes too, and the "+
			"folded ledger families (false for a keyspace indexed with indexer run -analytics=false)")
	})
	if err != nil {
		return err
	}
	opts := verify.Options{From: uint32(from), To: uint32(to), Repair: repair}
	if withAnalytics {
		opts.Rows, opts.Folds = analytics.Rows, foldSteps
	}
	return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
		return runVerify(ctx, st, opts, asJSON)
	})
}

func runVerify(ctx context.Context, st *store.Store, opts verify.Options, asJSON bool) error {
	if opts.From == 0 || opts.To == 0 {
		span, err := st.SyncSpan(ctx)
		if errors.Is(err, store.ErrNothingSynced) {
			fmt.Println("no milestone synced: nothing to verify (a bootstrap's ledger alone)")
			return nil
		}
		if err != nil {
			return err
		}
		opts.From, opts.To = max(opts.From, span.Oldest), orDefault(opts.To, span.Newest)
	}
	from, to, repair := opts.From, opts.To, opts.Repair
	enc := json.NewEncoder(os.Stdout)
	opts.Report = func(d verify.Discrepancy) { _ = enc.Encode(d) }
	sum, err := verify.Run(ctx, st, opts)
	if err != nil {
		return err
	}
	if asJSON {
		_ = enc.Encode(map[string]any{"summary": sum, "from": from, "to": to})
	} else {
		fmt.Printf("verified milestones %d-%d: %d synced, %d rows, %d view rows, %d discrepancies %v",
			from, to, sum.Milestones, sum.Rows, sum.ViewRows, sum.Discrepancies, sum.ByKind)
		fmt.Printf("; %d spends of outputs created before the first indexed milestone unchecked", sum.UncheckedSpends)
		fmt.Printf("; analytics rows of %d milestones not derivable, unchecked", sum.UnderivedAnalytics)
		fmt.Printf("; folded ledger families of %d milestones checked\n", sum.FoldedMilestones)
		if repair {
			fmt.Printf("repair: %d rows rewritten, milestones marked for re-ingestion: %v\n", sum.Rewritten, sum.Reingest)
		}
	}
	if sum.Discrepancies > 0 {
		return fmt.Errorf("%w: %d", errDiscrepancies, sum.Discrepancies)
	}
	return nil
}

func orDefault(v, def uint32) uint32 {
	if v == 0 {
		return def
	}
	return v
}

// foldSteps is verify's check of the folded ledger families (none before the first fold).
func foldSteps(ctx context.Context, st *store.Store) (verify.FoldSteps, bool, error) {
	s, ok, err := analytics.NewFoldSteps(ctx, st)
	if err != nil || !ok {
		return nil, false, err
	}
	return s, true, nil
}
