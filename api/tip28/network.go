package tip28

import (
	"context"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// networkHRP is the indexed network's bech32 prefix, read once it is known.
type networkHRP struct {
	mu    sync.Mutex
	known string
}

// hrp is the network's bech32 prefix; "" while the store names no network.
func (n *networkHRP) hrp(r *rest.Reads) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.known != "" {
		return n.known
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if net, err := r.Network(ctx); err == nil {
		n.known = net.HRP
	}
	return n.known
}
