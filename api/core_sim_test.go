package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// coreSimLength is the simulated chain TestCoreSim indexes (two partitions of testChunk
// and a half, so outputs are booked and spent across partitions).
const coreSimLength = 25

// TestCoreSim reads a simulated chain through the TIP-25 core routes against its
// ground truth: every block's metadata (conflicts, milestone blocks), pending blocks,
// outputs of every kind and legacy outputs, and /info.
func TestCoreSim(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, testOptions, coreSimLength)
	t.Run("block metadata", func(t *testing.T) { testCoreSimBlocks(t, e) })
	t.Run("pending blocks", func(t *testing.T) { testCorePending(t, e) })
	t.Run("outputs", func(t *testing.T) { testCoreSimOutputs(t, e) })
	t.Run("outputs at a ledger index", func(t *testing.T) { testCoreSimOutputsAt(t, e) })
	t.Run("info", func(t *testing.T) { testCoreSimInfo(t, e) })
}

func testCoreSimBlocks(t *testing.T, e *env) {
	base := e.srv.URL + core.CorePrefix
	conflicts, carriers := 0, 0
	for id, m := range e.truth.Messages {
		var md tip25.BlockMetadataJSON
		coreJSON(t, base, "/blocks/"+id.String()+"/metadata", &md)
		want := tip25.Referenced{MilestoneIndex: m.Milestone, WhiteFlagIndex: m.WhiteFlagIndex,
			State: m.InclusionState.String(), ConflictReason: uint8(m.ConflictReason)}
		if mp, ok := m.Message.Payload.(*chain.MilestonePayload); ok {
			want.CarriedMilestone = mp.Index
			carriers++
		}
		conflicts += map[bool]int{true: 1}[m.ConflictReason != chain.ConflictNone]
		if got, exp := mustJSON(t, md), mustJSON(t, tip25.BlockMetadata(id, m.Message.Parents, want)); got != exp {
			t.Errorf("block %s metadata:\n got %s\nwant %s", id, got, exp)
		}
	}
	if conflicts == 0 || carriers == 0 {
		t.Fatalf("%d conflicting blocks, %d milestone blocks: the chain should hold both", conflicts, carriers)
	}
}

// testCorePending: blocks seen but not referenced answer their JSON and a metadata
// without milestone, state or white-flag index; outputs of their transactions are
// not in the ledger.
func testCorePending(t *testing.T, e *env) {
	base := e.srv.URL + core.CorePrefix
	if len(e.pending) == 0 {
		t.Fatal("no pending block")
	}
	txOutputs := 0
	for _, um := range e.pending {
		path := "/blocks/" + um.ID.String()
		a := coreGet(t, base, path)
		if m, err := tip25.DecodeBlock(a.body); a.status != http.StatusOK || err != nil || !bytes.Equal(m.Encode(), um.Raw) {
			t.Errorf("GET %s: %d, JSON does not give the bytes back (%v)", path, a.status, err)
		}
		var md tip25.BlockMetadataJSON
		coreJSON(t, base, path+"/metadata", &md)
		parents := tip25.BlockMetadata(um.ID, um.Message.Parents, tip25.Referenced{}).Parents
		if md.BlockID != um.ID.String() || mustJSON(t, md.Parents) != mustJSON(t, parents) ||
			md.ReferencedByMilestoneIndex != 0 || md.MilestoneIndex != 0 || md.LedgerInclusionState != "" ||
			md.WhiteFlagIndex != nil || md.ConflictReason != nil || md.ShouldPromote == nil || md.ShouldReattach == nil {
			t.Errorf("pending block %s metadata %s", um.ID, mustJSON(t, md))
		}
		if tx := um.Message.TransactionOf(); tx != nil {
			id := chain.NewOutputID(tx.ID(), 0)
			if _, confirmed := e.truth.Outputs[id]; !confirmed {
				txOutputs++
				coreGet(t, base, "/outputs/"+id.String()).wantError(t, http.StatusNotFound, "not in the ledger")
			}
		}
	}
	t.Logf("%d pending blocks, %d with a transaction", len(e.pending), txOutputs)
}

// testCoreSimOutputs: up to perKind outputs of each kind: JSON, bytes and metadata
// against the truth; legacy outputs answer a 404 saying they have no TIP-25 form.
func testCoreSimOutputs(t *testing.T, e *env) {
	const perKind = 15
	base := e.srv.URL + core.CorePrefix
	seen := map[chain.OutputKind]int{}
	for id, o := range e.truth.Outputs {
		kind := o.Output.Kind
		if seen[kind]++; seen[kind] > perKind {
			continue
		}
		path := "/outputs/" + id.String()
		if kind == chain.OutputLegacy {
			coreGet(t, base, path).wantError(t, http.StatusNotFound, "legacy", "no TIP-25 form")
			coreGet(t, base, path+"/metadata").wantError(t, http.StatusNotFound, "legacy")
			continue
		}
		want := tip25.Booked{MilestoneIndex: o.MilestoneIndex, MilestoneTimestamp: uint32(o.Timestamp.Unix())}
		var spent *tip25.Spent
		if o.Spent {
			spent = &tip25.Spent{TransactionID: o.SpentBy, MilestoneIndex: o.SpentMilestone,
				MilestoneTimestamp: uint32(o.SpentTimestamp.Unix())}
		}
		wantMeta := tip25.OutputMetadata(id, o.MessageID, want, spent, coreSimLength)
		var got struct {
			Metadata *tip25.OutputMetadataJSON `json:"metadata"`
			Output   json.RawMessage           `json:"output"`
		}
		coreJSON(t, base, path, &got)
		out, err := tip25.DecodeOutput(got.Output)
		if err != nil || !bytes.Equal(chain.EncodeOutput(out), chain.EncodeOutput(o.Output)) {
			t.Errorf("GET %s: output JSON does not give the output back (%v)", path, err)
		}
		if mustJSON(t, got.Metadata) != mustJSON(t, wantMeta) {
			t.Errorf("GET %s (%s): metadata\n got %s\nwant %s", path, kind, mustJSON(t, got.Metadata), mustJSON(t, wantMeta))
		}
	}
	for _, k := range []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT, chain.OutputLegacy} {
		if seen[k] == 0 {
			t.Errorf("no %s output in the chain", k)
		}
	}
}

