package chain_test

import (
	"bytes"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Decoding must restore every field, including the ones derived from others.

func decodedFixtureTx(t *testing.T) (*chain.Message, *chain.Transaction) {
	t.Helper()
	m, err := chain.DecodeMessage(chain.EncodeMessage(fixtureMessages()[2]))
	if err != nil {
		t.Fatal(err)
	}
	return m, m.TransactionOf()
}

func TestDecodedBasicFields(t *testing.T) {
	_, tx := decodedFixtureTx(t)
	o := tx.Outputs[0]
	switch {
	case *o.Address != fixtureAddr(2) || *o.Sender != fixtureAddr(5):
		t.Fatalf("addresses: %v %v", o.Address, o.Sender)
	case o.StorageDepositReturn.Amount != 100 || o.StorageDepositReturn.ReturnAddress != fixtureAddr(3):
		t.Fatalf("sdr: %+v", o.StorageDepositReturn)
	case *o.Timelock != 1_700_000_000 || o.Expiration.UnixTime != 1_800_000_000 || o.Expiration.ReturnAddress != fixtureAddr(4):
		t.Fatalf("timelock/expiration: %d %+v", *o.Timelock, o.Expiration)
	case string(o.Tag) != "shop" || string(o.Metadata) != "{}":
		t.Fatalf("features: %q %q", o.Tag, o.Metadata)
	case len(o.NativeTokens) != 2 || o.NativeTokens[1].Amount.BitLen() != 256 || o.NativeTokens[0].Amount.Int64() != 10:
		t.Fatalf("native tokens: %+v", o.NativeTokens)
	}
}

func TestDecodedAliasFields(t *testing.T) {
	_, tx := decodedFixtureTx(t)
	o := tx.Outputs[1]
	switch {
	case o.AliasID != fixtureAliasID || o.StateIndex != 3 || o.FoundryCounter != 2 || string(o.StateMetadata) != "state":
		t.Fatalf("alias state: %+v", o)
	case *o.StateController != fixtureAddr(6) || *o.Governor != chain.NFTAddress(fixtureNFTID):
		t.Fatalf("controllers: %v %v", o.StateController, o.Governor)
	case o.Address == nil || *o.Address != *o.StateController:
		t.Fatalf("Address must copy the state controller: %v", o.Address)
	case *o.Issuer != fixtureAddr(8) || string(o.ImmutableMetadata) != "born" || string(o.Metadata) != "alias":
		t.Fatalf("features: %v %q %q", o.Issuer, o.ImmutableMetadata, o.Metadata)
	}
}

func TestDecodedFoundryFields(t *testing.T) {
	_, tx := decodedFixtureTx(t)
	o := tx.Outputs[2]
	ts := o.TokenScheme
	switch {
	case o.FoundryID != chain.NewFoundryID(fixtureAliasID, 2, chain.TokenSchemeSimple) || o.SerialNumber != 2:
		t.Fatalf("foundry id %s serial %d", o.FoundryID, o.SerialNumber)
	case *o.Address != chain.AliasAddress(fixtureAliasID):
		t.Fatalf("immutable alias address: %v", o.Address)
	case ts.Minted.Int64() != 1000 || ts.Melted.Int64() != 10 || ts.MaxSupply.Int64() != 5000:
		t.Fatalf("token scheme: %v %v %v", ts.Minted, ts.Melted, ts.MaxSupply)
	case string(o.Metadata) != "foundry" || string(o.ImmutableMetadata) != "token":
		t.Fatalf("features: %q %q", o.Metadata, o.ImmutableMetadata)
	}
}

func TestDecodedNFTFields(t *testing.T) {
	_, tx := decodedFixtureTx(t)
	o := tx.Outputs[3]
	switch {
	case o.NFTID != fixtureNFTID || *o.Address != chain.AliasAddress(fixtureAliasID):
		t.Fatalf("nft id %s address %v", o.NFTID, o.Address)
	case *o.Issuer != chain.AliasAddress(fixtureAliasID) || string(o.ImmutableMetadata) != "immutable":
		t.Fatalf("immutable features: %v %q", o.Issuer, o.ImmutableMetadata)
	case o.Expiration.ReturnAddress != chain.NFTAddress(chain.NFTID{0xb2}) || *o.Timelock != 1 || string(o.Tag) != "art":
		t.Fatalf("conditions/features: %+v", o)
	}
}

func TestDecodedTransactionFields(t *testing.T) {
	m, tx := decodedFixtureTx(t)
	want := fixtureTransaction()
	switch {
	case tx.NetworkID != want.NetworkID || tx.InputsCommitment != want.InputsCommitment:
		t.Fatalf("network id %d commitment %x", tx.NetworkID, tx.InputsCommitment)
	case len(tx.Inputs) != 4 || tx.Inputs[3] != want.Inputs[3]:
		t.Fatalf("inputs: %+v", tx.Inputs)
	case len(tx.Unlocks) != 4 || tx.Unlocks[0] != want.Unlocks[0] || tx.Unlocks[3] != want.Unlocks[3]:
		t.Fatalf("unlocks: %+v", tx.Unlocks)
	case string(m.Tag()) != "inner" || string(tx.Payload.Data) != "payload":
		t.Fatalf("essence payload: %+v", tx.Payload)
	case m.Nonce != 1<<64-1 || m.MilestoneOf() != nil:
		t.Fatalf("nonce %d", m.Nonce)
	case !bytes.Equal(tx.Essence(), want.Essence()) || tx.ID() != want.ID():
		t.Fatal("essence or transaction ID changed")
	}
}

func TestDecodedLegacyFields(t *testing.T) {
	for _, o := range fixtureLegacyOutputs() {
		raw := chain.EncodeOutput(o)
		if len(raw) != 1+33+8 || raw[0] != o.LegacyType {
			t.Fatalf("legacy layout: %x", raw)
		}
		back, err := chain.DecodeOutput(raw)
		if err != nil || *back.Address != *o.Address || back.LegacyType != o.LegacyType {
			t.Fatalf("%+v, %v", back, err)
		}
	}
}

func TestMessageAccessors(t *testing.T) {
	msgs := fixtureMessages()
	if msgs[0].Tag() != nil || msgs[0].TransactionOf() != nil || msgs[0].MilestoneOf() != nil {
		t.Fatal("message without payload")
	}
	if string(msgs[1].Tag()) != "hello" || msgs[3].MilestoneOf().Index != 9 || msgs[2].TransactionOf() == nil {
		t.Fatal("accessors")
	}
}
