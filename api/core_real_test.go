package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// TestCoreRealNetwork reads Shimmer milestones 17339-17340 (ingested from a fake Hornet
// node serving the real data) through the TIP-25 core routes, against the data file.
func TestCoreRealNetwork(t *testing.T) {
	e := newRealEnv(t)
	t.Run("blocks", e.testCoreBlocks)
	t.Run("included blocks", e.testCoreIncluded)
	t.Run("milestones", e.testCoreMilestones)
	t.Run("utxo changes", e.testCoreUTXOChanges)
	t.Run("outputs", e.testCoreOutputs)
	t.Run("info", e.testCoreInfo)
	t.Run("health", e.testCoreHealth)
	t.Run("errors", e.testCoreErrors)
}

func (e *realEnv) base() string { return e.srv.URL + core.CorePrefix }

// testCoreBlocks: every block of both cones: its JSON decodes back to its bytes, the
// binary answer is its bytes, and its metadata is the data file's.
func (e *realEnv) testCoreBlocks(t *testing.T) {
	e.forEachBlock(t, func(_ uint32, b realdata.Block) {
		id := chain.MessageID(b.ID).String()
		e.checkBlock(t, "/blocks/"+id, b.Raw)
		var md tip25.BlockMetadataJSON
		coreJSON(t, e.base(), "/blocks/"+id+"/metadata", &md)
		checkBlockMetadata(t, &md, b)
	})
}

// checkBlock: the JSON at path decodes (tip25.DecodeBlock) to raw, and the bytes are raw.
func (e *realEnv) checkBlock(t *testing.T, path string, raw []byte) {
	t.Helper()
	a := coreGet(t, e.base(), path)
	if a.status != http.StatusOK || a.media != "application/json" {
		t.Fatalf("GET %s: %d %q %.200s", path, a.status, a.media, a.body)
	}
	m, err := tip25.DecodeBlock(a.body)
	if err != nil || !bytes.Equal(m.Encode(), raw) {
		t.Errorf("GET %s: JSON does not give the block's bytes back (%v)", path, err)
	}
	if got := coreBytes(t, e.base(), path); !bytes.Equal(got, raw) {
		t.Errorf("GET %s (bytes): not the node's bytes", path)
	}
}

func checkBlockMetadata(t *testing.T, md *tip25.BlockMetadataJSON, b realdata.Block) {
	t.Helper()
	parents := make([]string, len(b.Parents))
	for i, p := range b.Parents {
		parents[i] = chain.MessageID(p).String()
	}
	wantReason := b.ConflictReason != 0
	if md.BlockID != chain.MessageID(b.ID).String() || !slices.Equal(md.Parents, parents) || !md.IsSolid ||
		md.ReferencedByMilestoneIndex != b.ReferencedBy || md.MilestoneIndex != b.MilestoneIndex ||
		md.LedgerInclusionState != b.InclusionState || (md.ConflictReason != nil) != wantReason ||
		wantReason && *md.ConflictReason != b.ConflictReason ||
		md.WhiteFlagIndex == nil || *md.WhiteFlagIndex != b.WhiteFlagIndex ||
		md.ShouldPromote != nil || md.ShouldReattach != nil {
		got, _ := json.Marshal(md)
		t.Errorf("block %x metadata %s, want %+v", b.ID, got, b)
	}
}

// testCoreIncluded: each transaction of the cones: the block including it (JSON, bytes,
// metadata) when one was included, else 404.
func (e *realEnv) testCoreIncluded(t *testing.T) {
	included := map[chain.TransactionID]realdata.Block{}
	all := map[chain.TransactionID]bool{}
	for _, ms := range e.set.Milestones {
		for _, b := range ms.Cone {
			m, err := chain.DecodeMessage(b.Raw)
			if err != nil {
				t.Fatal(err)
			}
			if tx, ok := m.Payload.(*chain.Transaction); ok {
				all[tx.ID()] = true
				if b.InclusionState == tip25.LedgerIncluded {
					included[tx.ID()] = b
				}
			}
		}
	}
	if len(included) == 0 {
		t.Fatal("no included transaction in the data")
	}
	for tx := range all {
		path := "/transactions/" + tx.String() + "/included-block"
		b, ok := included[tx]
		if !ok {
			coreGet(t, e.base(), path).wantError(t, http.StatusNotFound, tx.String())
			continue
		}
		e.checkBlock(t, path, b.Raw)
		var md tip25.BlockMetadataJSON
		coreJSON(t, e.base(), path+"/metadata", &md)
		checkBlockMetadata(t, &md, b)
	}
	t.Logf("%d transactions, %d included", len(all), len(included))
}

