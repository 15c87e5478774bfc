package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Media types of TIP-25 answers.
const (
	mimeBinary = "application/vnd.iota.serializer-v1"
	mimeJSON   = "application/json"
	apiBase    = "/api/core/v2"
	maxAnswer  = 4 << 20 // no answer of the routes used is near this: a bigger one is malformed
)

// client makes bounded, retried GET requests to the node. The bound adapts to the
// node's answers (inFlight); answered, if set, learns each answer's round trip.
type client struct {
	cfg      Config
	gate     *inFlight
	m        nodeMetrics
	answered func(time.Duration)
}

func newClient(cfg Config, m nodeMetrics) *client {
	return &client{cfg: cfg, gate: newInFlight(cfg.Concurrency), m: m}
}

// errUnavailable marks an answer worth retrying: a timeout, a 5xx, a lost connection.
var errUnavailable = errors.New("node unavailable")

// errNotFound marks a 404: the node does not hold what was asked (pruned, or never
// known). It is refused like every 4xx; a caller that knows the answer from elsewhere
// goes on without it.
var errNotFound = errors.New("404 Not Found")

// get fetches route (relative to /api/core/v2) in the given media type. It retries
// what may pass (errUnavailable) with backoff and refuses the rest (source.Refusal).
func (c *client) get(ctx context.Context, route, accept string) ([]byte, error) {
	backoff := 200 * time.Millisecond
	for attempt := 1; ; attempt++ {
		body, err := c.once(ctx, route, accept)
		if err == nil {
			return body, nil
		}
		if !errors.Is(err, errUnavailable) || attempt >= c.cfg.Attempts || ctx.Err() != nil {
			return nil, fmt.Errorf("GET %s%s: %w", apiBase, route, err)
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// getJSON fetches route as JSON into v; an answer that does not parse is refused.
func (c *client) getJSON(ctx context.Context, route string, v any) error {
	body, err := c.get(ctx, route, mimeJSON)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return source.Refuse(fmt.Errorf("GET %s%s: malformed JSON: %w", apiBase, route, err))
	}
	return nil
}

// once makes one request and counts it, and its failure, in the node's metrics.
func (c *client) once(ctx context.Context, route, accept string) ([]byte, error) {
	c.m.requests.Inc()
	body, err := c.request(ctx, route, accept)
	if err != nil && ctx.Err() == nil {
		c.m.errors.Inc()
	}
	return body, err
}

// request makes one request, holding one of the node's slots, and reports how it went:
// to the slots' limit (an unavailable answer means overload) and, for an answer the node
// gave (not a 5xx or 429), its round trip to answered.
func (c *client) request(ctx context.Context, route, accept string) ([]byte, error) {
	n, err := c.gate.acquire(ctx)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	body, err := c.roundTrip(ctx, route, accept)
	took := time.Since(start)
	switch {
	case ctx.Err() != nil:
		c.gate.release(n, 0, adaptive.Ignored)
	case errors.Is(err, errUnavailable):
		c.gate.release(n, took, adaptive.Overloaded)
	default:
		c.gate.release(n, took, adaptive.Done)
		if c.answered != nil {
			c.answered(took)
		}
	}
	return body, err
}

// roundTrip makes one request and reads its answer.
func (c *client) roundTrip(ctx context.Context, route, accept string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.URL+apiBase+route, nil)
	if err != nil {
		return nil, source.Refuse(err)
	}
	req.Header.Set("Accept", accept)
	if c.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	resp, err := c.cfg.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %w", errUnavailable, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: reading the answer: %w", errUnavailable, err)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("%w: %s: %s", errUnavailable, resp.Status, snippet(body))
	case resp.StatusCode == http.StatusNotFound:
		return nil, source.Refuse(fmt.Errorf("%w: %s", errNotFound, snippet(body)))
	case resp.StatusCode != http.StatusOK:
		return nil, source.Refuse(fmt.Errorf("%s: %s", resp.Status, snippet(body)))
	case len(body) > maxAnswer:
		return nil, source.Refuse(fmt.Errorf("answer larger than %d bytes", maxAnswer))
	}
	return body, nil
}

// snippet keeps an error body readable in a log line.
func snippet(b []byte) string {
	const limit = 200
	if len(b) > limit {
		return fmt.Sprintf("%q...", b[:limit])
	}
	return fmt.Sprintf("%q", b)
}
