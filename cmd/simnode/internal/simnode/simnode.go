// Package simnode runs the simulated chain (source/sim) as a fake Hornet node of its own
// (source/node/nodetest): TIP-25 REST and TIP-28 events at a given address, one new
// milestone confirmed every interval, the oldest forgotten past a retain window. An
// indexer reads it with -source node, so that its memory is its own and not the chain's.
// cmd/simnode is its command.
package simnode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// Config shapes the node.
type Config struct {
	Addr     string        // where it listens (host:port; port 0: any free one)
	Every    time.Duration // a new milestone every (0: none, the chain stays at Backfill)
	Backfill uint32        // milestones confirmed at start (at least 2)
	// Retain is how many milestones the node holds; older ones are pruned and forgotten,
	// so memory stays bounded however long it runs (0: all are kept).
	Retain uint32
	Sim    sim.Options // Seed, MessagesPerMilestone, TransactionRatio, MilestoneInterval, SpendableOutputs
}

// Node is a running simulated node.
type Node struct {
	cfg Config
	srv *nodetest.Server
	src *sim.Sim
}

// ErrConfig names a configuration the node cannot run with.
var ErrConfig = errors.New("simnode: invalid configuration")

// Start generates the backfill, listens and starts the event API. Milestone 1 is pruned
// from the start: its genesis outputs come from no transaction, so a node source cannot
// read it (their creations are served through /outputs to the milestones spending them).
func Start(ctx context.Context, cfg Config) (*Node, error) {
	if cfg.Backfill < 2 {
		return nil, fmt.Errorf("%w: backfill %d, want at least 2", ErrConfig, cfg.Backfill)
	}
	if cfg.Retain != 0 && cfg.Retain < 2 {
		return nil, fmt.Errorf("%w: retain %d, want 0 (all) or at least 2", ErrConfig, cfg.Retain)
	}
	cfg.Sim.FirstIndex, cfg.Sim.Tip, cfg.Sim.Retain = 1, 0, 1 // asked in order only: keep the least
	src := sim.New(cfg.Sim)
	set, err := nodetest.FromSim(ctx, src, 1, cfg.Backfill)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("simnode: %w", err)
	}
	srv, err := nodetest.Listen(set, ln)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	n := &Node{cfg: cfg, srv: srv, src: src}
	if err := errors.Join(srv.SetPruningIndex(1), n.prune(), srv.StartEvents()); err != nil {
		srv.Close()
		return nil, err
	}
	return n, nil
}

// URL is the node's REST base URL, as -node-url takes it.
func (n *Node) URL() string { return n.srv.URL() }

// Confirmed is the newest milestone the node confirmed.
func (n *Node) Confirmed() uint32 { return n.srv.Confirmed() }

// Close stops serving.
func (n *Node) Close() { n.srv.Close() }

// Run confirms a new milestone every Config.Every until ctx ends (then it returns nil).
func (n *Node) Run(ctx context.Context) error {
	if n.cfg.Every <= 0 {
		<-ctx.Done()
		return nil
	}
	tick := time.NewTicker(n.cfg.Every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if err := n.Grow(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// Grow confirms the next milestone and forgets what falls out of the retain window.
func (n *Node) Grow(ctx context.Context) error {
	if _, err := n.srv.GrowSim(ctx, n.src); err != nil {
		return err
	}
	return n.prune()
}

// prune forgets the milestones below the newest Retain (never milestone 1's pruning).
func (n *Node) prune() error {
	tip := n.srv.Confirmed()
	if n.cfg.Retain == 0 || tip <= n.cfg.Retain+1 {
		return nil
	}
	return n.srv.Forget(tip - n.cfg.Retain)
}

// KeysJSON is the simulated network's milestone keys as the protocol section of a Hornet
// configuration: what `indexer run -source node -milestone-keys FILE` reads.
func KeysJSON() ([]byte, error) {
	type keyRange struct {
		Key   string `json:"key"`
		Start uint32 `json:"start"`
		End   uint32 `json:"end"`
	}
	keys := sim.Network().Keys
	doc := struct {
		Protocol struct {
			Count  int        `json:"milestonePublicKeyCount"`
			Ranges []keyRange `json:"publicKeyRanges"`
		} `json:"protocol"`
	}{}
	doc.Protocol.Count = keys.Threshold
	for _, kr := range keys.Ranges {
		doc.Protocol.Ranges = append(doc.Protocol.Ranges, keyRange{Key: fmt.Sprintf("0x%x", kr.PublicKey), Start: kr.Start, End: kr.End})
	}
	return json.MarshalIndent(doc, "", "  ")
}
