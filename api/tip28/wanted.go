package tip28

import (
	mqtt "github.com/mochi-mqtt/server/v2"
)

// wanted is what the connected clients subscribe to, read from their subscriptions
// when a milestone is published: which families, and the IDs and addresses named.
type wanted struct {
	kinds    map[kind]bool
	outputs  map[string]bool // output IDs
	unlock   map[string]bool // addresses, under any condition
	included map[string]bool // transaction IDs
	blocks   map[string]bool // block IDs
}

func (b *Broker) wanted(srv *mqtt.Server) wanted {
	w := wanted{kinds: map[kind]bool{}, outputs: map[string]bool{}, unlock: map[string]bool{},
		included: map[string]bool{}, blocks: map[string]bool{}}
	byKind := map[kind]map[string]bool{kindOutput: w.outputs, kindUnlock: w.unlock, kindIncluded: w.included,
		kindBlockMetadata: w.blocks}
	for _, cl := range srv.Clients.GetAll() {
		for filter := range cl.State.Subscriptions.GetAll() {
			t, ok := parseTopic(filter, "")
			if !ok {
				continue
			}
			w.kinds[t.kind] = true
			if ids := byKind[t.kind]; ids != nil {
				ids[t.id] = true
			}
		}
	}
	return w
}

// any tells whether any of the families is subscribed to.
func (w wanted) any(kinds ...kind) bool {
	for _, k := range kinds {
		if w.kinds[k] {
			return true
		}
	}
	return false
}
