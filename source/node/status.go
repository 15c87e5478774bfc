package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// ErrMixedNetworks refuses nodes that serve different networks (name, HRP or protocol
// parameters): their milestones cannot go into one keyspace.
var ErrMixedNetworks = errors.New("the nodes serve different networks")

// Network is the network the nodes serve, read from every node that answers; they
// must agree. A node that does not answer is benched and checked when it answers later.
func (s *Source) Network(ctx context.Context) (chain.Network, error) {
	if net, ok := s.network(); ok {
		return net, nil
	}
	var first *member
	var net chain.Network
	for i, ans := range s.infos(ctx) {
		m := s.members[i]
		if errors.Is(ans.err, errLeftOut) {
			continue
		}
		if ans.err != nil {
			if ctx.Err() != nil || !errors.Is(ans.err, errUnavailable) {
				return chain.Network{}, fmt.Errorf("node %s: %w", m.host, ans.err)
			}
			s.bench(m, ans.err)
			continue
		}
		got, err := describe(ans.info)
		if err != nil {
			return chain.Network{}, fmt.Errorf("node %s: %w", m.host, err)
		}
		if first != nil && !sameNetwork(net, got) {
			return chain.Network{}, fmt.Errorf("%w: %s serves %q (%s), %s serves %q (%s)", ErrMixedNetworks,
				first.host, net.Name, net.HRP, m.host, got.Name, got.HRP)
		}
		if first == nil {
			first, net = m, got
		}
	}
	if first == nil {
		return chain.Network{}, fmt.Errorf("reading the network: %w: no node answered", errUnavailable)
	}
	keys, err := first.keysFor(net.Name)
	if err != nil {
		return chain.Network{}, err
	}
	net.Keys = keys
	s.mu.Lock()
	defer s.mu.Unlock()
	s.net = &net
	s.events.knowNetwork(net)
	return net, nil
}

func (s *Source) network() (chain.Network, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.net == nil {
		return chain.Network{}, false
	}
	return *s.net, true
}

// sameNetwork compares what a keyspace records of a network.
func sameNetwork(a, b chain.Network) bool {
	return a.Name == b.Name && a.HRP == b.HRP && a.Params == b.Params && a.BaseToken == b.BaseToken
}

// Latest is the highest confirmed milestone a healthy node reports (any node that
// answered, when every node is benched) that the source believes: one at or below a
// milestone already verified, or one whose payload the reporting node serves with
// signatures that pass the network's keys. A report that fails is passed over for the
// next highest and its node benched, so a node claiming a far milestone never becomes
// the tip. Verifying costs one milestone payload per new tip.
func (s *Source) Latest(ctx context.Context) (uint32, error) {
	if err := s.refresh(ctx); err != nil {
		return 0, err
	}
	reports := s.reports()
	if len(reports) == 0 {
		return 0, fmt.Errorf("reading the nodes' status: %w: no node answered", errUnavailable)
	}
	for _, r := range reports {
		believed, err := s.earn(ctx, r)
		if err != nil {
			return 0, err
		}
		if believed {
			s.events.sawTip(r.confirmed) // the highest verified, the one earn compares with
			return r.confirmed, nil
		}
	}
	return 0, fmt.Errorf("reading the nodes' status: %w: no node's confirmed milestone passed verification", errUnavailable)
}

// report is one node's confirmed milestone.
type report struct {
	m         *member
	confirmed uint32
}

// reports are the healthy nodes' confirmed milestones (every answering node's when none
// is healthy), highest first.
func (s *Source) reports() []report {
	now := time.Now()
	for _, healthyOnly := range []bool{true, false} {
		var out []report
		for _, m := range s.members {
			known, confirmed, _ := m.health.snapshot()
			if !known || m.health.isForeign() || (healthyOnly && m.health.benched(now)) {
				continue
			}
			out = append(out, report{m, confirmed})
		}
		if len(out) > 0 {
			slices.SortStableFunc(out, func(a, b report) int { return cmp.Compare(b.confirmed, a.confirmed) })
			return out
		}
	}
	return nil
}

