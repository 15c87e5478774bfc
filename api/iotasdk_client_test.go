package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/compat/iotasdk"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// TestIotaSDKWallet serves the real Shimmer data, and a sim chain beside it, each under
// cmd/api's default protection (DefaultLimits, with its connection cap: the server
// cmd/api runs), and has IOTA's official SDK (iota-sdk, compat/iotasdk/wallet.py) read
// them as a wallet does: the batch calls a wallet sync sends all at once, get_outputs
// over 200 output IDs (the data's 60 outputs, over and over: the SDK asks for each) and
// find_blocks over all 81 real blocks, then over the sim chain's 100+ distinct blocks
// and 200+ distinct outputs (find_blocks asks once per distinct ID, and the real data
// has 81); then single reads of every real block, output and milestone and /info. Every
// answer must agree with expectations written here from the data file (IDs and bytes),
// and none may be a 429.
func TestIotaSDKWallet(t *testing.T) {
	iotasdk.Require(t)
	e := newRealEnv(t)
	newest := e.set.Milestones[e.set.Highest()]
	maxAge := time.Since(time.Unix(int64(newest.Timestamp), 0)) + 24*time.Hour
	real, realSeen := serveDefault(t, New(e.st, Config{HealthMaxAge: maxAge, Limits: DefaultLimits()}))
	sim := newEnv(t, testOptions, 25)
	simURL, simSeen := serveDefault(t, New(sim.st, Config{HealthMaxAge: 100 * 365 * 24 * time.Hour,
		Limits: DefaultLimits()}))
	exp := map[string]any{"real": realWalletExpectations(t, e.set, real), "sim": simWalletExpectations(t, sim, simURL)}
	out := runWallet(t, exp)
	t.Logf("%s", strings.TrimSpace(out))
	t.Logf("real API: %s; sim API: %s", realSeen, simSeen)
	if realSeen.status[http.StatusTooManyRequests].Load()+simSeen.status[http.StatusTooManyRequests].Load() > 0 {
		t.Fatalf("the SDK was answered 429 under the default limits")
	}
	if !regexp.MustCompile(`(?m)^\d+ passed, 0 mismatched$`).MatchString(out) {
		t.Fatal("iota-sdk wallet check: no clean summary")
	}
}

// serveDefault serves s as cmd/api does (HTTPServer: the default limits, each client's
// connections capped) on a loopback port, counting the answers and the most requests in
// flight at once; it returns the base URL.
func serveDefault(t *testing.T, s *Server) (string, *seen) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer(ln.Addr().String())
	sn := &seen{}
	inner := hs.Handler
	hs.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sn.begin()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		inner.ServeHTTP(rec, r)
		sn.end(rec.status)
	})
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String(), sn
}

// seen counts a server's answers by status and its most requests at once.
type seen struct {
	mu      sync.Mutex
	now     int
	most    int
	status  [600]atomic.Int64
	answers atomic.Int64
}

func (s *seen) begin() {
	s.mu.Lock()
	s.now++
	s.most = max(s.most, s.now)
	s.mu.Unlock()
}

func (s *seen) end(status int) {
	s.mu.Lock()
	s.now--
	s.mu.Unlock()
	s.answers.Add(1)
	if status > 0 && status < len(s.status) {
		s.status[status].Add(1)
	}
}

func (s *seen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var codes []string
	for code := range s.status {
		if n := s.status[code].Load(); n > 0 {
			codes = append(codes, fmt.Sprintf("%d×%d", n, code))
		}
	}
	return fmt.Sprintf("%d answers (%s), at most %d at once", s.answers.Load(), strings.Join(codes, ", "), s.most)
}

// runWallet writes the expectations and runs wallet.py on them.
func runWallet(t *testing.T, exp map[string]any) string {
	t.Helper()
	b, err := json.Marshal(exp)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "expectations.json")
	if keep := os.Getenv("IOTASDK_WALLET_EXPECTATIONS"); keep != "" {
		file = keep // kept for running wallet.py by hand (compat/iotasdk/README.md)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return iotasdk.Run(t, 5*time.Minute, "wallet.py", file)
}

// walletBatch is the number of outputs get_outputs asks for at once.
const walletBatch = 200

