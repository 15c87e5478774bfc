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
