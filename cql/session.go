package cql

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/internal/wait"
)

// Session wraps a gocql session: every query takes a context, the number of queries in
// flight is capped (gocql fails at once with "no streams available" instead of waiting),
// and idempotent statements are retried with a context-aware backoff.
type Session struct {
	g        *gocql.Session
	cfg      Config
	inFlight chan struct{}
	spec     gocql.SpeculativeExecutionPolicy // of reads (nil: none)
	// OnRetry, if set, is told about each retry (metrics, logs).
	OnRetry func(st *Statement, attempt int, err error)
}

// Open connects to the cluster.
func Open(cfg Config) (*Session, error) {
	if err := cfg.checkTLSFiles(); err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg, err)
	}
	g, err := createSession(cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg, err)
	}
	return Wrap(g, cfg), nil
}

// createSession opens a driver session; its error is explained (explainConnect). Over TLS
// a refused client certificate reaches the driver as a TLS alert only after the handshake
// looked complete to the client, so the driver may report the refusal as a connection
// startup that got no answer; one more attempt then gets the node's own reason.
func createSession(cfg Config) (*gocql.Session, error) {
	g, err := cfg.Cluster().CreateSession()
	if err == nil {
		return g, nil
	}
	err = explainConnect(cfg, err)
	if !cfg.usesTLS() || Classify(err) == ClassAuth {
		return nil, err
	}
	time.Sleep(200 * time.Millisecond)
	g, again := cfg.Cluster().CreateSession()
	if again == nil {
		return g, nil
	}
	if again = explainConnect(cfg, again); Classify(again) == ClassAuth {
		return nil, again
	}
	return nil, err
}

// OpenSchema opens a session for schema changes: every statement goes to one coordinator
// (the first of cfg.Hosts that answers), with a per-attempt timeout long enough for DDL
// on a busy node. On a multi-node Cassandra 5.0 cluster, DDL spread over several
// coordinators fails once a node has learned a materialized view through a schema push
// ("Partition key column mismatch ... ReversedType"): one coordinator avoids it.
func OpenSchema(cfg Config) (*Session, error) {
	if err := cfg.checkTLSFiles(); err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg, err)
	}
	var errs []error
	for _, host := range cfg.Hosts {
		c := cfg
		c.Hosts, c.Timeout = []string{host}, max(cfg.Timeout, time.Minute)
		cl := c.Cluster()
		cl.DisableInitialHostLookup = true
		g, err := cl.CreateSession()
		if err == nil {
			return Wrap(g, c), nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", host, explainConnect(c, err)))
	}
	return nil, fmt.Errorf("no coordinator for schema changes in %s: %w", cfg, errors.Join(errs...))
}

// SchemaSession opens a driver session for schema changes on keyspace ("" for none)
// through one coordinator (see OpenSchema): what migrations.Apply opens with.
func (c Config) SchemaSession(keyspace string) (*gocql.Session, error) {
	c.Keyspace = keyspace
	s, err := OpenSchema(c)
	if err != nil {
		return nil, err
	}
	return s.Gocql(), nil
}

// Wrap adopts an open gocql session.
func Wrap(g *gocql.Session, cfg Config) *Session {
	if cfg.MaxInFlight < 1 {
		cfg.MaxInFlight = DefaultMaxInFlight
	}
	return &Session{g: g, cfg: cfg, inFlight: make(chan struct{}, cfg.MaxInFlight), spec: speculation(cfg)}
}

// MaxInFlight is the cap on queries in flight (Config.MaxInFlight).
func (s *Session) MaxInFlight() int { return cap(s.inFlight) }

// Gocql exposes the driver session (migrations, schema checks).
func (s *Session) Gocql() *gocql.Session { return s.g }

// Close closes the driver session.
func (s *Session) Close() { s.g.Close() }

// Write runs an insert/update/delete with a client timestamp taken from chain order, so
// a replayed older write can never overwrite newer state. ts is in microseconds.
func (s *Session) Write(ctx context.Context, st *Statement, ts int64, args ...any) error {
	return s.doArgs(ctx, st, len(args), func() error {
		return s.g.Query(st.CQL, args...).WithContext(ctx).WithTimestamp(ts).Idempotent(st.Idempotent).Exec()
	})
}

