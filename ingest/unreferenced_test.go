package ingest_test

import (
	"cmp"
	"context"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestUnreferencedMessagesAreReplacedByConfirmedRows follows a tip that moves from 20 to
// 21 once the test has read a pending row: while 21 is not there, its messages seen so far are written as unreferenced (with
// est_milestone_index, outputs in the pending partition); once it arrives they are
// confirmed, and every table equals that of a run that never saw them pending.
func TestUnreferencedMessagesAreReplacedByConfirmedRows(t *testing.T) {
	const tip = 21
	st, id := pendingThenConfirmed(t, tip, func(s source.Source) source.Source { return s },
		func(_ *store.Store, id string, before store.MessageRecord) {
			if before.MilestoneIndex != nil || before.EstMilestoneIndex == nil || *before.EstMilestoneIndex != tip {
				t.Errorf("pending %s: milestone %v est %v; want unreferenced with est_milestone_index %d",
					id, before.MilestoneIndex, before.EstMilestoneIndex, tip)
			}
		})
	after, err := st.Message(context.Background(), id)
	if err != nil || after.MilestoneIndex == nil || *after.MilestoneIndex != tip {
		t.Fatalf("confirmed %s: milestone %v (%v); want %d", id, after.MilestoneIndex, err, tip)
	}
}

// pendingThenConfirmed runs the pipeline over the sim chain up to tip (its source made by
// wrap), with the tip held one below until the first unreferenced message's pending row was
// read and handed, with its ID, to whilePending (on another goroutine: it reports with t.Errorf). It then
// checks that every table equals that of a run that never saw the messages pending, and
// returns the store and the message's ID.
func pendingThenConfirmed(t *testing.T, tip uint32, wrap func(source.Source) source.Source,
	whilePending func(st *store.Store, id string, rec store.MessageRecord)) (*store.Store, string) {
	t.Helper()
	st, cfg := newStore(t)
	clean, cleanCfg := newStore(t)
	ingestAll(t, clean, simSource(tip), tip, nil)

	sim := simSource(tip)
	pending, err := sim.Unreferenced(context.Background(), tip-1)
	if err != nil || len(pending) == 0 {
		t.Fatalf("sim has no unreferenced messages before %d: %v", tip, err)
	}
	id := pending[0].ID.String()
	m := ingest.NewMetrics(nil)
	gated := &gatedTip{Source: wrap(sim), held: tip - 1, release: make(chan struct{})}
	p := ingest.New(gated, st, ingest.Config{NodeID: 1, StopAt: tip,
		Follow: true, Unreferenced: true, PollInterval: 100 * time.Millisecond}, m, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(gated.release) // the tip moves on only once the pending row was read
		whilePending(st, id, awaitPending(t, st, m, id))
	}()
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-done
	// Confirmed rows keep est_milestone_index and seen_at (when the message was first
	// seen), and hints keep naming the pending partition; everything else is equal.
	got, want := firstSeenRemoved(t, st, cfg), firstSeenRemoved(t, clean, cleanCfg)
	if diff := testcontainers.DiffDumps(got, want); diff != "" {
		t.Fatalf("after confirmation, rows differ from a run that never saw them pending:\n%s", diff)
	}
	return st, id
}

var firstSeen = regexp.MustCompile(`(est_milestone_index|seen_at)=(\d+|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC) `)

// firstSeenRemoved dumps the keyspace without the columns and hint rows that record that
// a message was seen before its milestone.
func firstSeenRemoved(t *testing.T, st *store.Store, cfg cql.Config) map[string][]string {
	t.Helper()
	dump, err := testcontainers.Dump(context.Background(), testcontainers.Session(t, cfg).Gocql(), cfg.Keyspace, bookkeeping...)
	if err != nil {
		t.Fatal(err)
	}
	pendingHint := "ms_range_id=" + strconv.Itoa(int(store.PendingRange)) + " "
	for table, rows := range dump {
		kept := rows[:0]
		for _, r := range rows {
			if strings.HasSuffix(table, "_hints") && strings.Contains(r, pendingHint) {
				continue
			}
			kept = append(kept, firstSeen.ReplaceAllString(r, ""))
		}
		sort.Strings(kept)
		dump[table] = kept
	}
	return dump
}

// gatedTip serves a source with its tip held at held until release is closed, then the
// source's own tip; like a node, it refuses milestones past the tip it shows.
type gatedTip struct {
	source.Source
	held    uint32
	release chan struct{}
}

func (g *gatedTip) Latest(ctx context.Context) (uint32, error) {
	select {
	case <-g.release:
		return g.Source.Latest(ctx)
	default:
		return g.held, nil
	}
}

func (g *gatedTip) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	if tip, err := g.Latest(ctx); err != nil || index > tip {
		return nil, cmp.Or(err, source.ErrNotFound)
	}
	return g.Source.Milestone(ctx, index)
}

// awaitPending waits until the pipeline wrote unreferenced messages, then reads id.
func awaitPending(t *testing.T, st *store.Store, m *ingest.Metrics, id string) store.MessageRecord {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if testutil.ToFloat64(m.Unreferenced) > 0 {
			rec, err := st.Message(context.Background(), id)
			if err != nil {
				t.Errorf("reading pending message %s: %v", id, err)
			}
			return rec
		}
	}
	t.Errorf("no unreferenced message written within 30s")
	return store.MessageRecord{}
}
