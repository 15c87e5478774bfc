package api

import (
	"container/list"
	"math"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter keeps per client a token bucket, its requests in flight and waiting, and its
// open connections, in a map capped at MaxClients with its entries in least-recently-seen
// order, so that both the periodic sweep of idle clients and the eviction when full look
// only at the oldest ones. An IPv6 client also has an entry for its /48 (its site), whose
// bucket and connection cap the site's /64s share.
type limiter struct {
	cfg       Limits
	now       func() time.Time
	mu        sync.Mutex
	clients   map[netip.Prefix]*list.Element // of *clientState
	lru       *list.List                     // front: most recently seen
	lastSweep time.Time
	global    slots // MaxInFlight and its queue (under mu)
	held      int   // refusals being held, all clients (under mu)
}

type clientState struct {
	key     netip.Prefix
	bucket  *rate.Limiter // nil: no rate limit
	slots   slots         // in flight (ClientConcurrency) and waiting for a slot
	waiting int           // requests in the client's queue (for a token or a slot)
	held    int           // refusals being held
	conns   int           // connections open
	seen    time.Time
}

// busy: the client has requests in flight, waiting or held, or connections open, and is
// not forgotten.
func (c *clientState) busy() bool {
	return c.slots.used > 0 || c.waiting > 0 || c.held > 0 || c.conns > 0
}

// inDebt: the client was charged more tokens than its bucket held and has not paid
// them back yet (forgetting it would cancel the debt).
func (c *clientState) inDebt(now time.Time) bool {
	return c.bucket != nil && c.bucket.TokensAt(now) < 0
}

// maxEvictScan bounds the oldest clients looked at to make room for a new one: when all
// of them are busy or in debt, the new client is refused rather than the table walked.
const maxEvictScan = 256

func newLimiter(cfg Limits, now func() time.Time) *limiter {
	if cfg.Rate > 0 && cfg.Burst <= 0 {
		cfg.Burst = int(math.Ceil(2 * cfg.Rate))
	}
	if cfg.RowsPerToken == 0 {
		cfg.RowsPerToken = DefaultRowsPerToken
	}
	if cfg.MaxClients <= 0 {
		cfg.MaxClients = DefaultMaxClients
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = DefaultIdleAfter
	}
	if cfg.ClientQueue > 0 && cfg.QueueWait <= 0 {
		cfg.QueueWait = DefaultQueueWait
	}
	if cfg.GlobalQueue > 0 && cfg.GlobalQueueWait <= 0 {
		cfg.GlobalQueueWait = DefaultGlobalQueueWait
	}
	if cfg.Rate > 0 {
		// Forgetting a client gives it a full bucket: only forget one whose bucket is full.
		refill := time.Duration(float64(cfg.Burst) / cfg.Rate * float64(time.Second))
		cfg.IdleAfter = max(cfg.IdleAfter, refill+time.Second)
	}
	return &limiter{cfg: cfg, now: now, clients: map[netip.Prefix]*list.Element{}, lru: list.New(), lastSweep: now(),
		global: slots{limit: cfg.MaxInFlight, queue: cfg.GlobalQueue, standing: true}}
}

// keysOf are the entries a client id (clientID) has: its own and, for IPv6, its site's.
func keysOf(id netip.Addr) []netip.Prefix {
	if !id.Is6() {
		return []netip.Prefix{netip.PrefixFrom(id, id.BitLen())}
	}
	own, _ := id.Prefix(64)
	site, _ := id.Prefix(48)
	return []netip.Prefix{own, site}
}

// isSite says whether key is a site's entry (an IPv6 /48) rather than a client's.
func isSite(key netip.Prefix) bool { return key.Addr().Is6() && key.Bits() == 48 }

// entries finds or makes the entries of id (the client's first), marked seen now; nil
// when the table is full of clients it may not forget (under mu).
func (l *limiter) entries(id netip.Addr, now time.Time) []*clientState {
	if now.Sub(l.lastSweep) >= l.cfg.IdleAfter/2 {
		l.sweep(now)
	}
	keys := keysOf(id)
	out := make([]*clientState, 0, len(keys))
	for _, k := range keys {
		c := l.entry(k, now)
		if c == nil {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// entry finds or makes key's state and marks it seen now; with the map full it first
// forgets the least recently seen client that is neither busy nor in debt, and makes
// none when the oldest maxEvictScan are all kept.
func (l *limiter) entry(key netip.Prefix, now time.Time) *clientState {
	if e, ok := l.clients[key]; ok {
		l.lru.MoveToFront(e)
		c := e.Value.(*clientState)
		c.seen = now
		return c
	}
	if len(l.clients) >= l.cfg.MaxClients && !l.evictOne(now) {
		return nil
	}
	c := &clientState{key: key, seen: now, slots: slots{limit: l.cfg.ClientConcurrency, queue: l.cfg.ClientQueue}}
	if isSite(key) {
		c.slots.limit = 0 // a site shares its clients' rate and connections, not their slots
	}
	if l.cfg.Rate > 0 {
		share := 1
		if isSite(key) {
			share = siteShare
		}
		c.bucket = rate.NewLimiter(rate.Limit(l.cfg.Rate*float64(share)), l.cfg.Burst*share)
	}
	l.clients[key] = l.lru.PushFront(c)
	return c
}

// evictOne forgets the least recently seen of the oldest maxEvictScan clients that is
// neither busy nor in debt, and says whether there was one.
func (l *limiter) evictOne(now time.Time) bool {
	n := 0
	for e := l.lru.Back(); e != nil && n < maxEvictScan; e, n = e.Prev(), n+1 {
		if c := e.Value.(*clientState); !c.busy() && !c.inDebt(now) {
			l.forget(e)
			return true
		}
	}
	return false
}

// sweep forgets the clients idle for IdleAfter that are neither busy nor in debt.
func (l *limiter) sweep(now time.Time) {
	l.lastSweep = now
	for e := l.lru.Back(); e != nil; {
		c := e.Value.(*clientState)
		if now.Sub(c.seen) < l.cfg.IdleAfter {
			return
		}
		prev := e.Prev()
		if !c.busy() && !c.inDebt(now) {
			l.forget(e)
		}
		e = prev
	}
}

func (l *limiter) forget(e *list.Element) {
	delete(l.clients, e.Value.(*clientState).key)
	l.lru.Remove(e)
}

// size is the number of entries remembered (clients and sites).
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// charges says whether requests are charged for the rows they read.
func (l *limiter) charges() bool { return l.cfg.Rate > 0 && l.cfg.RowsPerToken > 0 }

// tokensFor is what reading rows costs (beyond the request's own token).
func (l *limiter) tokensFor(rows int64) int64 {
	if !l.charges() {
		return 0
	}
	return rows / int64(l.cfg.RowsPerToken)
}

// charge takes tokens more from client id's bucket (and its site's). The bucket may go
// below zero: the client's next requests are refused until the debt is paid back at
// Rate, and neither the sweep nor a full table forgets a client in debt.
func (l *limiter) charge(id netip.Addr, tokens int64) {
	if tokens <= 0 {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, key := range keysOf(id) {
		e, ok := l.clients[key]
		if !ok || e.Value.(*clientState).bucket == nil {
			continue
		}
		bucket := e.Value.(*clientState).bucket
		for left := tokens; left > 0; { // a reservation may take at most the bucket's burst
			n := min(left, int64(bucket.Burst()))
			bucket.ReserveN(now, int(n))
			left -= n
		}
	}
}
