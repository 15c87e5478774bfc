package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/events"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// sseEvent is one Server-Sent Event as a client reads it.
type sseEvent struct {
	ID, Name string
	Data     map[string]any
}

// sseStream is an open event stream.
type sseStream struct {
	resp   *http.Response
	sc     *bufio.Scanner
	cancel context.CancelFunc
}

// openStream opens url with Last-Event-ID set unless lastID is "", and fails the test
// unless it answers 200. The caller closes it (before its server, which waits for it).
func openStream(t *testing.T, url, lastID string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		cancel()
		t.Fatalf("GET %s: %v %v", url, resp, err)
	}
	return &sseStream{resp: resp, sc: bufio.NewScanner(resp.Body), cancel: cancel}
}

func (s *sseStream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next reads the next event (comments skipped).
func (s *sseStream) next(t *testing.T) sseEvent {
	t.Helper()
	var e sseEvent
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "" && e.Name != "":
			return e
		case strings.HasPrefix(line, "id: "):
			e.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			e.Name = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &e.Data); err != nil {
				t.Fatalf("event data %q: %v", line, err)
			}
		}
	}
	t.Fatalf("the stream ended: %v", s.sc.Err())
	return e
}

// untilLive reads the events before the one that says the stream is live.
func (s *sseStream) untilLive(t *testing.T) []sseEvent {
	t.Helper()
	var out []sseEvent
	for {
		e := s.next(t)
		if e.Name == "live" {
			return out
		}
		out = append(out, e)
	}
}

// testEventStream: a stream of the milestones, an address, a tag and an output from a
// milestone in the chain replays exactly the model's milestones, the address's ledger
// updates, the tag's referenced blocks and the output's creation and spend from there,
// each milestone's events numbered from 0; a stream resumed after any of its events on
// another server (Last-Event-ID) sends exactly the events after it.
func testEventStream(t *testing.T, e *env, w *explorerWant) {
	from := e.truth.Milestones[3].Index
	address := updatedNear(w, 1<<62)
	tag, output := busiestTag(e), spentOutput(e, from)
	topics := fmt.Sprintf("milestones,address:%s,tag:0x%x,output:%s", address, tag, output)
	url := fmt.Sprintf("%s%s/events?topics=%s&fromMilestone=%d", e.srv.URL, events.Prefix, topics, from)
	s := openStream(t, url, "")
	got := s.untilLive(t)
	s.close()
	want := modelEvents(e, w, address, tag, output, from)
	if !slices.Equal(eventKeys(got), want) {
		t.Fatalf("stream from %d: %d events\n%v\nwant %d\n%v", from, len(got), eventKeys(got), len(want), want)
	}
	checkEventIDs(t, got)
	to := from + 5
	bounded := openStream(t, fmt.Sprintf("%s&toMilestone=%d", url, to), "")
	head := bounded.untilEnd(t)
	bounded.close()
	n := 0
	for n < len(got) && eventMilestone(t, got[n]) <= to {
		n++
	}
	if n == 0 || n == len(got) || !slices.Equal(eventKeys(head), eventKeys(got[:n])) {
		t.Fatalf("stream to %d: %v, want the first %d events of the whole stream", to, eventKeys(head), n)
	}
	other := httptest.NewServer(New(e.st, Config{}).Handler()) // another API over the same keyspace
	defer other.Close()
	for _, i := range []int{0, len(got) / 3, len(got) / 2, len(got) - 2} {
		s := openStream(t, strings.Replace(url, e.srv.URL, other.URL, 1), got[i].ID)
		resumed := s.untilLive(t)
		s.close()
		if !slices.Equal(eventKeys(resumed), eventKeys(got[i+1:])) {
			t.Fatalf("resumed after %s: %v, want %v", got[i].ID, eventKeys(resumed), eventKeys(got[i+1:]))
		}
	}
	t.Logf("%d events from %d (%s), resumed at 4 places", len(got), from, topics)
}

