package snapshot_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// A file cut at any byte is refused with ErrTruncated at the cut: the offset where the file
// ends.
func TestTruncatedAnywhere(t *testing.T) {
	for name, data := range allFiles(t) {
		t.Run(name, func(t *testing.T) {
			for n := range len(data) {
				_, err := snapshottest.ReadAll(data[:n])
				wantFormatError(t, err, snapshot.ErrTruncated, int64(n))
			}
		})
	}
}

// One byte more is refused by Finish, at the file's size.
func TestTrailingData(t *testing.T) {
	for name, data := range allFiles(t) {
		t.Run(name, func(t *testing.T) {
			_, err := snapshottest.ReadAll(append(bytes.Clone(data), 0))
			fe := wantFormatError(t, err, snapshot.ErrTrailingData, int64(len(data)))
			if want := fmt.Sprintf("snapshot: offset %d (end of file): data after the last SEP", len(data)); fe.Error() != want {
				t.Fatalf("message %q, want %q", fe.Error(), want)
			}
		})
	}
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// layout gives the offsets of a file's parts, as the reader found them.
type layout struct {
	headerEnd int64
	outputs   []int64 // each output's first byte
	diffs     []int64 // each diff's first byte
	seps      int64
}

func layoutOf(t *testing.T, data []byte) layout {
	t.Helper()
	r, err := snapshot.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	l := layout{headerEnd: r.Offset()}
	for at := r.Offset(); ; at = r.Offset() {
		if _, err := r.NextOutput(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		l.outputs = append(l.outputs, at)
	}
	for at := r.Offset(); ; at = r.Offset() {
		if _, err := r.NextDiff(); err == io.EOF {
			l.seps = at
			break
		} else if err != nil {
			t.Fatal(err)
		}
		l.diffs = append(l.diffs, at)
	}
	return l
}

func diffLength(data []byte, at int64) uint32 { return binary.LittleEndian.Uint32(data[at:]) }
func payloadLength(data []byte, at int64) int64 {
	return int64(binary.LittleEndian.Uint32(data[at+4:]))
}

// Header fields the reader refuses, with the offset of the field.
func TestHeaderRefusals(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin") // option at 92 (43 bytes), counts at 135
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	tests := []refusal{
		{"version 1", patched(full, 0, 1), snapshot.ErrVersion, 0},
		{"version 3", patched(delta, 0, 3), snapshot.ErrVersion, 0},
		{"type 2", patched(full, 1, 2), snapshot.ErrKind, 1},
		{"ledger below target", patched(full, 46, le32(0)...), snapshot.ErrMalformed, 46},
		{"option length below its head", patched(full, 90, 7, 0), snapshot.ErrMalformed, 90},
		{"option type 0", patched(full, 92, 0), snapshot.ErrMalformed, 92},
		{"parameters length", patched(full, 98, 36, 0), snapshot.ErrMalformed, 98},
		{"parameters undecodable", patched(full, 101, 200), snapshot.ErrMalformed, 100},
		{"too few diffs for ledger - target", patched(full, 143, le32(1)...), snapshot.ErrMalformed, 143},
		{"SEP offset inside the header", patched(delta, 42, le64(55)...), snapshot.ErrMalformed, 42},
		{"SEP offset past the SEPs' start", patched(delta, 42, le64(3913)...), snapshot.ErrMalformed, 42},
		{"SEP offset before the SEPs' start", patched(delta, 42, le64(3911)...), snapshot.ErrMalformed, 42},
	}
	wantRefusals(t, tests)
}

// Diffs the reader refuses: lengths that do not match, payloads, order, counts.
func TestDiffRefusals(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	d := layoutOf(t, full).diffs[0]
	n, ms := int64(diffLength(full, d)), payloadLength(full, d)
	created := d + 8 + ms // the created count
	last := layoutOf(t, delta).diffs[3]
	tests := []refusal{
		{"length one more", patched(full, int(d), le32(uint32(n+1))...), snapshot.ErrMalformed, d},
		// One less: the last field, the spending transaction ID, runs past the diff.
		{"length one less", patched(full, int(d), le32(uint32(n-1))...), snapshot.ErrMalformed, d + n - 32},
		{"length below the minimum", patched(full, int(d), le32(16)...), snapshot.ErrMalformed, d},
		{"payload length 0", patched(full, int(d+4), le32(0)...), snapshot.ErrMalformed, d + 4},
		{"payload length 32769", patched(full, int(d+4), le32(32769)...), snapshot.ErrMalformed, d + 4},
		{"payload not a milestone", patched(full, int(d+8), 6), snapshot.ErrMalformed, d + 8},
		{"full diffs not from the ledger index", patched(patched(full, 6, le32(2)...), 46, le32(4)...), snapshot.ErrOrder, d + 12},
		{"delta's last diff not its target", patched(delta, 2, le32(6)...), snapshot.ErrOrder, last + 12},
		{"created count past the diff", patched(full, int(created), le32(1<<20)...), snapshot.ErrMalformed, created},
		{"output length 0", patched(full, int(created+4+74), le32(0)...), snapshot.ErrMalformed, created + 4 + 74},
	}
	wantRefusals(t, tests)
}

// The codec's error about a milestone payload is kept as the cause.
func TestPayloadCause(t *testing.T) {
	full := hornetFile(t, "snapshot_full_snapshot.bin")
	d := layoutOf(t, full).diffs[0]
	_, err := snapshottest.ReadAll(patched(full, int(d+8+12), 1)) // type u32, index, timestamp, protocol version
	var ve *chain.ValidationError
	if !errors.As(err, &ve) || ve.Field != "milestone.protocolVersion" {
		t.Fatalf("error %v: want the codec's protocol version error", err)
	}
}

func TestOutputLengthCap(t *testing.T) {
	data := snapshottest.Testdata(t, snapshottest.RealFile)
	o := layoutOf(t, data).outputs[3]
	_, err := snapshottest.ReadAll(patched(data, int(o+74), le32(snapshot.MaxOutputLength+1)...))
	wantFormatError(t, err, snapshot.ErrMalformed, o+74)
}

// Ledger refuses output types other than 3-6 and bytes that do not decode, at the offset
// of the output's bytes.
func TestLedgerRefusals(t *testing.T) {
	data := snapshottest.Testdata(t, snapshottest.RealFile)
	at := layoutOf(t, data).outputs[0] + 78
	tests := []struct {
		name     string
		patch    []byte
		sentinel error
	}{
		{"legacy type 0", []byte{0}, snapshot.ErrOutputType},
		{"legacy type 1", []byte{1}, snapshot.ErrOutputType},
		{"treasury type 2", []byte{2}, snapshot.ErrOutputType},
		{"unknown type 7", []byte{7}, snapshot.ErrOutputType},
		{"amount 0", []byte{3, 0, 0, 0, 0, 0, 0, 0, 0}, snapshot.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := snapshottest.MustReadAll(t, patched(data, int(at), tt.patch...))
			_, err := c.Outputs[0].Ledger()
			fe := wantFormatError(t, err, tt.sentinel, at)
			if fe.Field != "output 0 bytes" {
				t.Fatalf("field %q", fe.Field)
			}
		})
	}
	o := &snapshot.Output{Raw: []byte{2}}
	if _, err := o.Ledger(); !errors.Is(err, snapshot.ErrOutputType) || err.Error() != "snapshot: output bytes: output type not allowed in a snapshot: type 2" {
		t.Fatalf("caller's output: %v", err)
	}
}

// Errors name the entry and field; the first error sticks.
func TestErrorMessageAndSticky(t *testing.T) {
	data := snapshottest.Testdata(t, snapshottest.RealFile)
	at := layoutOf(t, data).outputs[17] + 34 + 5 // five bytes into output 17's block ID
	r, err := snapshot.NewReader(bytes.NewReader(data[:at]))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.NextDiff()
	want := fmt.Sprintf("snapshot: offset %d (output 17 block ID): truncated: 5 of 32 bytes present", at)
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	if _, e := r.NextOutput(); e != err {
		t.Fatalf("NextOutput after the error: %v", e)
	}
	if _, e := r.NextSEP(); e != err {
		t.Fatalf("NextSEP after the error: %v", e)
	}
	if e := r.Finish(); e != err {
		t.Fatalf("Finish after the error: %v", e)
	}
}

// Fields inside a diff, by a cut: the receipt's treasury input, a consumed output's
// spending transaction.
func TestDiffErrorFields(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin")
	last := layoutOf(t, delta).diffs[3]
	treasury := last + 8 + payloadLength(delta, last)
	consumed := treasury + 40 + 4 + (78 + 46) + 4 // diff 3 has one created output
	tests := []struct {
		cut   int64
		field string
	}{
		{last + 2, "diff 3 length"},
		{treasury + 10, "diff 3 treasury input milestone ID"},
		{treasury + 33, "diff 3 treasury input amount"},
		{treasury + 41, "diff 3 created outputs count"},
		{consumed - 1, "diff 3 consumed outputs count"},
		{consumed + 78 + 46 + 3, "diff 3 consumed 0 spending transaction ID"},
	}
	for _, tt := range tests {
		_, err := snapshottest.ReadAll(delta[:tt.cut])
		if fe := wantFormatError(t, err, snapshot.ErrTruncated, tt.cut); fe.Field != tt.field {
			t.Errorf("cut at %d: field %q, want %q", tt.cut, fe.Field, tt.field)
		}
	}
}

// refusal is a file the reader refuses with the sentinel at the offset.
type refusal struct {
	name     string
	data     []byte
	sentinel error
	offset   int64
}

// wantRefusals reads each file to its end and checks its refusal.
func wantRefusals(t *testing.T, tests []refusal) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := snapshottest.ReadAll(tt.data)
			wantFormatError(t, err, tt.sentinel, tt.offset)
		})
	}
}

