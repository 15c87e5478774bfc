package rest

import (
	"fmt"
	"net/http"
	"net/netip"
	"sync"
)

// ClientCaps counts what clients hold open (live streams, event connections), in all
// and per client, under a cap on each.
type ClientCaps struct {
	mu        sync.Mutex
	max, each int
	total     int
	per       map[netip.Addr]int
	what      string // what is counted, plural ("live streams")
	hint      string // what a refused client may do
}

// NewClientCaps caps what at most max in all and each per client; hint ends a refusal.
func NewClientCaps(max, each int, what, hint string) *ClientCaps {
	return &ClientCaps{max: max, each: each, per: map[netip.Addr]int{}, what: what, hint: hint}
}

// The caps a refusal names (CapRefusal.Cap; metrics' reason label).
const (
	CapPerClient = "per-client"
	CapTotal     = "total"
)

// CapRefusal is a 429 past a cap, and which cap it was.
type CapRefusal struct {
	*APIError
	Cap string // CapPerClient or CapTotal
}

// Admit takes a place for client, or refuses it (429) past a cap; release gives the
// place back, once however often it is called.
func (c *ClientCaps) Admit(client netip.Addr) (release func(), refused *CapRefusal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.per[client] >= c.each:
		return nil, c.refusal(CapPerClient, "this client has %d %s open, the most one may", c.each)
	case c.total >= c.max:
		return nil, c.refusal(CapTotal, "the server has %d %s open, the most it serves", c.max)
	}
	c.total++
	c.per[client]++
	var once sync.Once
	return func() { once.Do(func() { c.leave(client) }) }, nil
}

func (c *ClientCaps) leave(client netip.Addr) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.per[client]--; c.per[client] <= 0 {
		delete(c.per, client)
	}
}

// Open is the number of places taken.
func (c *ClientCaps) Open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

func (c *ClientCaps) refusal(cap, format string, n int) *CapRefusal {
	return &CapRefusal{Cap: cap, APIError: &APIError{Status: http.StatusTooManyRequests, Title: "too many " + c.what,
		Detail: fmt.Sprintf(format, n, c.what) + "; " + c.hint, RetryAfter: RetryAfterSeconds}}
}
