//go:build faults

package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/api"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestClusterKeepsWorkingWithOneNodeKilled starts three nodes on 127.0.0.1-3, a keyspace
// with RF 3 read and written at QUORUM, and ingests a chain while the API serves it.
// A third of the way in, one node is killed (SIGKILL) and stays down: ingest must go
// on to the end, the API must answer every read (none may fail after the kill; the
// slowest is logged against its goal of 1 s, a figure, not an assertion), and the
// result must equal an uninterrupted run of the same chain made on the healthy cluster
// and the sim's truth.
func TestClusterKeepsWorkingWithOneNodeKilled(t *testing.T) {
	tip := uint32(envInt(t, "FAULTS_CLUSTER_TIP", 150))
	victim := envInt(t, "FAULTS_CLUSTER_KILL", 1) // node number, 1..3
	// readAfter is how long the API is read after the kill at least: past the time the
	// other nodes take to convict the dead one (gossip), when reads waiting on it end.
	readAfter := envDuration(t, "FAULTS_CLUSTER_READ", 30*time.Second)
	testStart := time.Now()
	ctx := context.Background()

	bootStart := time.Now()
	// Not durable (faster DDL): the killed node is not started again.
	c, err := testcontainers.StartCluster(ctx, testcontainers.ClusterSpec{Dir: t.TempDir(), Size: 3, Heap: heap()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("stopping the cluster: %v", err)
		}
	})
	t.Logf("cluster %s of %d nodes (%s) up in %s, heap %s each", c.Name, len(c.Nodes),
		strings.Join(c.Hosts(), ", "), since(bootStart), heap())
	if victim < 1 || victim > len(c.Nodes) {
		t.Fatalf("FAULTS_CLUSTER_KILL=%d: want 1..%d", victim, len(c.Nodes))
	}

	reference := setupStore(t, clusterConfig(c.Hosts(), "cluster_reference", gocql.Quorum), 3)
	took := ingestAll(t, reference, tip)
	t.Logf("uninterrupted run on the healthy cluster: %d milestones in %s", tip, took.Round(time.Millisecond))

	cfg := clusterConfig(c.Hosts(), "cluster_faulted", gocql.Quorum)
	st := setupStore(t, cfg, 3)
	assertReplication(t, testcontainers.Session(t, cfg).Gocql(), cfg.Keyspace, "3")

	// The API on its own session, configured as cmd/api's (store.Open), its driver
	// attempts observed.
	driver := &attempts{slow: 200 * time.Millisecond}
	apiStore := openObserved(t, cfg, driver)
	apiStore.OnRetry(driver.retried)
	srv := httptest.NewServer(api.New(apiStore, api.Config{RequestTimeout: 10 * time.Second}).Handler())
	defer srv.Close()

	src := sim.New(simOptions(tip))
	truth, err := src.Truth(tip)
	if err != nil {
		t.Fatal(err)
	}
	logs := newCapture(t)
	m := ingest.NewMetrics(nil)
	p := newPipeline(st, tip, m, slogger(logs))
	sampler := samplePaused(m, 20*time.Millisecond)
	runCtx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	ingestStart := time.Now()
	go func() { done <- p.Run(runCtx) }()

	reader := startReader(srv.URL, truth, p)
	defer reader.stop()

	if !waitFor(5*time.Minute, func() bool { return p.LastWritten() >= tip/3 || len(done) > 0 }) || len(done) > 0 {
		t.Fatalf("pipeline did not reach milestone %d (last written %d)", tip/3, p.LastWritten())
	}
	node := c.Nodes[victim-1]
	killedAt := time.Now()
	if err := node.KillWait(); err != nil {
		t.Fatal(err)
	}
	reader.mark(killedAt)
	atKill := p.LastWritten()
	t.Logf("killed node %d (%s, SIGKILL) %s into the run, last written milestone %d",
		victim, node.Addr(), since(ingestStart), atKill)
	if atKill >= tip {
		t.Fatalf("the range was done before the kill: raise FAULTS_CLUSTER_TIP")
	}

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("pipeline: %v", err)
		}
	case <-time.After(10 * time.Minute):
		t.Fatalf("pipeline did not finish within 10m of the kill (last written %d)", p.LastWritten())
	}
	finishedAt := time.Now()
	sampler.Stop()
	// Keep reading (the last milestone) for readAfter after the kill in any case.
	time.Sleep(time.Until(killedAt.Add(readAfter)))
	readEnd := time.Now()
	reader.stop()

	pauses := logs.matching("ingest paused")
	for i, r := range pauses {
		t.Logf("pause %d at +%s:%s", i+1, r.at.Sub(killedAt).Round(time.Millisecond), r.attrs)
	}
	t.Logf("ingest: %s in all, %s after the kill; %d pause lines, %v CQL retries, paused gauge at 1 in %d of %d samples",
		finishedAt.Sub(ingestStart).Round(time.Millisecond), finishedAt.Sub(killedAt).Round(time.Millisecond),
		len(pauses), testutil.ToFloat64(m.Retries), sampler.ones.Load(), sampler.samples.Load())
	// The API keeps serving: every route answers after the kill, and none fails.
	after := reader.report(t)
	slowest, routes := time.Duration(0), make([]string, 0, len(readRoutes))
	for _, route := range readRoutes {
		s := after[route]
		if s.ok == 0 {
			t.Errorf("API %s: no answer after the kill", route)
		}
		if s.failed > 0 {
			t.Errorf("API %s: %d reads failed after the kill, the last +%s (%s); want none",
				route, s.failed, s.lastFailure.Sub(killedAt).Round(time.Millisecond), s.lastError)
		}
		slowest = max(slowest, s.slowest)
		routes = append(routes, fmt.Sprintf("%s %s", route, s.slowest.Round(time.Millisecond)))
	}
	t.Logf("slowest API read through the node loss: %s (goal 1s); per route: %s",
		slowest.Round(time.Millisecond), strings.Join(routes, ", "))
	t.Logf("read the API for %s after the kill", readEnd.Sub(killedAt).Round(time.Millisecond))
	driver.report(t, killedAt, 40)

	// Final state, read at QUORUM by a fresh session with one node still down.
	if node.Alive() {
		t.Fatalf("killed node %d is alive again", victim)
	}
	check, err := cql.Open(clusterConfig(c.Hosts(), "", gocql.Quorum))
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	storetest.AssertNoGaps(t, st, 1, tip)
	var status struct {
		Oldest, Newest uint32
		Gaps           []store.Range
	}
	if code := getJSON(srv.URL+"/sync", &status); code != http.StatusOK || status.Oldest != 1 || status.Newest != tip || len(status.Gaps) != 0 {
		t.Errorf("GET /sync: %d %+v; want 1..%d without gaps", code, status, tip)
	}
	var page struct{ Items []json.RawMessage }
	if code := getJSON(fmt.Sprintf("%s/milestones?start=1&end=%d", srv.URL, tip), &page); code != http.StatusOK || len(page.Items) != int(tip) {
		t.Errorf("GET /milestones?start=1&end=%d: %d with %d items; want %d", tip, code, len(page.Items), tip)
	}
	faulted, ref := dump(t, check.Gocql(), "cluster_faulted"), dump(t, check.Gocql(), "cluster_reference")
	for table, want := range map[string]int{"messages": len(truth.Messages), "milestones": int(tip), "sync": int(tip)} {
		if got := len(faulted[table]); got != want {
			t.Errorf("%s: %d rows; the sim's truth has %d", table, got, want)
		}
	}
	if diff := testcontainers.DiffDumps(faulted, ref); diff != "" {
		t.Fatalf("the run with a node killed differs from the uninterrupted one:\n%s", diff)
	}
	t.Logf("%d tables and views, %d rows, identical to the uninterrupted run (%d messages as in the sim's truth); test took %s",
		len(faulted), countRows(faulted), len(truth.Messages), since(testStart))
}

