package nodetest

import (
	"net/http"
	"strconv"
)

type milestoneRef struct {
	Index       uint32 `json:"index"`
	Timestamp   uint32 `json:"timestamp"`
	MilestoneID string `json:"milestoneId"`
}

// info answers Hornet's /info; latest and confirmed milestone are both the confirmed one, and
// the pruning index is SetPruningIndex's, or just below the set.
func (s *Server) info(w http.ResponseWriter, _ *http.Request, _ string) {
	m := s.ix.milestone(s.Confirmed())
	ref := milestoneRef{m.Index, m.Timestamp, hex0x(m.MilestoneID[:])}
	set := s.ix.set
	p, bt := set.Protocol, set.BaseToken
	writeJSON(w, map[string]any{
		"name":    "HORNET",
		"version": "2.0.0",
		"status": map[string]any{"isHealthy": true, "latestMilestone": ref, "confirmedMilestone": ref,
			"pruningIndex": s.pruningIndex()},
		"supportedProtocolVersions": []int{int(p.Version)},
		"protocol": map[string]any{"version": p.Version, "networkName": p.NetworkName, "bech32Hrp": p.Bech32HRP,
			"minPowScore": p.MinPoWScore, "belowMaxDepth": p.BelowMaxDepth,
			"rentStructure": map[string]any{"vByteCost": p.RentStructure.VByteCost,
				"vByteFactorData": p.RentStructure.VByteFactorData, "vByteFactorKey": p.RentStructure.VByteFactorKey},
			"tokenSupply": strconv.FormatUint(p.TokenSupply, 10)},
		"pendingProtocolParameters": []any{},
		"baseToken": map[string]any{"name": bt.Name, "tickerSymbol": bt.TickerSymbol, "unit": bt.Unit,
			"subunit": bt.Subunit, "decimals": bt.Decimals, "useMetricPrefix": bt.UseMetricPrefix},
		"metrics":  map[string]any{"blocksPerSecond": 0, "referencedBlocksPerSecond": 0, "referencedRate": 0},
		"features": []string{},
	})
}

// health answers 200 with no body, as Hornet does when healthy.
func (s *Server) health(w http.ResponseWriter, _ *http.Request, _ string) {
	w.WriteHeader(http.StatusOK)
}

// routes lists the plugin routes, as Hornet's /api/routes does.
func (s *Server) routes(w http.ResponseWriter, _ *http.Request, _ string) {
	writeJSON(w, map[string]any{"routes": []string{"core/v2"}})
}
