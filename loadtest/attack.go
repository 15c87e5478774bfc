package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Attack is the misbehaving clients that run beside the normal ones in phase 2. Each
// works over its own raw TCP connections, one request at a time, and records what the
// server did with it.
type Attack struct {
	// SlowHeaders connections send a request's headers one byte per Trickle, never
	// finishing them (slowloris).
	SlowHeaders int
	// SlowBodies requests announce a 1 MiB body and send it one byte per Trickle.
	SlowBodies int
	// SlowReaders connections pipeline requests and read the answers one byte per Trickle.
	SlowReaders int
	// Oversized clients cycle through oversized and greedy requests: huge headers, many
	// headers, a huge path and query, bodies over 1 MiB, page sizes and ranges too large.
	Oversized int
	// Trickle is the pause between two slow bytes (default 250ms).
	Trickle time.Duration
	// OversizedPause is each oversized client's pause between requests (default 20ms).
	OversizedPause time.Duration
	// Flood is the connections of one client sending the normal route mix without
	// pause (flood.go); 0: no flood.
	Flood int
}

func (a Attack) String() string {
	return fmt.Sprintf("%d slow-header, %d slow-body, %d slow-reader, %d oversized clients, a flood of %d connections",
		a.SlowHeaders, a.SlowBodies, a.SlowReaders, a.Oversized, a.Flood)
}

// AttackStats are the answers one kind of attack got.
type AttackStats struct {
	Kind     string
	Attempts int
	// Outcomes counts what happened: "431", "405", "closed by server", "reset by
	// server", "open at end of run" (still being served, or still being trickled, when
	// the phase ended).
	Outcomes map[string]int
	FiveXX   int
	// Closed is the median time until the server closed (or reset) the connection,
	// among the attempts it closed.
	Closed time.Duration
}

// Outcome names.
const (
	OutcomeClosed = "closed by server"
	OutcomeReset  = "reset by server"
	OutcomeOpen   = "open at end of run"
)

// oversized is one oversized or greedy request.
type oversized struct {
	kind string
	head func(ids *IDs) string // request line and headers, without the final blank line
	body int                   // bytes of body sent after the head at full speed
}

var (
	bigHex     = strings.Repeat("ab", 32<<10) // 64 KiB
	oversizeds = []oversized{
		{kind: "header of 64 KiB", head: func(*IDs) string { return "GET /sync HTTP/1.1\r\nHost: load\r\nX-Big: " + bigHex }},
		{kind: "4000 header lines", head: func(*IDs) string {
			var b strings.Builder
			b.WriteString("GET /sync HTTP/1.1\r\nHost: load")
			for i := range 4000 {
				fmt.Fprintf(&b, "\r\nX-H%d: v", i)
			}
			return b.String()
		}},
		{kind: "query of 1 MiB", head: func(*IDs) string {
			return "GET /sync?pad=" + strings.Repeat("a", 1<<20) + " HTTP/1.1\r\nHost: load"
		}},
		{kind: "path of 64 KiB", head: func(*IDs) string { return "GET /messages/0x" + bigHex + " HTTP/1.1\r\nHost: load" }},
		{kind: "query of 15 KiB (under the header cap)", head: func(ids *IDs) string {
			return "GET /outputs?address=" + pick0(ids.Addresses) + "&pad=" + strings.Repeat("b", 15<<10) + " HTTP/1.1\r\nHost: load"
		}},
		{kind: "POST body of 2 MiB", body: 2 << 20, head: func(*IDs) string {
			return "POST /sync HTTP/1.1\r\nHost: load\r\nContent-Type: application/octet-stream\r\nContent-Length: 2097152"
		}},
		{kind: "GET body of 2 MiB", body: 2 << 20, head: func(ids *IDs) string {
			return "GET /messages/" + pick0(ids.Messages) + " HTTP/1.1\r\nHost: load\r\nContent-Length: 2097152"
		}},
		{kind: "page_size=1000000", head: func(ids *IDs) string {
			return "GET /outputs?address=" + pick0(ids.Addresses) + "&page_size=1000000 HTTP/1.1\r\nHost: load"
		}},
		{kind: "milestone range of 4e9", head: func(*IDs) string {
			return "GET /milestones?start=1&end=4000000000 HTTP/1.1\r\nHost: load"
		}},
		{kind: "cursor of 12 KiB", head: func(ids *IDs) string {
			return "GET /outputs?address=" + pick0(ids.Addresses) + "&cursor=" + strings.Repeat("A", 12<<10) + " HTTP/1.1\r\nHost: load"
		}},
	}
)

