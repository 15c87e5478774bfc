package analytics_test

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestSchedulersRunEachDateOnce starts two schedulers (two owners, two sessions, one
// keyspace) at once: their start-up catch-up computes the two complete dates, the chain
// then entering new dates triggers the third, and every date is run exactly once in
// total.
func TestSchedulersRunEachDateOnce(t *testing.T) {
	t.Parallel()
	st, cfg, src := ingestedSim(t, 150) // 2022-10-01 and 02 complete; 03 has begun
	w := expected(t, src, tip)
	runs := &jobLog{byDate: map[string][]string{}}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var schedulers []*analytics.Scheduler
	for _, owner := range []string{"node-a", "node-b"} {
		s := analytics.NewScheduler(secondStore(t, cfg, owner == "node-b", st), analytics.SchedulerConfig{
			Owner: owner, CheckEvery: 50 * time.Millisecond, OnJob: runs.recorder(owner)})
		schedulers = append(schedulers, s)
		wg.Go(func() { _ = s.Run(ctx) })
	}
	waitFor(t, time.Minute, "both start-up passes", func() bool {
		return schedulers[0].Passes() >= 1 && schedulers[1].Passes() >= 1
	})
	runs.expect(t, "after start-up", "2022-10-01", "2022-10-02")
	ingestUpTo(t, st, src, tip)
	waitFor(t, time.Minute, "2022-10-03", func() bool { return runs.count("2022-10-03") > 0 })
	time.Sleep(500 * time.Millisecond) // ten more checks each: nobody may run anything again
	cancel()
	wg.Wait()
	runs.expect(t, "at the end", completeDates...)
	if n := schedulers[0].JobsRun() + schedulers[1].JobsRun(); n != 3 {
		t.Errorf("JobsRun: %d + %d, want 3 in total", schedulers[0].JobsRun(), schedulers[1].JobsRun())
	}
	got, err := analytics.DailyStats(context.Background(), st, date("2022-10-01"), date("2022-10-04"))
	if err != nil || len(got) != 3 || got[0].Date != "2022-10-03" || got[0].TotalAddresses != len(w.days["2022-10-03"].any) {
		t.Errorf("daily rows %+v, %v; want 2022-10-03..01 with %d addresses on the 3rd", got, err,
			len(w.days["2022-10-03"].any))
	}
	t.Logf("runs by date: %v", runs.byDate)
}

// secondStore gives node-b its own session on the same keyspace.
func secondStore(t *testing.T, cfg cql.Config, own bool, shared *store.Store) *store.Store {
	if !own {
		return shared
	}
	s, err := store.Open(context.Background(), cfg, testChunk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// jobLog records which owner ran which date.
type jobLog struct {
	mu     sync.Mutex
	byDate map[string][]string
}

func (l *jobLog) recorder(owner string) func(analytics.DayResult) {
	return func(r analytics.DayResult) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.byDate[r.Date] = append(l.byDate[r.Date], owner)
	}
}

func (l *jobLog) count(day string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byDate[day])
}

// expect fails unless exactly dates were run, each by exactly one owner.
func (l *jobLog) expect(t *testing.T, when string, dates ...string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if got := slices.Sorted(maps.Keys(l.byDate)); !slices.Equal(got, dates) {
		t.Fatalf("%s: dates run %v, want %v", when, got, dates)
	}
	for d, owners := range l.byDate {
		if len(owners) != 1 {
			t.Errorf("%s: %s run %d times (by %v), want once", when, d, len(owners), owners)
		}
	}
}

// TestSchedulerRetriesThePreviousDate: when the chain's newest date has begun but the
// previous date still misses a milestone, the scheduler computes that date as soon as
// the milestone is synced, without waiting for the next date or the daily run.
func TestSchedulerRetriesThePreviousDate(t *testing.T) {
	t.Parallel()
	st, _, src := ingestedSim(t, 150)
	if err := st.Unsync(context.Background(), 140); err != nil {
		t.Fatal(err)
	}
	runs := &jobLog{byDate: map[string][]string{}}
	s := analytics.NewScheduler(st, analytics.SchedulerConfig{Owner: "node-a", CheckEvery: 50 * time.Millisecond,
		DailyAt: halfADayAway(time.Now()), OnJob: runs.recorder("node-a")})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx) }()
	waitFor(t, time.Minute, "the start-up pass", func() bool { return s.Passes() >= 1 })
	runs.expect(t, "with milestone 140 missing", "2022-10-01")
	ingestUpTo(t, st, src, 150)
	waitFor(t, time.Minute, "2022-10-02", func() bool { return runs.count("2022-10-02") > 0 })
	if s.Passes() != 1 {
		t.Errorf("%d passes: the retry must not need a new pass", s.Passes())
	}
}

// halfADayAway is the wall-clock time of day twelve hours from now: a daily run set to it
// cannot add a pass to a test that counts them.
func halfADayAway(now time.Time) time.Duration {
	now = now.UTC()
	sinceMidnight := now.Sub(time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC))
	return max(((sinceMidnight + 12*time.Hour) % (24 * time.Hour)).Truncate(time.Minute), time.Minute)
}
