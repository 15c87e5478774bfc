package api

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/events"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/compat/iotajs"
	"github.com/stardust-indexer/stardust-indexer/compat/iotasdk"
	"github.com/stardust-indexer/stardust-indexer/internal/logbuf"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// checkLiveReal: with the ledger at 17339, an event stream from 17338 and iota-sdk's
// listen_mqtt on the API's TIP-28 broker are open while ingest17340 indexes 17340. The
// stream replays 17338-17339 and then delivers 17340's milestone and output events as
// they are indexed; the SDK receives milestone-info of 17339 (on subscribing) and
// 17340, the milestone 17340, the creations and spends of every address 17340 changes
// on each of its unlock topics, an output's state and then its spend, a transaction's
// inclusion and a block's metadata: exactly what the data file says.
func checkLiveReal(t *testing.T, e *env, ingest17340 func(t *testing.T)) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	stream := openLiveStream(t, e, set)
	defer stream.close()
	var clients []*sdkListener
	if !testing.Short() {
		srv := healthyServer(t, e, set)
		topics := chooseSDKTopics(t, set)
		clients = append(clients,
			startListener(t, srv, topics, "iota-sdk", iotasdk.Python(t), iotasdk.Dir(), "mqtt_listen.py"),
			startListener(t, srv, topics, "@iota/mqtt.js", iotajs.Node(t), iotajs.Dir(), "mqtt_listen.js"))
	}
	ingest17340(t)
	checkStreamLive(t, stream, set)
	for _, l := range clients {
		l.check(t, e, set)
	}
}

// liveOutputs are the outputs 17340 created or consumed (at most 31: the stream's cap
// is 32 topics), and their events in the stream's form.
func liveOutputs(set *realdata.Set) (ids []string, events []string) {
	ms := set.Milestones[17340]
	for _, o := range ms.Created {
		ids = append(ids, chain.OutputID(o.OutputID).String())
	}
	for _, o := range ms.Consumed {
		ids = append(ids, chain.OutputID(o.OutputID).String())
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)[:min(31, len(slices.Compact(ids)))]
	for _, o := range ms.Created {
		if id := chain.OutputID(o.OutputID).String(); slices.Contains(ids, id) {
			events = append(events, fmt.Sprintf("17340 output %s false", id))
		}
	}
	for _, o := range ms.Consumed {
		if id := chain.OutputID(o.OutputID).String(); slices.Contains(ids, id) {
			events = append(events, fmt.Sprintf("17340 output %s true", id))
		}
	}
	return ids, append(events, "17340 milestone")
}

// openLiveStream opens the stream of the milestones and of 17340's outputs from 17338
// and reads its replay, up to its live event.
func openLiveStream(t *testing.T, e *env, set *realdata.Set) *sseStream {
	ids, _ := liveOutputs(set)
	url := fmt.Sprintf("%s%s/events?topics=milestones,output:%s&fromMilestone=17338", e.srv.URL, events.Prefix,
		strings.Join(ids, ",output:"))
	s := openStream(t, url, "")
	var want []string
	for _, n := range []uint32{17339} {
		want = append(want, fmt.Sprintf("%d milestone", n))
		for _, o := range set.Milestones[n].Created {
			if id := chain.OutputID(o.OutputID).String(); slices.Contains(ids, id) {
				want = append(want, fmt.Sprintf("%d output %s false", n, id))
			}
		}
	}
	if code, _ := e.fetch(t, core.CorePrefix+"/milestones/by-index/17338"); code == 200 {
		want = append(want, "17338 milestone")
	}
	if got := eventKeys(s.untilLive(t)); !slices.Equal(sortedEvents(got), sortedEvents(want)) {
		t.Fatalf("replay from 17338 with the ledger at 17339: %v\nwant %v", got, want)
	}
	return s
}

// checkStreamLive reads the events the stream sends once 17340 is indexed.
func checkStreamLive(t *testing.T, s *sseStream, set *realdata.Set) {
	_, want := liveOutputs(set)
	var got []sseEvent
	for len(got) < len(want) {
		got = append(got, s.next(t))
	}
	if keys := eventKeys(got); !slices.Equal(sortedEvents(keys), sortedEvents(want)) {
		t.Fatalf("live events of 17340: %v\nwant %v", keys, want)
	}
	checkEventIDs(t, got)
	t.Logf("the stream delivered 17340 live: %d events", len(got))
}

