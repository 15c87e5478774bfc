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

// errOnly turns a decoder into one that returns just its error.
func errOnly[T any](decode func([]byte) (T, error)) func([]byte) error {
	return func(b []byte) error {
		_, err := decode(b)
		return err
	}
}

var (
	decodeErr          = errOnly(chain.DecodeMessage)
	decodeOutputErr    = errOnly(chain.DecodeOutput)
	decodeMilestoneErr = errOnly(chain.DecodeMilestonePayload)
	decodeUnlockErr    = errOnly(chain.DecodeUnlock)
	decodeInputErr     = errOnly(chain.DecodeInput)
)

// fieldCase breaks a valid T with mod; the check must then refuse field for reason.
type fieldCase[T any] struct {
	name, field, reason string
	mod                 func(v T)
}

// fieldCaseRunner returns a runner of cases: each breaks a fresh valid value, and check
// must refuse it on the case's field for its reason.
func fieldCaseRunner[T any](fresh func() T, check func(T) error) func(t *testing.T, cases []fieldCase[T]) {
	return func(t *testing.T, cases []fieldCase[T]) {
		t.Helper()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				v := fresh()
				c.mod(v)
				wantField(t, check(v), c.field, c.reason)
			})
		}
	}
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
