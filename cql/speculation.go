package cql

import (
	"context"

	"github.com/gocql/gocql"
)

// readSpeculations is how many more coordinators a slow read is sent to: with RF 3,
// every other replica of its partition.
const readSpeculations = 2

// speculation is the driver's speculative execution of reads under cfg (nil: none).
func speculation(cfg Config) gocql.SpeculativeExecutionPolicy {
	if cfg.ReadSpeculation <= 0 {
		return nil
	}
	return &gocql.SimpleSpeculativeExecution{NumAttempts: readSpeculations, TimeoutDelay: cfg.ReadSpeculation}
}

// read builds the query of a select run by Scan, Records, GetRecord or MapRows. An idempotent
// select is marked so (the driver speculates only for such queries) and, with
// Config.ReadSpeculation set, is sent to the next host of its plan each time that long
// passes without an answer; the first execution to end wins. Other statements keep one
// coordinator per attempt.
func (s *Session) read(ctx context.Context, st *Statement, args []any) *gocql.Query {
	q := s.g.Query(st.CQL, args...).WithContext(ctx).Idempotent(st.Idempotent)
	if s.spec != nil && st.Idempotent && st.Kind == Select {
		q = q.SetSpeculativeExecutionPolicy(s.spec)
	}
	return q
}

// replayPlan wraps a host selection policy so that a query's plan, once it has given
// every host it had, gives those hosts again, in turn, readSpeculations times at most.
// The driver ends an execution whose plan is empty at once with "no hosts available"
// and takes the first execution to end, error or not, as the query's answer: without
// the replay a speculative execution started when every live host was already tried
// (one node, or a node down) would fail a read that another execution was about to
// answer. The bound keeps a plan finite when every host it gives is down.
type replayPlan struct {
	gocql.HostSelectionPolicy
}

// Pick returns the wrapped plan followed by up to readSpeculations of its hosts again.
func (p replayPlan) Pick(q gocql.ExecutableQuery) gocql.NextHost {
	next := p.HostSelectionPolicy.Pick(q)
	var given []gocql.SelectedHost
	replayed, exhausted := 0, false
	return func() gocql.SelectedHost {
		if !exhausted {
			if h := next(); h != nil {
				given = append(given, h)
				return h
			}
			exhausted = true
		}
		if len(given) == 0 || replayed == readSpeculations {
			return nil
		}
		replayed++
		return given[(replayed-1)%len(given)]
	}
}

// AddHosts passes a batch of hosts on to a policy that takes them at once (the
// token-aware policy computes its replica map once for the batch).
func (p replayPlan) AddHosts(hosts []*gocql.HostInfo) {
	if bulk, ok := p.HostSelectionPolicy.(interface{ AddHosts([]*gocql.HostInfo) }); ok {
		bulk.AddHosts(hosts)
		return
	}
	for _, h := range hosts {
		p.AddHost(h)
	}
}