// modelEvents are the events the model says a stream of those topics sends from
// milestone from on, as eventKeys writes them.
func modelEvents(e *env, w *explorerWant, address, tag string, output chain.OutputID, from uint32) []string {
	byMilestone := map[uint32][]string{}
	for _, m := range e.truth.Milestones {
		if m.Index >= from {
			byMilestone[m.Index] = append(byMilestone[m.Index], "0 milestone")
		}
	}
	for _, u := range w.updates[address] {
		if u.MilestoneIndex >= from {
			byMilestone[u.MilestoneIndex] = append(byMilestone[u.MilestoneIndex],
				fmt.Sprintf("1 ledger %s %t", u.OutputID, u.IsSpent))
		}
	}
	o := e.truth.Outputs[output]
	byMilestone[o.MilestoneIndex] = append(byMilestone[o.MilestoneIndex], fmt.Sprintf("2 output %s false", output))
	byMilestone[o.SpentMilestone] = append(byMilestone[o.SpentMilestone], fmt.Sprintf("2 output %s true", output))
	for _, id := range e.truth.Tags[tag] {
		if m := e.truth.Messages[id]; m.Milestone >= from {
			byMilestone[m.Milestone] = append(byMilestone[m.Milestone], "3 block "+id.String())
		}
	}
	var out []string
	for k := from; k <= e.truth.UpTo; k++ {
		evs := byMilestone[k]
		slices.Sort(evs)
		for _, ev := range evs {
			out = append(out, fmt.Sprintf("%d %s", k, ev[2:]))
		}
	}
	return out
}

// eventKeys are events as "milestone name item", the form modelEvents writes.
func eventKeys(evs []sseEvent) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		k := fmt.Sprint(ev.Data["milestoneIndex"], ev.Data["index"])
		k = strings.Trim(strings.ReplaceAll(k, "<nil>", ""), " ")
		switch ev.Name {
		case "milestone":
			out[i] = k + " milestone"
		case "ledger", "output":
			out[i] = fmt.Sprintf("%s %s %s %t", k, ev.Name, ev.Data["outputId"], ev.Data["isSpent"])
		default:
			out[i] = fmt.Sprintf("%s %s %s", k, ev.Name, ev.Data["blockId"])
		}
	}
	return out
}

// eventMilestone is the milestone an event's ID names.
func eventMilestone(t *testing.T, ev sseEvent) uint32 {
	t.Helper()
	var k, n uint32
	if _, err := fmt.Sscanf(ev.ID, "%d.%d", &k, &n); err != nil {
		t.Fatalf("event ID %q: %v", ev.ID, err)
	}
	return k
}

// untilEnd reads the events before the end event, and checks that the stream ends there.
func (s *sseStream) untilEnd(t *testing.T) []sseEvent {
	t.Helper()
	var out []sseEvent
	for e := s.next(t); e.Name != "end"; e = s.next(t) {
		if e.Name == "live" {
			t.Fatal("a stream with toMilestone went live")
		}
		out = append(out, e)
	}
	if s.sc.Scan() {
		t.Fatalf("the stream went on after its end event: %q", s.sc.Text())
	}
	return out
}

// checkEventIDs: every event's ID is its milestone and its place among the milestone's
// events, from 0.
func checkEventIDs(t *testing.T, evs []sseEvent) {
	t.Helper()
	seq, last := 0, ""
	for _, ev := range evs {
		k := strings.Fields(eventKeys([]sseEvent{ev})[0])[0]
		if k != last {
			seq, last = 0, k
		}
		if want := fmt.Sprintf("%s.%d", k, seq); ev.ID != want {
			t.Fatalf("event %+v: id %s, want %s", ev, ev.ID, want)
		}
		seq++
	}
}

// busiestTag is the tag with the most messages (the smallest such tag).
func busiestTag(e *env) string {
	best := ""
	for tag, ids := range e.truth.Tags {
		if len(ids) > len(e.truth.Tags[best]) || len(ids) == len(e.truth.Tags[best]) && tag < best {
			best = tag
		}
	}
	return best
}

// spentOutput is an output created at or after from and spent (the smallest ID).
func spentOutput(e *env, from uint32) chain.OutputID {
	var ids []chain.OutputID
	for id, o := range e.truth.Outputs {
		if o.Spent && o.MilestoneIndex >= from {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b chain.OutputID) int { return strings.Compare(a.String(), b.String()) })
	return ids[0]
}

