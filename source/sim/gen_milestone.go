package sim

import (
	"fmt"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// builder assembles one milestone on top of the generator's ledger.
type builder struct {
	g        *generator
	rec      *msRecord
	tips     []chain.MessageID // messages of this milestone nobody references yet
	pending  map[chain.OutputID]*chain.Output
	included []*chain.Transaction
}

// generateNext appends the next milestone to g.records. Its cone starts with the
// message carrying the previous milestone (an open tip), as on a real network.
func (g *generator) generateNext() {
	index := g.opts.FirstIndex + g.dropped + uint32(len(g.records))
	rec := &msRecord{index: index, ts: g.timestamp(index), prevID: g.prevID}
	b := &builder{g: g, rec: rec, pending: make(map[chain.OutputID]*chain.Output)}
	if g.prevBlock != nil {
		rec.msgs = append(rec.msgs, *g.prevBlock)
		b.tips = append(b.tips, g.prevBlock.id)
	}
	if index == g.opts.FirstIndex {
		b.genesis()
	}
	for i := 0; i < g.opts.MessagesPerMilestone; i++ {
		b.addMessage()
	}
	b.addFault(g.opts.Faults[index])
	b.issueMilestone()
	b.finish()
	g.records = append(g.records, rec)
	g.forget()
}

// forget drops the oldest records beyond Options.Retain, and the outputs they spent: no
// kept record refers to those (a kept record spends only outputs spent at its own index,
// and creates outputs spent after it), and unspent outputs are never dropped.
func (g *generator) forget() {
	for g.opts.Retain > 0 && uint32(len(g.records)) > g.opts.Retain {
		for _, id := range g.records[0].consumed {
			delete(g.outputs, id)
		}
		g.records[0] = nil
		g.records = g.records[1:]
		g.dropped++
	}
}

// addMessage adds one regular message: a re-attachment, a transaction or
// tagged data.
func (b *builder) addMessage() {
	g := b.g
	if g.chance(g.opts.ReattachRate) && len(g.lastIncluded) > 0 {
		b.reattach()
		return
	}
	if g.chance(g.opts.TransactionRatio) && b.addTransaction() {
		return
	}
	b.addTaggedData()
}

func (b *builder) addTaggedData() {
	g := b.g
	td := &chain.TaggedData{Data: g.randomBytes(16 + g.rng.Intn(240))}
	if g.chance(0.85) {
		td.Tag = g.popularTag()
	}
	b.attach(td, chain.NoTransaction, chain.ConflictNone)
}

// conflictReasons are the verdicts a conflicting (never applied)
// transaction gets; "already spent" is left to re-attachments.
var conflictReasons = []chain.ConflictReason{
	chain.ConflictSumMismatch, chain.ConflictInvalidSignature, chain.ConflictTimelockNotExpired,
	chain.ConflictInvalidInputUnlock, chain.ConflictInvalidInputsCommitment,
	chain.ConflictInvalidSender, chain.ConflictInvalidChainTransition, chain.ConflictSemanticValidationFailed,
}

// addTransaction reports false when nothing can be spent yet.
func (b *builder) addTransaction() bool {
	g := b.g
	p := g.plan(b.rec.ts)
	if p == nil {
		return false
	}
	if g.chance(g.opts.ConflictRate) {
		markConflicting(p, b.rec.index, len(b.rec.msgs))
		b.attach(g.buildTx(p), chain.Conflicting, conflictReasons[g.rng.Intn(len(conflictReasons))])
		return true
	}
	tx := g.buildTx(p)
	b.apply(tx, b.attach(tx, chain.Included, chain.ConflictNone))
	return true
}

// markConflicting makes a transaction that will conflict unique: signatures are
// deterministic, so without it a later plan could rebuild the very same transaction and
// have it included, one ID with two verdicts.
func markConflicting(p *plan, index uint32, position int) {
	note := []byte(fmt.Sprintf(" (conflicts in milestone %d at %d)", index, position))
	if p.payload == nil {
		p.payload = &chain.TaggedData{}
	}
	p.payload = &chain.TaggedData{Tag: p.payload.Tag, Data: append(slices.Clone(p.payload.Data), note...)}
}

// reattach attaches a transaction included by the previous milestone
// again; the ledger already spent its inputs, so it conflicts.
func (b *builder) reattach() {
	g := b.g
	i := g.rng.Intn(len(g.lastIncluded))
	tx := g.lastIncluded[i]
	g.lastIncluded = append(g.lastIncluded[:i], g.lastIncluded[i+1:]...)
	b.attach(tx, chain.Conflicting, chain.ConflictInputAlreadySpent)
}

// attach wraps a payload in a message with fresh parents.
func (b *builder) attach(p chain.Payload, state chain.InclusionState, reason chain.ConflictReason) chain.MessageID {
	return b.attachWith(b.pickParents(), p, state, reason)
}

func (b *builder) attachWith(parents []chain.MessageID, p chain.Payload,
	state chain.InclusionState, reason chain.ConflictReason) chain.MessageID {
	m := &chain.Message{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Payload: p, Nonce: b.g.rng.Uint64()}
	raw := m.Encode()
	id := chain.MessageIDOf(raw)
	b.rec.msgs = append(b.rec.msgs, msgRec{id: id, raw: raw, parents: parents, state: state, reason: reason})
	b.tips = append(b.tips, id)
	return id
}

// issueMilestone orders the cone in white-flag order from the milestone's parents (the
// open tips), computes both Merkle roots, and issues the milestone signed by the
// coordinator. The message carrying it waits for the next milestone's cone.
func (b *builder) issueMilestone() {
	parents := sortedIDs(b.tips)
	if len(parents) == 0 {
		parents = []chain.MessageID{b.fallbackParent()}
	}
	b.rec.msgs = whiteFlagOrdered(parents, b.rec.msgs)
	var all, applied []chain.MessageID
	for _, m := range b.rec.msgs {
		all = append(all, m.id)
		if m.state == chain.Included {
			applied = append(applied, m.id)
		}
	}
	mp := &chain.MilestonePayload{Index: b.rec.index, Timestamp: uint32(b.rec.ts.Unix()),
		ProtocolVersion: chain.ProtocolVersion, PreviousMilestoneID: b.rec.prevID, Parents: parents,
		InclusionMerkleRoot: chain.MerkleRoot(all), AppliedMerkleRoot: chain.MerkleRoot(applied)}
	mp.Receipt = b.receipt()
	mp.Sign(b.g.coo...)
	b.rec.id, b.rec.payload = mp.ID(), mp.Encode()
	if mp.Receipt != nil {
		b.g.treasury = treasury{id: b.rec.id, amount: mp.Receipt.Transaction.OutputAmount}
	}
	// Coordinators issue milestone blocks without proof of work: nonce 0.
	m := &chain.Message{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Payload: mp}
	raw := m.Encode()
	b.rec.msgID = chain.MessageIDOf(raw)
	b.g.prevBlock = &msgRec{id: b.rec.msgID, raw: raw, parents: parents, milestone: true}
}

// whiteFlagOrdered sorts a milestone's messages in white-flag order (TIP-2). Every
// message must be reachable from the parents: the tips rule guarantees it.
func whiteFlagOrdered(parents []chain.MessageID, msgs []msgRec) []msgRec {
	byID := make(map[chain.MessageID]msgRec, len(msgs))
	for _, m := range msgs {
		byID[m.id] = m
	}
	order := chain.WhiteFlagOrder(parents, func(id chain.MessageID) ([]chain.MessageID, bool) {
		m, ok := byID[id]
		return m.parents, ok
	})
	if len(order) != len(msgs) {
		panic(fmt.Sprintf("sim: %d of %d messages reachable from the milestone", len(order), len(msgs)))
	}
	out := make([]msgRec, len(order))
	for i, id := range order {
		out[i] = byID[id]
	}
	return out
}

// finish makes this milestone's outputs spendable and its messages
// available as parents for the next ones.
func (b *builder) finish() {
	g := b.g
	for _, id := range b.rec.created {
		if o := b.pending[id]; o != nil {
			g.pool(id, o)
		}
	}
	ids := make([]chain.MessageID, len(b.rec.msgs))
	for i, m := range b.rec.msgs {
		ids[i] = m.id
	}
	g.recent = append(g.recent, ids)
	if len(g.recent) > recentMilestones {
		g.recent = g.recent[1:]
	}
	g.lastIncluded = b.included
	g.prevID = b.rec.id
}
