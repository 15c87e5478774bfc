package events

import (
	"slices"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// maxTopics bounds one stream's topics: each costs reads per window of milestones.
const maxTopics = 32

// subscription is what a stream follows, each kind sorted so that a milestone's events
// come in one order whatever order the topics were named in (event IDs depend on it).
type subscription struct {
	milestones bool
	addresses  []string // bech32 under the network's HRP
	outputs    []string
	tags       []string // 0x-hex, as stored
	// changesFrom is the first milestone whose changes are indexed (FirstChange): a
	// bootstrap's milestone has the creations the snapshot books there, not its spends,
	// so the ledger, output and tag events start after it.
	changesFrom uint32
}

// parseTopics reads topics: a comma-separated list of milestones, address:<bech32 or
// hex>, output:<outputId> and tag:<0x-hex>.
func parseTopics(value, hrp string) (subscription, error) {
	var sub subscription
	parts := strings.Split(value, ",")
	if value == "" || len(parts) > maxTopics {
		return sub, rest.BadParam("topics", "give 1 to %d topics, got %d", maxTopics, len(parts))
	}
	for _, t := range parts {
		kind, arg, _ := strings.Cut(strings.TrimSpace(t), ":")
		var err error
		switch kind {
		case "milestones":
			sub.milestones = true
			if arg != "" {
				err = rest.BadParam("topics", "milestones takes no argument, got %s", rest.Quote(t))
			}
		case "address":
			var a chain.Address
			if a, err = rest.ParseAddress("topics", arg); err == nil {
				sub.addresses = append(sub.addresses, a.Bech32(hrp))
			}
		case "output":
			var id chain.OutputID
			if id, err = chain.ParseOutputID(arg); err != nil {
				err = rest.BadParam("topics", "output %s: %v", rest.Quote(arg), err)
			}
			sub.outputs = append(sub.outputs, id.String())
		case "tag":
			var tag string
			if tag, err = rest.ParseTag("topics", arg); err == nil {
				sub.tags = append(sub.tags, tag)
			}
		default:
			err = rest.BadParam("topics", "unknown topic %s: want milestones, address:<address>, output:<outputId> "+
				"or tag:<0x-hex>", rest.Quote(t))
		}
		if err != nil {
			return sub, err
		}
	}
	for _, l := range []*[]string{&sub.addresses, &sub.outputs, &sub.tags} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return sub, nil
}