// testCoreSimOutputsAt: every output of the chain asked at ledger indexes around its
// booking and its spend, and at random ones, answers as a replay of the truth up to that
// index: a 404 before its booking, unspent before its spend, spent from it on; an index
// above the ledger index is a 400 naming ledgerIndex.
func testCoreSimOutputsAt(t *testing.T, e *env) {
	base := e.srv.URL + core.CorePrefix
	rng := rand.New(rand.NewPCG(3, 5))
	asked, some := 0, chain.OutputID{}
	for id, o := range e.truth.Outputs {
		if o.Output.Kind == chain.OutputLegacy {
			continue
		}
		some = id
		at := []uint32{o.MilestoneIndex - 1, o.MilestoneIndex, 1 + rng.Uint32N(coreSimLength)}
		if o.Spent {
			at = append(at, o.SpentMilestone-1, o.SpentMilestone)
		}
		for _, n := range at {
			if n >= 1 {
				checkOutputAt(t, base, id, o, n)
				asked++
			}
		}
	}
	coreGet(t, base, fmt.Sprintf("/outputs/%s/metadata?ledgerIndex=%d", some, coreSimLength+1)).
		wantError(t, http.StatusBadRequest, "ledgerIndex", "above the ledger index")
	t.Logf("%d outputs asked at %d ledger indexes", len(e.truth.Outputs), asked)
}

// checkOutputAt asks output id's metadata, and the output with it, at ledger index n.
func checkOutputAt(t *testing.T, base string, id chain.OutputID, o *sim.OutputTruth, n uint32) {
	t.Helper()
	path := fmt.Sprintf("/outputs/%s/metadata?ledgerIndex=%d", id, n)
	if o.MilestoneIndex > n {
		coreGet(t, base, path).wantError(t, http.StatusNotFound, "created by milestone", "after ledger index")
		return
	}
	booked := tip25.Booked{MilestoneIndex: o.MilestoneIndex, MilestoneTimestamp: uint32(o.Timestamp.Unix())}
	var spent *tip25.Spent
	if o.Spent && o.SpentMilestone <= n {
		spent = &tip25.Spent{TransactionID: o.SpentBy, MilestoneIndex: o.SpentMilestone,
			MilestoneTimestamp: uint32(o.SpentTimestamp.Unix())}
	}
	want := mustJSON(t, tip25.OutputMetadata(id, o.MessageID, booked, spent, n))
	var meta tip25.OutputMetadataJSON
	if coreJSON(t, base, path, &meta); mustJSON(t, &meta) != want {
		t.Errorf("GET %s\n got %s\nwant %s", path, mustJSON(t, &meta), want)
	}
	var whole struct {
		Metadata *tip25.OutputMetadataJSON `json:"metadata"`
	}
	path = fmt.Sprintf("/outputs/%s?ledgerIndex=%d", id, n)
	if coreJSON(t, base, path, &whole); mustJSON(t, whole.Metadata) != want {
		t.Errorf("GET %s: metadata\n got %s\nwant %s", path, mustJSON(t, whole.Metadata), want)
	}
}

// testCoreSimInfo: /info of the sim network, and of a keyspace that recorded its
// network before protocol parameters were recorded (an older keyspace).
func testCoreSimInfo(t *testing.T, e *env) {
	var got tip25.NodeInfoJSON
	coreJSON(t, e.srv.URL+core.CorePrefix, "/info", &got)
	net := sim.Network()
	if mustJSON(t, got.Protocol) != mustJSON(t, tip25.Protocol(net.Params)) || got.BaseToken.Name != "Sim" ||
		got.BaseToken.TickerSymbol != "SIM" || got.Status.ConfirmedMilestone.Index != coreSimLength ||
		got.Status.ConfirmedMilestone.MilestoneID != e.truth.Milestones[len(e.truth.Milestones)-1].MilestoneID.String() ||
		got.Status.PruningIndex != e.truth.Milestones[0].Index-1 {
		t.Errorf("/info: %s", mustJSON(t, got))
	}

	st, cfg := storetest.New(t, store.DefaultChunkSize)
	s, err := cql.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, _ := json.Marshal(store.RecordOf(chain.Shimmer()))
	if _, _, err := s.CAS(context.Background(), cql.InitMeta, "network", string(rec), int64(0), "an older indexer"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(st, Config{}).Handler())
	defer srv.Close()
	var old tip25.NodeInfoJSON
	coreJSON(t, srv.URL+core.CorePrefix, "/info", &old)
	p := old.Protocol
	if p.NetworkName != "shimmer" || p.Bech32HRP != "smr" || p.Version != chain.ProtocolVersion ||
		old.BaseToken != tip25.ShimmerBaseToken() || old.Status.IsHealthy || old.Status.ConfirmedMilestone.Index != 0 {
		t.Errorf("/info of an older keyspace: %s", mustJSON(t, old))
	}
	coreGet(t, srv.URL, "/health").wantError(t, http.StatusServiceUnavailable, "no milestone")
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
