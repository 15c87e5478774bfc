package node

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Source reads confirmed milestones from one or more nodes of a network
// (source.Source). Each milestone is read from one node, chosen round-robin among the
// healthy ones that confirmed it; a node that fails is benched and the milestone read
// again from another.
type Source struct {
	members []*member
	next    atomic.Uint32
	metrics *metrics

	mu  sync.Mutex
	net *chain.Network // the network every node must serve, once read

	events  *eventHub
	brokers []broker // the event APIs Listen listens to

	ahead *readAhead // milestones read before they are asked for
	book  *walkBook  // the cone walks of the members
	hedge *hedge     // when a milestone is asked from a second node
}

var _ source.Source = (*Source)(nil)

// New checks the configuration; it does not contact the nodes yet.
func New(cfg Config) (*Source, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	brokers, err := brokersOf(cfg)
	if err != nil {
		return nil, err
	}
	s := &Source{metrics: newMetrics(), events: newEventHub(), brokers: brokers}
	outputs, reached := newOutputCache(cfg.OutputCache), newReachedCache(reachedCacheSize)
	s.metrics.cachedOutputs = cachedOutputsGauge(outputs)
	blocks, book := newBlockCache(), newWalkBook()
	s.book = book
	for _, raw := range cfg.URLs {
		one := cfg
		one.URL, one.URLs = raw, nil
		host := hostOf(raw)
		m := &member{cfg: one, host: host, c: newClient(one, s.metrics.of(host)), outputs: outputs, reached: reached,
			blocks: blocks, book: book}
		m.c.answered = func(d time.Duration) { s.sawAnswer(m, d) }
		s.members = append(s.members, m)
	}
	s.ahead = newReadAhead(cfg.ReadAhead)
	s.hedge = newHedge(cfg.HedgeAfter)
	return s, nil
}

// hostOf is the host[:port] of a checked URL.
func hostOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}

// Unreferenced returns the blocks the event API announced that no milestone referenced
// yet, oldest first (none with events off: the REST API has no route listing them).
func (s *Source) Unreferenced(context.Context, uint32) ([]chain.UnreferencedMessage, error) {
	return s.events.pending.list(), nil
}

// NewMilestones receives when an event said a milestone was confirmed, and shortly after
// new pending blocks arrived (never with events off): the follower asks Latest and
// writes the pending blocks at once instead of at its next poll.
func (s *Source) NewMilestones() <-chan struct{} {
	if len(s.brokers) == 0 {
		return nil
	}
	return s.events.wake
}

// attributable tells whether err is the node's doing: it was unavailable, refused, or
// answered what fails verification. Any other error (the context, the keyspace) is not.
func attributable(err error) bool {
	var refusal *source.Refusal
	return errors.Is(err, errUnavailable) || errors.As(err, &refusal)
}

// bench leaves m out a while after err.
func (s *Source) bench(m *member, err error) { s.benched(m, m.health.bench(time.Now()), err) }

// benched counts and logs that m sits out for d after err.
func (s *Source) benched(m *member, d time.Duration, err error) {
	m.c.m.benches.Inc()
	m.c.m.benched.Set(1)
	slog.Warn("node benched", "node", m.host, "for", d, "err", err)
}

// recovered ends m's bench after an answer that succeeded.
func (s *Source) recovered(m *member) {
	if m.health.recovered() {
		m.c.m.benched.Set(0)
		slog.Info("node back", "node", m.host)
	}
}