// sdkListener is a client's listener script (compat/iotasdk/mqtt_listen.py,
// compat/iotajs/mqtt_listen.js) running beside the test against an API server.
type sdkListener struct {
	name   string
	topics sdkTopics
	done   chan error
	out    *logbuf.Buffer
}

// sdkTopics are the SDK's subscriptions and what they were chosen for.
type sdkTopics struct {
	all       []string
	addresses []string
	output    realdata.Spent // consumed by 17340, created before
	block     realdata.Block // the block of a transaction 17340 included
	tx        string
}

// healthyServer serves the store on a server whose /info says healthy for the data's
// age (iota-sdk connects only to healthy nodes).
func healthyServer(t *testing.T, e *env, set *realdata.Set) *mqttServer {
	newest := set.Milestones[set.Highest()]
	s := New(e.st, Config{HealthMaxAge: time.Since(time.Unix(int64(newest.Timestamp), 0)) + 24*time.Hour})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(func() { _ = s.Close() })
	return &mqttServer{s: s, url: srv.URL}
}

// mqttServer is an API server and its base URL.
type mqttServer struct {
	s         *Server
	url       string
	listeners int // started on it
}

// startListener starts a client's listener script (in dir, run by interpreter) on the
// server and waits until the broker has each of its subscriptions (a subscriber of each
// topic more than before).
func startListener(t *testing.T, srv *mqttServer, topics sdkTopics, name, interpreter, dir, script string) *sdkListener {
	file := filepath.Join(t.TempDir(), "topics.json")
	b, _ := json.Marshal(topics.all)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	l := &sdkListener{name: name, topics: topics, done: make(chan error, 1), out: &logbuf.Buffer{}}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, interpreter, script, srv.url, file, "17340", "150")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, l.out, l.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { l.done <- cmd.Wait() }()
	srv.listeners++
	for _, topic := range topics.all {
		for deadline := time.Now().Add(90 * time.Second); srv.s.broker.Subscribers(topic) < srv.listeners; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not subscribe to %s within 90 s:\n%s", name, topic, l.out)
			}
		}
	}
	return l
}

// chooseSDKTopics: the milestone topics; for every address an output 17340 created or
// consumed names, its address and "+" unlock topics (and /spent), and the topics of the
// other conditions it appears under; an output 17340 consumed (created before, with an
// index the SDK's topic check accepts: decimal digits in its hex); the inclusion of a
// transaction 17340 included, and its block's metadata. They fit one SUBSCRIBE the SDK
// sends (at most 10 KiB).
func chooseSDKTopics(t *testing.T, set *realdata.Set) sdkTopics {
	ms := set.Milestones[17340]
	tt := sdkTopics{all: []string{"milestone-info/confirmed", "milestone-info/latest", "milestones"}}
	addrs := map[string]bool{}
	var unlock []string
	for _, o := range changedOutputs(ms) {
		for _, c := range realUnlockConds(t, o.Raw) {
			addrs[c.address] = true
			for _, cond := range []string{c.cond, "address", "+"} {
				unlock = append(unlock, "outputs/unlock/"+cond+"/"+c.address, "outputs/unlock/"+cond+"/"+c.address+"/spent")
			}
		}
	}
	slices.Sort(unlock)
	tt.all = append(tt.all, slices.Compact(unlock)...)
	tt.addresses = slices.Sorted(maps.Keys(addrs))
	for _, o := range ms.Consumed {
		id := chain.OutputID(o.OutputID).String()
		if o.Booked < 17340 && strings.Trim(id[len(id)-4:], "0123456789") == "" {
			tt.output = o
			tt.all = append(tt.all, "outputs/"+id)
			break
		}
	}
	for _, o := range ms.Created {
		if id := chain.OutputID(o.OutputID); id.Index() == 0 {
			tt.tx = id.TransactionID().String()
			tt.block = *coneBlock(ms, o.BlockID)
			tt.all = append(tt.all, "transactions/"+tt.tx+"/included-block",
				"block-metadata/"+chain.MessageID(o.BlockID).String())
			break
		}
	}
	if tt.tx == "" || tt.output.Booked == 0 {
		t.Fatal("17340 has no transaction, or consumes no output the SDK can name")
	}
	return tt
}

