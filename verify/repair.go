package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// redo queues writes to rewrite when repairing.
func (v *Verifier) redo(ws ...store.Write) { v.repairs = append(v.repairs, ws...) }

// repair rewrites the queued rows of a milestone, at the wall clock: a row removed or
// changed after the indexer wrote it (a delete or update without the chain timestamp)
// shadows any rewrite at the chain's timestamp, and a base row rewritten newer makes
// Cassandra regenerate its view rows. A milestone whose messages or payload are
// unreadable cannot be rebuilt from stored bytes: its sync row is deleted, as POST
// /admin/resync does, so a running indexer re-ingests it from the node.
func (v *Verifier) repair(ctx context.Context, index uint32) (err error) {
	if len(v.repairs) == 0 && !v.needsReingest[index] {
		return nil
	}
	defer v.forget.repaired(ctx, index, &err)
	if len(v.repairs) > 0 {
		ts := v.opts.Now().UnixMicro()
		ws := make([]store.Write, len(v.repairs))
		for i, w := range v.repairs {
			w.TS, w.Partition = ts, ""
			ws[i] = w
		}
		if err := v.st.Apply(ctx, ws, 8); err != nil {
			return err
		}
		v.summary.Rewritten += len(ws)
	}
	if v.needsReingest[index] {
		// A milestone no source holds any more cannot be re-ingested: unsyncing it would
		// leave a gap only an archive import fills, so the repair refuses instead.
		if err := v.st.CheckRefetchable(ctx, index); err != nil {
			return fmt.Errorf("milestone %d needs re-ingesting: %w", index, err)
		}
		if err := v.st.Unsync(ctx, index); err != nil {
			return err
		}
		if !slices.Contains(v.summary.Reingest, index) {
			v.summary.Reingest = append(v.summary.Reingest, index)
		}
		delete(v.needsReingest, index)
	}
	return nil
}
