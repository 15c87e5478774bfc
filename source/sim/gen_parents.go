package sim

import (
	"bytes"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// maxTips keeps the milestone's own parents within chain.MaxParents: once
// this many tips are open, every new message approves two of them.
const maxTips = 6

// pickParents approves some open tips of this milestone plus a few recent
// messages (earlier in this milestone or in the last few milestones), so
// every message stays in the milestone message's past cone.
func (b *builder) pickParents() []chain.MessageID {
	set := make(map[chain.MessageID]bool)
	for _, id := range b.takeTips() {
		set[id] = true
	}
	for n := b.g.rng.Intn(3); n > 0 || len(set) == 0; n-- {
		id, ok := b.recentMessage()
		if !ok {
			break
		}
		set[id] = true
	}
	if len(set) == 0 {
		set[b.fallbackParent()] = true
	}
	ids := make([]chain.MessageID, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	return sortedIDs(ids)
}

// takeTips removes and returns the tips the next message approves.
func (b *builder) takeTips() []chain.MessageID {
	n := 0
	switch {
	case len(b.tips) >= maxTips:
		n = 2
	case len(b.tips) > 0 && b.g.chance(0.7):
		n = 1
	}
	taken := make([]chain.MessageID, 0, n)
	for ; n > 0; n-- {
		i := b.g.rng.Intn(len(b.tips))
		taken = append(taken, b.tips[i])
		b.tips = append(b.tips[:i], b.tips[i+1:]...)
	}
	return taken
}

// recentMessage draws uniformly from the last few milestones' messages and
// this milestone's earlier ones.
func (b *builder) recentMessage() (chain.MessageID, bool) {
	total := len(b.rec.msgs)
	for _, ids := range b.g.recent {
		total += len(ids)
	}
	if total == 0 {
		return chain.MessageID{}, false
	}
	i := b.g.rng.Intn(total)
	for _, ids := range b.g.recent {
		if i < len(ids) {
			return ids[i], true
		}
		i -= len(ids)
	}
	return b.rec.msgs[i].id, true
}

// fallbackParent is a recent message, or the all-zero ID that
// stands for the genesis when there is none.
func (b *builder) fallbackParent() chain.MessageID {
	if id, ok := b.recentMessage(); ok {
		return id
	}
	return chain.MessageID{}
}

// sortedIDs returns a sorted, duplicate-free copy, as parents must be.
func sortedIDs(ids []chain.MessageID) []chain.MessageID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b chain.MessageID) int { return bytes.Compare(a[:], b[:]) })
	return slices.Compact(out)
}
