package chain

import (
	"encoding/binary"
	"math"

	"golang.org/x/crypto/blake2b"
)

// Limits on transactions (TIP-20).
const (
	MaxInputs  = 128
	MaxOutputs = 128
)

// Encode serializes the transaction payload (type prefix included).
func (tx *Transaction) Encode() []byte { return encoded(tx, writeTransaction) }

// ID is the BLAKE2b-256 hash of Encode().
func (tx *Transaction) ID() TransactionID { return blake2b.Sum256(tx.Encode()) }

// Essence serializes the transaction essence: the part the unlocks sign.
func (tx *Transaction) Essence() []byte { return encoded(tx, writeEssence) }

// EssenceHash is what every signature unlock signs: BLAKE2b-256 of Essence().
func (tx *Transaction) EssenceHash() [32]byte { return blake2b.Sum256(tx.Essence()) }

// EncodeInput serializes an input (35 bytes: type, transaction ID, output index).
func EncodeInput(in Input) []byte { return encoded(in, writeInput) }

// DecodeInput parses what EncodeInput wrote.
func DecodeInput(b []byte) (Input, error) { return decodedWhole(b, "input", readInput) }

// EncodeUnlock serializes an unlock as a transaction carries it.
func EncodeUnlock(u Unlock) []byte { return encoded(u, writeUnlock) }

// DecodeUnlock parses what EncodeUnlock wrote.
func DecodeUnlock(b []byte) (Unlock, error) { return decodedWhole(b, "unlock", readUnlock) }

func writeTransaction(w *writer, tx *Transaction) {
	w.u32(PayloadTransaction)
	writeEssence(w, tx)
	w.u16(uint16(len(tx.Unlocks)))
	for _, u := range tx.Unlocks {
		writeUnlock(w, u)
	}
}

func writeEssence(w *writer, tx *Transaction) {
	w.u8(EssenceRegular)
	w.u64(tx.NetworkID)
	w.u16(uint16(len(tx.Inputs)))
	for _, in := range tx.Inputs {
		writeInput(w, in)
	}
	w.bytes(tx.InputsCommitment[:])
	w.u16(uint16(len(tx.Outputs)))
	for i := range tx.Outputs {
		writeOutput(w, &tx.Outputs[i])
	}
	w.framed(func(sub *writer) {
		if tx.Payload != nil {
			writeTaggedData(sub, tx.Payload)
		}
	})
}

func writeInput(w *writer, in Input) {
	w.u8(InputUTXO)
	w.bytes(in.TransactionID[:])
	w.u16(in.Index)
}

func writeUnlock(w *writer, u Unlock) {
	w.u8(uint8(u.Kind))
	if u.Kind == UnlockSignature {
		w.u8(SignatureEd25519)
		w.bytes(u.PublicKey[:])
		w.bytes(u.Signature[:])
		return
	}
	w.u16(u.Reference)
}

// readTransaction reads what follows the payload type code.
func readTransaction(r *reader, path string) *Transaction {
	essence := joinField(path, "essence")
	if kind := r.u8(joinField(essence, "type")); r.err == nil && kind != EssenceRegular {
		r.fail(joinField(essence, "type"), "unknown essence type %d", kind)
	}
	tx := &Transaction{NetworkID: r.u64(joinField(essence, "networkId"))}
	tx.Inputs = readInputs(r, joinField(essence, "inputs"))
	r.fill(joinField(essence, "inputsCommitment"), tx.InputsCommitment[:])
	tx.Outputs = readOutputs(r, joinField(essence, "outputs"))
	r.framed(joinField(essence, "payload"), func(sub *reader) {
		tx.Payload = readEssencePayload(sub, joinField(essence, "payload"))
	})
	tx.Unlocks = readUnlocks(r, joinField(path, "unlocks"), len(tx.Inputs))
	return tx
}

// readEssencePayload reads the optional payload inside a transaction: tagged data only.
func readEssencePayload(r *reader, path string) *TaggedData {
	typ := r.u32(joinField(path, "type"))
	if r.err == nil && typ != PayloadTaggedData {
		r.fail(joinField(path, "type"), "payload type %d not allowed in a transaction", typ)
	}
	if r.err != nil {
		return nil
	}
	return readTaggedData(r, path)
}

func readCount(r *reader, path string, maxCount int) int {
	n := int(r.u16(path))
	if r.err == nil && (n < 1 || n > maxCount) {
		r.fail(path, "count %d not in 1..%d", n, maxCount)
		return 0
	}
	return n
}

