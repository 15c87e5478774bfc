package loadtest

import (
	"context"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// The server limits requests per client, and a client is a source address. On loopback
// every client would be 127.0.0.1, so with distinct addresses on (Config.Identities)
// each normal client connects from an address of its own in 127.0.1.0/24 and the
// flooder from 127.0.2.1: Linux routes all of 127.0.0.0/8 to the loopback interface,
// and the server sees each as a client of its own without trusting any proxy header.

// normalAddr is normal client w's source address; floodAddr the flooder's.
func normalAddr(w int) string { return fmt.Sprintf("127.0.1.%d", 1+w%250) }

const floodAddr = "127.0.2.1"

// clientFrom is a client whose connections leave from local ("": any address).
func clientFrom(local string, conns int) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if local != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(local)}
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext,
		MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: 30 * time.Second,
		DisableCompression: true, ResponseHeaderTimeout: 30 * time.Second}}
}

// canBind says whether this machine lets a connection leave from a 127.0.0.0/8 address
// other than 127.0.0.1 to base's host.
func canBind(base string) error {
	addr, err := hostPort(base)
	if err != nil {
		return err
	}
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(floodAddr)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return fmt.Errorf("connect from %s to %s (distinct client addresses need Linux and an IPv4 loopback "+
			"URL; -distinct-clients=false turns them off): %w", floodAddr, addr, err)
	}
	return c.Close()
}

// FloodKind names the flood in the attack table.
func FloodKind(conns int) string {
	return fmt.Sprintf("flood from one client (%d connections, no pause)", conns)
}

// Flood outcomes beside the status codes.
const OutcomeNoRetryAfter = "429 without Retry-After"

// startFlood runs cfg.Flood connections from one client, each sending the route mix as
// fast as answers come back, never waiting for Retry-After: the outcomes are the
// statuses it got.
func startFlood(ctx context.Context, a *attacks, base string, cfg Attack, routes []Route, local string, seed int64) {
	if cfg.Flood <= 0 || len(routes) == 0 {
		return
	}
	c := clientFrom(local, cfg.Flood)
	ch := newChooser(routes)
	kind := FloodKind(cfg.Flood)
	for i := range cfg.Flood {
		a.wg.Go(func() {
			defer c.CloseIdleConnections()
			r := rand.New(rand.NewSource(seed*7919 + int64(i)))
			for ctx.Err() == nil {
				outcome := floodOnce(ctx, c, base+routes[ch.pick(r)].Path(r))
				if outcome == "" {
					return // cut off by the end of the phase
				}
				a.record(kind, outcome, 0)
			}
		})
	}
}

func floodOnce(ctx context.Context, c *http.Client, url string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "error: " + err.Error()
	}
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ""
		}
		return "error: " + err.Error()
	}
	drain(resp)
	if resp.StatusCode == http.StatusTooManyRequests {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 {
			return OutcomeNoRetryAfter
		}
	}
	return strconv.Itoa(resp.StatusCode)
}

// hostPort is the host:port a connection to base dials (port 80 when base names none).
func hostPort(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), "80"), nil
	}
	return u.Host, nil
}
