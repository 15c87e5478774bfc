package snapshot_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// hornetPair is Hornet's full file (ledger 3, target 1, diffs 3, 2) and the delta on it
// (diffs 2-5, 5 with a receipt), as read.
func hornetPair(t *testing.T) (full, delta *snapshottest.Contents) {
	return snapshottest.MustReadAll(t, hornetFile(t, "snapshot_full_snapshot.bin")),
		snapshottest.MustReadAll(t, hornetFile(t, "snapshot_delta_snapshot.bin"))
}

// The Writer refuses what the Reader would refuse, and calls out of order.
func TestWriterRefuses(t *testing.T) {
	full, delta := hornetPair(t)
	withTreasury := *full.Diffs[0]
	withTreasury.Treasury = &snapshot.TreasuryInput{}
	noTreasury := *delta.Diffs[3]
	noTreasury.Treasury = nil
	empty := &snapshot.Output{}
	long := &snapshot.Output{Raw: make([]byte, snapshot.MaxOutputLength+1)}
	late := *delta.Delta
	late.TargetIndex = 6
	tests := []struct {
		name     string
		run      func(f, d *snapshot.Writer) error
		sentinel error
	}{
		{"output in a delta", func(_, d *snapshot.Writer) error { return d.WriteOutput(full.Outputs[0]) }, snapshot.ErrWriteOrder},
		{"output after a diff", func(f, _ *snapshot.Writer) error {
			return errors.Join(f.WriteDiff(full.Diffs[0]), f.WriteOutput(full.Outputs[0]))
		}, snapshot.ErrWriteOrder},
		{"diff after a SEP", func(_, d *snapshot.Writer) error {
			return errors.Join(d.WriteSEP(chain.MessageID{}), d.WriteDiff(delta.Diffs[0]))
		}, snapshot.ErrWriteOrder},
		{"SEP after Close", func(_, d *snapshot.Writer) error { return errors.Join(d.Close(), d.WriteSEP(chain.MessageID{})) }, snapshot.ErrWriteOrder},
		{"full diffs not from the ledger index", func(f, _ *snapshot.Writer) error { return f.WriteDiff(full.Diffs[1]) }, snapshot.ErrOrder},
		{"delta diffs not consecutive", func(_, d *snapshot.Writer) error {
			return errors.Join(d.WriteDiff(delta.Diffs[0]), d.WriteDiff(delta.Diffs[2]))
		}, snapshot.ErrOrder},
		{"too few diffs for ledger - target", func(f, _ *snapshot.Writer) error {
			return errors.Join(f.WriteDiff(full.Diffs[0]), f.Close())
		}, snapshot.ErrMalformed},
		{"treasury input without a receipt", func(f, _ *snapshot.Writer) error { return f.WriteDiff(&withTreasury) }, snapshot.ErrMalformed},
		{"receipt without its treasury input", func(_, d *snapshot.Writer) error {
			return writeDiffs(d, delta.Diffs[0], delta.Diffs[1], delta.Diffs[2], &noTreasury)
		}, snapshot.ErrMalformed},
		{"empty output", func(f, _ *snapshot.Writer) error { return f.WriteOutput(empty) }, snapshot.ErrMalformed},
		{"output too long", func(f, _ *snapshot.Writer) error { return f.WriteOutput(long) }, snapshot.ErrMalformed},
		{"diff without a milestone", func(f, _ *snapshot.Writer) error { return f.WriteDiff(&snapshot.Diff{}) }, snapshot.ErrMalformed},
		{"delta's last diff not its target", func(_, _ *snapshot.Writer) error {
			d, err := snapshot.NewDeltaWriter(&snapshottest.MemFile{}, late)
			if err != nil {
				return err
			}
			return errors.Join(writeDiffs(d, delta.Diffs...), d.Close())
		}, snapshot.ErrOrder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := snapshot.NewFullWriter(&snapshottest.MemFile{}, *full.Full)
			if err != nil {
				t.Fatal(err)
			}
			d, err := snapshot.NewDeltaWriter(&snapshottest.MemFile{}, *delta.Delta)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.run(f, d); !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v, want %v", err, tt.sentinel)
			}
		})
	}
}

func writeDiffs(w *snapshot.Writer, diffs ...*snapshot.Diff) error {
	for _, d := range diffs {
		if err := w.WriteDiff(d); err != nil {
			return err
		}
	}
	return nil
}

