package tip25

import (
	"fmt"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// BaseToken is the JSON form of chain.BaseToken in /info (Hornet's protocfg.BaseToken);
// the two convert into each other.
type BaseToken struct {
	Name            string `json:"name"`
	TickerSymbol    string `json:"tickerSymbol"`
	Unit            string `json:"unit"`
	Subunit         string `json:"subunit,omitempty"`
	Decimals        uint32 `json:"decimals"`
	UseMetricPrefix bool   `json:"useMetricPrefix"`
}

// ShimmerBaseToken is Shimmer's base token as its nodes configure it (the real data's
// node_config.base_token).
func ShimmerBaseToken() BaseToken { return BaseToken(chain.Shimmer().BaseToken) }

// ProtocolJSON is /info's "protocol": the parameters in force.
type ProtocolJSON struct {
	Version       uint8             `json:"version"`
	NetworkName   string            `json:"networkName"`
	Bech32HRP     string            `json:"bech32Hrp"`
	MinPoWScore   uint32            `json:"minPowScore"`
	BelowMaxDepth uint8             `json:"belowMaxDepth"`
	RentStructure RentStructureJSON `json:"rentStructure"`
	TokenSupply   string            `json:"tokenSupply"`
}

// RentStructureJSON uses "vByteFactorKey" (iota.go, iota.js IRent), not the yaml
// schema's misspelt "vByteFactoKey".
type RentStructureJSON struct {
	VByteCost       uint32 `json:"vByteCost"`
	VByteFactorData uint8  `json:"vByteFactorData"`
	VByteFactorKey  uint8  `json:"vByteFactorKey"`
}

// Protocol returns the JSON form of protocol parameters.
func Protocol(p chain.ProtocolParameters) ProtocolJSON {
	r := p.RentStructure
	return ProtocolJSON{Version: p.Version, NetworkName: p.NetworkName, Bech32HRP: p.Bech32HRP,
		MinPoWScore: p.MinPoWScore, BelowMaxDepth: p.BelowMaxDepth, TokenSupply: u64(p.TokenSupply),
		RentStructure: RentStructureJSON{VByteCost: r.VByteCost, VByteFactorData: r.VByteFactorData, VByteFactorKey: r.VByteFactorKey}}
}

// Parameters reads protocol parameters from their JSON form; the token supply is a
// decimal string.
func (p ProtocolJSON) Parameters() (chain.ProtocolParameters, error) {
	supply, err := strconv.ParseUint(p.TokenSupply, 10, 64)
	if err != nil {
		return chain.ProtocolParameters{}, fmt.Errorf("protocol tokenSupply %q: %w", p.TokenSupply, err)
	}
	r := p.RentStructure
	return chain.ProtocolParameters{Version: p.Version, NetworkName: p.NetworkName, Bech32HRP: p.Bech32HRP,
		MinPoWScore: p.MinPoWScore, BelowMaxDepth: p.BelowMaxDepth, TokenSupply: supply,
		RentStructure: chain.RentStructure{VByteCost: r.VByteCost, VByteFactorData: r.VByteFactorData, VByteFactorKey: r.VByteFactorKey}}, nil
}

// MilestoneRef names a milestone in /info's status; a zero ID (not known yet) omits the
// ID and timestamp, as Hornet does.
type MilestoneRef struct {
	Index     uint32
	Timestamp uint32
	ID        chain.MilestoneID
}

// MilestoneInfoJSON is a milestone in /info's status.
type MilestoneInfoJSON struct {
	Index       uint32 `json:"index"`
	Timestamp   uint32 `json:"timestamp,omitempty"`
	MilestoneID string `json:"milestoneId,omitempty"`
}

// StatusJSON is /info's "status".
type StatusJSON struct {
	IsHealthy          bool              `json:"isHealthy"`
	LatestMilestone    MilestoneInfoJSON `json:"latestMilestone"`
	ConfirmedMilestone MilestoneInfoJSON `json:"confirmedMilestone"`
	PruningIndex       uint32            `json:"pruningIndex"`
}

// MetricsJSON is /info's "metrics".
type MetricsJSON struct {
	BlocksPerSecond           float64 `json:"blocksPerSecond"`
	ReferencedBlocksPerSecond float64 `json:"referencedBlocksPerSecond"`
	ReferencedRate            float64 `json:"referencedRate"`
}

// NodeInfoJSON is the answer of /info.
type NodeInfoJSON struct {
	Name                      string                      `json:"name"`
	Version                   string                      `json:"version"`
	Status                    StatusJSON                  `json:"status"`
	SupportedProtocolVersions []int                       `json:"supportedProtocolVersions"` // []int: []uint8 would marshal as base64
	Protocol                  ProtocolJSON                `json:"protocol"`
	PendingProtocolParameters []*ProtocolParamsOptionJSON `json:"pendingProtocolParameters"`
	BaseToken                 BaseToken                   `json:"baseToken"`
	Metrics                   MetricsJSON                 `json:"metrics"`
	Features                  []string                    `json:"features"`
}

// NodeInfoInput is what /info reports; the protocol parameters come from Network.Params.
type NodeInfoInput struct {
	Name, Version     string
	Network           chain.Network
	BaseToken         BaseToken
	Healthy           bool
	Latest, Confirmed MilestoneRef
	PruningIndex      uint32
	Pending           []chain.ProtocolParamsOption
	Metrics           MetricsJSON
	Features          []string
}

// NodeInfo builds /info; lists are empty, never null (iota.js iterates them).
func NodeInfo(in NodeInfoInput) *NodeInfoJSON {
	j := &NodeInfoJSON{Name: in.Name, Version: in.Version,
		Status: StatusJSON{IsHealthy: in.Healthy, LatestMilestone: milestoneInfo(in.Latest),
			ConfirmedMilestone: milestoneInfo(in.Confirmed), PruningIndex: in.PruningIndex},
		SupportedProtocolVersions: []int{int(chain.ProtocolVersion)}, Protocol: Protocol(in.Network.Params),
		PendingProtocolParameters: make([]*ProtocolParamsOptionJSON, len(in.Pending)),
		BaseToken:                 in.BaseToken, Metrics: in.Metrics, Features: append([]string{}, in.Features...)}
	for i, p := range in.Pending {
		j.PendingProtocolParameters[i] = ProtocolParamsOption(p)
	}
	return j
}

func milestoneInfo(m MilestoneRef) MilestoneInfoJSON {
	if m.ID == (chain.MilestoneID{}) {
		return MilestoneInfoJSON{Index: m.Index}
	}
	return MilestoneInfoJSON{Index: m.Index, Timestamp: m.Timestamp, MilestoneID: m.ID.String()}
}
