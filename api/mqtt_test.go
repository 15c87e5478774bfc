package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/stardust-indexer/stardust-indexer/api/tip28"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// mqttMessage is one message a test client received.
type mqttMessage struct {
	topic   string
	payload []byte
}

// mqttClient is a paho client of the API's broker that keeps what it receives.
type mqttClient struct {
	c    paho.Client
	mu   sync.Mutex
	got  []mqttMessage
	seen chan struct{} // a message arrived
}

// dialMQTT connects to the broker of the server at base (http://host:port) over
// WebSocket; password, when set, goes in the CONNECT.
func dialMQTT(t *testing.T, base, password string) (*mqttClient, error) {
	t.Helper()
	mc := &mqttClient{seen: make(chan struct{}, 1)}
	opts := paho.NewClientOptions().AddBroker("ws" + strings.TrimPrefix(base, "http") + tip28.Path).
		SetClientID(fmt.Sprintf("test%d", time.Now().UnixNano())).SetCleanSession(true).SetAutoReconnect(false).
		SetConnectTimeout(10 * time.Second).SetOrderMatters(true)
	if password != "" {
		opts.SetUsername("reader").SetPassword(password)
	}
	opts.SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) { mc.keep(m.Topic(), m.Payload()) })
	mc.c = paho.NewClient(opts)
	tok := mc.c.Connect()
	if !tok.WaitTimeout(15*time.Second) || tok.Error() != nil {
		return nil, fmt.Errorf("connect: %w", tok.Error())
	}
	t.Cleanup(func() { mc.c.Disconnect(100) })
	return mc, nil
}

func (mc *mqttClient) keep(topic string, payload []byte) {
	mc.mu.Lock()
	mc.got = append(mc.got, mqttMessage{topic, slices.Clone(payload)})
	mc.mu.Unlock()
	select {
	case mc.seen <- struct{}{}:
	default:
	}
}

// subscribe subscribes to topics and returns the QoS granted each (0x80: refused).
func (mc *mqttClient) subscribe(t *testing.T, topics ...string) map[string]byte {
	t.Helper()
	filters := map[string]byte{}
	for _, f := range topics {
		filters[f] = 1
	}
	tok := mc.c.SubscribeMultiple(filters, nil)
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe %v: %v", topics, tok.Error())
	}
	return tok.(*paho.SubscribeToken).Result()
}

// until waits (at most a minute) for a message that done accepts, and returns every
// message received up to it.
func (mc *mqttClient) until(t *testing.T, what string, done func(mqttMessage) bool) []mqttMessage {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		mc.mu.Lock()
		i := slices.IndexFunc(mc.got, done)
		got := slices.Clone(mc.got)
		mc.mu.Unlock()
		if i >= 0 {
			return got[:i+1]
		}
		select {
		case <-mc.seen:
		case <-deadline:
			t.Fatalf("no %s within a minute; received %d messages", what, len(got))
		}
	}
}

// confirmed accepts milestone-info/confirmed of milestone index.
func confirmed(index uint32) func(mqttMessage) bool {
	return func(m mqttMessage) bool {
		var info struct{ Index uint32 }
		return m.topic == "milestone-info/confirmed" && json.Unmarshal(m.payload, &info) == nil && info.Index == index
	}
}

// outputEvent is an output message's topic and output: "<topic> <outputId> <isSpent>".
func outputEvent(t *testing.T, m mqttMessage) string {
	t.Helper()
	var p tip25.OutputResponseJSON
	if err := json.Unmarshal(m.payload, &p); err != nil || p.Metadata == nil {
		t.Fatalf("%s: not an output payload: %v: %.300s", m.topic, err, m.payload)
	}
	return fmt.Sprintf("%s %s%04x %t", m.topic, p.Metadata.TransactionID, []byte{byte(p.Metadata.OutputIndex), byte(p.Metadata.OutputIndex >> 8)},
		p.Metadata.IsSpent)
}

