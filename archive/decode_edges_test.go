package archive

import (
	"encoding/binary"
	"testing"
)

// A window of 1 is kept; below 1 the default applies.
func TestWindowOfOneKept(t *testing.T) {
	if got := (Limits{Window: 1}).withDefaults().Window; got != 1 {
		t.Fatalf("window 1 became %d", got)
	}
	if got := (Limits{}).withDefaults().Window; got != DefaultWindow {
		t.Fatalf("window 0 became %d, want the default %d", got, DefaultWindow)
	}
}

// A field may take every byte left of the record, and no more.
func TestBodyTakesEveryByteLeft(t *testing.T) {
	r := &body{b: []byte{1, 2, 3}}
	if got := r.take(3); len(got) != 3 || r.err != nil {
		t.Fatalf("take(3) of 3 bytes: %v, %v", got, r.err)
	}
	r = &body{b: []byte{1, 2}}
	if r.take(3); r.err == nil {
		t.Fatal("take(3) of 2 bytes succeeded")
	}
	r = &body{b: binary.LittleEndian.AppendUint32(nil, 2)}
	r.b = append(r.b, 7, 8)
	if got := r.bytes(); len(got) != 2 || r.err != nil {
		t.Fatalf("a 2-byte field that ends the record: %v, %v", got, r.err)
	}
}

// A count of items that exactly fill the bytes left is read; one more is refused.
func TestCountThatFillsTheRecord(t *testing.T) {
	r := &body{b: append(binary.LittleEndian.AppendUint32(nil, 2), make([]byte, 2*minMessage)...)}
	if n := r.count("messages", minMessage); n != 2 || r.err != nil {
		t.Fatalf("2 messages in %d bytes: %d, %v", 2*minMessage, n, r.err)
	}
	r = &body{b: append(binary.LittleEndian.AppendUint32(nil, 3), make([]byte, 2*minMessage)...)}
	if n := r.count("messages", minMessage); n != 0 || r.err == nil {
		t.Fatalf("3 messages in %d bytes: %d, %v; want refused", 2*minMessage, n, r.err)
	}
}

// A field of zero bytes is read as empty, not as a record that ends early.
func TestBodyEmptyField(t *testing.T) {
	r := &body{b: binary.LittleEndian.AppendUint32(nil, 0)}
	if got := r.bytes(); got == nil || len(got) != 0 || r.err != nil {
		t.Fatalf("a field of 0 bytes: %v, %v", got, r.err)
	}
}
