package chain_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Strict decoding of the transaction payload (TIP-20), inside a message: paths start
// at "payload".

type txCase = fieldCase[*chain.Transaction]

var runTxCases = fieldCaseRunner(fixtureTransaction,
	func(tx *chain.Transaction) error { return decodeErr(chain.EncodeMessage(newMessage(tx))) })

// manyInputs returns n distinct inputs and the unlocks for them (one signature, then
// references to it).
func manyInputs(n int) ([]chain.Input, []chain.Unlock) {
	ins := make([]chain.Input, n)
	unlocks := make([]chain.Unlock, n)
	for i := range ins {
		ins[i] = chain.Input{TransactionID: chain.TransactionID{byte(i), byte(i >> 8)}}
		unlocks[i] = chain.Unlock{Kind: chain.UnlockReference}
	}
	unlocks[0] = chain.Unlock{Kind: chain.UnlockSignature}
	return ins, unlocks
}

func TestRejectInputs(t *testing.T) {
	runTxCases(t, []txCase{
		{"none", "payload.essence.inputs", "count 0 not in 1..128", func(tx *chain.Transaction) { tx.Inputs, tx.Unlocks = nil, nil }},
		{"129", "payload.essence.inputs", "count 129 not in 1..128", func(tx *chain.Transaction) { tx.Inputs, tx.Unlocks = manyInputs(129) }},
		{"duplicate", "payload.essence.inputs[2]", "duplicate input", func(tx *chain.Transaction) { tx.Inputs[2] = tx.Inputs[0] }},
		{"index 128", "payload.essence.inputs[3].transactionOutputIndex", "output index 128 >= 128",
			func(tx *chain.Transaction) { tx.Inputs[3].Index = chain.MaxOutputs }},
	})
	if err := decodeErr(encodeTx(func(tx *chain.Transaction) { tx.Inputs, tx.Unlocks = manyInputs(128) })); err != nil {
		t.Fatalf("128 inputs refused: %v", err)
	}
	raw := encodeTx(func(*chain.Transaction) {})
	raw[payloadAt(1)+4+4+1+8+2] = 1 // length, payload type, essence type, network ID, inputs count
	wantField(t, decodeErr(raw), "payload.essence.inputs[0].type", "unknown input type 1")
}

func TestRejectEssenceType(t *testing.T) {
	raw := encodeTx(func(*chain.Transaction) {})
	raw[payloadAt(1)+4+4] = 2
	wantField(t, decodeErr(raw), "payload.essence.type", "unknown essence type 2")
}

func TestRejectOutputsInTransaction(t *testing.T) {
	many := make([]chain.Output, chain.MaxOutputs+1)
	for i := range many {
		many[i] = fixtureOutputs()[6]
	}
	runTxCases(t, []txCase{
		{"none", "payload.essence.outputs", "count 0 not in 1..128", func(tx *chain.Transaction) { tx.Outputs = nil }},
		{"129", "payload.essence.outputs", "count 129 not in 1..128", func(tx *chain.Transaction) { tx.Outputs = many }},
		{"legacy", "payload.essence.outputs[1].type", "output type 1 not allowed in a transaction",
			func(tx *chain.Transaction) { tx.Outputs[1] = fixtureLegacyOutputs()[1] }},
		{"overflow", "payload.essence.outputs[1].amount", "amount overflow",
			func(tx *chain.Transaction) { tx.Outputs[0].Amount = math.MaxUint64 - tx.Outputs[1].Amount + 1 }},
		{"zero amount", "payload.essence.outputs[2].amount", "must be positive", func(tx *chain.Transaction) { tx.Outputs[2].Amount = 0 }},
		{"tag", "payload.essence.outputs[0].features[2].tag", "too long",
			func(tx *chain.Transaction) { tx.Outputs[0].Tag = bytes.Repeat([]byte{1}, 65) }},
	})
	if err := decodeErr(encodeTx(func(tx *chain.Transaction) { tx.Outputs = many[:chain.MaxOutputs] })); err != nil {
		t.Fatalf("128 outputs refused: %v", err)
	}
	ok := encodeTx(func(tx *chain.Transaction) { tx.Outputs[0].Amount = math.MaxUint64 - sumAmounts(tx.Outputs[1:]) })
	if err := decodeErr(ok); err != nil {
		t.Fatalf("outputs summing to MaxUint64 refused: %v", err)
	}
}

func sumAmounts(outs []chain.Output) uint64 {
	var s uint64
	for _, o := range outs {
		s += o.Amount
	}
	return s
}

// txWithTokens is a transaction of two outputs of 40 native tokens each, the second's
// IDs starting from serial second (the first's from 0).
func txWithTokens(second int) []byte {
	tokens := func(from int) []chain.NativeToken {
		out := make([]chain.NativeToken, 40)
		for i := range out {
			out[i] = chain.NativeToken{ID: chain.NewFoundryID(fixtureAliasID, uint32(from+i), 0), Amount: big.NewInt(1)}
		}
		return out
	}
	return encodeTx(func(tx *chain.Transaction) {
		tx.Outputs = []chain.Output{fixtureOutputs()[6], fixtureOutputs()[6]}
		tx.Outputs[0].NativeTokens, tx.Outputs[1].NativeTokens = tokens(0), tokens(second)
	})
}

// TIP-20: at most 64 distinct native tokens over all outputs of a transaction
// (stardust-wire.md section 8, iota.go OutputsSyntacticalNativeTokens).
func TestRejectNativeTokensPerTransaction(t *testing.T) {
	raw := txWithTokens(40)
	wantField(t, decodeErr(raw), "payload.essence.outputs[1].nativeTokens", "native tokens")
}

func TestRejectEssencePayload(t *testing.T) {
	tx := fixtureTransaction()
	enc := tx.Encode()
	at := bytes.Index(enc, []byte{5, 0, 0, 0, 5, 'i', 'n', 'n', 'e', 'r'})
	for _, typ := range []uint32{4, 6, 7, 99} {
		p := clone(enc)
		binary.LittleEndian.PutUint32(p[at:], typ)
		wantField(t, decodeErr(frameMessage(p)), "payload.essence.payload.type",
			"not allowed in a transaction")
	}
	// One byte more inside the essence payload's frame.
	n := binary.LittleEndian.Uint32(enc[at-4:])
	grown := bytesBuilder{}.raw(enc[:at-4]...).u32(n + 1).raw(enc[at : at+int(n)]...).u8(0).raw(enc[at+int(n):]...)
	wantField(t, decodeErr(frameMessage(grown)), "payload.essence.payload", "trailing bytes: 1 unexpected")
	if err := decodeErr(frameMessage(enc)); err != nil {
		t.Fatalf("frameMessage: %v", err)
	}
}

// frameMessage wraps payload bytes in a message with one parent.
func frameMessage(payload []byte) []byte {
	b := bytesBuilder{}.u8(chain.ProtocolVersion).u8(1).raw(make([]byte, 32)...)
	return b.u32(uint32(len(payload))).raw(payload...).u64(0)
}