func readInputs(r *reader, path string) []Input {
	n := readCount(r, path, MaxInputs)
	inputs := make([]Input, 0, n)
	seen := make(map[Input]bool, n)
	for i := 0; i < n && r.err == nil; i++ {
		in := readInput(r, indexed(path, i))
		if r.err == nil && seen[in] {
			r.fail(indexed(path, i), "duplicate input %s", in.OutputID())
		}
		seen[in] = true
		inputs = append(inputs, in)
	}
	return inputs
}

func readInput(r *reader, path string) Input {
	if kind := r.u8(joinField(path, "type")); r.err == nil && kind != InputUTXO {
		r.fail(joinField(path, "type"), "unknown input type %d", kind)
	}
	var in Input
	r.fill(joinField(path, "transactionId"), in.TransactionID[:])
	in.Index = r.u16(joinField(path, "transactionOutputIndex"))
	if r.err == nil && in.Index >= MaxOutputs {
		r.fail(joinField(path, "transactionOutputIndex"), "output index %d >= %d", in.Index, MaxOutputs)
	}
	return in
}

func readOutputs(r *reader, path string) []Output {
	n := readCount(r, path, MaxOutputs)
	outputs := make([]Output, 0, n)
	var sum uint64
	tokens := make(map[FoundryID]bool)
	for i := 0; i < n && r.err == nil; i++ {
		o := readStardustOutput(r, indexed(path, i))
		if r.err == nil && o.Amount > math.MaxUint64-sum {
			r.fail(joinField(indexed(path, i), "amount"), "amount overflow: outputs sum exceeds uint64")
		}
		sum += o.Amount
		for _, t := range o.NativeTokens {
			tokens[t.ID] = true
		}
		if r.err == nil && len(tokens) > MaxNativeTokens {
			r.fail(joinField(indexed(path, i), "nativeTokens"), "the outputs hold %d distinct native tokens, more than %d",
				len(tokens), MaxNativeTokens)
		}
		outputs = append(outputs, o)
	}
	return outputs
}

func readUnlocks(r *reader, path string, inputs int) []Unlock {
	n := int(r.u16(path))
	if r.err == nil && n != inputs {
		r.fail(path, "count %d != %d inputs", n, inputs)
		return nil
	}
	unlocks := make([]Unlock, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		u := readUnlock(r, indexed(path, i))
		checkUnlock(r, indexed(path, i), i, u, unlocks)
		unlocks = append(unlocks, u)
	}
	return unlocks
}

// checkUnlock enforces TIP-20's unlock rules: references point backwards, a reference
// unlock at a signature unlock, and no signature unlock repeats an earlier one.
func checkUnlock(r *reader, path string, i int, u Unlock, earlier []Unlock) {
	if r.err != nil {
		return
	}
	if u.Kind == UnlockSignature {
		for j, e := range earlier {
			if e == u {
				r.fail(path, "signature unlock repeats unlock %d", j)
			}
		}
		return
	}
	if int(u.Reference) >= i {
		r.fail(joinField(path, "reference"), "%d must point to an earlier unlock", u.Reference)
		return
	}
	if u.Kind == UnlockReference && earlier[u.Reference].Kind != UnlockSignature {
		r.fail(joinField(path, "reference"), "unlock %d is not a signature unlock", u.Reference)
	}
}

func readUnlock(r *reader, path string) Unlock {
	u := Unlock{Kind: UnlockKind(r.u8(joinField(path, "type")))}
	switch {
	case r.err != nil:
	case u.Kind == UnlockSignature:
		readEd25519(r, joinField(path, "signature"), &u.PublicKey, &u.Signature)
	case u.Kind <= UnlockNFT:
		u.Reference = r.u16(joinField(path, "reference"))
	default:
		r.fail(joinField(path, "type"), "unknown unlock type %d", uint8(u.Kind))
	}
	return u
}

// readEd25519 reads a signature block: type byte 0, public key, signature.
func readEd25519(r *reader, path string, key *[32]byte, sig *[64]byte) {
	if t := r.u8(joinField(path, "type")); r.err == nil && t != SignatureEd25519 {
		r.fail(joinField(path, "type"), "unknown signature type %d", t)
	}
	r.fill(joinField(path, "publicKey"), key[:])
	r.fill(joinField(path, "signature"), sig[:])
}

// NetworkIDFromName derives a network ID the way Stardust does: the first eight bytes
// (little-endian) of the BLAKE2b-256 hash of the network name.
func NetworkIDFromName(name string) uint64 {
	sum := blake2b.Sum256([]byte(name))
	return binary.LittleEndian.Uint64(sum[:8])
}
