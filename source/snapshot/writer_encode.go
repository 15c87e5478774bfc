package snapshot

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func appendU16(b []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(b, v) }
func appendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }
func appendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// put writes b to the buffer; the first error sticks.
func (w *Writer) put(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.bw.Write(b)
	w.off += int64(n)
	if err != nil {
		w.err = fmt.Errorf("snapshot: write at offset %d: %w", w.off, err)
	}
}

func (w *Writer) u32(v uint32) { w.put(appendU32(w.scratch[:0], v)) }
func (w *Writer) u64(v uint64) { w.put(appendU64(w.scratch[:0], v)) }

// encodeProtocolOption lays out the header's option: type 1, target index, protocol
// version, the parameters behind a u16 length. The parameters must decode, as the reader
// requires.
func encodeProtocolOption(p ProtocolParamsOption) ([]byte, error) {
	params := p.Raw
	if params == nil {
		params = chain.EncodeProtocolParameters(p.Params)
	}
	if _, err := chain.DecodeProtocolParameters(params); err != nil {
		return nil, fmt.Errorf("snapshot: protocol parameters: %w: %w", ErrMalformed, err)
	}
	if len(params) > math.MaxUint16-optionHeadLen {
		return nil, fmt.Errorf("snapshot: protocol parameters of %d bytes: %w", len(params), ErrMalformed)
	}
	b := []byte{optionType}
	b = appendU32(b, p.TargetIndex)
	b = append(b, p.ProtocolVersion)
	b = appendU16(b, uint16(len(params)))
	return append(b, params...), nil
}

// writeFullHeader writes a full header with zero counts.
func (w *Writer) writeFullHeader(h *FullHeader, option []byte) {
	b := []byte{Version, byte(KindFull)}
	b = appendU32(b, h.GenesisIndex)
	b = appendU32(b, h.TargetIndex)
	b = appendU32(b, h.TargetTimestamp)
	b = append(b, h.TargetMilestoneID[:]...)
	b = appendU32(b, h.LedgerIndex)
	b = append(b, h.TreasuryMilestoneID[:]...)
	b = appendU64(b, h.TreasuryAmount)
	b = appendU16(b, uint16(len(option)))
	b = append(b, option...)
	w.put(append(b, make([]byte, countsLen)...))
}

// writeDeltaHeader writes a delta header with a zero SEP file offset and zero counts.
func (w *Writer) writeDeltaHeader(h *DeltaHeader) {
	b := []byte{Version, byte(KindDelta)}
	b = appendU32(b, h.TargetIndex)
	b = appendU32(b, h.TargetTimestamp)
	b = append(b, h.FullTargetMilestoneID[:]...)
	w.put(append(b, make([]byte, 8+4+2)...))
}

// checkOutput refuses an output the reader would refuse for its length.
func checkOutput(o *Output) error {
	if n := len(o.Raw); n < 1 || n > MaxOutputLength {
		return fmt.Errorf("snapshot: output %s of %d bytes (1..%d): %w", o.OutputID, n, MaxOutputLength, ErrMalformed)
	}
	return nil
}

func (w *Writer) putOutput(o *Output) {
	w.put(o.OutputID[:])
	w.put(o.BlockID[:])
	w.u32(o.BookedIndex)
	w.u32(o.BookedTimestamp)
	w.u32(uint32(len(o.Raw)))
	w.put(o.Raw)
}

// diffMilestone is the payload's bytes and decoding: RawMilestone when set, otherwise
// Milestone encoded.
func diffMilestone(d *Diff) ([]byte, *chain.MilestonePayload, error) {
	raw, ms := d.RawMilestone, d.Milestone
	switch {
	case raw == nil && ms == nil:
		return nil, nil, fmt.Errorf("snapshot: diff without a milestone: %w", ErrMalformed)
	case raw == nil:
		raw = ms.Encode()
	case ms == nil:
		var err error
		if ms, err = chain.DecodeMilestonePayload(raw); err != nil {
			return nil, nil, fmt.Errorf("snapshot: diff milestone payload: %w: %w", ErrMalformed, err)
		}
	}
	if len(raw) < 1 || len(raw) > MaxMilestoneLength {
		return nil, nil, fmt.Errorf("snapshot: milestone %d payload of %d bytes (1..%d): %w",
			ms.Index, len(raw), MaxMilestoneLength, ErrMalformed)
	}
	return raw, ms, nil
}

// diffLen is the diff's length field: the whole diff, its own four bytes included. It
// checks the parts the reader checks.
func diffLen(d *Diff, raw []byte, ms *chain.MilestonePayload) (uint32, error) {
	if (ms.Receipt != nil) != (d.Treasury != nil) {
		return 0, fmt.Errorf("snapshot: milestone %d: a treasury input goes with a receipt, and only with one: %w",
			ms.Index, ErrMalformed)
	}
	n := int64(4 + 4 + len(raw) + 4 + 4)
	if d.Treasury != nil {
		n += treasuryLen
	}
	for i := range d.Created {
		if err := checkOutput(&d.Created[i]); err != nil {
			return 0, err
		}
		n += d.Created[i].entryLen()
	}
	for i := range d.Consumed {
		if err := checkOutput(&d.Consumed[i].Output); err != nil {
			return 0, err
		}
		n += d.Consumed[i].entryLen() + idLen
	}
	if n > math.MaxUint32 {
		return 0, fmt.Errorf("snapshot: milestone %d diff of %d bytes: %w", ms.Index, n, ErrMalformed)
	}
	return uint32(n), nil
}

func (w *Writer) putDiff(d *Diff, raw []byte, size uint32) {
	w.u32(size)
	w.u32(uint32(len(raw)))
	w.put(raw)
	if d.Treasury != nil {
		w.put(d.Treasury.MilestoneID[:])
		w.u64(d.Treasury.Amount)
	}
	w.u32(uint32(len(d.Created)))
	for i := range d.Created {
		w.putOutput(&d.Created[i])
	}
	w.u32(uint32(len(d.Consumed)))
	for i := range d.Consumed {
		w.putOutput(&d.Consumed[i].Output)
		w.put(d.Consumed[i].SpentBy[:])
	}
}
