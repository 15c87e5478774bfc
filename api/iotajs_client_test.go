package api

import (
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/compat/iotajs"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// TestIotaJSClient serves the real Shimmer data and has @iota/iota.js's SingleNodeClient
// read it as a wallet would (compat/iotajs/client.js): every block, included transaction,
// milestone and output, /info, /health, /api/routes and the errors; and its
// IndexerPluginClient every owner's basic outputs, the NFTs and aliases, each chain by ID,
// and every owner's balance by iota.js's own addressBalance; each checked against
// expectations written here from the data file. With IOTAJS_CLIENT_EXPECTATIONS=path the
// expectations are written there and kept.
func TestIotaJSClient(t *testing.T) {
	iotajs.Require(t)
	e := newRealEnv(t)
	newest := e.set.Milestones[e.set.Highest()]
	// Healthy: the data's newest milestone is from 2022, so the age allowed covers it.
	maxAge := time.Since(time.Unix(int64(newest.Timestamp), 0)) + 24*time.Hour
	srv := httptest.NewServer(New(e.st, Config{RequestTimeout: 10 * time.Second, HealthMaxAge: maxAge}).Handler())
	defer srv.Close()
	runIotaJSClient(t, srv.URL, map[string]any{"core": coreExpectations(t, e.set),
		"indexer": realIndexerExpectations(t, e.set)}, os.Getenv("IOTAJS_CLIENT_EXPECTATIONS"))
}

// runIotaJSClient runs compat/iotajs/client.js against url with the expectations
// (written to keep, when set, else to a temporary file); any mismatch fails the test.
func runIotaJSClient(t *testing.T, url string, expectations map[string]any, keep string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "expectations.json")
	if keep != "" {
		file = keep // kept for running client.js by hand (compat/iotajs/README.md)
	}
	b, err := json.Marshal(expectations)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := iotajs.Run(t, 3*time.Minute, "client.js", url, file)
	if !strings.Contains(out, " passed, 0 mismatched") {
		t.Fatalf("iota.js client check: no summary:\n%s", out)
	}
	t.Logf("%s", strings.TrimSpace(out))
}

// coreExpectations are client.js's "core" section, from the data file alone.
func coreExpectations(t *testing.T, set *realdata.Set) map[string]any {
	var blocks, txs, milestones, outputs []map[string]any
	spends := map[[34]byte]realdata.Spent{}
	all := map[[34]byte]realdata.Output{}
	for _, ms := range set.Milestones {
		for _, b := range ms.Cone {
			id := chain.MessageID(b.ID)
			blocks = append(blocks, map[string]any{"id": id.String(), "hex": hex0x(b.Raw), "metadata": blockMetadataOf(b)})
			m, err := chain.DecodeMessage(b.Raw)
			if err != nil {
				t.Fatal(err)
			}
			if tx, ok := m.Payload.(*chain.Transaction); ok && b.InclusionState == tip25.LedgerIncluded {
				txs = append(txs, map[string]any{"id": tx.ID().String(), "blockId": id.String()})
			}
		}
		created, consumed := []string{}, []string{}
		for _, o := range ms.Created {
			created, all[o.OutputID] = append(created, chain.OutputID(o.OutputID).String()), o
		}
		for _, s := range ms.Consumed {
			consumed, all[s.OutputID], spends[s.OutputID] = append(consumed, chain.OutputID(s.OutputID).String()), s.Output, s
		}
		milestones = append(milestones, map[string]any{"index": ms.Index, "id": chain.MilestoneID(ms.MilestoneID).String(),
			"hex": hex0x(ms.Payload), "created": created, "consumed": consumed})
	}
	for id, o := range all {
		s, spent := spends[id]
		outputs = append(outputs, map[string]any{"id": chain.OutputID(id).String(), "hex": hex0x(o.Raw),
			"metadata": wantOutputMetadata(o, s, spent, set.Highest())})
	}
	return map[string]any{"info": infoExpectation(set), "healthy": true,
		"routes": []string{"core/v2", "indexer/v1", "explorer/v2"}, "blocks": blocks, "transactions": txs,
		"milestones": milestones, "outputs": outputs, "unknownBlockId": "0x" + strings.Repeat("ab", 32)}
}

func blockMetadataOf(b realdata.Block) *tip25.BlockMetadataJSON {
	parents := make([]chain.MessageID, len(b.Parents))
	for i, p := range b.Parents {
		parents[i] = p
	}
	return tip25.BlockMetadata(b.ID, parents, tip25.Referenced{MilestoneIndex: b.ReferencedBy,
		WhiteFlagIndex: b.WhiteFlagIndex, State: b.InclusionState, ConflictReason: b.ConflictReason,
		CarriedMilestone: b.MilestoneIndex})
}

// infoExpectation is /info as the data says it, healthy (the server allows the age).
func infoExpectation(set *realdata.Set) *tip25.NodeInfoJSON {
	newest := set.Milestones[set.Highest()]
	ms := tip25.MilestoneRef{Index: newest.Index, Timestamp: newest.Timestamp, ID: newest.MilestoneID}
	p, bt := set.Protocol, set.BaseToken
	return tip25.NodeInfo(tip25.NodeInfoInput{Name: core.NodeName, Version: core.NodeVersion, Healthy: true,
		Latest: ms, Confirmed: ms, PruningIndex: set.Lowest() - 1,
		Network: chain.Network{Params: chain.ProtocolParameters{Version: p.Version, NetworkName: p.NetworkName,
			Bech32HRP: p.Bech32HRP, MinPoWScore: p.MinPoWScore, BelowMaxDepth: p.BelowMaxDepth, TokenSupply: p.TokenSupply,
			RentStructure: chain.RentStructure{VByteCost: p.RentStructure.VByteCost,
				VByteFactorData: p.RentStructure.VByteFactorData, VByteFactorKey: p.RentStructure.VByteFactorKey}}},
		BaseToken: tip25.BaseToken{Name: bt.Name, TickerSymbol: bt.TickerSymbol, Unit: bt.Unit, Subunit: bt.Subunit,
			Decimals: bt.Decimals, UseMetricPrefix: bt.UseMetricPrefix}})
}

func hex0x(b []byte) string { return "0x" + hex.EncodeToString(b) }
