package sim

import (
	"bytes"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// addFault adds the broken message a faulty milestone is asked for. The
// ghost values come from derive, not the main random stream.
func (b *builder) addFault(f Fault) {
	switch f {
	case FaultUnknownInput:
		b.addGhostSpend()
	case FaultOversized:
		td := &chain.TaggedData{Tag: []byte("sim-oversized"),
			Data: bytes.Repeat([]byte("oversized "), chain.MaxMessageSize/10+1)}
		b.attach(td, chain.NoTransaction, chain.ConflictNone)
	}
}

// addGhostSpend includes a transaction whose only input never existed. Its
// output is created as usual; the missing input is the fault.
func (b *builder) addGhostSpend() {
	g := b.g
	ghost := chain.TransactionID(derive(g.opts.Seed, "ghost", uint64(b.rec.index)))
	tx := &chain.Transaction{
		NetworkID:        g.network.ID(),
		Inputs:           []chain.Input{{TransactionID: ghost, Index: 0}},
		InputsCommitment: inputsCommitment(nil),
		Outputs:          []chain.Output{{Kind: chain.OutputBasic, Amount: minAmount, Address: ptr(g.addrs[0])}},
	}
	g.sign(tx, []chain.Address{g.addrs[0]})
	msgID := b.attach(tx, chain.Included, chain.ConflictNone)
	b.create(chain.NewOutputID(tx.ID(), 0), msgID, &tx.Outputs[0])
}

// serveFault breaks what a milestone is served as (the chain itself stays intact).
func serveFault(cm *chain.ConfirmedMilestone, f Fault) {
	switch f {
	case FaultMalformedID:
		cm.Messages[0].ID[0] ^= 0xff
	case FaultBadSignature:
		cm.Milestone.Signatures[0].Signature[0] ^= 0x01
	case FaultIncompleteCone:
		// The first message in white-flag order: the rest stays reachable and in order.
		cm.Messages = cm.Messages[1:]
		for i := range cm.Messages {
			cm.Messages[i].WhiteFlagIndex = uint32(i)
		}
	}
}