// realWalletExpectations are wallet.py's "real" section, from the data file alone.
func realWalletExpectations(t *testing.T, set *realdata.Set, url string) map[string]any {
	var blocks, milestones, outputs []map[string]any
	var blockIDs, outputIDs []string
	spent := map[[34]byte]bool{}
	all := map[[34]byte]realdata.Output{}
	for _, index := range sortedIndexes(set) {
		ms := set.Milestones[index]
		for _, b := range ms.Cone {
			id := chain.MessageID(b.ID).String()
			blocks = append(blocks, map[string]any{"id": id, "hex": hex0x(b.Raw), "referencedBy": b.ReferencedBy})
			blockIDs = append(blockIDs, id)
		}
		for _, o := range ms.Created {
			all[o.OutputID] = o
		}
		for _, s := range ms.Consumed {
			all[s.OutputID], spent[s.OutputID] = s.Output, true
		}
		milestones = append(milestones, map[string]any{"index": ms.Index,
			"id": chain.MilestoneID(ms.MilestoneID).String(), "hex": hex0x(ms.Payload)})
	}
	for id, o := range all {
		out := outputOf(t, o.Raw)
		oid := chain.OutputID(id).String()
		outputs = append(outputs, map[string]any{"id": oid, "blockId": chain.MessageID(o.BlockID).String(),
			"isSpent": spent[id], "milestoneIndexBooked": o.Booked, "amount": fmt.Sprint(out.Amount),
			"type": int(out.Kind)})
		outputIDs = append(outputIDs, oid)
	}
	slices.Sort(outputIDs)
	if len(blockIDs) != 81 || len(outputIDs) < 50 {
		t.Fatalf("the data holds %d blocks and %d outputs, want 81 and 50 or more", len(blockIDs), len(outputIDs))
	}
	var batch []string
	for len(batch) < walletBatch {
		batch = append(batch, outputIDs...)
	}
	batch = batch[:walletBatch]
	newest := set.Milestones[set.Highest()]
	info := map[string]any{"networkName": set.Protocol.NetworkName, "bech32Hrp": set.Protocol.Bech32HRP,
		"tokenSupply": fmt.Sprint(set.Protocol.TokenSupply), "latestMilestoneIndex": newest.Index,
		"latestMilestoneId": chain.MilestoneID(newest.MilestoneID).String(), "isHealthy": true}
	return map[string]any{"url": url, "info": info, "blocks": blocks, "outputs": outputs, "milestones": milestones,
		"batchOutputs": batch, "batchBlocks": blockIDs}
}

func sortedIndexes(set *realdata.Set) []uint32 {
	var out []uint32
	for index := range set.Milestones {
		out = append(out, index)
	}
	slices.Sort(out)
	return out
}

// simWalletExpectations are wallet.py's "sim" section: the referenced blocks of the
// chain the SDK's rules accept (sdkParses) and every output a transaction created
// (legacy and genesis outputs are no wallet's), each once.
func simWalletExpectations(t *testing.T, e *env, url string) map[string]any {
	var blocks, outputs []string
	for id, m := range e.truth.Messages {
		if sdkParses(m.Message) {
			blocks = append(blocks, id.String())
		}
	}
	for id, o := range e.truth.Outputs {
		if o.MessageID != (chain.MessageID{}) && o.Output.Kind >= chain.OutputBasic {
			outputs = append(outputs, id.String())
		}
	}
	slices.Sort(blocks)
	slices.Sort(outputs)
	if len(blocks) < 100 || len(outputs) < 200 {
		t.Fatalf("the sim chain holds %d blocks and %d wallet outputs, want 100 and 200 or more", len(blocks), len(outputs))
	}
	return map[string]any{"url": url, "batchOutputs": outputs[:min(len(outputs), 240)], "batchBlocks": blocks[:min(len(blocks), 150)]}
}

// sdkParses: the simulator does not keep to the rent rules (a storage deposit return
// below the minimum deposit) that the SDK checks when it parses a transaction's block;
// blocks holding such an output are left out of the sim batch.
func sdkParses(m *chain.Message) bool {
	tx, ok := m.Payload.(*chain.Transaction)
	if !ok {
		return true
	}
	for _, o := range tx.Outputs {
		if o.StorageDepositReturn != nil {
			return false
		}
	}
	return true
}
