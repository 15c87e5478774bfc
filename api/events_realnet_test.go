package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/events"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// checkEventsReal: streams from 17338 of the milestones and of every output the data's
// milestones 17339 and 17340 created or consumed (31 outputs a stream) send exactly the
// indexed milestones and those creations and spends, as the node's ledger changes list
// them; a stream resumed after each of its events on another API over the keyspace (an
// API restart) sends exactly the events after it.
func checkEventsReal(t *testing.T, e *env) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	changes := map[string][]string{} // output ID -> its events
	for _, n := range []uint32{17339, 17340} {
		for _, o := range set.Milestones[n].Created {
			id := chain.OutputID(o.OutputID).String()
			changes[id] = append(changes[id], fmt.Sprintf("%d output %s false", n, id))
		}
		for _, o := range set.Milestones[n].Consumed {
			id := chain.OutputID(o.OutputID).String()
			changes[id] = append(changes[id], fmt.Sprintf("%d output %s true", n, id))
		}
	}
	var milestones []string
	for _, n := range []uint32{17338, 17339, 17340} {
		if code, _ := e.fetch(t, fmt.Sprintf("%s/milestones/by-index/%d", core.CorePrefix, n)); code == http.StatusOK {
			milestones = append(milestones, fmt.Sprintf("%d milestone", n))
		}
	}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range changes {
			if !yield(id) {
				return
			}
		}
	})
	other := httptest.NewServer(New(e.st, Config{}).Handler())
	defer other.Close()
	for chunk := range slices.Chunk(ids, 31) {
		want := slices.Clone(milestones)
		for _, id := range chunk {
			want = append(want, changes[id]...)
		}
		url := fmt.Sprintf("%s/events?topics=milestones,output:%s&fromMilestone=17338", events.Prefix,
			strings.Join(chunk, ",output:"))
		got := readUntilLive(t, e.srv.URL+url, "")
		if keys := eventKeys(got); !slices.Equal(sortedEvents(keys), sortedEvents(want)) {
			t.Fatalf("stream from 17338 of %d outputs: %v\nwant %v", len(chunk), keys, want)
		}
		checkEventIDs(t, got)
		for i := range got {
			if tail := readUntilLive(t, other.URL+url, got[i].ID); !slices.Equal(eventKeys(tail), eventKeys(got[i+1:])) {
				t.Fatalf("resumed after %s: %v, want %v", got[i].ID, eventKeys(tail), eventKeys(got[i+1:]))
			}
		}
	}
	t.Logf("%d outputs' changes and %d milestones streamed, resumed after every event", len(ids), len(milestones))
	if len(ids) == 0 || len(milestones) < 2 {
		t.Fatal("the data streams nothing")
	}
}

// readUntilLive opens a stream, reads it up to its live event and closes it.
func readUntilLive(t *testing.T, url, lastID string) []sseEvent {
	s := openStream(t, url, lastID)
	defer s.close()
	return s.untilLive(t)
}

// sortedEvents orders events by milestone, then as a milestone's events come (the
// milestone, then outputs by ID).
func sortedEvents(keys []string) []string {
	out := slices.Clone(keys)
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Compare(strings.Fields(a)[0]+" "+strings.Join(strings.Fields(a)[2:], " "),
			strings.Fields(b)[0]+" "+strings.Join(strings.Fields(b)[2:], " "))
	})
	return out
}
