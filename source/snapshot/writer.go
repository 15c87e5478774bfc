package snapshot

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Writer streams a snapshot file as Hornet writes it: the header with zero counts, the
// outputs (full files), the diffs, the SEPs; Close patches the counts (and a delta's SEP
// file offset) in the header. Writes are buffered. The Writer refuses what the Reader
// would refuse (lengths out of bounds, diffs out of order, a receipt without its treasury
// input), so every file it completes reads back. The first error sticks.
type Writer struct {
	ws      io.WriteSeeker
	bw      *bufio.Writer
	base    int64 // where the file starts in ws
	off     int64 // bytes written, from base
	patchAt int64 // the counts (full) or the SEP file offset (delta), from base
	sepAt   int64 // the first SEP's offset, once known

	full  *FullHeader
	delta *DeltaHeader

	stage   stage
	outputs uint64
	diffs   uint32
	seps    uint16
	last    uint32 // the index of the last diff written
	err     error
	scratch [8]byte
}

// NewFullWriter writes a full file's header at w's current position. The counts in h are
// ignored; Close writes the real ones. Protocol.Raw, when set, is written as is; otherwise
// Protocol.Params is encoded.
func NewFullWriter(w io.WriteSeeker, h FullHeader) (*Writer, error) {
	if h.LedgerIndex < h.TargetIndex {
		return nil, fmt.Errorf("snapshot: ledger index %d below target index %d: %w", h.LedgerIndex, h.TargetIndex, ErrMalformed)
	}
	option, err := encodeProtocolOption(h.Protocol)
	if err != nil {
		return nil, err
	}
	wr, err := newWriter(w)
	if err != nil {
		return nil, err
	}
	wr.full = &h
	wr.writeFullHeader(&h, option)
	wr.patchAt = wr.off - countsLen
	return wr, wr.err
}

// NewDeltaWriter writes a delta file's header at w's current position. The counts and the
// SEP file offset in h are ignored; Close writes the real ones. The SEP file offset counts
// from the file's start (w's position now).
func NewDeltaWriter(w io.WriteSeeker, h DeltaHeader) (*Writer, error) {
	wr, err := newWriter(w)
	if err != nil {
		return nil, err
	}
	wr.delta = &h
	wr.stage = stageDiffs
	wr.writeDeltaHeader(&h)
	wr.patchAt = sepOffsetAt
	return wr, wr.err
}

func newWriter(w io.WriteSeeker) (*Writer, error) {
	base, err := w.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, fmt.Errorf("snapshot: writer position: %w", err)
	}
	return &Writer{ws: w, bw: bufio.NewWriterSize(w, 1<<20), base: base, sepAt: -1}, nil
}

// WriteOutput writes an output of a full file's ledger, before any diff.
func (w *Writer) WriteOutput(o *Output) error {
	if w.err != nil {
		return w.err
	}
	if w.full == nil || w.stage != stageOutputs {
		return fmt.Errorf("snapshot: output after the outputs section or in a delta file: %w", ErrWriteOrder)
	}
	if err := checkOutput(o); err != nil {
		return err
	}
	w.putOutput(o)
	w.outputs++
	return w.err
}

// WriteDiff writes a milestone diff, after the outputs: a full file's run backwards from
// the ledger index, a delta file's onwards (consecutive milestones, the last one the
// delta's target). RawMilestone is written when set (Milestone must then be its decoding);
// otherwise Milestone is encoded.
func (w *Writer) WriteDiff(d *Diff) error {
	if w.err != nil {
		return w.err
	}
	if w.stage > stageDiffs {
		return fmt.Errorf("snapshot: diff after the SEPs: %w", ErrWriteOrder)
	}
	w.stage = stageDiffs
	raw, ms, err := diffMilestone(d)
	if err != nil {
		return err
	}
	if err := w.checkOrder(ms.Index); err != nil {
		return err
	}
	size, err := diffLen(d, raw, ms)
	if err != nil {
		return err
	}
	w.putDiff(d, raw, size)
	w.diffs++
	w.last = ms.Index
	return w.err
}

