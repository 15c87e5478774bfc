package bootstrap

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// networkOf is the network the full file's protocol parameters name, with the keys its
// milestones are verified against: keys when given, else the network's built-in ones
// (none for a network the indexer does not know: then keys must be given if the files
// carry milestones).
func networkOf(h *snapshot.FullHeader, keys *chain.MilestoneKeys) (chain.Network, *chain.MilestoneKeys) {
	p := h.Protocol.Params
	n := chain.Network{Name: p.NetworkName, HRP: p.Bech32HRP, Params: p}
	for _, known := range []chain.Network{chain.Shimmer(), chain.IOTAMainnet()} {
		if known.Name == n.Name && known.HRP == n.HRP {
			n.BaseToken, n.Keys = known.BaseToken, known.Keys
		}
	}
	if keys != nil {
		n.Keys = *keys
	}
	if n.Keys.Threshold == 0 {
		return n, nil
	}
	return n, &n.Keys
}

// checkNetwork refuses files of another network than the keyspace's; a keyspace with no
// network recorded yet takes the files' once they pass every check.
func checkNetwork(ctx context.Context, st *store.Store, n chain.Network) error {
	rec, ok, err := st.Network(ctx)
	if err != nil || !ok {
		return err
	}
	if want := store.RecordOf(n); rec != want {
		return refuse(ErrNetwork, "the keyspace indexes %s (hrp %s), the snapshot is of %s (hrp %s)",
			rec.Name, rec.HRP, want.Name, want.HRP)
	}
	return nil
}
