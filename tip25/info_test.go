package tip25

import (
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

func TestShimmerBaseTokenAndProtocolMatchRealData(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	b := set.BaseToken
	if want := (BaseToken{b.Name, b.TickerSymbol, b.Unit, b.Subunit, b.Decimals, b.UseMetricPrefix}); ShimmerBaseToken() != want {
		t.Errorf("ShimmerBaseToken() = %+v, the real node config says %+v", ShimmerBaseToken(), want)
	}
	p := set.Protocol
	want := ProtocolJSON{Version: p.Version, NetworkName: p.NetworkName, Bech32HRP: p.Bech32HRP, MinPoWScore: p.MinPoWScore,
		BelowMaxDepth: p.BelowMaxDepth, TokenSupply: u64(p.TokenSupply),
		RentStructure: RentStructureJSON{p.RentStructure.VByteCost, p.RentStructure.VByteFactorData, p.RentStructure.VByteFactorKey}}
	if got := Protocol(chain.Shimmer().Params); got != want {
		t.Errorf("Protocol(Shimmer) = %+v, the real data says %+v", got, want)
	}
}

func TestNodeInfoJSON(t *testing.T) {
	ms := realMilestones(t)
	in := NodeInfoInput{Name: "stardust-indexer", Version: "1.0.0", Network: chain.Shimmer(), BaseToken: ShimmerBaseToken(),
		Healthy: true, Latest: MilestoneRef{Index: 17340, Timestamp: ms[1].Timestamp, ID: ms[1].MilestoneID},
		Confirmed: MilestoneRef{Index: 17339}, PruningIndex: 0,
		Pending: []chain.ProtocolParamsOption{{TargetMilestoneIndex: 17350, ProtocolVersion: 2, Params: []byte{2}}}}
	got := string(marshal(t, NodeInfo(in)))
	want := `{"name":"stardust-indexer","version":"1.0.0","status":{"isHealthy":true,` +
		`"latestMilestone":{"index":17340,"timestamp":` + itoa(ms[1].Timestamp) + `,"milestoneId":"` + chain.MilestoneID(ms[1].MilestoneID).String() + `"},` +
		`"confirmedMilestone":{"index":17339},"pruningIndex":0},"supportedProtocolVersions":[2],` +
		`"protocol":{"version":2,"networkName":"shimmer","bech32Hrp":"smr","minPowScore":1500,"belowMaxDepth":15,` +
		`"rentStructure":{"vByteCost":100,"vByteFactorData":1,"vByteFactorKey":10},"tokenSupply":"1813620509061365"},` +
		`"pendingProtocolParameters":[{"type":1,"targetMilestoneIndex":17350,"protocolVersion":2,"params":"0x02"}],` +
		`"baseToken":{"name":"Shimmer","tickerSymbol":"SMR","unit":"SMR","subunit":"glow","decimals":6,"useMetricPrefix":false},` +
		`"metrics":{"blocksPerSecond":0,"referencedBlocksPerSecond":0,"referencedRate":0},"features":[]}`
	if got != want {
		t.Errorf("info:\n got %s\nwant %s", got, want)
	}
	in.Pending = nil
	if got := string(marshal(t, NodeInfo(in))); !strings.Contains(got, `"pendingProtocolParameters":[],`) {
		t.Errorf("no pending parameters must be [], got %s", got)
	}
}