// TestMQTT: a client of the broker subscribed to the milestone topics, to the unlock
// topics of the addresses the next three milestones change most, to an output those
// milestones spend, to a transaction and a block they include, gets each subscription's
// current value, then, as the three milestones are indexed, exactly the events the
// simulator's ground truth says they make; filters the broker does not publish are
// refused in the SUBACK.
func TestMQTT(t *testing.T) {
	const n = 12
	e := newEnv(t, testOptions, n)
	opts := testOptions
	opts.Tip = n + 4
	truth, err := sim.New(opts).Truth(n + 3)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := dialMQTT(t, e.srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	subs := mqttSubscriptions(truth, n)
	granted := mc.subscribe(t, append(slices.Clone(subs.topics), refusedTopics...)...)
	for _, f := range subs.topics {
		if granted[f] != 0 {
			t.Errorf("SUBACK for %s: %#x, want granted at QoS 0", f, granted[f])
		}
	}
	for _, f := range refusedTopics {
		if granted[f] != 0x80 {
			t.Errorf("SUBACK for %s: %#x, want refused (0x80)", f, granted[f])
		}
	}
	mc.until(t, "milestone-info/confirmed of the ledger index on subscribing", confirmed(n))
	waitSubscribed(t, e.api, subs.topics[0])
	ingestMore(t, e, testOptions, n+1, n+3)
	got := mc.until(t, fmt.Sprintf("milestone-info/confirmed of %d", n+3), confirmed(n+3))
	checkMQTTEvents(t, got, subs, truth, n)
}

// refusedTopics are filters the broker publishes nothing on.
var refusedTopics = []string{"blocks", "#", "outputs/unlock/address/smr1nope", "receipts", "milestone-info/+",
	"outputs/0x" + strings.Repeat("AB", 34)}

// waitSubscribed waits until the broker has a subscriber of topic.
func waitSubscribed(t *testing.T, s *Server, topic string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); s.broker.Subscribers(topic) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the broker has no subscriber of %s", topic)
		}
	}
}

// mqttSubs are a test's subscriptions and the keys they were chosen for.
type mqttSubs struct {
	topics    []string
	addresses []string
	output    chain.OutputID // created up to n, spent after
	tx        chain.TransactionID
	block     chain.MessageID
}

