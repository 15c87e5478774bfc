package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Export writes milestones from..to of the store's keyspace to w as an archive. Every
// milestone of the range must be synced (fully written); each is read back from its
// rows (store.ConfirmedMilestone) and written as soon as it is read. progress, when not
// nil, is called after each milestone.
func Export(ctx context.Context, st *store.Store, from, to uint32, w io.Writer, progress func(index uint32)) error {
	h, err := exportHeader(ctx, st, from, to)
	if err != nil {
		return err
	}
	synced, err := st.Synced(ctx, from, to)
	if err != nil {
		return err
	}
	if gaps := store.Gaps(synced, from, to); len(gaps) > 0 {
		return fmt.Errorf("milestones %d..%d are not synced in this keyspace: export a synced range", gaps[0].From, gaps[0].To)
	}
	aw, err := NewWriter(w, h)
	if err != nil {
		return err
	}
	for i := uint64(from); i <= uint64(to); i++ {
		cm, err := st.ConfirmedMilestone(ctx, uint32(i))
		if err != nil {
			return fmt.Errorf("reading milestone %d: %w", i, err)
		}
		if err := aw.Write(cm); err != nil {
			return err
		}
		if progress != nil {
			progress(uint32(i))
		}
	}
	return aw.Close()
}

// exportHeader names the keyspace's network and protocol parameters.
func exportHeader(ctx context.Context, st *store.Store, from, to uint32) (Header, error) {
	h := Header{From: from, To: to, Created: time.Now().UTC().Truncate(time.Second)}
	net, ok, err := st.Network(ctx)
	switch {
	case err != nil:
		return h, err
	case !ok:
		return h, errors.New("the keyspace records no network: nothing was indexed")
	}
	h.Network = net
	proto, ok, err := st.Protocol(ctx)
	if ok {
		h.Protocol = &proto
	}
	return h, err
}
