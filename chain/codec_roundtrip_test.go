package chain_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Encode, decode, encode again: the bytes must not change, whatever the value.

func TestMessageRoundTrip(t *testing.T) {
	for i, m := range fixtureMessages() {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			raw, back := roundTrip(t, m, chain.EncodeMessage, chain.DecodeMessage)
			if !bytes.Equal(m.Encode(), raw) || back.ID() != chain.MessageIDOf(raw) || m.ID() != back.ID() {
				t.Fatal("Encode/ID disagree with EncodeMessage/MessageIDOf")
			}
		})
	}
}

func TestOutputRoundTrip(t *testing.T) {
	for i, o := range append(fixtureOutputs(), fixtureLegacyOutputs()...) {
		t.Run(fmt.Sprintf("%d-%s", i, o.Kind), func(t *testing.T) {
			_, back := roundTrip(t, o, chain.EncodeOutput, chain.DecodeOutput)
			if back.Kind != o.Kind || back.Amount != o.Amount || back.LegacyType != o.LegacyType {
				t.Fatalf("kind/amount/legacy type: %v %d %d", back.Kind, back.Amount, back.LegacyType)
			}
		})
	}
}

// roundTrip encodes v, decodes the bytes and encodes the result again; the test fails
// unless that decodes and gives the same bytes. It returns the bytes and the decoded value.
func roundTrip[T any](t *testing.T, v T, encode func(T) []byte, decode func([]byte) (T, error)) ([]byte, T) {
	t.Helper()
	raw := encode(v)
	back, err := decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if again := encode(back); !bytes.Equal(again, raw) {
		t.Fatalf("re-encoding differs:\n%x\n%x", raw, again)
	}
	return raw, back
}

func TestInputAndUnlockRoundTrip(t *testing.T) {
	tx := fixtureTransaction()
	for _, in := range tx.Inputs {
		raw := chain.EncodeInput(in)
		back, err := chain.DecodeInput(raw)
		if err != nil || back != in || len(raw) != 35 {
			t.Fatalf("input %+v: %d bytes, back %+v, %v", in, len(raw), back, err)
		}
	}
	sizes := map[chain.UnlockKind]int{chain.UnlockSignature: 98, chain.UnlockReference: 3, chain.UnlockAlias: 3, chain.UnlockNFT: 3}
	for _, u := range tx.Unlocks {
		raw := chain.EncodeUnlock(u)
		back, err := chain.DecodeUnlock(raw)
		if err != nil || back != u || len(raw) != sizes[u.Kind] {
			t.Fatalf("unlock %v: %d bytes, back %+v, %v", u.Kind, len(raw), back, err)
		}
	}
}

func TestMilestonePayloadRoundTrip(t *testing.T) {
	mp := fixtureMilestonePayload()
	raw := mp.Encode()
	back, err := chain.DecodeMilestonePayload(raw)
	if err != nil {
		t.Fatal(err)
	}
	if again := back.Encode(); !bytes.Equal(again, raw) {
		t.Fatalf("re-encoding differs:\n%x\n%x", raw, again)
	}
	if !bytes.Equal(raw[:4], []byte{7, 0, 0, 0}) || !bytes.Equal(raw[4:4+len(mp.Essence())], mp.Essence()) {
		t.Fatal("payload must be type 7 then the essence")
	}
	if back.ID() != mp.ID() || len(back.Signatures) != 3 {
		t.Fatalf("id %s / %s, %d signatures", back.ID(), mp.ID(), len(back.Signatures))
	}
	if rc := back.Receipt; rc.MigratedAt != 8 || !rc.Final || rc.Transaction != mp.Receipt.Transaction ||
		!slices.Equal(rc.Funds, mp.Receipt.Funds) {
		t.Fatalf("receipt: %+v", rc)
	}
	if p := back.ProtocolParams; p.TargetMilestoneIndex != 39 || !bytes.Equal(p.Params, mp.ProtocolParams.Params) {
		t.Fatalf("protocol params option: %+v", p)
	}
}

func TestMilestonePayloadWithoutOptions(t *testing.T) {
	mp := &chain.MilestonePayload{Index: 1, Timestamp: 1, ProtocolVersion: chain.ProtocolVersion, Parents: []chain.MessageID{{1}}}
	mp.Sign(fixtureKey(1))
	raw := mp.Encode()
	// type 4 + index 4 + timestamp 4 + version 1 + previous 32 + parents 1+32 + roots 64 +
	// metadata 2 + options 1 + signatures 1+97.
	if len(raw) != 4+4+4+1+32+33+64+2+1+98 {
		t.Fatalf("%d bytes", len(raw))
	}
	back, err := chain.DecodeMilestonePayload(raw)
	if err != nil || back.Receipt != nil || back.ProtocolParams != nil || back.Metadata != nil {
		t.Fatalf("%+v, %v", back, err)
	}
}

func TestProtocolParametersRoundTrip(t *testing.T) {
	p := chain.Shimmer().Params
	raw := chain.EncodeProtocolParameters(p)
	back, err := chain.DecodeProtocolParameters(raw)
	if err != nil || back != p {
		t.Fatalf("%+v, %v", back, err)
	}
	if again := chain.EncodeProtocolParameters(back); !bytes.Equal(again, raw) {
		t.Fatal("re-encoding differs")
	}
	// version 1, name 1+7, hrp 1+3, pow 4, depth 1, rent 4+1+1, supply 8.
	if len(raw) != 1+8+4+4+1+6+8 {
		t.Fatalf("%d bytes", len(raw))
	}
	wantField(t, decodeParamsErr(append(clone(raw), 0)), "params", "trailing bytes")
	wantField(t, decodeParamsErr(raw[:len(raw)-1]), "params.tokenSupply", "truncated")
	empty := clone(raw)
	empty[1] = 0
	wantField(t, decodeParamsErr(empty), "params.networkName", "too short")
}

func decodeParamsErr(b []byte) error {
	_, err := chain.DecodeProtocolParameters(b)
	return err
}