// testCoreMilestones: both milestones by index and by ID, JSON and bytes.
func (e *realEnv) testCoreMilestones(t *testing.T) {
	for index, ms := range e.set.Milestones {
		id := chain.MilestoneID(ms.MilestoneID).String()
		for _, path := range []string{"/milestones/by-index/" + rest.Itoa(int(index)), "/milestones/" + id} {
			a := coreGet(t, e.base(), path)
			mp, err := tip25.DecodeMilestone(a.body)
			if a.status != http.StatusOK || err != nil || !bytes.Equal(mp.Encode(), ms.Payload) || mp.Index != index {
				t.Errorf("GET %s: %d, JSON does not give the payload back (%v)", path, a.status, err)
			}
			if got := coreBytes(t, e.base(), path); !bytes.Equal(got, ms.Payload) {
				t.Errorf("GET %s (bytes): not the milestone payload", path)
			}
		}
	}
}

// testCoreUTXOChanges: by index and by ID, exactly the data's created and consumed outputs.
func (e *realEnv) testCoreUTXOChanges(t *testing.T) {
	for index, ms := range e.set.Milestones {
		var created, consumed []string
		for _, o := range ms.Created {
			created = append(created, chain.OutputID(o.OutputID).String())
		}
		for _, s := range ms.Consumed {
			consumed = append(consumed, chain.OutputID(s.OutputID).String())
		}
		id := chain.MilestoneID(ms.MilestoneID).String()
		for _, path := range []string{"/milestones/by-index/" + rest.Itoa(int(index)) + "/utxo-changes", "/milestones/" + id + "/utxo-changes"} {
			var got tip25.UTXOChangesJSON
			coreJSON(t, e.base(), path, &got)
			if got.Index != index || !slices.Equal(sortedCopy(got.CreatedOutputs), sortedCopy(created)) ||
				!slices.Equal(sortedCopy(got.ConsumedOutputs), sortedCopy(consumed)) ||
				len(got.CreatedOutputs) != len(created) || len(got.ConsumedOutputs) != len(consumed) {
				t.Errorf("GET %s: %+v, want created %v consumed %v", path, got, created, consumed)
			}
		}
	}
}

// testCoreOutputs: every created and consumed output: JSON (decoding to the data's
// bytes), bytes and metadata (booking, spend, ledger index) against the data file.
func (e *realEnv) testCoreOutputs(t *testing.T) {
	spends := map[[34]byte]realdata.Spent{}
	outputs := map[[34]byte]realdata.Output{}
	for _, ms := range e.set.Milestones {
		for _, s := range ms.Consumed {
			spends[s.OutputID], outputs[s.OutputID] = s, s.Output
		}
		for _, o := range ms.Created {
			outputs[o.OutputID] = o
		}
	}
	spent := 0
	for id, o := range outputs {
		s, isSpent := spends[id]
		want := wantOutputMetadata(o, s, isSpent, e.set.Highest())
		spent += map[bool]int{true: 1}[isSpent]
		path := "/outputs/" + chain.OutputID(id).String()
		var got struct {
			Metadata tip25.OutputMetadataJSON `json:"metadata"`
			Output   json.RawMessage          `json:"output"`
		}
		coreJSON(t, e.base(), path, &got)
		out, err := tip25.DecodeOutput(got.Output)
		if err != nil || !bytes.Equal(chain.EncodeOutput(out), o.Raw) {
			t.Errorf("GET %s: output JSON does not give the output's bytes back (%v)", path, err)
		}
		if got.Metadata != want {
			t.Errorf("GET %s: metadata %+v, want %+v", path, got.Metadata, want)
		}
		var md tip25.OutputMetadataJSON
		if coreJSON(t, e.base(), path+"/metadata", &md); md != want {
			t.Errorf("GET %s/metadata: %+v, want %+v", path, md, want)
		}
		if raw := coreBytes(t, e.base(), path); !bytes.Equal(raw, o.Raw) {
			t.Errorf("GET %s (bytes): not the output's bytes", path)
		}
	}
	if spent == 0 || spent == len(outputs) {
		t.Fatalf("%d outputs, %d spent: the data should hold both kinds", len(outputs), spent)
	}
}

