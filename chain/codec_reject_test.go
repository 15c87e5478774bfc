package chain

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"testing"
)

func encodeTx(mod func(tx *Transaction)) []byte {
	tx := fixtureTransaction()
	mod(tx)
	return EncodeMessage(&Message{ProtocolVersion: ProtocolVersion, Parents: []MessageID{{1}}, Payload: tx})
}

func encodeWithParents(parents ...MessageID) []byte {
	return EncodeMessage(&Message{ProtocolVersion: ProtocolVersion, Parents: parents})
}

func TestRejectParents(t *testing.T) {
	nine := make([]MessageID, 9)
	for i := range nine {
		nine[i] = MessageID{byte(i + 1)}
	}
	wantField(t, decodeErr(encodeWithParents()), "parents", "count 0 not in 1..8")
	wantField(t, decodeErr(encodeWithParents(nine...)), "parents", "count 9")
	wantField(t, decodeErr(encodeWithParents(MessageID{2}, MessageID{1})), "parents[1]", "not sorted")
	wantField(t, decodeErr(encodeWithParents(MessageID{2}, MessageID{2})), "parents[1]", "duplicate")
}

func TestRejectMessageHeader(t *testing.T) {
	raw := EncodeMessage(fixtureMessages()[1])
	raw[0] = 1
	wantField(t, decodeErr(raw), "protocolVersion", "unsupported version 1")

	raw = EncodeMessage(fixtureMessages()[1])
	typeAt := 1 + 1 + 32 + 4 // version, parent count, one parent, payload length
	binary.LittleEndian.PutUint32(raw[typeAt:], 99)
	wantField(t, decodeErr(raw), "payload.type", "unknown payload type 99")
}

func TestRejectTags(t *testing.T) {
	long := bytes.Repeat([]byte("t"), MaxTagLength+1)
	raw := EncodeMessage(&Message{ProtocolVersion: ProtocolVersion, Parents: []MessageID{{1}},
		Payload: &TaggedData{Tag: long}})
	wantField(t, decodeErr(raw), "payload.tag", "too long: 65 bytes > 64")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[1].Tag = long })
	wantField(t, decodeErr(raw), "payload.outputs[1].features[2].tag", "too long")
	raw = encodeTx(func(tx *Transaction) { tx.Payload.Tag = long })
	wantField(t, decodeErr(raw), "payload.payload.tag", "too long")
}

func TestRejectAmounts(t *testing.T) {
	raw := encodeTx(func(tx *Transaction) {
		tx.Outputs[0].Amount = math.MaxUint64
	})
	wantField(t, decodeErr(raw), "payload.outputs[1].amount", "amount overflow")
	raw = encodeTx(func(tx *Transaction) {
		tx.Outputs[1].NativeTokens[1].Amount = new(big.Int).Lsh(big.NewInt(1), 256)
	})
	wantField(t, decodeErr(raw), "payload.outputs[1].nativeTokens[1].amount", "amount overflow")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[0].Amount = 0 })
	wantField(t, decodeErr(raw), "payload.outputs[0].amount", "must be positive")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[1].StorageDepositReturn.Amount = 501 })
	wantField(t, decodeErr(raw), "payload.outputs[1].unlockConditions[1].amount", "not in 1..500")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[3].TokenScheme.Minted = big.NewInt(9000) })
	wantField(t, decodeErr(raw), "payload.outputs[3].tokenScheme.minted", "exceeds max supply")
}

func TestRejectOutputShape(t *testing.T) {
	raw := encodeTx(func(tx *Transaction) { tx.Outputs[0].Kind = 2 })
	wantField(t, decodeErr(raw), "payload.outputs[0].kind", "unknown output kind 2")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[2].Governor = nil })
	wantField(t, decodeErr(raw), "payload.outputs[2].unlockConditions", "lacks a required")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[1].Issuer = ptr(fixtureAddr(1)) })
	wantField(t, decodeErr(raw), "payload.outputs[1].features[1].type", "not allowed in basic output")
	raw = encodeTx(func(tx *Transaction) {
		nt := tx.Outputs[1].NativeTokens
		nt[0], nt[1] = nt[1], nt[0]
	})
	wantField(t, decodeErr(raw), "payload.outputs[1].nativeTokens[1].id", "ascending")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[3].Address = ptr(fixtureAddr(1)) })
	wantField(t, decodeErr(raw), "payload.outputs[3].unlockConditions[0].address", "must be an alias address")
	raw = encodeTx(func(tx *Transaction) { tx.Outputs[0].Address.Kind = 3 })
	wantField(t, decodeErr(raw), "payload.outputs[0].unlockConditions[0].address", "unknown address kind 3")
}

func TestRejectInputsAndUnlocks(t *testing.T) {
	raw := encodeTx(func(tx *Transaction) { tx.Unlocks[0].Kind = 7 })
	wantField(t, decodeErr(raw), "payload.unlocks[0].kind", "unknown unlock kind 7")
	raw = encodeTx(func(tx *Transaction) { tx.Unlocks = tx.Unlocks[:3] })
	wantField(t, decodeErr(raw), "payload.unlocks", "count 3 != 4 inputs")
	raw = encodeTx(func(tx *Transaction) { tx.Unlocks[1].Reference = 1 })
	wantField(t, decodeErr(raw), "payload.unlocks[1].reference", "earlier unlock")
	raw = encodeTx(func(tx *Transaction) { tx.Unlocks[3] = Unlock{Kind: UnlockReference, Reference: 1} })
	wantField(t, decodeErr(raw), "payload.unlocks[3].reference", "not a signature unlock")
	raw = encodeTx(func(tx *Transaction) { tx.Inputs[1] = tx.Inputs[0] })
	wantField(t, decodeErr(raw), "payload.inputs[1]", "duplicate input")
	raw = encodeTx(func(tx *Transaction) { tx.Inputs = nil; tx.Unlocks = nil })
	wantField(t, decodeErr(raw), "payload.inputs", "count 0")
	raw = encodeTx(func(tx *Transaction) { tx.Inputs[2].Index = MaxOutputs })
	wantField(t, decodeErr(raw), "payload.inputs[2].index", "output index 128")
}

func TestRejectTruncationNamesField(t *testing.T) {
	raw := EncodeMessage(fixtureMessages()[0])
	wantField(t, decodeErr(raw[:len(raw)-3]), "nonce", "truncated: need 8 bytes, 5 left")
	wantField(t, decodeErr(raw[:10]), "parents[0]", "truncated")
	wantField(t, decodeErr(nil), "protocolVersion", "truncated")
}

func TestEncodeOversizedStillWorks(t *testing.T) {
	m := &Message{ProtocolVersion: ProtocolVersion, Parents: []MessageID{{1}},
		Payload: &TaggedData{Data: make([]byte, MaxMessageSize)}}
	raw := EncodeMessage(m)
	if _, err := DecodeMessage(raw); err != nil {
		t.Fatalf("oversized message should still decode: %v", err)
	}
	wantField(t, ValidateMessage(m, raw), "message", "oversized: 32824 bytes > 32768")
	small := fixtureMessages()[1]
	if err := ValidateMessage(small, EncodeMessage(small)); err != nil {
		t.Fatal(err)
	}
	wantField(t, ValidateMessage(fixtureMessages()[0], EncodeMessage(small)), "message", "does not match")
}