// assertReplication checks the keyspace's replication factor as the cluster reports it.
func assertReplication(t testing.TB, s *gocql.Session, keyspace, factor string) {
	t.Helper()
	var repl map[string]string
	if err := s.Query(`SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?`, keyspace).Scan(&repl); err != nil {
		t.Fatal(err)
	}
	if repl["replication_factor"] != factor {
		t.Fatalf("keyspace %s replication %v; want factor %s", keyspace, repl, factor)
	}
}

// reader keeps GETting the API while ingest runs, one loop per route so that a slow
// answer on one route does not hold up the others: /sync (a range scan), the newest
// written milestone, and a message of it (single-partition reads).
type reader struct {
	url    string
	truth  *sim.Truth
	p      *ingest.Pipeline
	quit   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	mu     sync.Mutex
	killed time.Time
	routes map[string]*[2]routeStats // by route; [0] before the kill, [1] after
}

type routeStats struct {
	ok, failed  int
	codes       map[string]int
	slowest     time.Duration
	slowestAt   time.Time // start of the slowest request
	slowestPath string
	lastFailure time.Time // end of the last failed request
	lastError   string
}

var readRoutes = []string{"/sync", "/milestones", "/messages"}

func startReader(url string, truth *sim.Truth, p *ingest.Pipeline) *reader {
	r := &reader{url: url, truth: truth, p: p, quit: make(chan struct{}), routes: map[string]*[2]routeStats{}}
	for _, route := range readRoutes {
		r.routes[route] = &[2]routeStats{{codes: map[string]int{}}, {codes: map[string]int{}}}
		r.wg.Add(1)
		go r.loop(route)
	}
	return r
}

