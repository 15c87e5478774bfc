package chain_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Unlock rules of TIP-20: one unlock per input, references point backwards, a
// reference unlock points at a signature unlock, no signature unlock repeats.

func TestRejectUnlocks(t *testing.T) {
	sig2 := chain.Unlock{Kind: chain.UnlockSignature, PublicKey: publicKey(fixtureKey(2)), Signature: [64]byte{3}}
	runTxCases(t, []txCase{
		{"count", "payload.unlocks", "count 3 != 4 inputs", func(tx *chain.Transaction) { tx.Unlocks = tx.Unlocks[:3] }},
		{"count above", "payload.unlocks", "count 5 != 4 inputs",
			func(tx *chain.Transaction) { tx.Unlocks = append(tx.Unlocks, sig2) }},
		{"reference first", "payload.unlocks[0].reference", "0 must point to an earlier unlock",
			func(tx *chain.Transaction) { tx.Unlocks[0] = chain.Unlock{Kind: chain.UnlockReference} }},
		{"reference itself", "payload.unlocks[1].reference", "1 must point to an earlier unlock",
			func(tx *chain.Transaction) { tx.Unlocks[1].Reference = 1 }},
		{"alias forward", "payload.unlocks[2].reference", "3 must point to an earlier unlock",
			func(tx *chain.Transaction) { tx.Unlocks[2].Reference = 3 }},
		{"nft itself", "payload.unlocks[3].reference", "3 must point to an earlier unlock",
			func(tx *chain.Transaction) { tx.Unlocks[3].Reference = 3 }},
		{"reference to reference", "payload.unlocks[3].reference", "unlock 1 is not a signature unlock",
			func(tx *chain.Transaction) { tx.Unlocks[3] = chain.Unlock{Kind: chain.UnlockReference, Reference: 1} }},
		{"reference to alias", "payload.unlocks[3].reference", "unlock 2 is not a signature unlock",
			func(tx *chain.Transaction) { tx.Unlocks[3] = chain.Unlock{Kind: chain.UnlockReference, Reference: 2} }},
		{"repeated signature", "payload.unlocks[2]", "signature unlock repeats unlock 0",
			func(tx *chain.Transaction) { tx.Unlocks[2] = tx.Unlocks[0] }},
	})
	// Two different signatures, and alias/NFT unlocks pointing at any earlier unlock.
	ok := encodeTx(func(tx *chain.Transaction) {
		tx.Unlocks = []chain.Unlock{tx.Unlocks[0], sig2, {Kind: chain.UnlockNFT, Reference: 1}, {Kind: chain.UnlockAlias, Reference: 2}}
	})
	if err := decodeErr(ok); err != nil {
		t.Fatalf("valid unlocks refused: %v", err)
	}
}

func TestRejectUnlockTypes(t *testing.T) {
	for _, typ := range []byte{4, 5, 255} {
		raw := chain.EncodeUnlock(chain.Unlock{Kind: chain.UnlockReference})
		raw[0] = typ
		wantField(t, decodeUnlockErr(raw), "unlock.type", "unknown unlock type")
	}
	raw := chain.EncodeUnlock(fixtureTransaction().Unlocks[0])
	raw[1] = 1
	wantField(t, decodeUnlockErr(raw), "unlock.signature.type", "unknown signature type 1")
	wantField(t, decodeUnlockErr(chain.EncodeUnlock(fixtureTransaction().Unlocks[0])[:97]), "unlock.signature.signature", "truncated: need 64 bytes, 63 left")
	wantField(t, decodeUnlockErr(append(chain.EncodeUnlock(chain.Unlock{Kind: chain.UnlockAlias}), 0)), "unlock", "trailing bytes")

	// The same inside a transaction.
	tx := fixtureTransaction()
	enc := chain.EncodeMessage(newMessage(tx))
	at := len(enc) - 8 - 3*3 - 98 // first unlock
	enc[at] = 9
	wantField(t, decodeErr(enc), "payload.unlocks[0].type", "unknown unlock type 9")
}

func TestRejectInputBlob(t *testing.T) {
	raw := chain.EncodeInput(chain.Input{TransactionID: chain.TransactionID{1}, Index: 3})
	bad := clone(raw)
	bad[0] = 1
	wantField(t, decodeInputErr(bad), "input.type", "unknown input type 1")
	bad = clone(raw)
	bad[33] = 128
	wantField(t, decodeInputErr(bad), "input.transactionOutputIndex", "output index 128 >= 128")
	wantField(t, decodeInputErr(raw[:34]), "input.transactionOutputIndex", "truncated")
	wantField(t, decodeInputErr(append(clone(raw), 0)), "input", "trailing bytes")
}
