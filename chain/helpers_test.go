package chain_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Helpers shared by the tests of this package.

func ptr[T any](v T) *T { return &v }

// mustHex decodes hex (spaces allowed between groups) or panics: test vectors only.
func mustHex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// hex32 decodes a 32-byte hex string.
func hex32(s string) [32]byte {
	var a [32]byte
	if b := mustHex(s); len(b) != 32 || copy(a[:], b) != 32 {
		panic("hex32: want 32 bytes: " + s)
	}
	return a
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

func decodeErr(b []byte) error {
	_, err := chain.DecodeMessage(b)
	return err
}

func decodeOutputErr(b []byte) error {
	_, err := chain.DecodeOutput(b)
	return err
}

func decodeMilestoneErr(b []byte) error {
	_, err := chain.DecodeMilestonePayload(b)
	return err
}

// wantField fails unless err is a *ValidationError on exactly field whose reason
// contains reason.
func wantField(t *testing.T, err error, field, reason string) {
	t.Helper()
	var ve *chain.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want ValidationError on %s (%q), got %v", field, reason, err)
	}
	if ve.Field != field || !strings.Contains(ve.Reason, reason) {
		t.Fatalf("got %s: %s; want field %s reason containing %q", ve.Field, ve.Reason, field, reason)
	}
}

// noPanic runs f and turns a panic into a test failure, so one bug does not hide the
// results of every other test.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panicked: %v", what, r)
		}
	}()
	f()
}
