package api

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/stardust-indexer/stardust-indexer/api/tip28"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// BenchmarkMQTT prints, for MQTT_BENCH_CLIENTS (1000) TIP-28 clients (paho over
// WebSocket), each subscribed to milestone-info/confirmed and to the address and "+"
// unlock topics of one of the sim's addresses: this process's RSS (API, store and the
// clients) and goroutines before and after they connect; then, as the indexer writes
// MQTT_BENCH_MILESTONES (20) more milestones one by one, the delay from the end of each
// milestone's write (its sync row written) to each client's milestone-info of it (p50,
// p99, the largest), and the unlock messages delivered.
func BenchmarkMQTT(b *testing.B) {
	testcontainers.SkipShort(b)
	clients, more := envInt("MQTT_BENCH_CLIENTS", 1000), uint32(envInt("MQTT_BENCH_MILESTONES", 20))
	const n = 10
	e := newEnv(b, testOptions, n)
	addresses := simAddresses(e)
	s := New(e.st, Config{MaxMQTTConnections: clients, MaxMQTTConnectionsPerClient: clients})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()
	e.truth = nil
	debug.FreeOSMemory()
	rssBefore, goBefore := selfRSS(b), runtime.NumGoroutine()
	received := make([][]time.Time, clients) // per client, per new milestone
	var unlock atomic.Int64
	conns := make([]paho.Client, clients)
	for i := range clients {
		received[i] = make([]time.Time, more)
		a := addresses[i%len(addresses)]
		conns[i] = mqttBenchClient(b, srv.URL, i, func(m paho.Message) {
			if strings.HasPrefix(m.Topic(), "outputs/unlock/") {
				unlock.Add(1)
				return
			}
			var info struct{ Index uint32 }
			if json.Unmarshal(m.Payload(), &info) == nil && info.Index > n && info.Index <= n+more {
				received[i][info.Index-n-1] = time.Now()
			}
		}, "milestone-info/confirmed", "outputs/unlock/address/"+a, "outputs/unlock/+/"+a, "outputs/unlock/address/"+a+"/spent")
	}
	time.Sleep(time.Second) // the clients settle idle
	runtime.GC()
	rssOpen, goOpen := selfRSS(b), runtime.NumGoroutine()
	written := writeOneByOne(b, e, n, more)
	for _, c := range conns {
		c.Disconnect(0)
	}
	delays, missing := delaysAfter(received, written)
	if len(delays) == 0 {
		b.Fatal("no client received milestone-info")
	}
	fmt.Printf("BenchmarkMQTT: %d idle clients: RSS %d -> %d MB, goroutines %d -> %d\n", clients,
		rssBefore>>10, rssOpen>>10, goBefore, goOpen)
	fmt.Printf("BenchmarkMQTT: %d milestones x %d clients: delay from the sync row to milestone-info/confirmed "+
		"%s; %d missing; %d unlock messages delivered\n", more, clients, delayFigures(delays), missing, unlock.Load())
}

// mqttBenchClient connects client i to the broker at base and subscribes it to topics,
// handing each message to got.
func mqttBenchClient(b *testing.B, base string, i int, got func(paho.Message), topics ...string) paho.Client {
	opts := paho.NewClientOptions().AddBroker("ws" + strings.TrimPrefix(base, "http") + tip28.Path).
		SetClientID(fmt.Sprintf("bench%d", i)).SetAutoReconnect(false).SetConnectTimeout(30 * time.Second)
	opts.SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) { got(m) })
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(time.Minute) || tok.Error() != nil {
		b.Fatalf("client %d: connect: %v", i, tok.Error())
	}
	filters := map[string]byte{}
	for _, t := range topics {
		filters[t] = 0
	}
	if tok := c.SubscribeMultiple(filters, nil); !tok.WaitTimeout(time.Minute) || tok.Error() != nil {
		b.Fatalf("client %d: subscribe: %v", i, tok.Error())
	}
	return c
}

// simAddresses are the addresses the sim chain's outputs name, sorted.
func simAddresses(e *env) []string {
	seen := map[string]bool{}
	for _, o := range e.truth.Outputs {
		for _, c := range unlockConds(&o.Output, sim.HRP) {
			seen[c.address] = true
		}
	}
	var out []string
	for a := range seen {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// writeOneByOne has the indexer write milestones n+1..n+more one by one, 200 ms apart,
// and returns when each write ended; it returns 2 s after the last, for the last events
// to arrive.
func writeOneByOne(b *testing.B, e *env, n, more uint32) []time.Time {
	written := make([]time.Time, more)
	for k := uint32(1); k <= more; k++ {
		ingestMore(b, e, testOptions, n+k, n+k)
		written[k-1] = time.Now()
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(2 * time.Second)
	return written
}

// delaysAfter are, sorted, the delays from each milestone's write to each receipt of
// it, and the number of receipts missing.
func delaysAfter(received [][]time.Time, written []time.Time) (delays []time.Duration, missing int) {
	for _, r := range received {
		for k, at := range r {
			if at.IsZero() {
				missing++
				continue
			}
			delays = append(delays, max(at.Sub(written[k]), 0))
		}
	}
	slices.Sort(delays)
	return delays, missing
}

// delayFigures are the p50, p99 and largest of sorted delays (at least one).
func delayFigures(delays []time.Duration) string {
	at := func(i int) time.Duration { return delays[i].Round(time.Millisecond) }
	return fmt.Sprintf("p50 %s, p99 %s, max %s", at(len(delays)/2), at(len(delays)*99/100), at(len(delays)-1))
}
