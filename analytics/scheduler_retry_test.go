package analytics_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestSchedulerRetriesAFailedPass: a scheduler whose every read fails (its session is
// closed) counts each failure of the daily and the ledger job through OnError and tries
// the pass again after its backoff (Backoff's waits are TestBackoff's), with no other
// trigger due (the next check is an hour away, the daily run hours); it keeps running
// until its context ends.
func TestSchedulerRetriesAFailedPass(t *testing.T) {
	_, cfg := newStore(t)
	broken, err := store.Open(context.Background(), cfg, testChunk)
	if err != nil {
		t.Fatal(err)
	}
	broken.Close()
	var mu sync.Mutex
	counted := map[string]int{}
	dailyAt := time.Duration((time.Now().UTC().Hour()+12)%24) * time.Hour
	s := analytics.NewScheduler(broken, analytics.SchedulerConfig{Owner: "a", CheckEvery: time.Hour, DailyAt: max(dailyAt, time.Hour),
		Retry: analytics.Backoff{Min: 20 * time.Millisecond, Max: time.Second},
		OnError: func(job string, _ error) {
			mu.Lock()
			defer mu.Unlock()
			counted[job]++
		}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	waitFor(t, 30*time.Second, "four failed passes", func() bool { return s.Passes() >= 4 })
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run: %v, want it to run until its context ends", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if counted["daily"] < 4 || counted["ledger"] < 4 {
		t.Fatalf("failures counted %v, want at least 4 of each job", counted)
	}
}
