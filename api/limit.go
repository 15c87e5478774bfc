package api

import (
	"container/list"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Limits bound what one client, and all clients together, may ask of the server. The
// zero value limits nothing; cmd/api starts with the Default* values, chosen for a
// public permanode: a wallet or an explorer page sends a few requests a second, an
// indexer of its own a few dozen, a flood thousands.
type Limits struct {
	// Rate is each client's sustained requests per second (a token bucket); 0: no limit.
	Rate float64
	// ProbeRate is each client's sustained probe requests per second (/health, /healthz,
	// and /readyz and /metrics when served here), bursts of twice that, in buckets apart
	// from Rate's; 0: probes are not rate-limited.
	ProbeRate float64
	// RowsPerToken charges a request one more token for each this many rows it read,
	// after it is answered (default DefaultRowsPerToken; negative: requests cost one
	// token whatever they read): a balance of 100k outputs costs what 100 light
	// requests cost.
	RowsPerToken int
	// Burst is how many requests a client may send at once above Rate (default 2×Rate).
	Burst int
	// ClientConcurrency caps a client's requests in flight; 0: no cap.
	ClientConcurrency int
	// MaxInFlight caps all requests in flight together; 0: no cap.
	MaxInFlight int
	// TrustedProxies are the proxies whose X-Forwarded-For names the client; a request
	// from any other address is its own client, whatever it sends.
	TrustedProxies []netip.Prefix
	// MaxClients caps the clients remembered (default DefaultMaxClients): past it the
	// least recently seen idle one is forgotten.
	MaxClients int
	// IdleAfter forgets a client this long without a request (default
	// DefaultIdleAfter, and never before its bucket would have refilled).
	IdleAfter time.Duration
	// Tarpit holds a refusal of a client over its own limits this long before it is
	// sent (at most maxHeldPerClient of one client, maxHeld in all; past them a refusal
	// goes at once and closes the connection): a client that sends its next request
	// when the answer comes, as most do, then floods at a pace of its connections a
	// Tarpit instead of as fast as refusals can be sent. 0: refusals go at once.
	Tarpit time.Duration
}

// Defaults of cmd/api (docs/api-protection.md).
const (
	DefaultRate              = 50
	DefaultBurst             = 100
	DefaultClientConcurrency = 16
	DefaultMaxInFlight       = 256
	DefaultMaxClients        = 100_000
	DefaultIdleAfter         = 3 * time.Minute
	DefaultTarpit            = time.Second
	DefaultRowsPerToken      = 1000
	DefaultProbeRate         = 10
)

// Bounds of the refusals held (Limits.Tarpit): each costs a goroutine and a timer on a
// connection the client holds anyway.
const (
	maxHeldPerClient = 64
	maxHeld          = 4096
)

// Reasons a request is refused (the label of api_limited_total).
const (
	reasonRate           = "rate"
	reasonClientInFlight = "client_in_flight"
	reasonInFlight       = "in_flight"
)

// enabled says whether any limit is set.
func (l Limits) enabled() bool { return l.Rate > 0 || l.ClientConcurrency > 0 || l.MaxInFlight > 0 }

// ParseTrustedProxies reads -trusted-proxy: comma-separated CIDRs or addresses.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if a, err := netip.ParseAddr(part); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("-trusted-proxy %q: want a CIDR (10.0.0.0/8) or an address, comma-separated", part)
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), max(p.Bits()-96, 0))
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// limiter keeps one token bucket and in-flight count per client, in a map capped at
// MaxClients with its entries in least-recently-seen order, so that both the periodic
// sweep of idle clients and the eviction when full look only at the oldest ones.
type limiter struct {
	cfg       Limits
	now       func() time.Time
	mu        sync.Mutex
	clients   map[netip.Addr]*list.Element // of *clientState
	lru       *list.List                   // front: most recently seen
	lastSweep time.Time
	inFlight  atomic.Int64
	held      int // refusals being held, all clients (under mu)
}

type clientState struct {
	id       netip.Addr
	bucket   *rate.Limiter // nil: no rate limit
	inFlight int
	held     int // refusals being held
	seen     time.Time
}

// busy: the client has requests in flight or refusals held, and is not forgotten.
func (c *clientState) busy() bool { return c.inFlight > 0 || c.held > 0 }

// refusal says why a request was refused and how long to wait before the next.
type refusal struct {
	reason     string
	retryAfter int // seconds, at least 1
	// hold is how long to hold the refusal before sending it (then call unhold); 0:
	// send it at once, and close the connection when close says so.
	hold   time.Duration
	unhold func()
	close  bool
}

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
	if cfg.Rate > 0 {
		// Forgetting a client gives it a full bucket: only forget one whose bucket is full.
		refill := time.Duration(float64(cfg.Burst) / cfg.Rate * float64(time.Second))
		cfg.IdleAfter = max(cfg.IdleAfter, refill+time.Second)
	}
	return &limiter{cfg: cfg, now: now, clients: map[netip.Addr]*list.Element{}, lru: list.New(), lastSweep: now()}
}