func TestWriterRefusesHeader(t *testing.T) {
	full, _ := hornetPair(t)
	below := *full.Full
	below.LedgerIndex = 0
	badParams := *full.Full
	badParams.Protocol.Raw = []byte{2, 0}
	for name, h := range map[string]snapshot.FullHeader{"ledger below target": below, "parameters": badParams} {
		if _, err := snapshot.NewFullWriter(&snapshottest.MemFile{}, h); !errors.Is(err, snapshot.ErrMalformed) {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

// A file written after other bytes: the header's counts and the delta's SEP offset count
// from where the file starts, and Close leaves the position at its end.
func TestWriterAtOffset(t *testing.T) {
	full, delta := hornetPair(t)
	for name, c := range map[string]*snapshottest.Contents{"full": full, "delta": delta} {
		t.Run(name, func(t *testing.T) {
			want, err := write(c)
			if err != nil {
				t.Fatal(err)
			}
			f := &snapshottest.MemFile{Buf: []byte("prefix"), Pos: 6}
			w, err := newWriterFor(f, c)
			if err != nil {
				t.Fatal(err)
			}
			if err := errors.Join(writeAllTo(w, c), w.Close(), w.Close()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(f.Buf[6:], want) || f.Pos != int64(len(f.Buf)) {
				t.Fatalf("file after the prefix differs, or position %d not at the end %d", f.Pos, len(f.Buf))
			}
		})
	}
}

func newWriterFor(f *snapshottest.MemFile, c *snapshottest.Contents) (*snapshot.Writer, error) {
	if c.Full != nil {
		return snapshot.NewFullWriter(f, *c.Full)
	}
	return snapshot.NewDeltaWriter(f, *c.Delta)
}

func writeAllTo(w *snapshot.Writer, c *snapshottest.Contents) error {
	for _, o := range c.Outputs {
		if err := w.WriteOutput(o); err != nil {
			return err
		}
	}
	if err := writeDiffs(w, c.Diffs...); err != nil {
		return err
	}
	for _, id := range c.SEPs {
		if err := w.WriteSEP(id); err != nil {
			return err
		}
	}
	return nil
}

// Many outputs stream through the buffer; the counts are patched and everything reads back.
func TestWriterManyOutputs(t *testing.T) {
	const n = 100_000
	real := snapshottest.MustReadAll(t, snapshottest.Testdata(t, snapshottest.RealFile))
	f := &snapshottest.MemFile{}
	w, err := snapshot.NewFullWriter(f, *real.Full)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		o := syntheticOutput(real.Outputs[i%len(real.Outputs)], i)
		if err := w.WriteOutput(&o); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(w.WriteSEP(chain.MessageID{1}), w.Close()); err != nil {
		t.Fatal(err)
	}
	r, err := snapshot.NewReader(bytes.NewReader(f.Buf))
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Full(); h.OutputCount != n || h.SEPCount != 1 || h.DiffCount != 0 {
		t.Fatalf("counts %d, %d, %d", h.OutputCount, h.DiffCount, h.SEPCount)
	}
	for i := 0; ; i++ {
		o, err := r.NextOutput()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := syntheticOutput(real.Outputs[i%len(real.Outputs)], i); o.OutputID != want.OutputID || !bytes.Equal(o.Raw, want.Raw) {
			t.Fatalf("output %d differs", i)
		}
	}
	if err := r.Finish(); err != nil || r.Offset() != int64(len(f.Buf)) {
		t.Fatalf("finish: %v at %d of %d", err, r.Offset(), len(f.Buf))
	}
}

// syntheticOutput is a copy of o under a made-up output ID for entry i.
func syntheticOutput(o *snapshot.Output, i int) snapshot.Output {
	c := *o
	c.OutputID = chain.NewOutputID(chain.TransactionID{byte(i), byte(i >> 8), byte(i >> 16)}, uint16(i))
	return c
}

// Reading a later section first skips the earlier ones; a delta has no outputs.
func TestReaderSkips(t *testing.T) {
	data := hornetFile(t, "snapshot_full_snapshot.bin")
	r, err := snapshot.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := r.NextDiff(); err != nil || d.Index() != 3 {
		t.Fatalf("first diff: %v", err)
	}
	if _, err := r.NextOutput(); err != io.EOF {
		t.Fatalf("output after a diff: %v", err)
	}
	if id, err := r.NextSEP(); err != nil || id != (chain.MessageID{}) {
		t.Fatalf("first SEP %s: %v", id, err)
	}
	if _, err := r.NextDiff(); err != io.EOF {
		t.Fatalf("diff after a SEP: %v", err)
	}
	if err := errors.Join(r.Finish(), r.Finish()); err != nil || r.Offset() != int64(len(data)) {
		t.Fatalf("finish: %v at %d", err, r.Offset())
	}
	delta, err := snapshot.NewReader(bytes.NewReader(hornetFile(t, "snapshot_delta_snapshot.bin")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta.NextOutput(); err != io.EOF || delta.Full() != nil || delta.Kind() != snapshot.KindDelta {
		t.Fatalf("delta: output %v", err)
	}
	if err := delta.Finish(); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkWriteOutputs(b *testing.B) {
	real := snapshottest.MustReadAll(b, snapshottest.Testdata(b, snapshottest.RealFile))
	w, err := snapshot.NewFullWriter(&discardSeeker{}, *real.Full)
	if err != nil {
		b.Fatal(err)
	}
	o := real.Outputs[1]
	b.SetBytes(int64(78 + len(o.Raw)))
	for b.Loop() {
		if err := w.WriteOutput(o); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkReadOutputs(b *testing.B) {
	real := snapshottest.MustReadAll(b, snapshottest.Testdata(b, snapshottest.RealFile))
	f := &snapshottest.MemFile{}
	w, err := snapshot.NewFullWriter(f, *real.Full)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 10_000 {
		o := syntheticOutput(real.Outputs[i%len(real.Outputs)], i)
		if err := w.WriteOutput(&o); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(f.Buf)))
	for b.Loop() {
		if _, err := snapshottest.ReadAll(f.Buf); err != nil {
			b.Fatal(err)
		}
	}
}

// discardSeeker is an io.WriteSeeker that keeps nothing.
type discardSeeker struct{ pos int64 }

func (d *discardSeeker) Write(p []byte) (int, error) { d.pos += int64(len(p)); return len(p), nil }
func (d *discardSeeker) Seek(offset int64, whence int) (int64, error) {
	if whence == io.SeekCurrent {
		offset += d.pos
	}
	d.pos = offset
	return offset, nil
}