func wantOutputMetadata(o realdata.Output, s realdata.Spent, spent bool, ledger uint32) tip25.OutputMetadataJSON {
	id := chain.OutputID(o.OutputID)
	md := tip25.OutputMetadataJSON{BlockID: chain.MessageID(o.BlockID).String(), TransactionID: id.TransactionID().String(),
		OutputIndex: id.Index(), MilestoneIndexBooked: o.Booked, MilestoneTimestampBooked: o.BookedTimestamp,
		LedgerIndex: ledger}
	if spent {
		md.IsSpent, md.TransactionIDSpent = true, chain.TransactionID(s.SpentBy).String()
		md.MilestoneIndexSpent, md.MilestoneTimestampSpent = s.Spent, s.SpentTimestamp
	}
	return md
}

// testCoreInfo: /info reports the network as the node did, and the indexed span.
func (e *realEnv) testCoreInfo(t *testing.T) {
	var got tip25.NodeInfoJSON
	coreJSON(t, e.base(), "/info", &got)
	newest := e.set.Milestones[e.set.Highest()]
	ms := tip25.MilestoneInfoJSON{Index: newest.Index, Timestamp: newest.Timestamp,
		MilestoneID: chain.MilestoneID(newest.MilestoneID).String()}
	p, bt := e.set.Protocol, e.set.BaseToken
	want := tip25.NodeInfoJSON{Name: "stardust-indexer", Version: core.NodeVersion,
		Status: tip25.StatusJSON{IsHealthy: false, // the data is from 2022: older than any health age
			LatestMilestone: ms, ConfirmedMilestone: ms, PruningIndex: e.set.Lowest() - 1},
		SupportedProtocolVersions: []int{int(p.Version)},
		Protocol: tip25.ProtocolJSON{Version: p.Version, NetworkName: p.NetworkName, Bech32HRP: p.Bech32HRP,
			MinPoWScore: p.MinPoWScore, BelowMaxDepth: p.BelowMaxDepth, TokenSupply: rest.Itoa(int(p.TokenSupply)),
			RentStructure: tip25.RentStructureJSON{VByteCost: p.RentStructure.VByteCost,
				VByteFactorData: p.RentStructure.VByteFactorData, VByteFactorKey: p.RentStructure.VByteFactorKey}},
		PendingProtocolParameters: []*tip25.ProtocolParamsOptionJSON{},
		BaseToken: tip25.BaseToken{Name: bt.Name, TickerSymbol: bt.TickerSymbol, Unit: bt.Unit, Subunit: bt.Subunit,
			Decimals: bt.Decimals, UseMetricPrefix: bt.UseMetricPrefix},
		Features: []string{}}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("/info:\n got %s\nwant %s", gotJSON, wantJSON)
	}
	var routes struct{ Routes []string }
	coreJSON(t, e.srv.URL, "/api/routes", &routes)
	if !slices.Equal(routes.Routes, []string{"core/v2", "indexer/v1", "explorer/v2"}) {
		t.Errorf("/api/routes: %v", routes.Routes)
	}
}

// testCoreHealth: healthy while the newest indexed milestone is younger than the
// configured age; the data's newest is from 2022.
func (e *realEnv) testCoreHealth(t *testing.T) {
	newest := e.set.Milestones[e.set.Highest()]
	age := time.Since(time.Unix(int64(newest.Timestamp), 0))
	for _, c := range []struct {
		maxAge time.Duration
		status int
	}{{age + 24*time.Hour, http.StatusOK}, {time.Millisecond, http.StatusServiceUnavailable}, {0, http.StatusServiceUnavailable}} {
		srv := httptest.NewServer(New(e.st, Config{HealthMaxAge: c.maxAge}).Handler())
		a := coreGet(t, srv.URL, "/health")
		var info tip25.NodeInfoJSON
		coreJSON(t, srv.URL+core.CorePrefix, "/info", &info)
		srv.Close()
		if c.status == http.StatusOK {
			var h core.HealthJSON
			if a.status != http.StatusOK || json.Unmarshal(a.body, &h) != nil || !h.IsHealthy ||
				h.NewestMilestone.Index != newest.Index || !info.Status.IsHealthy {
				t.Errorf("max age %s: /health %d %s, /info healthy %t", c.maxAge, a.status, a.body, info.Status.IsHealthy)
			}
			continue
		}
		a.wantError(t, c.status, "17340", "old")
		if info.Status.IsHealthy {
			t.Errorf("max age %s: /info says healthy", c.maxAge)
		}
	}
}
