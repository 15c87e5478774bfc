package api

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/events"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// BenchmarkEventStreams prints, for EVENT_BENCH_STREAMS (1000) live streams of the
// milestones opened at the tip of a short sim chain and left idle: this process's RSS
// (API, store and the clients) and goroutines before and after they open; then, as the
// indexer writes EVENT_BENCH_MILESTONES (20) more milestones one by one, the delay from
// the end of each milestone's write (its sync row written) to each stream's event of it:
// p50, p99 and the largest, over every stream and milestone. It runs twice, side by
// side: with each stream reading its own events, then with the streams sharing the reads
// of the same milestones (the server's default).
func BenchmarkEventStreams(b *testing.B) {
	testcontainers.SkipShort(b)
	streams, more := envInt("EVENT_BENCH_STREAMS", 1000), uint32(envInt("EVENT_BENCH_MILESTONES", 20))
	for _, unshared := range []bool{true, false} {
		name := map[bool]string{true: "each stream reads", false: "shared reads"}[unshared]
		fmt.Printf("BenchmarkEventStreams (%s): %s\n", name, eventStreamsRun(b, streams, more, unshared))
	}
}

// eventStreamsRun is one run of BenchmarkEventStreams on a new keyspace.
func eventStreamsRun(b *testing.B, streams int, more uint32, unshared bool) string {
	const n = 10
	e := newEnv(b, testOptions, n)
	srv := httptest.NewServer(New(e.st, Config{MaxLiveStreams: streams, MaxLiveStreamsPerClient: streams,
		UnsharedStreamReads: unshared}).Handler())
	defer srv.Close()
	e.truth = nil
	debug.FreeOSMemory()
	rssBefore, goBefore := selfRSS(b), runtime.NumGoroutine()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: streams}}
	ctx, cancel := context.WithCancel(context.Background())
	received := make([][]time.Time, streams) // per stream, per new milestone
	var opened, done sync.WaitGroup
	for i := range streams {
		received[i] = make([]time.Time, more)
		opened.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			readStream(ctx, b, client, srv.URL+events.Prefix+"/events?topics=milestones", n, received[i], &opened)
		}()
	}
	opened.Wait()
	time.Sleep(time.Second) // the streams settle idle
	runtime.GC()
	rssOpen, goOpen := selfRSS(b), runtime.NumGoroutine()
	written := writeOneByOne(b, e, n, more)
	cancel()
	done.Wait()
	delays, missing := delaysAfter(received, written)
	if len(delays) == 0 {
		b.Fatal("no stream received an event")
	}
	return fmt.Sprintf("%d idle streams: RSS %d -> %d MB, goroutines %d -> %d; %d milestones x %d streams: "+
		"delay from the sync row to the event %s; %d events missing", streams,
		rssBefore>>10, rssOpen>>10, goBefore, goOpen, more, streams, delayFigures(delays), missing)
}

// readStream reads a stream opened at milestone n+1, marks it opened once live, and
// notes when each later milestone's event arrives.
func readStream(ctx context.Context, b *testing.B, c *http.Client, url string, n uint32, at []time.Time, opened *sync.WaitGroup) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := c.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		opened.Done()
		b.Errorf("GET %s: %v %v", url, resp, err)
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	live := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !live && line == "event: live":
			live = true
			opened.Done()
		case strings.HasPrefix(line, "id: "):
			var k, seq uint32
			if _, err := fmt.Sscanf(line, "id: %d.%d", &k, &seq); err == nil && k > n && int(k-n) <= len(at) {
				at[k-n-1] = time.Now()
			}
		}
	}
	if !live {
		opened.Done()
	}
}
