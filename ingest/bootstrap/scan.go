package bootstrap

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// outputScan is what the first pass over the full file's outputs learns.
type outputScan struct {
	count      uint64
	sum        uint64
	oldest     uint32                 // the oldest booked milestone
	candidates map[chain.OutputID]int // IDs the filter may have seen twice: counted by the second pass
}

// scanOutputs reads every output of the full file, decoding each strictly, and sums
// them; IDs that may repeat become candidates.
func scanOutputs(ctx context.Context, r *snapshot.Reader, prog *progress) (*outputScan, error) {
	h := r.Full()
	s := &outputScan{oldest: h.TargetIndex, candidates: map[chain.OutputID]int{}}
	filter := newIDFilter(h.OutputCount)
	err := readOutputs(ctx, r, func(o *snapshot.Output) error {
		lo, err := o.Ledger()
		if err != nil {
			return fmt.Errorf("output %d (%s): %w", s.count, o.OutputID, err)
		}
		var carry uint64
		if s.sum, carry = bits.Add64(s.sum, lo.Output.Amount, 0); carry != 0 {
			return refuse(ErrSupply, "the outputs' amounts overflow 2^64 at output %s", o.OutputID)
		}
		if filter.addSeen(o.OutputID) {
			s.candidates[o.OutputID] = 0
		}
		s.oldest = min(s.oldest, o.BookedIndex)
		s.count++
		return prog.step(ctx, s.count)
	})
	return s, err
}

// checkOutputs is the second pass: it counts the candidate IDs exactly (refusing a
// duplicate), compares each output a diff names with the file's record of it, and marks
// those the file holds.
func checkOutputs(ctx context.Context, r *snapshot.Reader, s *outputScan, l *diffLedger, prog *progress) error {
	var n uint64
	return readOutputs(ctx, r, func(o *snapshot.Output) error {
		n++
		if err := prog.step(ctx, n); err != nil {
			return err
		}
		if c, ok := s.candidates[o.OutputID]; ok {
			if c == 1 {
				return refuse(ErrDuplicateOutput, "output %s occurs twice (again as output %d)", o.OutputID, n-1)
			}
			s.candidates[o.OutputID] = c + 1
		}
		return l.markInFile(o)
	})
}

// markInFile marks an output of the file that a diff names, checking both record it alike.
func (l *diffLedger) markInFile(o *snapshot.Output) error {
	rec, ok := l.named(o.OutputID)
	if !ok {
		return nil
	}
	lo, err := o.Ledger()
	if err != nil {
		return err
	}
	if !sameOutput(&rec, &lo) {
		return refuse(ErrDiffLedger, "a milestone diff records output %s otherwise than the snapshot's outputs", o.OutputID)
	}
	l.inFile[o.OutputID], l.present[o.OutputID] = true, true
	return nil
}
