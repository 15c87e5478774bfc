package sim

import (
	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// genesisChunk is how many genesis outputs share one pseudo transaction ID
// (output indexes must stay below chain.MaxOutputs).
const genesisChunk = 100

// genesis creates the legacy (Chrysalis) outputs the chain starts from.
// They come from no message, so their MessageID is zero.
func (b *builder) genesis() {
	g := b.g
	for i := 0; i < g.opts.LegacyGenesisOutputs; i++ {
		tx := chain.TransactionID(derive(g.opts.Seed, "genesis", uint64(i/genesisChunk)))
		o := &chain.Output{Kind: chain.OutputLegacy, Amount: g.between(1e9, 1e11), Address: ptr(g.popularAddress())}
		if g.chance(0.1) {
			o.LegacyType = chain.LegacySigLockedDustAllowance
		}
		b.create(chain.NewOutputID(tx, uint16(i%genesisChunk)), chain.MessageID{}, o)
	}
}

// buildTx turns a plan into a signed-looking transaction: one signature
// unlock per distinct owner, reference unlocks for the rest.
func (g *generator) buildTx(p *plan) *chain.Transaction {
	tx := &chain.Transaction{NetworkID: g.networkID, Outputs: p.outputs, Payload: p.payload}
	commitment, _ := blake2b.New256(nil)
	signers := make(map[chain.Address]uint16)
	for i, id := range p.inputs {
		tx.Inputs = append(tx.Inputs, chain.Input{TransactionID: id.TransactionID(), Index: id.Index()})
		commitment.Write(g.outputs[id].raw)
		tx.Unlocks = append(tx.Unlocks, g.unlockFor(owner(g.live[id]), uint16(i), signers))
	}
	copy(tx.InputsCommitment[:], commitment.Sum(nil))
	return tx
}

func (g *generator) unlockFor(addr chain.Address, i uint16, signers map[chain.Address]uint16) chain.Unlock {
	if j, ok := signers[addr]; ok {
		return chain.Unlock{Kind: chain.UnlockReference, Reference: j}
	}
	signers[addr] = i
	u := chain.Unlock{Kind: chain.UnlockSignature, PublicKey: g.keys[g.keyOf[addr.ID]]}
	copy(u.Signature[:], g.randomBytes(len(u.Signature)))
	return u
}

// apply spends the inputs and creates the outputs of an included transaction.
func (b *builder) apply(tx *chain.Transaction, msgID chain.MessageID) {
	g := b.g
	txID := tx.ID()
	for _, in := range tx.Inputs {
		id := in.OutputID()
		rec := g.outputs[id]
		rec.spentBy, rec.spentMs, rec.spentTs = txID, b.rec.index, b.rec.ts
		g.unpool(id)
		b.rec.consumed = append(b.rec.consumed, id)
	}
	for i := range tx.Outputs {
		b.create(chain.NewOutputID(txID, uint16(i)), msgID, &tx.Outputs[i])
	}
	b.included = append(b.included, tx)
}

func (b *builder) create(id chain.OutputID, msgID chain.MessageID, o *chain.Output) {
	b.g.outputs[id] = &outRec{id: id, msgID: msgID, ms: b.rec.index, ts: b.rec.ts, raw: chain.EncodeOutput(*o)}
	b.rec.created = append(b.rec.created, id)
	b.pending[id] = o
}

// pool makes an output available to later transactions if the simulated
// wallets can spend it: they hold only Ed25519 keys and leave outputs with
// return, timelock or expiration conditions alone.
func (g *generator) pool(id chain.OutputID, o *chain.Output) {
	if _, ours := g.keyOf[owner(o).ID]; !ours || owner(o).Kind != chain.AddressEd25519 {
		return
	}
	var set *idSet
	switch o.Kind {
	case chain.OutputBasic, chain.OutputLegacy:
		if o.StorageDepositReturn == nil && o.Timelock == nil && o.Expiration == nil {
			set = g.fungible
		}
	case chain.OutputAlias:
		set = g.aliases
	case chain.OutputNFT:
		set = g.nfts
	}
	if set != nil {
		g.live[id] = o
		set.add(id)
	}
}

func (g *generator) unpool(id chain.OutputID) {
	delete(g.live, id)
	g.fungible.remove(id)
	g.aliases.remove(id)
	g.nfts.remove(id)
}

func ptr[T any](v T) *T { return &v }
