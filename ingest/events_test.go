package ingest_test

import (
	"context"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// eventsPoll is the poll interval of the events test: polling is off in effect, so
// only the node's events can start a fetch.
const eventsPoll = time.Hour

// With polling off, the node's events drive the indexer over the real milestones: after
// the start (17339), the blocks the node announces become unreferenced rows; forged
// events and a broker restart follow; the confirmed milestone (17340) is fetched within a
// second of its event and replaces them. The tables are those of a run from REST alone.
func TestNodeEventsDriveTheIndexer(t *testing.T) {
	clean, cleanCfg, _ := cleanRun(t)
	fake, set := nodetest.Start(t)
	if err := fake.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	if err := fake.StartEvents(); err != nil {
		t.Fatal(err)
	}
	st, cfg := newStore(t)
	src, err := node.New(node.Config{URL: fake.URL(), Events: node.EventsAuto})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	src.Listen(ctx)
	p := ingest.New(src, st, ingest.Config{NodeID: 1, Start: 17339, Follow: true, Unreferenced: true,
		PollInterval: eventsPoll}, nil, nil)
	p.AddRows(analytics.Rows)
	stopped := make(chan error, 1)
	go func() { stopped <- p.Run(ctx) }()
	awaitSubscribed(t, fake)
	awaitRows(t, stopped, "milestone 17339", func() bool { return isSynced(st, 17339) })

	m := set.Milestones[17340]
	pending := announce(t, fake, st, m, stopped)
	forgeEvents(t, fake)
	fake.StopEvents()
	time.Sleep(500 * time.Millisecond)
	if err := fake.StartEvents(); err != nil {
		t.Fatal(err)
	}
	awaitSubscribed(t, fake)
	confirmByEvent(t, fake, st, m, stopped)
	if !allRecords(t, st, pending, func(r store.MessageRecord) bool {
		return r.MilestoneIndex != nil && uint32(*r.MilestoneIndex) == m.Index
	}) {
		t.Errorf("milestone %d: its blocks are not all confirmed rows", m.Index)
	}
	cancel()
	<-stopped
	got, want := firstSeenRemoved(t, st, cfg), firstSeenRemoved(t, clean, cleanCfg)
	if diff := testcontainers.DiffDumps(got, want); diff != "" {
		t.Fatalf("rows differ from a run from REST alone:\n%s", diff)
	}
}

// announce publishes m's blocks and sees them written unreferenced; it returns their IDs.
func announce(t *testing.T, fake *nodetest.Server, st *store.Store, m *realdata.Milestone, stopped <-chan error) []string {
	t.Helper()
	if err := fake.AttachBlocks(m.Index); err != nil {
		t.Fatal(err)
	}
	pending := regularBlocks(m)
	awaitRows(t, stopped, "unreferenced rows of "+itoa(int(m.Index)), func() bool {
		return allRecords(t, st, pending, func(r store.MessageRecord) bool {
			return r.MilestoneIndex == nil && r.EstMilestoneIndex != nil && uint32(*r.EstMilestoneIndex) == m.Index
		})
	})
	return pending
}

// eventBound is how soon after its event a milestone's fetch must start: far below the
// poll interval (eventsPoll), so a fetch within it came from the event, and far above a
// loaded machine's event-to-fetch path (delivery, an /info request, sync reads, a lease).
const eventBound = 10 * time.Second

// confirmByEvent confirms m and sees it fetched within eventBound of the event, and synced.
func confirmByEvent(t *testing.T, fake *nodetest.Server, st *store.Store, m *realdata.Milestone, stopped <-chan error) {
	t.Helper()
	fetches := fake.Count(nodetest.RouteMilestoneByIndex)
	confirmed := time.Now()
	if err := fake.SetConfirmed(m.Index); err != nil {
		t.Fatal(err)
	}
	awaitRows(t, stopped, "the fetch of "+itoa(int(m.Index)), func() bool {
		return fake.Count(nodetest.RouteMilestoneByIndex) > fetches
	})
	fetchedIn := time.Since(confirmed)
	awaitRows(t, stopped, "milestone "+itoa(int(m.Index)), func() bool { return isSynced(st, m.Index) })
	t.Logf("milestone %d: fetch started %v and synced %v after its event (polling every %v)", m.Index,
		fetchedIn.Round(time.Millisecond), time.Since(confirmed).Round(time.Millisecond), eventsPoll)
	if fetchedIn > eventBound {
		t.Errorf("milestone %d fetched %v after its event; want within %v", m.Index, fetchedIn, eventBound)
	}
}

func isSynced(st *store.Store, index uint32) bool {
	synced, err := st.Synced(context.Background(), index, index)
	return err == nil && len(synced) == 1
}

// forgeEvents publishes what no node should: a milestone far past the tip, bytes that
// are no block, a referenced event without an ID. None may write anything.
func forgeEvents(t *testing.T, fake *nodetest.Server) {
	t.Helper()
	for topic, payload := range map[string]string{
		nodetest.TopicConfirmed:  `{"index":4000000000,"timestamp":1,"milestoneId":"0x00"}`,
		nodetest.TopicBlocks:     "\x03not a block",
		nodetest.TopicReferenced: `{"parentBlockIds":[]}`,
	} {
		if err := fake.Publish(topic, []byte(payload)); err != nil {
			t.Fatal(err)
		}
	}
}

// regularBlocks are the IDs of m's blocks that carry no milestone (those are never pending).
func regularBlocks(m *realdata.Milestone) []string {
	var ids []string
	for _, b := range m.Cone {
		if msg, err := chain.DecodeMessage(b.Raw); err == nil && msg.MilestoneOf() == nil {
			ids = append(ids, chain.MessageID(b.ID).String())
		}
	}
	return ids
}

func allRecords(t *testing.T, st *store.Store, ids []string, ok func(store.MessageRecord) bool) bool {
	t.Helper()
	for _, id := range ids {
		r, err := st.Message(context.Background(), id)
		if err != nil || !ok(r) {
			return false
		}
	}
	return len(ids) > 0
}

// awaitRows polls cond until it holds, failing after 30 s or when the pipeline stopped.
func awaitRows(t *testing.T, stopped <-chan error, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-stopped:
			t.Fatalf("waiting for %s, the pipeline stopped: %v", what, err)
		default:
		}
		if cond() {
			return
		}
	}
	t.Fatalf("no %s within 30s", what)
}

// awaitSubscribed waits until a client subscribed to each of the fake node's topics (the
// client subscribes to them together, and the broker adds them one at a time).
func awaitSubscribed(t *testing.T, fake *nodetest.Server) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if fake.Subscribers(nodetest.TopicConfirmed) > 0 && fake.Subscribers(nodetest.TopicBlocks) > 0 &&
			fake.Subscribers(nodetest.TopicReferenced) > 0 {
			return
		}
	}
	t.Fatal("no client subscribed to the node's events within 30s")
}
