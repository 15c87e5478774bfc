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

const (
	inputUTXO       uint8 = 0
	signatureEd2559 uint8 = 0
)

// Encode serializes the transaction payload (type prefix included).
func (tx *Transaction) Encode() []byte {
	w := &writer{}
	writeTransaction(w, tx)
	return w.buf
}

// ID is the BLAKE2b-256 hash of Encode().
func (tx *Transaction) ID() TransactionID { return blake2b.Sum256(tx.Encode()) }

// EncodeInput serializes an input as a standalone, versioned blob.
func EncodeInput(in Input) []byte {
	w := &writer{buf: []byte{blobVersion}}
	writeInput(w, in)
	return w.buf
}

// DecodeInput parses a blob made by EncodeInput.
func DecodeInput(b []byte) (Input, error) {
	r := &reader{buf: b}
	r.blobHeader()
	in := readInput(r, "")
	return in, r.finish("input")
}

// EncodeUnlock serializes an unlock as a standalone, versioned blob.
func EncodeUnlock(u Unlock) []byte {
	w := &writer{buf: []byte{blobVersion}}
	writeUnlock(w, u)
	return w.buf
}

// DecodeUnlock parses a blob made by EncodeUnlock.
func DecodeUnlock(b []byte) (Unlock, error) {
	r := &reader{buf: b}
	r.blobHeader()
	u := readUnlock(r, "")
	return u, r.finish("unlock")
}

func writeTransaction(w *writer, tx *Transaction) {
	w.u32(payloadTransaction)
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
	writeNested(w, tx.Payload)
	w.u16(uint16(len(tx.Unlocks)))
	for _, u := range tx.Unlocks {
		writeUnlock(w, u)
	}
}

// writeNested writes an optional tagged-data payload behind a length.
func writeNested(w *writer, td *TaggedData) {
	if td == nil {
		w.u32(0)
		return
	}
	sub := &writer{}
	writeTaggedData(sub, td)
	w.u32(uint32(len(sub.buf)))
	w.bytes(sub.buf)
}

func writeInput(w *writer, in Input) {
	w.u8(inputUTXO)
	w.bytes(in.TransactionID[:])
	w.u16(in.Index)
}

func writeUnlock(w *writer, u Unlock) {
	w.u8(uint8(u.Kind))
	if u.Kind == UnlockSignature {
		w.u8(signatureEd2559)
		w.bytes(u.PublicKey[:])
		w.bytes(u.Signature[:])
		return
	}
	w.u16(u.Reference)
}

// readTransaction reads what follows the payload type code.
func readTransaction(r *reader, path string) *Transaction {
	tx := &Transaction{NetworkID: r.u64(joinField(path, "networkId"))}
	tx.Inputs = readInputs(r, joinField(path, "inputs"))
	r.fill(joinField(path, "inputsCommitment"), tx.InputsCommitment[:])
	tx.Outputs = readOutputs(r, joinField(path, "outputs"))
	tx.Payload = readNestedTaggedData(r, joinField(path, "payload"))
	tx.Unlocks = readUnlocks(r, joinField(path, "unlocks"), len(tx.Inputs))
	return tx
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
	if kind := r.u8(joinField(path, "type")); r.err == nil && kind != inputUTXO {
		r.fail(joinField(path, "type"), "unknown input type %d", kind)
	}
	var in Input
	r.fill(joinField(path, "transactionId"), in.TransactionID[:])
	in.Index = r.u16(joinField(path, "index"))
	if r.err == nil && in.Index >= MaxOutputs {
		r.fail(joinField(path, "index"), "output index %d >= %d", in.Index, MaxOutputs)
	}
	return in
}

func readOutputs(r *reader, path string) []Output {
	n := readCount(r, path, MaxOutputs)
	outputs := make([]Output, 0, n)
	var sum uint64
	for i := 0; i < n && r.err == nil; i++ {
		o := readOutput(r, indexed(path, i))
		if r.err == nil && o.Amount > math.MaxUint64-sum {
			r.fail(joinField(indexed(path, i), "amount"), "amount overflow: outputs sum exceeds uint64")
		}
		sum += o.Amount
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
		checkReference(r, indexed(path, i), i, u, unlocks)
		unlocks = append(unlocks, u)
	}
	return unlocks
}

// checkReference enforces that reference-style unlocks point backwards, and
// reference unlocks at a signature (TIP-20).
func checkReference(r *reader, path string, i int, u Unlock, earlier []Unlock) {
	if r.err != nil || u.Kind == UnlockSignature {
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
	u := Unlock{Kind: UnlockKind(r.u8(joinField(path, "kind")))}
	switch {
	case r.err != nil:
	case u.Kind == UnlockSignature:
		if t := r.u8(joinField(path, "signatureType")); r.err == nil && t != signatureEd2559 {
			r.fail(joinField(path, "signatureType"), "unknown signature type %d", t)
		}
		r.fill(joinField(path, "publicKey"), u.PublicKey[:])
		r.fill(joinField(path, "signature"), u.Signature[:])
	case u.Kind <= UnlockNFT:
		u.Reference = r.u16(joinField(path, "reference"))
	default:
		r.fail(joinField(path, "kind"), "unknown unlock kind %d", uint8(u.Kind))
	}
	return u
}

// NetworkIDFromName derives a network ID the way Stardust does: the first
// eight bytes (little-endian) of the BLAKE2b-256 hash of the network name.
func NetworkIDFromName(name string) uint64 {
	sum := blake2b.Sum256([]byte(name))
	return binary.LittleEndian.Uint64(sum[:8])
}