// acquire admits a request of client id, or says why not. An admitted request must
// call release when it is done.
func (l *limiter) acquire(id netip.Addr) (release func(), refused *refusal) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= l.cfg.IdleAfter/2 {
		l.sweep(now)
	}
	c := l.client(id, now)
	if c.bucket != nil {
		res := c.bucket.ReserveN(now, 1)
		if wait := res.DelayFrom(now); !res.OK() || wait > 0 {
			res.CancelAt(now)
			return nil, l.tarpit(c, &refusal{reason: reasonRate, retryAfter: max(1, int(math.Ceil(wait.Seconds())))})
		}
	}
	if l.cfg.ClientConcurrency > 0 && c.inFlight >= l.cfg.ClientConcurrency {
		return nil, l.tarpit(c, &refusal{reason: reasonClientInFlight, retryAfter: 1})
	}
	if l.cfg.MaxInFlight > 0 && l.inFlight.Load() >= int64(l.cfg.MaxInFlight) {
		return nil, &refusal{reason: reasonInFlight, retryAfter: 1}
	}
	c.inFlight++
	l.inFlight.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			c.inFlight--
			l.mu.Unlock()
			l.inFlight.Add(-1)
		})
	}, nil
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

// charge takes tokens more from client id's bucket. The bucket may go below zero: the
// client's next requests are refused until the debt is paid back at Rate, and the
// sweep keeps a client in debt.
func (l *limiter) charge(id netip.Addr, tokens int64) {
	if tokens <= 0 {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.clients[id]
	if !ok {
		return
	}
	bucket := e.Value.(*clientState).bucket
	for tokens > 0 { // a reservation may take at most Burst tokens
		n := min(tokens, int64(l.cfg.Burst))
		bucket.ReserveN(now, int(n))
		tokens -= n
	}
}

// tarpit holds ref, a refusal of c over its own limits, when the holds allow (under mu).
func (l *limiter) tarpit(c *clientState, ref *refusal) *refusal {
	if l.cfg.Tarpit <= 0 {
		return ref
	}
	if c.held >= maxHeldPerClient || l.held >= maxHeld {
		ref.close = true
		return ref
	}
	c.held++
	l.held++
	ref.hold = l.cfg.Tarpit
	var once sync.Once
	ref.unhold = func() {
		once.Do(func() {
			l.mu.Lock()
			c.held--
			l.held--
			l.mu.Unlock()
		})
	}
	return ref
}

// client finds or makes id's state and marks it seen now; with the map full it first
// forgets the least recently seen client that has nothing in flight or held.
func (l *limiter) client(id netip.Addr, now time.Time) *clientState {
	if e, ok := l.clients[id]; ok {
		l.lru.MoveToFront(e)
		c := e.Value.(*clientState)
		c.seen = now
		return c
	}
	for e := l.lru.Back(); e != nil && len(l.clients) >= l.cfg.MaxClients; {
		prev := e.Prev()
		if !e.Value.(*clientState).busy() {
			l.forget(e)
		}
		e = prev
	}
	c := &clientState{id: id, seen: now}
	if l.cfg.Rate > 0 {
		c.bucket = rate.NewLimiter(rate.Limit(l.cfg.Rate), l.cfg.Burst)
	}
	l.clients[id] = l.lru.PushFront(c)
	return c
}

// sweep forgets the clients idle for IdleAfter with nothing in flight or held.
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

// inDebt: the client was charged more tokens than its bucket held and has not paid
// them back yet (forgetting it would cancel the debt).
func (c *clientState) inDebt(now time.Time) bool {
	return c.bucket != nil && c.bucket.TokensAt(now) < 0
}

func (l *limiter) forget(e *list.Element) {
	delete(l.clients, e.Value.(*clientState).id)
	l.lru.Remove(e)
}

// size is the number of clients remembered.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// clientID names the client of r: its remote address or, when that is a trusted proxy,
// the nearest address in X-Forwarded-For that is not one (the proxies append the
// address they got the request from; entries left of an untrusted one are whatever the
// client wrote, and are ignored). IPv6 clients are taken by /64, the block one host
// usually holds.
func clientID(r *http.Request, trusted []netip.Prefix) netip.Addr {
	id := remoteAddr(r.RemoteAddr)
	if len(trusted) > 0 && isTrusted(id, trusted) {
		hops := forwardedFor(r.Header.Values("X-Forwarded-For"))
		for i := len(hops) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(hops[i])
			if err != nil {
				break // a proxy we trust passed on garbage: the last good hop is the client
			}
			id = a.Unmap()
			if !isTrusted(id, trusted) {
				break
			}
		}
	}
	if id.Is6() {
		p, _ := id.Prefix(64)
		id = p.Addr()
	}
	return id
}

func remoteAddr(s string) netip.Addr {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap()
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, _ := netip.ParseAddr(strings.Trim(host, "[]"))
	return a.Unmap() // the zero Addr when unparsable: all such requests share one client
}

func forwardedFor(values []string) []string {
	var hops []string
	for _, v := range values {
		for _, h := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(h))
		}
	}
	return hops
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
