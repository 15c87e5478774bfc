package api

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestLimiterChargesRows: a request is charged a token per RowsPerToken rows after the
// fact; the debt refuses the client's next requests until it is paid back at Rate (the
// Retry-After says when), leaves other clients alone, and keeps the client from being
// forgotten while it lasts.
func TestLimiterChargesRows(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 1, Burst: 10, RowsPerToken: 100}, c.now)
	heavy, light := ip("192.0.2.1"), ip("192.0.2.2")
	admit(t, l, heavy)() // 9 tokens left
	if got := l.tokensFor(2599); got != 25 {
		t.Fatalf("2599 rows cost %d tokens, want 25", got)
	}
	l.charge(heavy, 25) // 9 - 25 = -16
	if _, refused := l.acquire(heavy); refused == nil || refused.reason != reasonRate || refused.retryAfter != 17 {
		t.Fatalf("after the charge: %+v, want a rate refusal with Retry-After 17 (16 owed, 1 to spend)", refused)
	}
	admit(t, l, light)()
	c.add(16 * time.Second)
	if _, refused := l.acquire(heavy); refused == nil {
		t.Fatal("admitted with the debt just paid and no token to spend")
	}
	c.add(time.Second)
	admit(t, l, heavy)()
	if off := newLimiter(Limits{Rate: 1, Burst: 10, RowsPerToken: -1}, c.now); off.tokensFor(1e6) != 0 {
		t.Fatal("RowsPerToken < 0 still charges rows")
	}

	slow := newLimiter(Limits{Rate: 0.01, Burst: 1, RowsPerToken: 1, IdleAfter: time.Minute}, c.now)
	admit(t, slow, heavy)()
	slow.charge(heavy, 10) // -10 tokens: 1000 s to pay back
	c.add(slow.cfg.IdleAfter + time.Minute)
	admit(t, slow, light)() // sweeps
	if _, kept := slow.clients[keysOf(heavy)[0]]; !kept {
		t.Fatalf("a client in debt was forgotten after %s idle (forgetting cancels the debt)", slow.cfg.IdleAfter)
	}
	c.add(1000 * time.Second)
	admit(t, slow, ip("192.0.2.3"))()
	if _, kept := slow.clients[keysOf(heavy)[0]]; kept {
		t.Fatal("a client whose debt is paid and whose bucket is full was kept")
	}
}

// TestHeavyClientLimitedFirst: two clients send the same number of requests, one asking
// for a TIP-26 page of every unspent basic output, one for a milestone; the heavy one is
// refused first, after exactly as many requests as its rows paid for (each request's
// rows taken from api_rows_read_total), while the light one gets its whole burst.
func TestHeavyClientLimitedFirst(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, sim.Options{Seed: 4, MessagesPerMilestone: 12, AddressPool: 25}, 20)
	const burst, rowsPerToken = 30, 20
	srv := httptest.NewServer(New(e.st, Config{RequestTimeout: 10 * time.Second, Ops: true,
		Limits: Limits{Rate: 0.001, Burst: burst, RowsPerToken: rowsPerToken}}).Handler())
	t.Cleanup(srv.Close)
	watcher := clientFrom("127.0.0.4")
	rowsRead := func() int64 { return scrapeCounter(t, watcher, srv.URL, "api_rows_read_total") }
	type client struct {
		name, path string
		http       *http.Client
	}
	admitted := map[string]int{}
	for _, c := range []client{
		{"heavy", indexer.Tip26Prefix + "/outputs/basic?pageSize=1000", clientFrom("127.0.0.2")},
		{"light", core.CorePrefix + "/milestones/by-index/5", clientFrom("127.0.0.3")},
	} {
		tokens, rows := float64(burst), []int64{}
		for range burst + 1 {
			before := rowsRead()
			resp, body := getAs(t, c.http, srv.URL+c.path, "")
			read := rowsRead() - before
			wantAdmitted := tokens >= 1
			if got := resp.StatusCode == http.StatusOK; got != wantAdmitted {
				t.Fatalf("%s request %d: %d %.200s; with %.0f tokens left want admitted=%v (rows so far %v)",
					c.name, admitted[c.name]+1, resp.StatusCode, body, tokens, wantAdmitted, rows)
			}
			if !wantAdmitted {
				break
			}
			admitted[c.name]++
			rows = append(rows, read)
			tokens -= float64(1 + read/rowsPerToken)
		}
		t.Logf("%s: %d admitted, rows read per request %v", c.name, admitted[c.name], rows)
	}
	if admitted["light"] != burst || admitted["heavy"] >= burst/2 {
		t.Fatalf("admitted %v: want the light client's whole burst (%d) and the heavy one refused well before", admitted, burst)
	}
}

// scrapeCounter reads one unlabelled counter from the server's /metrics.
func scrapeCounter(t *testing.T, c *http.Client, base, name string) int64 {
	t.Helper()
	resp, body := getAs(t, c, base+"/metrics", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return int64(f)
		}
	}
	t.Fatalf("/metrics has no %s", name)
	return 0
}
