package sim

import (
	"cmp"
	"maps"
	"time"
)

// Fault makes one milestone structurally broken so tests can check that
// chain.Validate (and the ingest behind it) refuse it.
type Fault int

// Faults.
const (
	// FaultNone is the zero value: the milestone is healthy.
	FaultNone Fault = iota
	// FaultUnknownInput adds an included transaction spending an output
	// that never existed.
	FaultUnknownInput
	// FaultOversized adds a tagged-data message larger than 32 KiB.
	FaultOversized
	// FaultMalformedID serves a message whose stated ID does not match its
	// bytes (the chain itself stays intact).
	FaultMalformedID
	// FaultBadSignature serves the milestone with one signature byte flipped.
	FaultBadSignature
	// FaultIncompleteCone serves the milestone without the first message of its cone, as
	// a node that lost a block would: the inclusion Merkle root no longer matches.
	FaultIncompleteCone
)

func (f Fault) String() string {
	switch f {
	case FaultNone:
		return "none"
	case FaultUnknownInput:
		return "unknownInput"
	case FaultOversized:
		return "oversized"
	case FaultMalformedID:
		return "malformedId"
	case FaultBadSignature:
		return "badSignature"
	case FaultIncompleteCone:
		return "incompleteCone"
	}
	return "fault(?)"
}

// Options shape the generated chain. Zero fields take the defaults noted; a
// negative count or rate means none (e.g. ConflictRate: -1 for no
// conflicts). Equal options always give the same chain byte for byte.
type Options struct {
	Seed                 int64
	FirstIndex           uint32        // default 1
	MessagesPerMilestone int           // messages besides the milestone message; default 20
	TransactionRatio     float64       // share of messages carrying a transaction; default 0.5
	AddressPool          int           // distinct Ed25519 addresses; default 500
	TagPool              int           // distinct tags; default 50
	MilestoneInterval    time.Duration // default 10s
	Genesis              time.Time     // timestamp of milestone FirstIndex; default 2022-10-01T00:00:00Z
	LegacyGenesisOutputs int           // legacy outputs created in milestone FirstIndex; default 100
	ConflictRate         float64       // share of transactions that conflict; default 0.02
	ReattachRate         float64       // share of messages re-attaching an included transaction; default 0.02
	// Tip is how many milestones exist (FirstIndex..FirstIndex+Tip-1);
	// 0 means unbounded.
	Tip    uint32
	Faults map[uint32]Fault
	// Receipts makes the milestones it names carry a receipt option (TIP-34): milestone
	// index -> the legacy milestone index its funds migrated at. Nil: no receipts.
	Receipts map[uint32]uint32
	// Retain bounds memory on long chains: only the newest Retain generated milestones
	// (and the spent outputs they refer to) are kept; asking for an older one generates
	// the chain again from FirstIndex (same bytes, slow). 0 keeps everything, which
	// Truth needs. Values below minRetain are raised to it.
	Retain uint32
	// SpendableOutputs, when positive, keeps the simulated wallets' spendable basic outputs
	// near it: while they hold more, a transfer gathers more inputs and pays one recipient,
	// so spends outpace creations. The outputs a spend reaches back for then come from a
	// pool of steady size, as on a network at steady state, and a long run's load stays
	// level. 0: the pool grows as the transfers leave it.
	SpendableOutputs int
}

// minRetain keeps the milestones generation itself looks back at (parents of the last
// few milestones, re-attachments of the previous one's transactions).
const minRetain = 2 * recentMilestones

func (o Options) withDefaults() Options {
	o.FirstIndex = cmp.Or(o.FirstIndex, 1)
	o.MessagesPerMilestone = cmp.Or(o.MessagesPerMilestone, 20)
	o.TransactionRatio = cmp.Or(o.TransactionRatio, 0.5)
	o.AddressPool = cmp.Or(o.AddressPool, 500)
	o.TagPool = cmp.Or(o.TagPool, 50)
	o.MilestoneInterval = cmp.Or(o.MilestoneInterval, 10*time.Second)
	if o.Genesis.IsZero() {
		o.Genesis = time.Date(2022, 10, 1, 0, 0, 0, 0, time.UTC)
	}
	o.LegacyGenesisOutputs = cmp.Or(o.LegacyGenesisOutputs, 100)
	o.ConflictRate = cmp.Or(o.ConflictRate, 0.02)
	o.ReattachRate = cmp.Or(o.ReattachRate, 0.02)
	if o.Retain > 0 {
		o.Retain = max(o.Retain, minRetain)
	}
	o.Faults = maps.Clone(o.Faults) // the caller may keep editing theirs
	o.Receipts = maps.Clone(o.Receipts)
	return o.negativesAsNone()
}

func (o Options) negativesAsNone() Options {
	o.MessagesPerMilestone = max(o.MessagesPerMilestone, 0)
	o.LegacyGenesisOutputs = max(o.LegacyGenesisOutputs, 0)
	o.TransactionRatio = max(o.TransactionRatio, 0)
	o.ConflictRate = max(o.ConflictRate, 0)
	o.ReattachRate = max(o.ReattachRate, 0)
	o.AddressPool = max(o.AddressPool, 1)
	o.TagPool = max(o.TagPool, 1)
	o.SpendableOutputs = max(o.SpendableOutputs, 0)
	return o
}