// A delta file whose diffs skip a milestone is refused at the index of the diff after the
// skip, naming both milestones: its ledger would miss the skipped milestone's changes.
func TestDeltaSkippingAMilestone(t *testing.T) {
	delta := hornetFile(t, "snapshot_delta_snapshot.bin") // diffs of milestones 2, 3, 4, 5
	l := layoutOf(t, delta)
	second, third := l.diffs[1], l.diffs[2]
	// Diff 1 dropped: 2, 4, 5. The header's diff count and SEP offset follow the bytes.
	dropped := append(bytes.Clone(delta[:second]), delta[third:]...)
	sepOffset := binary.LittleEndian.Uint64(delta[42:])
	dropped = patched(dropped, 42, le64(sepOffset-uint64(third-second))...)
	dropped = patched(dropped, 50, le32(3)...)
	tests := []struct {
		name   string
		data   []byte
		before uint32
		after  uint32
	}{
		{"milestone 3 left out", dropped, 4, 2},
		{"milestone 3 relabelled 4", patched(delta, int(second+8+4), le32(4)...), 4, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := snapshottest.ReadAll(tt.data)
			fe := wantFormatError(t, err, snapshot.ErrOrder, second+12)
			if want := fmt.Sprintf("milestone %d after %d", tt.before, tt.after); fe.Cause == nil || fe.Cause.Error() != want {
				t.Errorf("cause %v, want %q", fe.Cause, want)
			}
		})
	}
}
