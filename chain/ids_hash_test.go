package chain_test

import (
	"bytes"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// IDs that are hashes of encodings: message, transaction, essence, milestone, chain IDs.

func TestHashIDs(t *testing.T) {
	m := fixtureMessages()[2]
	raw := m.Encode()
	tx := m.TransactionOf()
	payload := raw[2+32*len(m.Parents)+4 : len(raw)-8]
	switch {
	case m.ID() != chain.MessageID(blake2b.Sum256(raw)):
		t.Fatal("message ID is not BLAKE2b-256 of the message")
	case !bytes.Equal(tx.Encode(), payload) || tx.ID() != chain.TransactionID(blake2b.Sum256(payload)):
		t.Fatal("transaction ID is not BLAKE2b-256 of the block's payload bytes")
	case !bytes.Equal(tx.Essence(), payload[4:len(payload)-2-98-3*3]):
		t.Fatal("essence is not the payload between the type and the unlocks")
	case tx.EssenceHash() != blake2b.Sum256(tx.Essence()):
		t.Fatal("essence hash")
	}
}

func TestMilestoneIDIgnoresSignatures(t *testing.T) {
	mp := fixtureMilestonePayload()
	id := mp.ID()
	if id != chain.MilestoneID(blake2b.Sum256(mp.Essence())) {
		t.Fatal("milestone ID is not BLAKE2b-256 of the essence")
	}
	mp.Signatures = mp.Signatures[:1]
	mp.Signatures[0].Signature[0] ^= 1
	if mp.ID() != id {
		t.Fatal("milestone ID depends on the signatures")
	}
	mp.Metadata = nil
	if mp.ID() == id {
		t.Fatal("milestone ID ignores the metadata")
	}
}

func TestTransactionIDDependsOnContent(t *testing.T) {
	a, b := fixtureTransaction(), fixtureTransaction()
	if a.ID() != b.ID() {
		t.Fatal("equal transactions hash differently")
	}
	b.Unlocks[0].Signature[0] ^= 1
	if a.ID() == b.ID() || a.EssenceHash() != b.EssenceHash() {
		t.Fatal("the unlocks are in the transaction ID but not in the essence hash")
	}
	b.Outputs[0].Amount++
	if a.EssenceHash() == b.EssenceHash() {
		t.Fatal("essence hash ignores outputs")
	}
}

func TestChainIDsFromOutputIDs(t *testing.T) {
	oid := chain.NewOutputID(chain.TransactionID{1}, 2)
	want := blake2b.Sum256(oid[:])
	if chain.AliasIDFromOutputID(oid) != chain.AliasID(want) || chain.NFTIDFromOutputID(oid) != chain.NFTID(want) {
		t.Fatal("chain IDs must be BLAKE2b-256 of the 34-byte output ID")
	}
	foundry := chain.NewFoundryID(chain.AliasIDFromOutputID(oid), 1, chain.TokenSchemeSimple)
	if foundry[0] != byte(chain.AddressAlias) || foundry.AliasID() != chain.AliasID(want) || foundry.SerialNumber() != 1 {
		t.Fatalf("foundry id %s", foundry)
	}
}
