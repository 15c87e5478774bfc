package node

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Config tells a Source where the node is and how to talk to it.
type Config struct {
	// URL is the node's base URL (http://localhost:14265); /api/core/v2 is appended.
	URL string
	// URLs are more nodes of the same network (URL, when set, is the first): each
	// milestone is read from one healthy node, and a node that fails is benched a while.
	URLs []string
	// Token, when set, is sent as a bearer token (Hornet's JWT for protected routes). It
	// is never logged.
	Token string
	// Keys verify the milestones; nil: the built-in keys of the network the node names
	// (chain.KnownKeys), and an error for a network without built-in keys.
	Keys *chain.MilestoneKeys
	// Concurrency is the ceiling of the requests in flight to each node (default
	// DefaultConcurrency): the milestones read at once share them. Below it the limit adapts to the node: it
	// starts at 16 (or the ceiling, if lower), grows while more requests in flight give
	// more answers per second, and steps down on 429s, 5xx, timeouts and lost connections
	// and where more in flight only adds latency.
	Concurrency int
	// ReadAhead is the ceiling of the milestones the source reads before they are asked
	// for, beyond the one asked and below the nodes' confirmed milestone (default
	// DefaultReadAhead; -1: none). Below it the number adapts: it grows while the asker
	// waits and the requests in flight are below their limit, and shrinks while requests
	// queue for the limit.
	ReadAhead int
	// HedgeAfter is how long a milestone read from one node may take before it is also
	// asked from the next (default 2s; longer when milestones take longer: four times
	// their average). The first answer that passes verification is used.
	HedgeAfter time.Duration
	// InfoTimeout bounds a node's /info (status poll), retries included (default 2.5s):
	// a node that hangs holds up no poll longer, and is benched.
	InfoTimeout time.Duration
	// Timeout bounds one request (default 30s).
	Timeout time.Duration
	// Attempts is how often a request that timed out, got a 5xx or lost its connection
	// is tried before the source reports the node unavailable (default 6 for one node, 2
	// for several, as another node takes over; backoff from 200ms doubling to 5s).
	Attempts int
	// OutputCache is how many outputs created by milestones this source read it keeps
	// until they are spent, so that spending them needs no request (default
	// DefaultOutputCache). An output spent after it left the cache costs a keyspace read
	// and two node requests.
	OutputCache int
	// Created reads the creations of outputs the keyspace holds (nil: none). An output a
	// milestone spends that this source did not see created takes its creation from
	// there, and the node's answer must agree with it (see Source.ledgerOutput).
	Created CreatedOutputs
	// MaxConeBlocks and MaxConeBytes cap a milestone's cone before it is verified: the
	// walk stops and refuses the milestone (ErrConeTooLarge) once it holds more blocks or
	// block bytes than these (defaults DefaultMaxConeBlocks, DefaultMaxConeBytes).
	MaxConeBlocks int
	MaxConeBytes  int64
	// Events names the event APIs (TIP-28 MQTT) to listen to (Source.Listen): EventsAuto,
	// EventsOff (the default, "") or ws://, wss://, mqtt://, mqtts:// URLs, comma-separated.
	// Events only hint: a milestone is still read over REST and verified.
	Events string
	// EventsTrust lets blocks from brokers named by URL become pending rows.
	EventsTrust bool
	// Client makes the requests (default: a client with the timeout above).
	Client *http.Client
}

// DefaultConcurrency is the default ceiling of the requests in flight to one node: the
// limit climbs to it only while the node answers more for it, and a public node is
// asked no more than this at once. At 50 ms an answer and about 45 requests a milestone
// it allows some 57 milestones a second, above what one database node writes.
const DefaultConcurrency = 128

// DefaultReadAhead is the default ceiling of the milestones read ahead.
const DefaultReadAhead = 64

// ErrNodeURL refuses a node URL that is not http(s)://host[:port].
var ErrNodeURL = errors.New("node url: want http(s)://host[:port]")

func (c *Config) defaults() error {
	if c.URL != "" {
		c.URLs = append([]string{c.URL}, c.URLs...)
	}
	if len(c.URLs) == 0 {
		return fmt.Errorf("%w: none given", ErrNodeURL)
	}
	for i, raw := range c.URLs {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: %q", ErrNodeURL, raw)
		}
		c.URLs[i] = strings.TrimRight(raw, "/")
	}
	c.URL = ""
	if c.Concurrency < 1 {
		c.Concurrency = DefaultConcurrency
	}
	if c.ReadAhead == 0 {
		c.ReadAhead = DefaultReadAhead
	}
	if c.HedgeAfter <= 0 {
		c.HedgeAfter = 2 * time.Second
	}
	if c.InfoTimeout <= 0 {
		c.InfoTimeout = 2500 * time.Millisecond
	}
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Attempts < 1 {
		c.Attempts = 6
		if len(c.URLs) > 1 {
			c.Attempts = 2
		}
	}
	if c.OutputCache < 1 {
		c.OutputCache = DefaultOutputCache
	}
	if c.MaxConeBlocks < 1 {
		c.MaxConeBlocks = DefaultMaxConeBlocks
	}
	if c.MaxConeBytes < 1 {
		c.MaxConeBytes = DefaultMaxConeBytes
	}
	if c.Client == nil {
		c.Client = &http.Client{Timeout: c.Timeout, Transport: keepAlive(c.Concurrency)}
	}
	if hosts := plainTokenHosts(*c); len(hosts) > 0 {
		slog.Warn("the node's JWT goes over plain http to a host that is not loopback: use https", "nodes", hosts)
	}
	return nil
}

// plainTokenHosts are the nodes the token would cross the network to in clear text:
// http:// URLs of hosts other than loopback.
func plainTokenHosts(c Config) []string {
	if c.Token == "" {
		return nil
	}
	var hosts []string
	for _, raw := range c.URLs {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "http" {
			continue
		}
		if ip := net.ParseIP(u.Hostname()); u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback()) {
			continue
		}
		hosts = append(hosts, u.Host)
	}
	return hosts
}

// nodeIdleConn is how long a connection to a node stays open unused.
const nodeIdleConn = 15 * time.Second

// keepAlive is a transport that keeps a connection open for each request slot: the
// default keeps two per host, so the requests above two in flight would each open and
// close a connection. Over TLS it speaks HTTP/2 where the node offers it (the default
// transport's ForceAttemptHTTP2): then the requests share one connection.
// A connection idle for nodeIdleConn closes: the connections a burst opened do not
// outlive it by long, so an indexer following the tip holds the few its pace needs.
func keepAlive(conns int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = conns
	t.IdleConnTimeout = nodeIdleConn
	t.ForceAttemptHTTP2 = true
	return t
}
