package snapshot

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func (r *Reader) readHeader() error {
	version, err := r.u8("version")
	if err != nil {
		return err
	}
	if version != Version {
		return r.refuse(0, "version", ErrVersion, fmt.Errorf("version %d, this reader reads %d", version, Version))
	}
	kind, err := r.u8("type")
	if err != nil {
		return err
	}
	r.kind = Kind(kind)
	switch r.kind {
	case KindFull:
		return r.readFullHeader()
	case KindDelta:
		return r.readDeltaHeader()
	}
	return r.refuse(1, "type", ErrKind, fmt.Errorf("type %d", kind))
}

// readFullHeader reads what follows the type byte of a full file.
func (r *Reader) readFullHeader() error {
	h := &FullHeader{}
	var err error
	read32 := func(name string, dst *uint32) {
		if err == nil {
			*dst, err = r.u32(name)
		}
	}
	read32("genesis milestone index", &h.GenesisIndex)
	read32("target milestone index", &h.TargetIndex)
	read32("target milestone timestamp", &h.TargetTimestamp)
	if err == nil {
		err = r.fill("target milestone ID", h.TargetMilestoneID[:])
	}
	ledgerAt := r.off
	read32("ledger milestone index", &h.LedgerIndex)
	if err == nil {
		err = r.fill("treasury output milestone ID", h.TreasuryMilestoneID[:])
	}
	if err == nil {
		h.TreasuryAmount, err = r.u64("treasury output amount")
	}
	if err != nil {
		return err
	}
	// The diffs roll the ledger back to the target, so the ledger cannot be older.
	if h.LedgerIndex < h.TargetIndex {
		return r.refuse(ledgerAt, "ledger milestone index", ErrMalformed,
			fmt.Errorf("%d below the target index %d", h.LedgerIndex, h.TargetIndex))
	}
	if h.Protocol, err = r.readProtocolOption(); err != nil {
		return err
	}
	if err := r.readFullCounts(h); err != nil {
		return err
	}
	r.full = h
	return nil
}

// readFullCounts reads the three counts that end a full header.
func (r *Reader) readFullCounts(h *FullHeader) error {
	var err error
	if h.OutputCount, err = r.u64("outputs count"); err != nil {
		return err
	}
	diffsAt := r.off
	if h.DiffCount, err = r.u32("milestone diffs count"); err != nil {
		return err
	}
	// Every milestone from the ledger index down to target + 1 needs its diff.
	if need := h.LedgerIndex - h.TargetIndex; h.DiffCount < need {
		return r.refuse(diffsAt, "milestone diffs count", ErrMalformed,
			fmt.Errorf("%d diffs cannot roll ledger %d back to target %d", h.DiffCount, h.LedgerIndex, h.TargetIndex))
	}
	h.SEPCount, err = r.u16("solid entry points count")
	return err
}

// readProtocolOption reads the option's u16 length and the option: type 1, target index
// u32, protocol version u8, parameters length u16, parameters. The lengths must agree.
func (r *Reader) readProtocolOption() (ProtocolParamsOption, error) {
	lengthAt := r.off
	n, err := r.u16("protocol parameters option length")
	if err != nil {
		return ProtocolParamsOption{}, err
	}
	if n < optionHeadLen {
		return ProtocolParamsOption{}, r.refuse(lengthAt, "protocol parameters option length",
			ErrMalformed, fmt.Errorf("%d bytes, an option needs at least %d", n, optionHeadLen))
	}
	at := r.off
	b := make([]byte, n)
	if err := r.fill("protocol parameters option", b); err != nil {
		return ProtocolParamsOption{}, err
	}
	return r.parseProtocolOption(at, b)
}

func (r *Reader) parseProtocolOption(at int64, b []byte) (ProtocolParamsOption, error) {
	if b[0] != optionType {
		return ProtocolParamsOption{}, r.refuse(at, "protocol parameters option type", ErrMalformed,
			fmt.Errorf("type %d, want %d", b[0], optionType))
	}
	opt := ProtocolParamsOption{TargetIndex: binary.LittleEndian.Uint32(b[1:5]), ProtocolVersion: b[5]}
	if n := int(binary.LittleEndian.Uint16(b[6:8])); n != len(b)-optionHeadLen {
		return ProtocolParamsOption{}, r.refuse(at+6, "protocol parameters length", ErrMalformed,
			fmt.Errorf("%d bytes, the option holds %d", n, len(b)-optionHeadLen))
	}
	opt.Raw = slices.Clone(b[optionHeadLen:])
	params, err := chain.DecodeProtocolParameters(opt.Raw)
	if err != nil {
		return ProtocolParamsOption{}, r.refuse(at+optionHeadLen, "protocol parameters", ErrMalformed, err)
	}
	opt.Params = params
	return opt, nil
}

// readDeltaHeader reads what follows the type byte of a delta file.
func (r *Reader) readDeltaHeader() error {
	h := &DeltaHeader{}
	var err error
	if h.TargetIndex, err = r.u32("target milestone index"); err != nil {
		return err
	}
	if h.TargetTimestamp, err = r.u32("target milestone timestamp"); err != nil {
		return err
	}
	if err = r.fill("full snapshot target milestone ID", h.FullTargetMilestoneID[:]); err != nil {
		return err
	}
	offset, err := r.u64("SEP file offset")
	if err != nil {
		return err
	}
	h.SEPOffset = int64(offset)
	if h.DiffCount, err = r.u32("milestone diffs count"); err != nil {
		return err
	}
	if h.SEPCount, err = r.u16("solid entry points count"); err != nil {
		return err
	}
	// The SEPs follow the header and the diffs.
	if h.SEPOffset < deltaHeaderLen {
		return r.refuse(sepOffsetAt, "SEP file offset", ErrMalformed,
			fmt.Errorf("%d is inside the header (%d bytes)", h.SEPOffset, deltaHeaderLen))
	}
	r.delta = h
	return nil
}
