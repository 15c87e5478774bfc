package api

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
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
	// ClientQueue is how many requests of one client may wait, beyond its burst or its
	// in-flight cap, for their token or their slot (at most QueueWait each) before a
	// 429; 0: no queue, refused at once.
	ClientQueue int
	// QueueWait bounds a request's wait in its client's queue (default DefaultQueueWait
	// when ClientQueue is set).
	QueueWait time.Duration
	// GlobalQueue is how many admitted requests may wait for a slot of MaxInFlight (at
	// most GlobalQueueWait each) before a 429; 0: no queue.
	GlobalQueue int
	// GlobalQueueWait bounds a request's wait for a slot of MaxInFlight (default
	// DefaultGlobalQueueWait when GlobalQueue is set).
	GlobalQueueWait time.Duration
	// ClientConnections caps the connections one client holds open (an IPv4 address, an
	// IPv6 /64; an IPv6 /48 may hold siteShare times as many); connections from trusted
	// proxies are not counted. 0: no cap.
	ClientConnections int
	// MinSendRate is the slowest an answer may be read, in bytes a second: each chunk of
	// sendChunk bytes must leave within sendChunk/MinSendRate, else the connection is
	// closed. 0: only the server's write timeout.
	MinSendRate int
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
	DefaultClientQueue       = 256
	DefaultQueueWait         = 4 * time.Second
	DefaultGlobalQueue       = 1024
	DefaultGlobalQueueWait   = time.Second
	DefaultClientConnections = 256
	DefaultMinSendRate       = 4 << 10
)

// DefaultLimits are cmd/api's limits (docs/api-protection.md).
func DefaultLimits() Limits {
	return Limits{Rate: DefaultRate, Burst: DefaultBurst, ClientConcurrency: DefaultClientConcurrency,
		MaxInFlight: DefaultMaxInFlight, ProbeRate: DefaultProbeRate, RowsPerToken: DefaultRowsPerToken,
		Tarpit: DefaultTarpit, ClientQueue: DefaultClientQueue, QueueWait: DefaultQueueWait,
		GlobalQueue: DefaultGlobalQueue, GlobalQueueWait: DefaultGlobalQueueWait,
		ClientConnections: DefaultClientConnections, MinSendRate: DefaultMinSendRate}
}

// siteShare: an IPv6 /48 (one site, 65 536 /64s) has a bucket, and a connection cap, of
// this many clients together, so that walking its /64s does not multiply its share.
const siteShare = 16

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
	reasonClients        = "clients"
	reasonConnections    = "connections"
	reasonGone           = "gone" // the client left while it waited: nothing is sent
)

// enabled says whether any limit is set.
func (l Limits) enabled() bool {
	return l.Rate > 0 || l.ClientConcurrency > 0 || l.MaxInFlight > 0 || l.ClientConnections > 0 || l.MinSendRate > 0
}

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
	return clientOf(id)
}

// clientOf is the client an address belongs to: itself, or for IPv6 its /64, the block
// one host usually holds.
func clientOf(a netip.Addr) netip.Addr {
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
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
