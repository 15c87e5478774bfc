package tip25

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The section-10 block of stardust-wire.md: milestone 17339's cone, white-flag index 3.
const exampleBlockID = "0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d"

// exampleDocJSON is the block's JSON as the reference prints it, hex shortened with "…".
const exampleDocJSON = `{"protocolVersion":2,"parents":["0x1880…85ab","0x3938…f4f1","0x874e…8c1d","0xec79…c70f"],
"payload":{"type":6,"essence":{"type":1,"networkId":"14364762045254553490","inputs":[{"type":0,
"transactionId":"0xe36d01…00","transactionOutputIndex":0}],"inputsCommitment":"0xd15f…2c31","outputs":
[{"type":3,"amount":"93312000000","unlockConditions":[{"type":0,"address":{"type":0,"pubKeyHash":
"0x663e…15a9"}}]}]},"unlocks":[{"type":0,"signature":{"type":0,"publicKey":"0x748f…0012","signature":
"0xda55…180f"}}]},"nonce":"4611686018427513897"}`

func exampleRaw(t *testing.T) []byte {
	t.Helper()
	for _, b := range realMilestones(t)[0].Cone {
		if b.WhiteFlagIndex == 3 {
			if got := chain.MessageIDOf(b.Raw).String(); got != exampleBlockID {
				t.Fatalf("white-flag index 3 of 17339 is %s, want %s", got, exampleBlockID)
			}
			return b.Raw
		}
	}
	t.Fatal("no block at white-flag index 3")
	return nil
}

// exampleWant builds the full expected JSON from the block bytes at the reference's
// offsets, independently of the codec.
func exampleWant(t *testing.T, raw []byte) any {
	if len(raw) != 376 || raw[1] != 4 || !bytes.Equal(raw[130:138], []byte{0xea, 0, 0, 0, 6, 0, 0, 0}) ||
		raw[218] != 3 || raw[228] != 1 || raw[263] != 0 || !bytes.Equal(raw[264:272], []byte{0, 0, 0, 0, 1, 0, 0, 0}) {
		t.Fatalf("block bytes do not have the reference's layout")
	}
	h := func(from, to int) string { return "0x" + hex.EncodeToString(raw[from:to]) }
	dec := func(from int) string { return strconv.FormatUint(binary.LittleEndian.Uint64(raw[from:from+8]), 10) }
	address := map[string]any{"type": 0.0, "pubKeyHash": h(231, 263)}
	output := map[string]any{"type": 3.0, "amount": dec(219),
		"unlockConditions": []any{map[string]any{"type": 0.0, "address": address}}}
	input := map[string]any{"type": 0.0, "transactionId": h(150, 182),
		"transactionOutputIndex": float64(binary.LittleEndian.Uint16(raw[182:184]))}
	essence := map[string]any{"type": float64(raw[138]), "networkId": dec(139), "inputs": []any{input},
		"inputsCommitment": h(184, 216), "outputs": []any{output}}
	unlock := map[string]any{"type": 0.0, "signature": map[string]any{"type": 0.0, "publicKey": h(272, 304), "signature": h(304, 368)}}
	return map[string]any{"protocolVersion": float64(raw[0]),
		"parents": []any{h(2, 34), h(34, 66), h(66, 98), h(98, 130)},
		"payload": map[string]any{"type": 6.0, "essence": essence, "unlocks": []any{unlock}},
		"nonce":   dec(368)}
}

func TestWorkedExampleJSON(t *testing.T) {
	raw := exampleRaw(t)
	js := blockJSON(t, raw)
	got := generic(t, js)
	for _, d := range jsonDiff("block", got, exampleWant(t, raw)) {
		t.Error(d)
	}
	for _, d := range shortenedDiff("block", got, generic(t, []byte(exampleDocJSON))) {
		t.Errorf("against the reference's printed JSON: %s", d)
	}
	back, err := DecodeBlock(js)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Encode(), raw) {
		t.Error("JSON -> DecodeBlock -> Encode does not give the block bytes")
	}
}

// shortenedDiff is jsonDiff where a wanted string "0xabcd…ef01" matches any string with
// that start and end.
func shortenedDiff(path string, got, want any) []string {
	if w, ok := want.(string); ok && strings.Contains(w, "…") {
		g, _ := got.(string)
		head, tail, _ := strings.Cut(w, "…")
		if !strings.HasPrefix(g, head) || !strings.HasSuffix(g, tail) || len(g) < len(head)+len(tail) {
			return []string{path + ": got " + g + ", want " + w}
		}
		return nil
	}
	gm, gok := got.(map[string]any)
	wm, wok := want.(map[string]any)
	if gok && wok && len(gm) == len(wm) {
		var out []string
		for k, w := range wm {
			out = append(out, shortenedDiff(path+"."+k, gm[k], w)...)
		}
		return out
	}
	ga, gok := got.([]any)
	wa, wok := want.([]any)
	if gok && wok && len(ga) == len(wa) {
		var out []string
		for i := range wa {
			out = append(out, shortenedDiff(path+"["+strconv.Itoa(i)+"]", ga[i], wa[i])...)
		}
		return out
	}
	return jsonDiff(path, got, want)
}