// WriteSEP writes a solid entry point, after the diffs.
func (w *Writer) WriteSEP(id chain.MessageID) error {
	if w.err != nil {
		return w.err
	}
	if w.stage > stageSEPs {
		return fmt.Errorf("snapshot: SEP after Close: %w", ErrWriteOrder)
	}
	if w.seps == math.MaxUint16 {
		return fmt.Errorf("snapshot: more than %d SEPs: %w", math.MaxUint16, ErrMalformed)
	}
	w.startSEPs()
	w.put(id[:])
	w.seps++
	return w.err
}

func (w *Writer) startSEPs() {
	if w.stage < stageSEPs {
		w.stage = stageSEPs
		w.sepAt = w.off
	}
}

// Close checks that the diffs are complete, flushes, patches the counts (and a delta's SEP
// file offset) and leaves w positioned at the file's end. It does not close w.
func (w *Writer) Close() error {
	if w.err != nil || w.stage == stageDone {
		return w.err
	}
	w.startSEPs()
	w.stage = stageDone
	if err := w.checkComplete(); err != nil {
		w.err = err
		return err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("snapshot: write: %w", err)
		return w.err
	}
	w.err = w.patch()
	return w.err
}

// Counts are the outputs, diffs and SEPs written so far.
func (w *Writer) Counts() (outputs uint64, diffs uint32, seps uint16) {
	return w.outputs, w.diffs, w.seps
}

// SEPOffset is where the first SEP starts, from the file's start (a delta file's SEP file
// offset); -1 before the SEPs section starts.
func (w *Writer) SEPOffset() int64 { return w.sepAt }

// checkOrder mirrors the reader's rule on the order of diffs.
func (w *Writer) checkOrder(index uint32) error {
	i := int64(w.diffs)
	if w.full != nil && int64(index) != int64(w.full.LedgerIndex)-i {
		return fmt.Errorf("snapshot: diff %d is of milestone %d, %d was due (backwards from the ledger index): %w",
			i, index, int64(w.full.LedgerIndex)-i, ErrOrder)
	}
	if w.delta != nil && i > 0 && int64(index) != int64(w.last)+1 {
		return fmt.Errorf("snapshot: diff %d is of milestone %d after %d: %w", i, index, w.last, ErrOrder)
	}
	return nil
}

// checkComplete: a full file's diffs reach target + 1; a delta file's last diff is its
// target's.
func (w *Writer) checkComplete() error {
	if w.full != nil && w.diffs < w.full.LedgerIndex-w.full.TargetIndex {
		return fmt.Errorf("snapshot: %d diffs cannot roll ledger %d back to target %d: %w",
			w.diffs, w.full.LedgerIndex, w.full.TargetIndex, ErrMalformed)
	}
	if w.delta != nil && w.diffs > 0 && w.last != w.delta.TargetIndex {
		return fmt.Errorf("snapshot: the last diff is of milestone %d, the target is %d: %w", w.last, w.delta.TargetIndex, ErrOrder)
	}
	return nil
}

// patch writes the counts (and the SEP file offset) over the header's zeros, then seeks
// back to the end.
func (w *Writer) patch() error {
	var b []byte
	if w.full != nil {
		b = appendU64(b, w.outputs)
	} else {
		b = appendU64(b, uint64(w.sepAt))
	}
	b = appendU16(appendU32(b, w.diffs), w.seps)
	if _, err := w.ws.Seek(w.base+w.patchAt, io.SeekStart); err != nil {
		return fmt.Errorf("snapshot: seek to the counts: %w", err)
	}
	if _, err := w.ws.Write(b); err != nil {
		return fmt.Errorf("snapshot: write the counts: %w", err)
	}
	if _, err := w.ws.Seek(w.base+w.off, io.SeekStart); err != nil {
		return fmt.Errorf("snapshot: seek to the end: %w", err)
	}
	return nil
}
