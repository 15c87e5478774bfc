package ingest

import (
	"fmt"
	"time"
)

// Config tunes the pipeline.
type Config struct {
	NodeID     int8   // written to sync.synced_by
	LoggedBy   int8   // written to sync.logged_by when not 0: milestones imported from an archive
	Start      uint32 // first milestone to index (default 1)
	FetchAhead int    // milestones fetched from the source ahead of the writers
	// Window is how many milestones are written at once. Their writes share the adaptive
	// write limit, which bounds the load; the Window only has to be wide enough that the
	// milestones' tails (a milestone waits for its slowest write before its sync row) do
	// not leave the limit unused: 4 left a tenth of a fast node's throughput unused.
	Window int
	// WriteParallel is where the write limiter starts (default StartWrites; with
	// FixedWrites, DefaultFixedWrites): write groups in flight over all the
	// milestones in flight. The limiter then moves it within [MinWrites, the session's
	// CQL_MAX_IN_FLIGHT] to where the writes' throughput stops growing (see package
	// adaptive), unless FixedWrites.
	WriteParallel int
	FixedWrites   bool // keep WriteParallel groups in flight, whatever the latency
	// ReadProbe is how often the read guard times a small read of the database to cap
	// the write limit while reads are slow (default DefaultReadProbe; negative: no guard,
	// for a keyspace nothing reads while it is written, such as a first backfill).
	ReadProbe    time.Duration
	Follow       bool          // after the gaps, keep following the tip
	PollInterval time.Duration // how often to ask the source for a new tip
	Unreferenced bool          // also write not-yet-referenced messages while following
	// StopAt, when non-zero, stops after this milestone (backfill a fixed range).
	StopAt uint32
	// Claim is the block of milestones a node claims at a time (the same on every node
	// sharing the keyspace); ClaimTTL frees a dead node's block.
	Claim    uint32
	ClaimTTL time.Duration
	// Owner names this node in lease rows (default "node-<NodeID>"); unique per process.
	Owner string
	// GapCheck is how often a following node rereads all of sync for gaps (a re-sync
	// requested elsewhere, a block a dead node left); between, it reads only from its floor.
	GapCheck time.Duration
	// UnavailableRetry is how often milestones the source refused as not held (recorded
	// in the store, skipped meanwhile) are asked for again (default an hour).
	UnavailableRetry time.Duration
	// StopGrace is how long the milestones being written when Run's context ends may take
	// to finish (default 30 s): a stop leaves no milestone half written unless it takes
	// longer. Nothing new is fetched or started after the context ends.
	StopGrace time.Duration
}

func (c *Config) defaults() {
	c.Start = max(c.Start, 1)
	if c.FetchAhead < 1 {
		c.FetchAhead = 8
	}
	if c.Window < 1 {
		c.Window = DefaultWindow
	}
	if c.ReadProbe == 0 {
		c.ReadProbe = DefaultReadProbe
	}
	if c.WriteParallel < 1 {
		c.WriteParallel = StartWrites
		if c.FixedWrites {
			c.WriteParallel = DefaultFixedWrites
		}
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.Claim == 0 {
		c.Claim = 1000
	}
	if c.ClaimTTL < time.Second {
		c.ClaimTTL = 30 * time.Second
	}
	if c.Owner == "" {
		c.Owner = fmt.Sprintf("node-%d", c.NodeID)
	}
	if c.GapCheck <= 0 {
		c.GapCheck = time.Minute
	}
	if c.UnavailableRetry <= 0 {
		c.UnavailableRetry = time.Hour
	}
	if c.StopGrace <= 0 {
		c.StopGrace = 30 * time.Second
	}
}

// DefaultWindow is Config.Window's default.
const DefaultWindow = 16

// StartWrites is where the adaptive write limit starts by default: low enough that it
// climbs to the database's first knee while each step up still pays (package adaptive),
// not so low that the climb costs much: the ladder's middle between 4 and 256, where a
// modelled node reaches more of its best in a short run than from 8
// (docs/decisions/001-adaptive-write-limit.md).
const StartWrites = 32

// DefaultFixedWrites is the write groups in flight with FixedWrites, by default.
const DefaultFixedWrites = 64

// MinWrites is the write limiter's floor: below it a milestone's latency, not the
// database, would bound the pipeline.
const MinWrites = 4

// hintsKept is how many written hints the pipeline remembers per generation (at most 2 x
// this many in all, under 2 MB): a busy address's hint is skipped as long as it keeps
// appearing, a one-off's ages out and at worst is written again (idempotent).
const hintsKept = 1 << 12