// earn tells whether r's milestone is believed: at or below the highest verified one, or
// fetched from r's node now and verified. A node whose milestone fails is benched; only
// a failure that is not the node's (the context, the network) is returned.
func (s *Source) earn(ctx context.Context, r report) (bool, error) {
	if r.confirmed <= s.events.tip.Load() {
		return true, nil
	}
	net, err := s.Network(ctx)
	if err != nil {
		return false, err
	}
	mp, err := r.m.milestonePayload(ctx, r.confirmed)
	if err == nil {
		if verr := net.Keys.Verify(mp); verr != nil {
			err = source.Refuse(fmt.Errorf("milestone %d fails verification: %w", r.confirmed, verr))
		}
	}
	if err != nil {
		if ctx.Err() != nil || !attributable(err) {
			return false, err
		}
		s.bench(r.m, fmt.Errorf("its confirmed milestone %d: %w", r.confirmed, err))
		return false, nil
	}
	return true, nil
}

// Oldest is the lowest oldest milestone held among the healthy nodes (their pruning
// index + 1; among all that answered when every node is benched).
func (s *Source) Oldest(ctx context.Context) (uint32, error) {
	if err := s.refresh(ctx); err != nil {
		return 0, err
	}
	now := time.Now()
	for _, healthyOnly := range []bool{true, false} {
		var best uint32
		found := false
		for _, m := range s.members {
			known, _, oldest := m.health.snapshot()
			if !known || m.health.isForeign() || (healthyOnly && m.health.benched(now)) {
				continue
			}
			if !found || oldest < best {
				best, found = oldest, true
			}
		}
		if found {
			return best, nil
		}
	}
	return 0, fmt.Errorf("reading the nodes' status: %w: no node answered", errUnavailable)
}

// refresh reads every node's /info: a node that answers records its status (and is
// left out for good when it serves another network), one that fails is benched. It
// fails only when no node answered, with the first node's error.
func (s *Source) refresh(ctx context.Context) error {
	net, checked := s.network()
	answered := false
	var firstErr error
	for i, ans := range s.infos(ctx) {
		m := s.members[i]
		if ans.err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if attributable(ans.err) {
				s.bench(m, ans.err)
			}
			firstErr = cmpOr(firstErr, fmt.Errorf("node %s: %w", m.host, ans.err))
			continue
		}
		if checked && !s.sameAs(m, ans.info, net) {
			continue
		}
		m.health.status(ans.info.Status.ConfirmedMilestone.Index, ans.info.Status.PruningIndex+1)
		answered = true
	}
	if answered {
		return nil
	}
	return firstErr
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// sameAs checks a node's /info against the network the source serves; a node of
// another network is left out for good.
func (s *Source) sameAs(m *member, info *infoJSON, net chain.Network) bool {
	got, err := describe(info)
	if err == nil && sameNetwork(net, got) {
		return true
	}
	if !m.health.isForeign() {
		m.health.markForeign()
		m.c.m.benched.Set(1)
		s.bench(m, fmt.Errorf("%w: it serves %q, the source %q", ErrMixedNetworks, info.Protocol.NetworkName, net.Name))
	}
	return false
}

// infoAnswer is one node's /info, or why it has none.
type infoAnswer struct {
	info *infoJSON
	err  error
}

// infos asks every node (but those of another network, and those benched while another
// is not: a hanging node must not hold up the others' status) for /info at once; there
// are as many requests as configured nodes.
func (s *Source) infos(ctx context.Context) []infoAnswer {
	answers := make([]infoAnswer, len(s.members))
	skip := s.benchedNow()
	var wg sync.WaitGroup
	for i, m := range s.members {
		if m.health.isForeign() || skip[m] {
			answers[i].err = errLeftOut
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i].info, answers[i].err = m.info(ctx)
		}()
	}
	wg.Wait()
	return answers
}

// errLeftOut marks a node not asked: benched, or of another network.
var errLeftOut = errors.New("node left out: benched or of another network")

// benchedNow are the benched nodes, or none when every node is benched.
func (s *Source) benchedNow() map[*member]bool {
	now := time.Now()
	benched := make(map[*member]bool)
	for _, m := range s.members {
		if m.health.benched(now) {
			benched[m] = true
		}
	}
	if len(benched) == len(s.members) {
		return nil
	}
	return benched
}