// changedOutputs are the outputs ms created and consumed.
func changedOutputs(ms *realdata.Milestone) []realdata.Output {
	out := slices.Clone(ms.Created)
	for _, o := range ms.Consumed {
		out = append(out, o.Output)
	}
	return out
}

// coneBlock is the block id of ms's cone.
func coneBlock(ms *realdata.Milestone, id [32]byte) *realdata.Block {
	for i := range ms.Cone {
		if ms.Cone[i].ID == id {
			return &ms.Cone[i]
		}
	}
	return nil
}

// realUnlockConds are the unlock conditions of an output of the data, decoded from
// its bytes, as TIP-28's unlock topics name them.
func realUnlockConds(t *testing.T, raw []byte) []unlockCond {
	o, err := chain.DecodeOutput(raw)
	if err != nil {
		t.Fatal(err)
	}
	return unlockConds(&o, chain.Shimmer().HRP)
}

// sdkEvent is one message the SDK handed its callback.
type sdkEvent struct {
	Topic   string `json:"topic"`
	Payload string `json:"payload"`
}

// check waits for the listener and checks what it received against the data.
func (l *sdkListener) check(t *testing.T, e *env, set *realdata.Set) {
	select {
	case err := <-l.done:
		if err != nil {
			t.Fatalf("%s's listener: %v\n%s", l.name, err, l.out)
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s's listener did not end:\n%s", l.name, l.out)
	}
	var evs []sdkEvent
	for _, line := range strings.Split(l.out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "EVENT "); ok {
			var ev sdkEvent
			if err := json.Unmarshal([]byte(rest), &ev); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			evs = append(evs, ev)
		}
	}
	l.checkEvents(t, e, set, evs)
}

// checkEvents checks the SDK's messages against the data file.
func (l *sdkListener) checkEvents(t *testing.T, e *env, set *realdata.Set, evs []sdkEvent) {
	var outputs, infos, others []string
	for _, ev := range evs {
		switch {
		case strings.HasPrefix(ev.Topic, "outputs/"):
			outputs = append(outputs, sdkOutputEvent(t, e, ev))
		case strings.HasPrefix(ev.Topic, "milestone-info/"):
			var info struct {
				Index, Timestamp uint32
				MilestoneID      string `json:"milestoneId"`
			}
			sdkJSON(t, ev, &info)
			infos = append(infos, fmt.Sprintf("%s %d %d %s", ev.Topic, info.Index, info.Timestamp, info.MilestoneID))
		default:
			others = append(others, sdkOther(t, ev))
		}
	}
	want := l.want(t, set)
	for _, c := range []struct {
		what      string
		got, want []string
	}{{"output events", oncePushed(outputs), want.outputs}, {"milestone-info", oncePushed(infos), want.infos},
		{"milestone, inclusion, metadata", others, want.others}} {
		if extra, missing := differ(c.got, c.want); len(extra)+len(missing) > 0 {
			t.Errorf("%s %s: %d received, %d expected; unexpected:\n  %s\nmissing:\n  %s", l.name, c.what, len(c.got), len(c.want),
				strings.Join(extra, "\n  "), strings.Join(missing, "\n  "))
		}
	}
	t.Logf("%s received %d messages: %d output events, %d milestone-info, %d other", l.name, len(evs), len(outputs), len(infos), len(others))
}

// oncePushed keeps one of each current value pushed on subscribing (at 17339): the
// broker publishes it to every subscriber of the topic, as inx-mqtt does, so a client
// gets it again when another client subscribes.
func oncePushed(events []string) []string {
	seen := map[string]bool{}
	return slices.DeleteFunc(slices.Clone(events), func(ev string) bool {
		pushed := strings.HasSuffix(ev, " 17339") || strings.Contains(ev, " 17339 ")
		dup := pushed && seen[ev]
		seen[ev] = true
		return dup
	})
}

func sdkJSON(t *testing.T, ev sdkEvent, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(ev.Payload), v); err != nil {
		t.Fatalf("%s: payload %.300s: %v", ev.Topic, ev.Payload, err)
	}
}

