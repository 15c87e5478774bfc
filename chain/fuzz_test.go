package chain

import (
	"bytes"
	"testing"
)

// FuzzDecodeMessage checks that decoding never panics and that the codec
// is canonical: whatever decodes re-encodes to exactly the same bytes, so
// a message ID cannot have two encodings.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range fixtureMessages() {
		f.Add(EncodeMessage(m))
	}
	f.Add([]byte{})
	f.Add([]byte{ProtocolVersion, 1})
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := DecodeMessage(raw)
		if err != nil {
			if _, ok := err.(*ValidationError); !ok {
				t.Fatalf("error is %T, want *ValidationError", err)
			}
			return
		}
		if again := EncodeMessage(m); !bytes.Equal(again, raw) {
			t.Fatalf("not canonical:\n in  %x\n out %x", raw, again)
		}
	})
}

// FuzzDecodeOutput applies the same canonical-form property to output blobs.
func FuzzDecodeOutput(f *testing.F) {
	for _, o := range fixtureOutputs() {
		f.Add(EncodeOutput(o))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		o, err := DecodeOutput(raw)
		if err == nil && !bytes.Equal(EncodeOutput(o), raw) {
			t.Fatalf("not canonical: %x", raw)
		}
	})
}