// OversizedKinds names the oversized requests, in the order the clients send them.
func OversizedKinds() []string {
	var kinds []string
	for _, o := range oversizeds {
		kinds = append(kinds, o.kind)
	}
	return kinds
}

func pick0(s []string) string {
	if len(s) == 0 {
		return "smr1qqqqqq"
	}
	return s[0]
}

// attacks collects every attacker's results.
type attacks struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	stats map[string]*AttackStats
	order []string
	close map[string][]time.Duration
}

func (a *attacks) record(kind, outcome string, closedAfter time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.stats[kind]
	if s == nil {
		s = &AttackStats{Kind: kind, Outcomes: map[string]int{}}
		a.stats[kind] = s
		a.order = append(a.order, kind)
	}
	s.Attempts++
	s.Outcomes[outcome]++
	if strings.HasPrefix(outcome, "5") {
		s.FiveXX++
	}
	if strings.HasSuffix(outcome, OutcomeClosed) || strings.HasSuffix(outcome, OutcomeReset) {
		a.close[kind] = append(a.close[kind], closedAfter)
	}
}

func (a *attacks) wait() []AttackStats {
	a.wg.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]AttackStats, 0, len(a.order))
	for _, kind := range a.order {
		s := *a.stats[kind]
		if d := a.close[kind]; len(d) > 0 {
			slices.Sort(d)
			s.Closed = d[len(d)/2]
		}
		out = append(out, s)
	}
	return out
}

// startAttacks starts the attackers; they stop when ctx ends.
func startAttacks(ctx context.Context, base string, cfg Attack, ids *IDs) *attacks {
	if cfg.Trickle <= 0 {
		cfg.Trickle = 250 * time.Millisecond
	}
	if cfg.OversizedPause <= 0 {
		cfg.OversizedPause = 20 * time.Millisecond
	}
	a := &attacks{stats: map[string]*AttackStats{}, close: map[string][]time.Duration{}}
	addr, err := hostPort(base)
	if err != nil {
		return a
	}
	// A slow client whose connection the server closed comes back after a pause, as
	// an attacker holding connections would; without it a slow client the server turns
	// away at once (a slow body to a route that reads none) becomes a connection flood.
	comeBack := 10 * cfg.Trickle
	loop := func(n int, attempt func(i int)) {
		for i := range n {
			a.wg.Go(func() {
				for ctx.Err() == nil {
					attempt(i)
				}
			})
		}
	}
	slow := func(attempt func(i int)) func(int) {
		return func(i int) {
			attempt(i)
			select {
			case <-ctx.Done():
			case <-time.After(comeBack):
			}
		}
	}
	loop(cfg.SlowHeaders, slow(func(int) {
		outcome, after := exchange(ctx, addr, func(c net.Conn) error {
			if _, err := io.WriteString(c, "GET /sync HTTP/1.1\r\nHost: load\r\nX-Slow: "); err != nil {
				return err
			}
			return trickle(ctx, c, cfg.Trickle, -1)
		}, 0, true)
		a.record("slow headers (a byte every "+cfg.Trickle.String()+")", outcome, after)
	}))
	loop(cfg.SlowBodies, slow(func(int) {
		outcome, after := exchange(ctx, addr, func(c net.Conn) error {
			if _, err := io.WriteString(c, "POST /sync HTTP/1.1\r\nHost: load\r\nContent-Length: 1048576\r\n\r\n"); err != nil {
				return err
			}
			return trickle(ctx, c, cfg.Trickle, 1<<20)
		}, 0, true)
		a.record("slow body of 1 MiB (a byte every "+cfg.Trickle.String()+")", outcome, after)
	}))
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "GET /messages/%s/raw HTTP/1.1\r\nHost: load\r\n\r\n", ids.Messages[i%len(ids.Messages)])
	}
	pipelined := []byte(b.String())
	loop(cfg.SlowReaders, slow(func(int) {
		outcome, after := exchange(ctx, addr, func(c net.Conn) error {
			_, err := c.Write(pipelined)
			return err
		}, cfg.Trickle, true)
		a.record("slow reader (200 pipelined, a byte read every "+cfg.Trickle.String()+")", outcome, after)
	}))
	// Built once: the attackers' own allocations must not weigh on a server in the
	// same process (the test).
	heads := make([][]byte, len(oversizeds))
	for i, o := range oversizeds {
		heads[i] = []byte(o.head(ids) + "\r\n\r\n")
	}
	zeros := make([]byte, 64<<10)
	loop(cfg.Oversized, func(i int) {
		for j := range oversizeds {
			k := (i + j) % len(oversizeds)
			o := oversizeds[k]
			if ctx.Err() != nil {
				return
			}
			outcome, after := exchange(ctx, addr, func(c net.Conn) error {
				if _, err := c.Write(heads[k]); err != nil {
					return err
				}
				for left := o.body; left > 0; left -= len(zeros) {
					if _, err := c.Write(zeros[:min(left, len(zeros))]); err != nil {
						return err
					}
				}
				return nil
			}, 0, false)
			a.record(o.kind, outcome, after)
			select {
			case <-ctx.Done():
			case <-time.After(cfg.OversizedPause):
			}
		}
	})
	return a
}

