package ops

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

const (
	// ProbeEvery is the least time between two refreshes of a probe's value.
	ProbeEvery = time.Second
	// ProbeTimeout bounds one refresh.
	ProbeTimeout = 2 * time.Second
)

// Probe is a value read from the database and served from memory: refreshed at most
// once per ProbeEvery, by one goroutine at a time under ProbeTimeout, whatever the
// number of requests. A refresh's error is logged; requests see only that it failed.
type Probe[T any] struct {
	name string
	read func(context.Context) (T, error)
	mu   sync.Mutex
	at   time.Time     // when the last refresh started; zero: never
	v    T             // the last refresh's value
	err  error         // and its error
	done chan struct{} // closed when the running refresh ends; nil: none runs
}

func NewProbe[T any](name string, read func(context.Context) (T, error)) *Probe[T] {
	return &Probe[T]{name: name, read: read}
}

// Get answers the last value, starting a refresh first when it is older than
// ProbeEvery and waiting for it (or for ctx).
func (p *Probe[T]) Get(ctx context.Context) (T, error) {
	p.mu.Lock()
	if p.done == nil && (p.at.IsZero() || time.Since(p.at) >= ProbeEvery) {
		p.done, p.at = make(chan struct{}), time.Now()
		go p.refresh(p.done)
	}
	done, v, err := p.done, p.v, p.err
	p.mu.Unlock()
	if done == nil { // fresh
		return v, err
	}
	select {
	case <-done:
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.v, p.err
}

func (p *Probe[T]) refresh(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), ProbeTimeout)
	defer cancel()
	v, err := p.read(ctx)
	if err != nil {
		slog.Warn("probe failed", "probe", p.name, "error", err)
	}
	p.mu.Lock()
	p.v, p.err, p.done = v, err, nil
	p.mu.Unlock()
	close(done)
}
