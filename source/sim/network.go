package sim

import (
	"context"
	"crypto/ed25519"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Sim network identity: a name (hashed into every transaction's network ID) and an HRP
// of its own, so its data can never pass for a real network's, and coordinator keys of
// its own that sign every milestone, so verification runs on every simulated milestone.
const (
	NetworkName = "stardust-sim"
	HRP         = "sim"
	// cooKeys sign each milestone; cooThreshold of them are required.
	cooKeys      = 3
	cooThreshold = 2
)

// coordinatorKeys derives the sim coordinator's keys; they do not depend on the seed,
// so every sim chain is one network.
func coordinatorKeys() []ed25519.PrivateKey {
	keys := make([]ed25519.PrivateKey, cooKeys)
	for i := range keys {
		seed := blake2b.Sum256([]byte{'s', 'i', 'm', '-', 'c', 'o', 'o', byte(i)})
		keys[i] = ed25519.NewKeyFromSeed(seed[:])
	}
	return keys
}

// Network describes the simulated network: what its milestones are verified against.
func Network() chain.Network {
	n := chain.Network{Name: NetworkName, HRP: HRP,
		Params: chain.ProtocolParameters{Version: chain.ProtocolVersion, NetworkName: NetworkName, Bech32HRP: HRP,
			MinPoWScore: 0, BelowMaxDepth: 15, RentStructure: chain.RentStructure{VByteCost: 100, VByteFactorData: 1, VByteFactorKey: 10},
			TokenSupply: 4_600_000_000_000_000},
		Keys:      chain.MilestoneKeys{Threshold: cooThreshold},
		BaseToken: chain.BaseToken{Name: "Sim", TickerSymbol: "SIM", Unit: "SIM", Subunit: "glint", Decimals: 6}}
	for _, k := range coordinatorKeys() {
		n.Keys.Ranges = append(n.Keys.Ranges, chain.Signer(k))
	}
	return n
}

// Network returns the simulated network (source.Source).
func (s *Sim) Network(ctx context.Context) (chain.Network, error) {
	if err := ctx.Err(); err != nil {
		return chain.Network{}, err
	}
	return Network(), nil
}
