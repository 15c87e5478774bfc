package node

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// errBehind marks a node whose confirmed milestone is below the one asked: another
// node, or this one later, can serve it.
var errBehind = fmt.Errorf("%w: the node has not confirmed the milestone yet", errUnavailable)

// Milestone reads confirmed milestone index from one node and verifies it against the
// network; a node that fails is benched and the next one asked, and a node that takes
// too long gets company: the milestone is also asked from the next node (hedge), and
// the first answer that passes verification is used. It fails only when every node
// failed: with a refusal when every node refused (source.ErrNotHeld when none holds the
// milestone), else with an error worth retrying. Meanwhile the next milestones are read
// ahead (readAhead).
func (s *Source) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	release := s.book.reserve(index)
	defer release()
	vm, ok, waited, idle := s.ahead.take(ctx, index)
	s.readAhead(ctx, index)
	s.ahead.adapt(waited, s.queued(), idle)
	if ok {
		return vm, nil
	}
	return s.milestone(ctx, index, true)
}

// readAhead starts reading the milestones after index that the read-ahead plans, none
// above the highest milestone a node confirmed. They run on ctx: the asker's. They are
// not hedged: they wait for slots behind the milestones asked, by design.
func (s *Source) readAhead(ctx context.Context, index uint32) {
	tip, ok := s.knownTip()
	if !ok {
		return
	}
	planned := s.ahead.plan(index, tip)
	for _, i := range slices.Sorted(maps.Keys(planned)) {
		release := s.book.reserve(i)
		go func() {
			defer release()
			planned[i].finish(s.milestone(ctx, i, false))
		}()
	}
}

// knownTip is the highest confirmed milestone of the nodes' last status, if any.
func (s *Source) knownTip() (uint32, bool) {
	var tip uint32
	found := false
	for _, m := range s.members {
		if known, confirmed, _ := m.health.snapshot(); known && !m.health.isForeign() {
			tip, found = max(tip, confirmed), true
		}
	}
	return tip, found
}

// queued tells whether requests wait for their node's limit on every node that sits in.
func (s *Source) queued() bool {
	now := time.Now()
	any := false
	for _, m := range s.members {
		if m.health.benched(now) {
			continue
		}
		if !m.c.gate.queued() {
			return false
		}
		any = true
	}
	return any
}

// milestone reads index from the nodes that confirmed it, in order; hedged, from the
// next node too when a read takes longer than the hedge delay.
func (s *Source) milestone(ctx context.Context, index uint32, hedged bool) (*chain.VerifiedMilestone, error) {
	net, err := s.Network(ctx)
	if err != nil {
		return nil, err
	}
	var failed []error
	var nodes []*member
	for _, m := range s.order(index) {
		if m.health.behind(index) {
			failed = append(failed, fmt.Errorf("node %s: %w", m.host, errBehind))
			continue
		}
		nodes = append(nodes, m)
	}
	return s.race(ctx, index, net, nodes, failed, hedged)
}

// attempt is one node's read of a milestone.
type attempt struct {
	m   *member
	vm  *chain.VerifiedMilestone
	err error
}

// race asks nodes for milestone index one after the other: the next when one fails,
// and, hedged, also the next when none answered within the hedge delay. The first
// verified answer is used and the other reads are cancelled.
func (s *Source) race(ctx context.Context, index uint32, net chain.Network, nodes []*member,
	failed []error, hedged bool) (*chain.VerifiedMilestone, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan attempt, len(nodes))
	next, running := 0, 0
	launch := func() {
		m := nodes[next]
		next, running = next+1, running+1
		go func() {
			start := time.Now()
			vm, err := m.Milestone(withMilestone(ctx, index), index, net)
			if err == nil {
				s.hedge.took(time.Since(start))
			}
			results <- attempt{m, vm, err}
		}()
	}
	timer := time.NewTimer(s.hedge.delay())
	defer timer.Stop()
	if !hedged {
		timer.Stop()
	}
	for {
		if running == 0 {
			if next == len(nodes) {
				return nil, allFailed(index, failed)
			}
			launch()
		}
		select {
		case <-timer.C:
			if next < len(nodes) {
				nodes[next].c.m.hedges.Inc()
				launch()
			}
			timer.Reset(s.hedge.delay())
		case a := <-results:
			running--
			if a.err == nil {
				s.recovered(a.m)
				s.referencedBy(a.vm.Confirmed())
				return a.vm, nil
			}
			if ctx.Err() != nil || !attributable(a.err) {
				return nil, a.err
			}
			if !errors.Is(a.err, source.ErrNotHeld) { // a pruned node is healthy: it serves what it holds
				s.bench(a.m, a.err)
			}
			failed = append(failed, fmt.Errorf("node %s: %w", a.m.host, a.err))
		}
	}
}

// referencedBy drops the blocks cm referenced from the pending blocks.
func (s *Source) referencedBy(cm *chain.ConfirmedMilestone) {
	ids := make([]chain.MessageID, len(cm.Messages))
	for i, rm := range cm.Messages {
		ids[i] = rm.ID
	}
	s.events.pending.referencedNow(ids...)
}

// order is the nodes to ask for a milestone: the healthy ones first, starting from the
// next in turn so that the milestones read at once spread over them, then the benched
// ones as a last resort. Nodes of another network are left out.
func (s *Source) order(index uint32) []*member {
	now := time.Now()
	var healthy, benched []*member
	for _, m := range s.members {
		if m.health.benched(now) {
			if !m.health.isForeign() {
				benched = append(benched, m)
			}
			continue
		}
		healthy = append(healthy, m)
	}
	if len(healthy) > 0 {
		k := int(s.next.Add(1)) % len(healthy)
		healthy = append(healthy[k:], healthy[:k]...)
	}
	return append(healthy, benched...)
}

// allFailed is the error of a milestone no node served. A refusal is returned only when
// every node refused: a lie before a node's "not held", as the lie is the news.
func allFailed(index uint32, failed []error) error {
	var retry, refused []error
	for _, err := range failed {
		var r *source.Refusal
		if errors.As(err, &r) {
			refused = append(refused, err)
		} else {
			retry = append(retry, err)
		}
	}
	switch {
	case len(failed) == 0:
		return fmt.Errorf("milestone %d: %w: every node serves another network", index, errUnavailable)
	case len(retry) > 0:
		return fmt.Errorf("milestone %d: no node served it%s: %w", index, refusals(refused), errors.Join(retry...))
	}
	for _, err := range refused {
		if !errors.Is(err, source.ErrNotHeld) {
			return err
		}
	}
	return refused[0]
}

// refusals names the refusals met on the way, without wrapping them: the error they
// go into is one worth retrying.
func refusals(errs []error) string {
	if len(errs) == 0 {
		return ""
	}
	texts := make([]string, len(errs))
	for i, err := range errs {
		texts[i] = err.Error()
	}
	return " (refused: " + strings.Join(texts, "; ") + ")"
}