// mqttSubscriptions picks, from the truth after milestone n, the three addresses with
// the most changes, an output spent after n, a transaction included and a block
// referenced after n (the first by ID of each).
func mqttSubscriptions(truth *sim.Truth, n uint32) mqttSubs {
	changes := map[string]int{}
	var s mqttSubs
	for _, id := range slices.SortedFunc(maps.Keys(truth.Outputs), func(a, b chain.OutputID) int { return bytes.Compare(a[:], b[:]) }) {
		o := truth.Outputs[id]
		for _, c := range unlockConds(&o.Output, sim.HRP) {
			if o.MilestoneIndex > n {
				changes[c.address]++
			}
			if o.Spent && o.SpentMilestone > n {
				changes[c.address]++
			}
		}
		if o.Spent && o.SpentMilestone > n && o.MilestoneIndex <= n && o.MilestoneIndex > 0 && s.output == (chain.OutputID{}) {
			s.output = id
		}
	}
	s.addresses = slices.SortedFunc(maps.Keys(changes), func(a, b string) int {
		if d := changes[b] - changes[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})[:3]
	for _, id := range slices.SortedFunc(maps.Keys(truth.Transactions), func(a, b chain.TransactionID) int { return bytes.Compare(a[:], b[:]) }) {
		if tx := truth.Transactions[id]; tx.Milestone > n && s.tx == (chain.TransactionID{}) {
			s.tx, s.block = id, tx.Included
		}
	}
	s.topics = []string{"milestone-info/confirmed", "milestone-info/latest", "milestones", "outputs/" + s.output.String(),
		"transactions/" + s.tx.String() + "/included-block", "block-metadata/" + s.block.String()}
	for _, a := range s.addresses {
		for _, cond := range []string{"address", "+", "storage-return", "expiration", "state-controller", "governor"} {
			s.topics = append(s.topics, "outputs/unlock/"+cond+"/"+a, "outputs/unlock/"+cond+"/"+a+"/spent")
		}
	}
	return s
}

// unlockCond is a condition of an output and the address it names.
type unlockCond struct{ cond, address string }

// unlockConds are the unlock conditions of an output as TIP-28's unlock topics name
// them (TIP-18's conditions by output kind).
func unlockConds(o *chain.Output, hrp string) []unlockCond {
	var out []unlockCond
	add := func(cond string, a *chain.Address) { out = append(out, unlockCond{cond, a.Bech32(hrp)}) }
	switch o.Kind {
	case chain.OutputAlias:
		add("state-controller", o.StateController)
		add("governor", o.Governor)
	case chain.OutputFoundry:
		add("immutable-alias", o.Address)
	case chain.OutputBasic, chain.OutputNFT:
		add("address", o.Address)
		if r := o.StorageDepositReturn; r != nil {
			add("storage-return", &r.ReturnAddress)
		}
		if x := o.Expiration; x != nil {
			add("expiration", &x.ReturnAddress)
		}
	}
	return out
}

// checkMQTTEvents checks the messages a client of subs received up to milestone-info of
// n+3 against the truth: each subscription's current value at n, then the events of
// milestones n+1..n+3, no more and no less.
func checkMQTTEvents(t *testing.T, got []mqttMessage, subs mqttSubs, truth *sim.Truth, n uint32) {
	t.Helper()
	var outputs, infos, milestones, others []string
	for _, m := range got {
		switch {
		case strings.HasPrefix(m.topic, "outputs/"):
			outputs = append(outputs, outputEvent(t, m))
		case strings.HasPrefix(m.topic, "milestone-info/"):
			var info struct {
				Index       uint32
				MilestoneID string
			}
			_ = json.Unmarshal(m.payload, &info)
			infos = append(infos, fmt.Sprintf("%s %d %s", m.topic, info.Index, info.MilestoneID))
		case m.topic == "milestones":
			milestones = append(milestones, hex0x(m.payload))
		default:
			others = append(others, mqttOther(t, m))
		}
	}
	want := wantMQTT(truth, subs, n)
	for _, c := range []struct {
		what      string
		got, want []string
	}{{"output events", outputs, want.outputs}, {"milestone-info", infos, want.infos},
		{"milestones", milestones, want.milestones}, {"inclusion and metadata", others, want.others}} {
		if extra, missing := differ(c.got, c.want); len(extra)+len(missing) > 0 {
			t.Errorf("%s: %d received, %d expected; unexpected:\n  %s\nmissing:\n  %s", c.what, len(c.got), len(c.want),
				strings.Join(extra, "\n  "), strings.Join(missing, "\n  "))
		}
	}
	t.Logf("%d messages: %d output events over %d addresses, %d milestone-info, %d milestones, %d other",
		len(got), len(outputs), len(subs.addresses), len(infos), len(milestones), len(others))
	if len(want.outputs) < 10 {
		t.Fatalf("the chosen addresses change too little to test: %v", want.outputs)
	}
}

// differ is what got has that want lacks and what it lacks of want, as multisets.
func differ(got, want []string) (extra, missing []string) {
	count := map[string]int{}
	for _, s := range want {
		count[s]++
	}
	for _, s := range got {
		if count[s]--; count[s] < 0 {
			extra = append(extra, s)
		}
	}
	for s, n := range count {
		for ; n > 0; n-- {
			missing = append(missing, s)
		}
	}
	slices.Sort(extra)
	slices.Sort(missing)
	return extra, missing
}

// mqttOther is an inclusion or block-metadata message as "<topic> <what it says>".
func mqttOther(t *testing.T, m mqttMessage) string {
	if strings.HasPrefix(m.topic, "block-metadata/") {
		var md tip25.BlockMetadataJSON
		if err := json.Unmarshal(m.payload, &md); err != nil {
			t.Fatalf("%s: %v", m.topic, err)
		}
		return fmt.Sprintf("%s %s referenced by %d", m.topic, md.BlockID, md.ReferencedByMilestoneIndex)
	}
	return fmt.Sprintf("%s %s", m.topic, chain.MessageIDOf(m.payload))
}

// mqttWant are the messages a test client should receive, in mqttMessage's forms.
type mqttWant struct{ outputs, infos, milestones, others []string }

func wantMQTT(truth *sim.Truth, subs mqttSubs, n uint32) mqttWant {
	var w mqttWant
	watched := map[string]bool{}
	for _, a := range subs.addresses {
		watched[a] = true
	}
	for id, o := range truth.Outputs {
		for _, e := range []struct {
			at    uint32
			spent bool
		}{{o.MilestoneIndex, false}, {o.SpentMilestone, true}} {
			if e.at <= n || e.at > n+3 || e.spent && !o.Spent {
				continue
			}
			suffix := map[bool]string{true: "/spent"}[e.spent]
			named := map[string]bool{}
			for _, c := range unlockConds(&o.Output, sim.HRP) {
				if watched[c.address] {
					w.outputs = append(w.outputs, fmt.Sprintf("outputs/unlock/%s/%s%s %s %t", c.cond, c.address, suffix, id, e.spent))
					named[c.address] = true
				}
			}
			for a := range named {
				w.outputs = append(w.outputs, fmt.Sprintf("outputs/unlock/+/%s%s %s %t", a, suffix, id, e.spent))
			}
		}
	}
	w.outputs = append(w.outputs, fmt.Sprintf("outputs/%s %s false", subs.output, subs.output),
		fmt.Sprintf("outputs/%s %s true", subs.output, subs.output))
	for m := n; m <= n+3; m++ {
		ms := truth.Milestones[slices.IndexFunc(truth.Milestones, func(ms sim.MilestoneTruth) bool { return ms.Index == m })]
		for _, topic := range []string{"milestone-info/latest", "milestone-info/confirmed"} {
			w.infos = append(w.infos, fmt.Sprintf("%s %d %s", topic, m, ms.MilestoneID))
		}
		if m > n {
			w.milestones = append(w.milestones, hex0x(ms.Payload))
		}
	}
	tx := truth.Transactions[subs.tx]
	w.others = []string{fmt.Sprintf("transactions/%s/included-block %s", subs.tx, tx.Included),
		fmt.Sprintf("block-metadata/%s %s referenced by %d", subs.block, subs.block, tx.Milestone)}
	return w
}