// Exec runs a statement with the driver's client timestamp, or the coordinator's for a
// statement marked ServerTimestamp (analytics, metadata).
func (s *Session) Exec(ctx context.Context, st *Statement, args ...any) error {
	return s.doArgs(ctx, st, len(args), func() error {
		q := s.g.Query(st.CQL, args...).WithContext(ctx).Idempotent(st.Idempotent)
		if st.ServerTimestamp {
			q = q.DefaultTimestamp(false)
		}
		return q.Exec()
	})
}

// Scan reads one row into dest; gocql.ErrNotFound when there is none.
func (s *Session) Scan(ctx context.Context, st *Statement, args []any, dest ...any) error {
	return s.doArgs(ctx, st, len(args), func() error {
		err := s.read(ctx, st, args).Scan(dest...)
		if err == nil {
			countRows(ctx, 1)
		}
		return err
	})
}

// CAS runs a lightweight transaction once (never retried: it is not idempotent) and
// reports whether it applied; when it did not, current holds the row's columns as the
// server returned them.
func (s *Session) CAS(ctx context.Context, st *Statement, args ...any) (applied bool, current map[string]any, err error) {
	err = s.doArgs(ctx, st, len(args), func() error {
		current = map[string]any{}
		var err error
		applied, err = s.g.Query(st.CQL, args...).WithContext(ctx).MapScanCAS(current)
		return err
	})
	return applied, current, err
}

// Batch is an unlogged batch for statements that share one partition key: it is
// routed to that partition's replicas and applied atomically there.
type Batch struct {
	entries []batchEntry
}

type batchEntry struct {
	st   *Statement
	args []any
}

// Add appends a statement to the batch.
func (b *Batch) Add(st *Statement, args ...any) { b.entries = append(b.entries, batchEntry{st, args}) }

// Len is the number of statements in the batch.
func (b *Batch) Len() int { return len(b.entries) }

// WriteBatch runs b as one unlogged batch at timestamp ts.
func (s *Session) WriteBatch(ctx context.Context, b *Batch, ts int64) error {
	if len(b.entries) == 0 {
		return nil
	}
	if len(b.entries) == 1 {
		return s.Write(ctx, b.entries[0].st, ts, b.entries[0].args...)
	}
	for _, e := range b.entries {
		if err := checkBinds(e.st, len(e.args)); err != nil {
			return err
		}
	}
	return s.doArgs(ctx, b.entries[0].st, -1, func() error {
		gb := s.g.NewBatch(gocql.UnloggedBatch).WithContext(ctx).WithTimestamp(ts)
		for _, e := range b.entries {
			gb.Query(e.st.CQL, e.args...)
		}
		return s.g.ExecuteBatch(gb)
	})
}

// doArgs runs a statement called with n values (-1: checked by the caller), holding an
// in-flight slot for one attempt at a time, and retries retryable errors of idempotent
// statements with exponential backoff and jitter.
func (s *Session) doArgs(ctx context.Context, st *Statement, n int, run func() error) error {
	if err := checkBinds(st, n); n >= 0 && err != nil {
		return err
	}
	var err error
	for attempt := 0; ; attempt++ {
		if err = s.attempt(ctx, run); err == nil {
			return nil
		}
		if !st.Idempotent || !Retryable(err) || attempt >= s.retries(ctx) {
			return fmt.Errorf("%s: %w", st.Name, explainQuery(err))
		}
		if s.OnRetry != nil {
			s.OnRetry(st, attempt+1, err)
		}
		if werr := wait.Sleep(ctx, backoff(attempt)); werr != nil {
			return fmt.Errorf("%s: %w (last error: %w)", st.Name, werr, err)
		}
	}
}

func (s *Session) attempt(ctx context.Context, run func() error) error {
	select {
	case s.inFlight <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.inFlight }()
	return run()
}

// checkBinds refuses n values for a statement of another number of bind markers.
func checkBinds(st *Statement, n int) error {
	if n != st.Binds {
		return fmt.Errorf("%s: %d values for %d bind markers", st.Name, n, st.Binds)
	}
	return nil
}

// backoff is 50ms·2^attempt capped at 5s, with ±50% jitter so retries spread out.
func backoff(attempt int) time.Duration {
	d := 50 * time.Millisecond << min(attempt, 7)
	d = min(d, 5*time.Second)
	return d/2 + time.Duration(rand.Int64N(int64(d)))
}
