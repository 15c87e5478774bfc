package archive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Smallest encodings, so a count can be checked against the bytes left before anything
// is allocated for it.
const (
	minMessage  = 4 + 2 + 4
	minOutput   = 34 + 32 + 4 + 8 + 4
	minConsumed = minOutput + 32 + 4 + 8
)

var errShort = errors.New("record ends early")

// body reads a record body front to back; the first problem sticks.
type body struct {
	b   []byte
	err error
}

func (r *body) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *body) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail(errShort)
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *body) u32() uint32 {
	if v := r.take(4); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

func (r *body) time() time.Time {
	if v := r.take(8); v != nil {
		return time.Unix(int64(binary.LittleEndian.Uint64(v)), 0).UTC()
	}
	return time.Time{}
}

func (r *body) bytes() []byte {
	n := r.u32()
	if uint64(n) > uint64(len(r.b)) {
		r.fail(errShort)
		return nil
	}
	return r.take(int(n))
}

// count reads a count of items of at least size bytes each.
func (r *body) count(what string, size int) int {
	n := r.u32()
	if r.err == nil && uint64(n)*uint64(size) > uint64(len(r.b)) {
		r.fail(fmt.Errorf("%d %s cannot fit in the %d bytes left", n, what, len(r.b)))
		return 0
	}
	return int(n)
}

// decodeMilestone reverses encodeMilestone and rebuilds the confirmed milestone as a
// source gives it: IDs, timestamp and decoded messages derived from the bytes.
func decodeMilestone(b []byte) (*chain.ConfirmedMilestone, error) {
	r := &body{b: b}
	index := r.u32()
	mp, err := chain.DecodeMilestonePayload(r.bytes())
	if r.err != nil {
		return nil, r.err
	}
	if err != nil {
		return nil, fmt.Errorf("milestone payload: %w", err)
	}
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: time.Unix(int64(mp.Timestamp), 0).UTC(),
		MilestoneID: mp.ID(), PreviousMilestoneID: mp.PreviousMilestoneID, Milestone: mp}
	if cm.Messages, err = readMessages(r); err != nil {
		return nil, err
	}
	cm.Created = make([]chain.LedgerOutput, r.count("created outputs", minOutput))
	for i := range cm.Created {
		if cm.Created[i], err = readOutput(r); err != nil {
			return nil, fmt.Errorf("created[%d]: %w", i, err)
		}
	}
	cm.Consumed = make([]chain.LedgerSpent, r.count("consumed outputs", minConsumed))
	for i := range cm.Consumed {
		if cm.Consumed[i], err = readSpent(r); err != nil {
			return nil, fmt.Errorf("consumed[%d]: %w", i, err)
		}
	}
	switch {
	case r.err != nil:
		return nil, r.err
	case len(r.b) != 0:
		return nil, fmt.Errorf("%d bytes after the milestone", len(r.b))
	case mp.Index != index:
		return nil, fmt.Errorf("record of milestone %d holds the payload of milestone %d", index, mp.Index)
	}
	return cm, nil
}

func readMessages(r *body) ([]chain.ReferencedMessage, error) {
	msgs := make([]chain.ReferencedMessage, r.count("messages", minMessage))
	for i := range msgs {
		rm := &msgs[i]
		rm.WhiteFlagIndex = r.u32()
		if v := r.take(2); v != nil {
			rm.InclusionState, rm.ConflictReason = chain.InclusionState(v[0]), chain.ConflictReason(v[1])
		}
		rm.Raw = r.bytes()
		if r.err != nil {
			return nil, r.err
		}
		m, err := chain.DecodeMessage(rm.Raw)
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		rm.ID, rm.Message = chain.MessageIDOf(rm.Raw), m
	}
	return msgs, r.err
}

func readOutput(r *body) (chain.LedgerOutput, error) {
	var lo chain.LedgerOutput
	copy(lo.OutputID[:], r.take(len(lo.OutputID)))
	copy(lo.MessageID[:], r.take(len(lo.MessageID)))
	lo.MilestoneIndex = r.u32()
	lo.Timestamp = r.time()
	raw := r.bytes()
	if r.err != nil {
		return lo, r.err
	}
	var err error
	lo.Output, err = chain.DecodeOutput(raw)
	return lo, err
}

func readSpent(r *body) (chain.LedgerSpent, error) {
	lo, err := readOutput(r)
	ls := chain.LedgerSpent{LedgerOutput: lo}
	if err != nil {
		return ls, err
	}
	copy(ls.SpentBy[:], r.take(len(ls.SpentBy)))
	ls.SpentMilestoneIndex = r.u32()
	ls.SpentTimestamp = r.time()
	return ls, r.err
}
