// Package snapshot reads and writes Hornet local snapshot files: TIP-35 "Local Snapshot
// File Format", version 2, byte for byte as Hornet v2 writes them (docs/snapshots.md gives
// the layout field by field and where Hornet's code and TIP-35's text differ).
//
// A full file holds a ledger (its unspent outputs at the ledger milestone), the milestone
// diffs that roll it back to the target milestone, and the target's solid entry points
// (SEPs). A delta file holds the diffs from a full file's target onwards, and SEPs.
// Integers are little-endian.
//
// The Reader streams a file with bounded memory and refuses, with the byte offset, anything
// the format does not allow, trailing bytes included; the Writer streams one and patches
// the counts on Close.
package snapshot

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Version is the file format version read and written (TIP-35 version 2).
const Version = 2

// Kind is the snapshot type byte.
type Kind uint8

// Snapshot types.
const (
	KindFull  Kind = 0
	KindDelta Kind = 1
)

func (k Kind) String() string {
	switch k {
	case KindFull:
		return "full"
	case KindDelta:
		return "delta"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Limits. An output and a milestone payload travel in a block, and a block is at most
// 32768 bytes (TIP-24), so neither can be longer.
const (
	MaxOutputLength    = 32768
	MaxMilestoneLength = 32768
)

// Limits bound what a file's milestone diffs may hold, checked at each diff's length field
// before any of its bytes is read: the format allows a diff of 4 GiB and any number of them,
// and a reader holds a diff (a bootstrap holds all of them) in memory.
type Limits struct {
	DiffLength  int64 // one diff's stated length
	DiffsLength int64 // the stated lengths of all of a file's diffs together
}

// DefaultLimits are far above what real networks write. A milestone confirms a few seconds
// of blocks: a Shimmer diff is kilobytes to a few megabytes, and even 2500 blocks of 128
// consumed and 128 created outputs each stay below 256 MiB. Hornet writes a new full
// snapshot once its delta reaches a share of the full file's size (deltaSizeThresholdPercentage,
// 50 by default), so a delta's diffs stay below the size of its full file; 2 GiB allows a
// full file of 4 GiB. docs/snapshots.md gives the flags that change them.
var DefaultLimits = Limits{DiffLength: 256 << 20, DiffsLength: 2 << 30}

func (l Limits) withDefaults() Limits {
	if l.DiffLength <= 0 {
		l.DiffLength = DefaultLimits.DiffLength
	}
	if l.DiffsLength <= 0 {
		l.DiffsLength = DefaultLimits.DiffsLength
	}
	return l
}

// Fixed sizes of the layout.
const (
	idLen          = 32
	outputIDLen    = 34
	outputHeadLen  = outputIDLen + idLen + 4 + 4 + 4 // ID, block ID, booked index and time, length
	treasuryLen    = idLen + 8
	fullFixedLen   = 1 + 1 + 4 + 4 + 4 + idLen + 4 + idLen + 8 // up to the option length
	countsLen      = 8 + 4 + 2
	deltaHeaderLen = 1 + 1 + 4 + 4 + idLen + 8 + 4 + 2
	sepOffsetAt    = 1 + 1 + 4 + 4 + idLen // the delta's SEP file offset field
	optionHeadLen  = 1 + 4 + 1 + 2         // option type, target, protocol version, params length
	optionType     = 1                     // the protocol parameters milestone option (TIP-29)
)

// ProtocolParamsOption is the protocol parameters milestone option of a full file's header:
// the parameters in force at the ledger milestone. Raw is the parameters' bytes as the file
// holds them; Params is their decoding.
type ProtocolParamsOption struct {
	TargetIndex     uint32
	ProtocolVersion uint8
	Params          chain.ProtocolParameters
	Raw             []byte
}

// FullHeader is a full file's header. The ledger (the outputs) is the one at LedgerIndex;
// the diffs roll it back to TargetIndex, whose SEPs the file holds.
type FullHeader struct {
	GenesisIndex, TargetIndex, TargetTimestamp uint32
	TargetMilestoneID                          chain.MilestoneID
	LedgerIndex                                uint32
	TreasuryMilestoneID                        chain.MilestoneID
	TreasuryAmount                             uint64
	Protocol                                   ProtocolParamsOption
	OutputCount                                uint64
	DiffCount                                  uint32
	SEPCount                                   uint16
}

// DeltaHeader is a delta file's header. Its diffs run from the full file's target + 1 to
// TargetIndex; SEPOffset is the offset of the first SEP from the start of the file.
type DeltaHeader struct {
	TargetIndex, TargetTimestamp uint32
	FullTargetMilestoneID        chain.MilestoneID
	SEPOffset                    int64
	DiffCount                    uint32
	SEPCount                     uint16
}

// Output is one output entry as the file holds it; Raw is its TIP-18 bytes (decoded by
// Ledger).
type Output struct {
	OutputID                     chain.OutputID
	BlockID                      chain.MessageID
	BookedIndex, BookedTimestamp uint32
	Raw                          []byte

	at place // where the reader found it; zero for one built by the caller
}

// Spent is a consumed output of a diff: the output and the transaction that spent it. Its
// spending milestone is the diff's.
type Spent struct {
	Output
	SpentBy chain.TransactionID
}

// TreasuryInput is the treasury output a receipt milestone spent.
type TreasuryInput struct {
	MilestoneID chain.MilestoneID
	Amount      uint64
}

// Diff is what one milestone did to the ledger. RawMilestone is the milestone payload's
// bytes as the file holds them (TIP-29, starting with payload type 7) and Milestone their
// decoding. Treasury is set exactly when the milestone has a receipt.
type Diff struct {
	Milestone    *chain.MilestonePayload
	RawMilestone []byte
	Treasury     *TreasuryInput
	Created      []Output
	Consumed     []Spent
}

// Index is the milestone's index (Milestone must be set, as it is in every diff the reader
// returns).
func (d *Diff) Index() uint32 { return d.Milestone.Index }

// entryLen is the size of an output entry in the file.
func (o *Output) entryLen() int64 { return outputHeadLen + int64(len(o.Raw)) }
