package sim

import (
	"crypto/ed25519"

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

// buildTx turns a plan into a signed transaction: one Ed25519 signature unlock per
// distinct owner over the essence hash, reference unlocks for the rest, and the inputs
// commitment over the consumed outputs' bytes (TIP-20).
func (g *generator) buildTx(p *plan) *chain.Transaction {
	tx := &chain.Transaction{NetworkID: g.network.ID(), Outputs: p.outputs, Payload: p.payload}
	owners := make([]chain.Address, len(p.inputs))
	raws := make([][]byte, len(p.inputs))
	for i, id := range p.inputs {
		tx.Inputs = append(tx.Inputs, chain.Input{TransactionID: id.TransactionID(), Index: id.Index()})
		owners[i], raws[i] = owner(g.live[id]), g.outputs[id].raw
	}
	tx.InputsCommitment = inputsCommitment(raws)
	g.sign(tx, owners)
	return tx
}

// inputsCommitment is BLAKE2b-256 over the BLAKE2b-256 of each consumed output's bytes.
func inputsCommitment(raws [][]byte) [32]byte {
	hashes := make([]byte, 0, 32*len(raws))
	for _, raw := range raws {
		h := blake2b.Sum256(raw)
		hashes = append(hashes, h[:]...)
	}
	return blake2b.Sum256(hashes)
}

// sign sets the unlocks: the first input of each owner carries its signature, later
// ones reference it.
func (g *generator) sign(tx *chain.Transaction, owners []chain.Address) {
	hash := tx.EssenceHash()
	signers := make(map[chain.Address]uint16)
	tx.Unlocks = make([]chain.Unlock, len(owners))
	for i, a := range owners {
		if j, ok := signers[a]; ok {
			tx.Unlocks[i] = chain.Unlock{Kind: chain.UnlockReference, Reference: j}
			continue
		}
		signers[a] = uint16(i)
		key := g.keys[g.keyOf[a.ID]]
		u := chain.Unlock{Kind: chain.UnlockSignature}
		copy(u.PublicKey[:], key.Public().(ed25519.PublicKey))
		copy(u.Signature[:], ed25519.Sign(key, hash[:]))
		tx.Unlocks[i] = u
	}
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
