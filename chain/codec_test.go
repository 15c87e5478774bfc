package chain

import (
	"bytes"
	"errors"
	"testing"
)

func TestMessageRoundTrip(t *testing.T) {
	for i, m := range fixtureMessages() {
		raw := EncodeMessage(m)
		back, err := DecodeMessage(raw)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if again := EncodeMessage(back); !bytes.Equal(again, raw) {
			t.Fatalf("message %d: re-encoding differs", i)
		}
		if back.ID() != m.ID() || m.ID() != MessageIDOf(raw) {
			t.Fatalf("message %d: ids differ", i)
		}
	}
}

func TestDecodedFieldsSurvive(t *testing.T) {
	m := fixtureMessages()[2]
	back, err := DecodeMessage(EncodeMessage(m))
	if err != nil {
		t.Fatal(err)
	}
	tx := back.TransactionOf()
	if tx == nil || tx.ID() != m.TransactionOf().ID() {
		t.Fatal("transaction lost")
	}
	basic := tx.Outputs[1]
	if string(basic.Tag) != "shop" || basic.StorageDepositReturn.Amount != 100 ||
		*basic.Timelock != 1_700_000_000 || basic.Expiration.UnixTime != 1_800_000_000 ||
		basic.NativeTokens[1].Amount.BitLen() != 256 || *basic.Sender != fixtureAddr(5) {
		t.Fatalf("basic output fields: %+v", basic)
	}
	alias := tx.Outputs[2]
	if *alias.Address != *alias.StateController || *alias.Governor != fixtureAddr(7) || alias.StateIndex != 3 {
		t.Fatalf("alias fields: %+v", alias)
	}
	foundry := tx.Outputs[3]
	if foundry.FoundryID != NewFoundryID(AliasID{0xa1}, 2, 0) || foundry.TokenScheme.Minted.Int64() != 1000 {
		t.Fatalf("foundry fields: %+v", foundry)
	}
	if tx.Unlocks[3].Kind != UnlockNFT || tx.Unlocks[3].Reference != 2 || string(back.Tag()) != "inner" {
		t.Fatal("unlocks or nested tag lost")
	}
}

func TestTransactionIDDependsOnContent(t *testing.T) {
	a, b := fixtureTransaction(), fixtureTransaction()
	if a.ID() != b.ID() {
		t.Fatal("equal transactions hash differently")
	}
	b.Outputs[0].Amount++
	if a.ID() == b.ID() {
		t.Fatal("transaction id ignores outputs")
	}
}

func TestBlobRoundTrips(t *testing.T) {
	for i, o := range fixtureOutputs() {
		raw := EncodeOutput(o)
		back, err := DecodeOutput(raw)
		if err != nil || !bytes.Equal(EncodeOutput(back), raw) {
			t.Fatalf("output %d: %v", i, err)
		}
	}
	for _, u := range fixtureTransaction().Unlocks {
		back, err := DecodeUnlock(EncodeUnlock(u))
		if err != nil || back != u {
			t.Fatalf("unlock %+v: %v", u, err)
		}
	}
	in := Input{TransactionID: TransactionID{4}, Index: 9}
	if back, err := DecodeInput(EncodeInput(in)); err != nil || back != in {
		t.Fatalf("input: %v %v", back, err)
	}
	raw := EncodeOutput(fixtureOutputs()[0])
	raw[0] = 9
	wantField(t, decodeOutputErr(raw), "version", "unsupported")
}

func decodeOutputErr(b []byte) error {
	_, err := DecodeOutput(b)
	return err
}

// Every strict prefix of a valid encoding must fail as truncated, and any
// extra byte must fail as trailing.
func TestTruncationAndTrailingBytes(t *testing.T) {
	for i, m := range fixtureMessages() {
		raw := EncodeMessage(m)
		for n := 0; n < len(raw); n++ {
			_, err := DecodeMessage(raw[:n])
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("message %d cut at %d/%d: err = %v", i, n, len(raw), err)
			}
		}
		wantField(t, decodeErr(append(raw, 0)), "message", "trailing bytes")
	}
	out := EncodeOutput(fixtureOutputs()[1])
	for n := 0; n < len(out); n++ {
		if _, err := DecodeOutput(out[:n]); err == nil {
			t.Fatalf("output cut at %d decoded", n)
		}
	}
	wantField(t, decodeOutputErr(append(out, 1)), "output", "trailing bytes")
}

func decodeErr(b []byte) error {
	_, err := DecodeMessage(b)
	return err
}

func wantField(t *testing.T, err error, field, reason string) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want ValidationError on %s, got %v", field, err)
	}
	if ve.Field != field || !bytes.Contains([]byte(ve.Reason), []byte(reason)) {
		t.Fatalf("got %s: %s; want field %s reason containing %q", ve.Field, ve.Reason, field, reason)
	}
}