// testEventStreamErrors: an unknown topic, a start below the indexed milestones or past
// the next one and a malformed Last-Event-ID are refused naming the problem; past the
// cap on one client's streams a stream is refused 429.
func testEventStreamErrors(t *testing.T, e *env, _ *explorerWant) {
	path := events.Prefix + "/events?topics="
	for q, detail := range map[string]string{
		"blocks":                                   `topics: unknown topic "blocks"`,
		"address:smr1nope":                         "topics: want a bech32 address",
		"milestones&fromMilestone=0":               "fromMilestone: milestone 0 is below the oldest indexed milestone",
		"milestones&fromMilestone=9999999":         "fromMilestone: milestone 9999999 is past the next one",
		"milestones&lastEventId=3":                 "lastEventId: want an event ID",
		"milestones&fromMilestone=5&toMilestone=3": "toMilestone: 3 is before the stream's first milestone, 5",
		"": "topics",
	} {
		code, body := e.fetch(t, path+q)
		var ans struct{ Detail string }
		if json.Unmarshal(body, &ans) != nil || code != http.StatusBadRequest || !strings.Contains(ans.Detail, detail) {
			t.Errorf("GET %s: %d %s, want 400 naming %q", path+q, code, body, detail)
		}
	}
	// A client slower than the server's bound (here: any) is told where to resume, and dropped.
	hasty := httptest.NewServer(New(e.st, Config{SlowFlush: time.Nanosecond}).Handler())
	defer hasty.Close()
	dropped := openStream(t, hasty.URL+path+"milestones&fromMilestone=2", "")
	defer dropped.close()
	lastID := ""
	ev := dropped.next(t)
	for ; ev.Name != "drop"; ev = dropped.next(t) {
		if ev.Name == "live" {
			t.Fatal("a slow client was not dropped")
		}
		lastID = ev.ID
	}
	if ev.Data["lastEventId"] != lastID || ev.Data["fromMilestone"] == nil {
		t.Errorf("drop event %+v, want it to name the last event sent, %q", ev, lastID)
	}
	if dropped.sc.Scan() {
		t.Errorf("the stream went on after its drop event: %q", dropped.sc.Text())
	}
	capped := httptest.NewServer(New(e.st, Config{MaxLiveStreamsPerClient: 1}).Handler())
	defer capped.Close()
	first := openStream(t, capped.URL+path+"milestones", "")
	defer first.close()
	first.untilLive(t)
	resp, body := send(t, http.MethodGet, capped.URL+path+"milestones", "", "")
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "live streams open") {
		t.Errorf("a second stream past the cap: %d %s, want 429", resp.StatusCode, body)
	}
}

// TestEventStreamLive: a stream opened at the chain's tip sends each milestone the
// indexer writes after it started, with the address's changes in it, as it is indexed.
func TestEventStreamLive(t *testing.T) {
	const n = 12
	e := newEnv(t, testOptions, n)
	url := fmt.Sprintf("%s%s/events?topics=milestones&fromMilestone=%d", e.srv.URL, events.Prefix, n-1)
	s := openStream(t, url, "")
	defer s.close()
	if got := eventKeys(s.untilLive(t)); !slices.Equal(got, []string{fmt.Sprint(n-1, " milestone"), fmt.Sprint(n, " milestone")}) {
		t.Fatalf("replay of %d-%d: %v", n-1, n, got)
	}
	ingestMore(t, e, testOptions, n+1, n+3)
	for k := n + 1; k <= n+3; k++ {
		if ev := s.next(t); ev.Name != "milestone" || ev.ID != fmt.Sprintf("%d.0", k) {
			t.Fatalf("live event after milestone %d was indexed: %+v", k, ev)
		}
	}
}

// TestEventStreamOutlivesTimeouts: on the hardened HTTP server (NewHTTPServer: the read
// and write timeouts of a request) a live stream stays open past both, and a milestone
// indexed after them arrives.
func TestEventStreamOutlivesTimeouts(t *testing.T) {
	const n = 5
	e := newEnv(t, testOptions, n)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(ln.Addr().String(), New(e.st, Config{RequestTimeout: time.Second}).Handler(), time.Second)
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	s := openStream(t, fmt.Sprintf("http://%s%s/events?topics=milestones", ln.Addr(), events.Prefix), "")
	defer s.close()
	s.untilLive(t)
	time.Sleep(hs.ReadTimeout + hs.WriteTimeout - 9*time.Second) // past both, from the request's start
	ingestMore(t, e, testOptions, n+1, n+1)
	if ev := s.next(t); ev.Name != "milestone" || ev.ID != fmt.Sprintf("%d.0", n+1) {
		t.Fatalf("after the server's timeouts: %+v, want milestone %d", ev, n+1)
	}
}