// sdkOutputEvent is an output message as "<topic> <outputId> <isSpent> <ledgerIndex>",
// once its output is checked against the core route's answer for the same output.
func sdkOutputEvent(t *testing.T, e *env, ev sdkEvent) string {
	var p struct {
		Metadata tip25.OutputMetadataJSON
		Output   any
	}
	sdkJSON(t, ev, &p)
	m := p.Metadata
	id := fmt.Sprintf("%s%s", m.TransactionID, hex.EncodeToString([]byte{byte(m.OutputIndex), byte(m.OutputIndex >> 8)}))
	var rest struct{ Output any }
	e.mustGet(t, core.CorePrefix+"/outputs/"+id, &rest)
	if !reflect.DeepEqual(p.Output, rest.Output) {
		t.Errorf("%s: output %s differs from GET /outputs/%s", ev.Topic, id, id)
	}
	return fmt.Sprintf("%s %s %t %d", ev.Topic, id, m.IsSpent, m.LedgerIndex)
}

// sdkOther is a milestone, inclusion or block-metadata message as the SDK decoded it.
func sdkOther(t *testing.T, ev sdkEvent) string {
	switch {
	case ev.Topic == "milestones":
		var mp struct {
			Type                int
			Index               uint32
			PreviousMilestoneID string `json:"previousMilestoneId"`
		}
		sdkJSON(t, ev, &mp)
		return fmt.Sprintf("milestones type %d index %d previous %s", mp.Type, mp.Index, mp.PreviousMilestoneID)
	case strings.HasSuffix(ev.Topic, "/included-block"):
		var b struct {
			Parents []string
			Payload struct{ Type int }
		}
		sdkJSON(t, ev, &b)
		return fmt.Sprintf("%s parents %s payload type %d", ev.Topic, strings.Join(b.Parents, ","), b.Payload.Type)
	case strings.HasPrefix(ev.Topic, "block-metadata/"):
		var md struct {
			BlockID                    string `json:"blockId"`
			ReferencedByMilestoneIndex uint32
			LedgerInclusionState       string
		}
		sdkJSON(t, ev, &md)
		return fmt.Sprintf("%s %s referenced by %d %s", ev.Topic, md.BlockID, md.ReferencedByMilestoneIndex, md.LedgerInclusionState)
	}
	return "unexpected topic " + ev.Topic
}

// sdkWant are the messages the SDK should receive, in the forms above.
type sdkWant struct{ outputs, infos, others []string }

func (l *sdkListener) want(t *testing.T, set *realdata.Set) sdkWant {
	var w sdkWant
	ms := set.Milestones[17340]
	for _, n := range []uint32{17339, 17340} {
		m := set.Milestones[n]
		for _, topic := range []string{"milestone-info/latest", "milestone-info/confirmed"} {
			w.infos = append(w.infos, fmt.Sprintf("%s %d %d %s", topic, n, m.Timestamp, chain.MilestoneID(m.MilestoneID)))
		}
	}
	changes := changedOutputs(ms)
	for i, o := range changes {
		id := chain.OutputID(o.OutputID).String()
		spent := i >= len(ms.Created) // changedOutputs lists the creations first
		suffix := map[bool]string{true: "/spent"}[spent]
		named := map[string]bool{}
		for _, c := range realUnlockConds(t, o.Raw) {
			w.outputs = append(w.outputs, fmt.Sprintf("outputs/unlock/%s/%s%s %s %t 17340", c.cond, c.address, suffix, id, spent))
			named[c.address] = true
		}
		for a := range named {
			w.outputs = append(w.outputs, fmt.Sprintf("outputs/unlock/+/%s%s %s %t 17340", a, suffix, id, spent))
		}
	}
	out := chain.OutputID(l.topics.output.OutputID).String()
	w.outputs = append(w.outputs, fmt.Sprintf("outputs/%s %s false 17339", out, out), fmt.Sprintf("outputs/%s %s true 17340", out, out))
	var parents []string
	for _, p := range l.topics.block.Parents {
		parents = append(parents, chain.MessageID(p).String())
	}
	block := chain.MessageID(l.topics.block.ID).String()
	w.others = []string{
		fmt.Sprintf("milestones type 7 index 17340 previous %s", chain.MilestoneID(ms.PreviousMilestoneID)),
		fmt.Sprintf("transactions/%s/included-block parents %s payload type 6", l.topics.tx, strings.Join(parents, ",")),
		fmt.Sprintf("block-metadata/%s %s referenced by 17340 %s", block, block, l.topics.block.InclusionState),
	}
	return w
}