func (r *reader) mark(killed time.Time) {
	r.mu.Lock()
	r.killed = killed
	r.mu.Unlock()
}

func (r *reader) stop() {
	r.once.Do(func() { close(r.quit) })
	r.wg.Wait()
}

func (r *reader) loop(route string) {
	defer r.wg.Done()
	client := &http.Client{Timeout: 30 * time.Second}
	for {
		select {
		case <-r.quit:
			return
		case <-time.After(100 * time.Millisecond):
		}
		last := r.p.LastWritten()
		if last == 0 {
			continue
		}
		path := route
		switch route {
		case "/milestones":
			path = fmt.Sprintf("/milestones/%d", last)
		case "/messages":
			ms := r.truth.Milestones[last-1]
			path = "/messages/" + ms.Messages[len(ms.Messages)/2].String()
		}
		start := time.Now()
		code, err := get(client, r.url+path)
		r.record(route, path, start, code, err)
	}
}

func (r *reader) record(route, path string, start time.Time, code int, err error) {
	end := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.routes[route][0]
	if !r.killed.IsZero() && end.After(r.killed) {
		s = &r.routes[route][1] // answered after the kill (most were in flight at it)
	}
	key := strconv.Itoa(code)
	if err != nil {
		key = "error"
	}
	s.codes[key]++
	if took := end.Sub(start); took > s.slowest {
		s.slowest, s.slowestAt, s.slowestPath = took, start, path
	}
	if err == nil && code == http.StatusOK {
		s.ok++
		return
	}
	s.failed++
	s.lastFailure = end
	s.lastError = fmt.Sprintf("GET %s: %d %v", path, code, err)
}

// report logs and returns each route's counts after the kill.
func (r *reader) report(t testing.TB) map[string]routeStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	after := map[string]routeStats{}
	for _, route := range readRoutes {
		for i, phase := range []string{"before the kill", "after the kill"} {
			s := r.routes[route][i]
			keys := make([]string, 0, len(s.codes))
			for k, n := range s.codes {
				keys = append(keys, fmt.Sprintf("%s×%d", k, n))
			}
			sort.Strings(keys)
			line := fmt.Sprintf("API %-11s %s: %d ok, %d failed, slowest %s [%s]", route, phase, s.ok, s.failed,
				s.slowest.Round(time.Millisecond), strings.Join(keys, " "))
			if i == 1 && s.slowest > 0 {
				line += fmt.Sprintf("; slowest sent at +%s (%s)", s.slowestAt.Sub(r.killed).Round(time.Millisecond), s.slowestPath)
			}
			if s.failed > 0 && i == 1 {
				line += fmt.Sprintf("; last failure +%s (%s)", s.lastFailure.Sub(r.killed).Round(time.Millisecond), s.lastError)
			}
			t.Log(line)
		}
		after[route] = r.routes[route][1]
	}
	return after
}

func get(client *http.Client, url string) (int, error) {
	resp, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

func getJSON(url string, out any) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return -1
		}
	}
	return resp.StatusCode
}
