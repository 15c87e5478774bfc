package bootstrap

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// NextMilestone is where indexing continues after a bootstrap: the milestone after the
// ledger it loaded (ok false when the keyspace was never bootstrapped).
func NextMilestone(ctx context.Context, st *store.Store) (next uint32, ok bool, err error) {
	rec, ok, err := st.LedgerBootstrap(ctx)
	if err != nil || !ok {
		return 0, false, err
	}
	return rec.Index + 1, true, nil
}
