package snapshot

import (
	"errors"
	"fmt"
	"io"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// NextOutput returns the next output of a full file's ledger, io.EOF after the last one
// (at once for a delta file, and once NextDiff, NextSEP or Finish was called). Each call
// returns a new Output that the caller may keep. The bytes are checked for their length
// only; Output.Ledger decodes them.
func (r *Reader) NextOutput() (*Output, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.stage != stageOutputs || r.full == nil || r.outputs == r.full.OutputCount {
		return nil, io.EOF
	}
	r.hashing = true
	o, err := r.readOutput(place{offset: r.off, diff: -1, part: "output", item: int64(r.outputs)})
	r.hashing = false
	if err != nil {
		return nil, r.fail(err)
	}
	r.outputs++
	return o, nil
}

// NextDiff returns the next milestone diff, io.EOF after the last one. It first skips the
// outputs not read yet. A full file's diffs run backwards from the ledger index, a delta
// file's onwards to its target index; a diff out of that order is refused (ErrOrder).
func (r *Reader) NextDiff() (*Diff, error) {
	if err := r.skipOutputs(); err != nil {
		return nil, err
	}
	if r.stage != stageDiffs || r.diffs == r.diffCount() {
		return nil, io.EOF
	}
	d, err := r.readDiff(int64(r.diffs))
	if err != nil {
		return nil, r.fail(err)
	}
	r.diffs++
	r.last = d.Milestone.Index
	return d, nil
}

// NextSEP returns the next solid entry point (a block ID), io.EOF after the last one. It
// first skips the outputs and diffs not read yet; in a delta file it then checks that the
// SEPs start where the header's SEP file offset says.
func (r *Reader) NextSEP() (chain.MessageID, error) {
	if err := r.skipDiffs(); err != nil {
		return chain.MessageID{}, err
	}
	if r.stage != stageSEPs || r.seps == r.sepCount() {
		return chain.MessageID{}, io.EOF
	}
	r.where = place{offset: r.off, diff: -1, part: "SEP", item: int64(r.seps)}
	var id chain.MessageID
	if err := r.fill("", id[:]); err != nil {
		return chain.MessageID{}, r.fail(err)
	}
	r.seps++
	return id, nil
}

// Finish reads what is left and checks that the file ends right after the last SEP: a
// byte more is refused with ErrTrailingData at its offset.
func (r *Reader) Finish() error {
	for {
		if _, err := r.NextSEP(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
	}
	if r.stage == stageDone {
		return nil
	}
	r.stage = stageDone
	r.where = place{offset: r.off, diff: -1, part: "end of file", item: -1}
	switch _, err := r.src.ReadByte(); {
	case err == nil:
		return r.fail(r.refuse(r.off, "", ErrTrailingData, nil))
	case errors.Is(err, io.EOF):
		return nil
	default:
		return r.fail(fmt.Errorf("snapshot: offset %d (end of file): %w", r.off, err))
	}
}

func (r *Reader) skipOutputs() error {
	if r.err != nil {
		return r.err
	}
	for r.stage == stageOutputs {
		if _, err := r.NextOutput(); err == io.EOF {
			r.stage = stageDiffs
		} else if err != nil {
			return err
		}
	}
	return nil
}

func (r *Reader) skipDiffs() error {
	if err := r.skipOutputs(); err != nil {
		return err
	}
	for r.stage == stageDiffs {
		if _, err := r.NextDiff(); err == io.EOF {
			r.stage = stageSEPs
			return r.checkSEPOffset()
		} else if err != nil {
			return err
		}
	}
	return nil
}

// checkSEPOffset: a delta's SEP file offset is where its SEPs begin (Hornet seeks there to
// append diffs to an existing delta file).
func (r *Reader) checkSEPOffset() error {
	if r.delta == nil || r.off == r.delta.SEPOffset {
		return nil
	}
	r.where = place{diff: -1, part: "header", item: -1}
	return r.fail(r.refuse(sepOffsetAt, "SEP file offset", ErrMalformed,
		fmt.Errorf("%d, the SEPs start at %d", r.delta.SEPOffset, r.off)))
}

func (r *Reader) diffCount() uint32 {
	if r.full != nil {
		return r.full.DiffCount
	}
	return r.delta.DiffCount
}

func (r *Reader) sepCount() uint16 {
	if r.full != nil {
		return r.full.SEPCount
	}
	return r.delta.SEPCount
}

// readOutput reads an output entry: output ID, block ID, booked index and timestamp, the
// output's length and bytes.
func (r *Reader) readOutput(p place) (*Output, error) {
	r.where = p
	o := &Output{at: p}
	if err := r.fill("output ID", o.OutputID[:]); err != nil {
		return nil, err
	}
	if err := r.fill("block ID", o.BlockID[:]); err != nil {
		return nil, err
	}
	var err error
	if o.BookedIndex, err = r.u32("milestone index booked"); err != nil {
		return nil, err
	}
	if o.BookedTimestamp, err = r.u32("milestone timestamp booked"); err != nil {
		return nil, err
	}
	n, err := r.length("output length", 1, MaxOutputLength)
	if err != nil {
		return nil, err
	}
	o.Raw = make([]byte, n)
	if err := r.fill("output bytes", o.Raw); err != nil {
		return nil, err
	}
	return o, nil
}
