package chain_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Fuzz targets for everything that turns source bytes or text into chain values. The
// seed corpora in testdata/fuzz/<FuzzName>/ hold real Shimmer encodings, the fixtures,
// and broken variants of them (see fuzz_corpus_test.go); they run with plain
// `go test ./chain/`. Regenerate them with:
//
//go:generate go test -run TestWriteFuzzCorpus . -args -write-fuzz-corpus
//
// Fuzz one target with `go test -run '^$' -fuzz '^FuzzDecodeMessage$' -fuzztime 60s ./chain/`.
//
// The properties: nothing panics; whatever decodes re-encodes to exactly the same
// bytes (one encoding per value, so one ID per message); every rejection is a clear
// error (see clearDecodeError and clearParseError).

// maxErrorLen bounds an error message: a huge bogus input must not make a huge log line.
const maxErrorLen = 512

// clearDecodeError fails unless err is a *ValidationError naming a field and a reason,
// in a message of bounded length.
func clearDecodeError(t *testing.T, err error) {
	t.Helper()
	var ve *chain.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error is %T (%v), want *ValidationError", err, err)
	}
	msg := err.Error()
	switch {
	case ve.Field == "" || ve.Reason == "":
		t.Fatalf("error without field or reason: %q", msg)
	case !strings.HasPrefix(msg, "chain: invalid "):
		t.Fatalf("error %q: want the prefix \"chain: invalid \"", msg)
	case len(msg) > maxErrorLen:
		t.Fatalf("error of %d bytes: %.200q...", len(msg), msg)
	}
}

// clearParseError fails unless err wraps sentinel and is short and printable whatever
// the input was.
func clearParseError(t *testing.T, err, sentinel error, what string) {
	t.Helper()
	msg := err.Error()
	switch {
	case !errors.Is(err, sentinel):
		t.Fatalf("error %q does not wrap %v", msg, sentinel)
	case !strings.Contains(msg, what):
		t.Fatalf("error %q does not say %q", msg, what)
	case len(msg) > maxErrorLen:
		t.Fatalf("error of %d bytes: %.200q...", len(msg), msg)
	case !utf8.ValidString(msg):
		t.Fatalf("error is not valid UTF-8: %q", msg)
	}
}

// FuzzDecodeMessage: decoding never panics, the codec is canonical (whatever decodes
// re-encodes to the same bytes, so a message ID cannot have two encodings),
// ValidateMessage agrees with the decoder, and every rejection names the field.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range fixtureMessages() {
		f.Add(chain.EncodeMessage(m))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := chain.DecodeMessage(raw)
		verr := chain.ValidateMessage(nil, raw)
		if err != nil {
			clearDecodeError(t, err)
			if verr == nil {
				t.Fatalf("ValidateMessage accepts what DecodeMessage refuses (%v)", err)
			}
			return
		}
		if again := chain.EncodeMessage(m); !bytes.Equal(again, raw) {
			t.Fatalf("not canonical:\n in  %x\n out %x", raw, again)
		}
		if m.ID() != chain.MessageIDOf(raw) {
			t.Fatal("ID of the decoded message differs from the hash of its bytes")
		}
		if verr != nil || chain.ValidateMessage(m, raw) != nil {
			t.Fatalf("ValidateMessage refuses a decodable message: %v", verr)
		}
		checkDecodedParts(t, m)
	})
}

// checkDecodedParts: the parts of a decoded message decode alone, byte for byte.
func checkDecodedParts(t *testing.T, m *chain.Message) {
	t.Helper()
	if tx := m.TransactionOf(); tx != nil {
		for _, o := range tx.Outputs {
			raw := chain.EncodeOutput(o)
			if back, err := chain.DecodeOutput(raw); err != nil || !bytes.Equal(chain.EncodeOutput(back), raw) {
				t.Fatalf("an output of a decoded transaction does not round-trip alone: %v", err)
			}
		}
		for _, u := range tx.Unlocks {
			if back, err := chain.DecodeUnlock(chain.EncodeUnlock(u)); err != nil || back != u {
				t.Fatalf("an unlock of a decoded transaction does not round-trip alone: %v", err)
			}
		}
	}
	if mp := m.MilestoneOf(); mp != nil {
		if back, err := chain.DecodeMilestonePayload(mp.Encode()); err != nil || back.ID() != mp.ID() {
			t.Fatalf("the milestone of a decoded message does not decode alone: %v", err)
		}
	}
}

// FuzzDecodeOutput: the same properties for outputs stored alone (Stardust or legacy).
func FuzzDecodeOutput(f *testing.F) {
	fuzzCanonical(f, append(fixtureOutputs(), fixtureLegacyOutputs()...), chain.EncodeOutput, chain.DecodeOutput)
}

// FuzzDecodeInput and FuzzDecodeUnlock cover the transactions table's blobs.
func FuzzDecodeInput(f *testing.F) {
	fuzzCanonical(f, fixtureTransaction().Inputs, chain.EncodeInput, chain.DecodeInput)
}

func FuzzDecodeUnlock(f *testing.F) {
	fuzzCanonical(f, fixtureTransaction().Unlocks, chain.EncodeUnlock, chain.DecodeUnlock)
}

// fuzzCanonical seeds f with the encodings of seeds; whatever decodes must re-encode to
// the same bytes, and whatever does not must fail with a clean decode error.
func fuzzCanonical[T any](f *testing.F, seeds []T, encode func(T) []byte, decode func([]byte) (T, error)) {
	for _, v := range seeds {
		f.Add(encode(v))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := decode(raw)
		if err != nil {
			clearDecodeError(t, err)
			return
		}
		if !bytes.Equal(encode(v), raw) {
			t.Fatalf("not canonical: %x", raw)
		}
	})
}

// FuzzDecodeMilestonePayload: canonical, the ID is the hash of the essence as it sits
// in the payload, and verifying the signatures never panics.
func FuzzDecodeMilestonePayload(f *testing.F) {
	f.Add(fixtureMilestonePayload().Encode())
	f.Fuzz(func(t *testing.T, raw []byte) {
		mp, err := chain.DecodeMilestonePayload(raw)
		if err != nil {
			clearDecodeError(t, err)
			return
		}
		if !bytes.Equal(mp.Encode(), raw) {
			t.Fatalf("not canonical: %x", raw)
		}
		essence := mp.Essence()
		if !bytes.Equal(raw[4:4+len(essence)], essence) || mp.ID() != chain.MilestoneID(chain.MessageIDOf(essence)) {
			t.Fatal("the essence is not the payload's bytes after the type, or the ID not their hash")
		}
		if err := fixtureKeys().Verify(mp); err != nil {
			clearDecodeError(t, err)
			if !errors.Is(err, chain.ErrMilestoneSignature) {
				t.Fatalf("verification error %v does not wrap ErrMilestoneSignature", err)
			}
		}
	})
}