// trickle writes one byte per pause, n bytes (n < 0: until ctx ends).
func trickle(ctx context.Context, c net.Conn, pause time.Duration, n int) error {
	t := time.NewTicker(pause)
	defer t.Stop()
	for i := 0; n < 0 || i < n; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if _, err := c.Write([]byte{'a'}); err != nil {
			return err
		}
	}
	return nil
}

// exchange dials, runs send while reading the first answer, and says what happened:
// the status code of the answer, or that the server closed or reset the connection,
// or that it was still open when ctx ended. readPause > 0 reads the answer a byte at a
// time. With linger, the connection is kept after the answer (send goes on) until the
// server closes it, and the outcome says so: "405, then closed by server". The
// duration is how long the connection lasted.
func exchange(ctx context.Context, addr string, send func(net.Conn) error, readPause time.Duration, linger bool) (string, time.Duration) {
	start := time.Now()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil {
			return OutcomeOpen, 0
		}
		return "dial failed", 0
	}
	defer c.Close()
	if readPause > 0 {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4096)
		}
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	go func() { _ = send(c) }()
	var r io.Reader = c
	if readPause > 0 {
		r = &slowReader{ctx: ctx, r: c, pause: readPause}
	}
	br := bufio.NewReaderSize(r, 64)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return closeOutcome(ctx, err), time.Since(start)
	}
	status := fmt.Sprint(resp.StatusCode)
	if linger {
		// Keep reading (slowly, for a slow reader) while send goes on: the server must not
		// keep this client forever.
		_, err := io.Copy(io.Discard, br)
		return status + ", then " + closeOutcome(ctx, err), time.Since(start)
	}
	return status, time.Since(start)
}

func closeOutcome(ctx context.Context, err error) string {
	switch {
	case ctx.Err() != nil:
		return OutcomeOpen
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return OutcomeClosed
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return OutcomeReset
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "client timeout"
	}
	return "error: " + err.Error()
}

// slowReader reads one byte per pause.
type slowReader struct {
	ctx   context.Context
	r     io.Reader
	pause time.Duration
}

func (s *slowReader) Read(p []byte) (int, error) {
	select {
	case <-s.ctx.Done():
		return 0, s.ctx.Err()
	case <-time.After(s.pause):
	}
	return s.r.Read(p[:min(len(p), 1)])
}
