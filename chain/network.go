package chain

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Network is what the indexer knows of the network it indexes: its name (hashed into
// every transaction's network ID), the bech32 HRP of its addresses, its protocol
// parameters and the keys its milestones are signed with.
type Network struct {
	Name   string
	HRP    string
	Params ProtocolParameters
	Keys   MilestoneKeys
	// BaseToken is how nodes describe the network's token in /info (zero: unknown).
	BaseToken BaseToken
}

// BaseToken describes a network's base token as nodes configure it (Hornet's
// protocfg.BaseToken). Its JSON form is tip25.BaseToken.
type BaseToken struct {
	Name            string
	TickerSymbol    string
	Unit            string
	Subunit         string
	Decimals        uint32
	UseMetricPrefix bool
}

// ID is the network ID transactions of this network carry.
func (n Network) ID() uint64 { return NetworkIDFromName(n.Name) }

// ProtocolParameters are the parameters a node reports in /info (and a milestone's
// protocol-parameters option serializes).
type ProtocolParameters struct {
	Version       uint8
	NetworkName   string
	Bech32HRP     string
	MinPoWScore   uint32
	BelowMaxDepth uint8
	RentStructure RentStructure
	TokenSupply   uint64
}

// RentStructure prices storage (TIP-19).
type RentStructure struct {
	VByteCost       uint32
	VByteFactorData uint8
	VByteFactorKey  uint8
}

// keyRanges builds all-time key ranges from hex public keys.
func keyRanges(keys ...string) []KeyRange {
	out := make([]KeyRange, len(keys))
	for i, k := range keys {
		b, err := hex.DecodeString(k)
		if err != nil || len(b) != 32 {
			panic("chain: bad built-in milestone key " + k)
		}
		copy(out[i].PublicKey[:], b)
	}
	return out
}

// Shimmer is the Shimmer mainnet as Hornet's config_shimmer.json configures it (the
// same keys sign the milestones of the real Shimmer data in testdata/realdata).
func Shimmer() Network {
	return Network{Name: "shimmer", HRP: "smr",
		Params: ProtocolParameters{Version: 2, NetworkName: "shimmer", Bech32HRP: "smr", MinPoWScore: 1500,
			BelowMaxDepth: 15, RentStructure: RentStructure{100, 1, 10}, TokenSupply: 1_813_620_509_061_365},
		BaseToken: BaseToken{Name: "Shimmer", TickerSymbol: "SMR", Unit: "SMR", Subunit: "glow", Decimals: 6},
		Keys: MilestoneKeys{Threshold: 7, Ranges: keyRanges(
			"a507d2a592a5f0424ed8530603c08acebe088ae26211e90b79bfec0970a2397f",
			"71a09774449a081450a51e0245a1e9850190f93508fd8f21bb9b9ca169765f30",
			"a375515bfe5adf7fedb64ef4cebe1e621e85a056b0ccd5db72bc0d474325bf38",
			"1df26178a7914126fd8cb934c7a7437073794c1c8ce99319172436b1d4973eba",
			"45432d7c767e16586403262331a725c7eaa0b2dd79ea442f373c845ae3443aa9",
			"9d87b4d2538b10799b582e25ace4726d92d7798ddfb696ff08e450db7917c9ad",
			"a921841628d64c3f08bd344118b8106ade072e68c774beff30135e036194493a",
			"16ee3356c21e410a0aaab42896021b1a857eb8d97a14a66fed9b13d634c21317",
			"99c7d9752c295cb56b550191015ab5a40226fb632e8b02ec15cfe574ea17cf67",
			"4af647910ba47000108b87c63abe0545643f9b203eacee2b713729b0450983fe")}}
}

// IOTAMainnet is IOTA's Stardust mainnet as Hornet's config_mainnet.json configures it.
// Its protocol parameters come from the node (/info).
func IOTAMainnet() Network {
	return Network{Name: "iota-mainnet", HRP: "iota",
		Keys: MilestoneKeys{Threshold: 7, Ranges: keyRanges(
			"2fb1d7ec714adf365eefa343b66c0c459a9930276aff08cde482cb8050028624",
			"8845cd560d66d50070c6e251d7a0a19f8de217fabf53a78ee15b41d85a489cc6",
			"1d61aab6f7e52129b78fcdf9568def0baa9c71112964f5b4d86ffc406866a986",
			"fa94be504dfb10876a449db5272f19393ded922cbe3b023b4e57b62a53835721",
			"5fadfabe6944f5f0166ada11452c642010339f916e28187ecf8b4a207c8dba47",
			"347e6892d72b71e0423bd14daaf61d2ac35e91852fa5b155b92ddda0e064f55f",
			"0e403f526a66b4c0b18e8b0257671b07892a419e4b6e4540707d9a4793d1e3be",
			"3af73a609696ff6fe63c36d060455cd83ec23edea2d2b87d5317004849cc0e9a",
			"ee1bfa9e791a9f57ea72c6192b000d906f21479ba8f40bb20cdd8badb7ddcb78",
			"083d7af99250a06d086b07bdd5bccd2bff406ee17e19332ccdb08d8be72218ce")}}
}

// KnownKeys returns the built-in milestone keys of a network by name.
func KnownKeys(networkName string) (MilestoneKeys, bool) {
	for _, n := range []Network{Shimmer(), IOTAMainnet()} {
		if n.Name == networkName {
			return n.Keys, true
		}
	}
	return MilestoneKeys{}, false
}

// hornetProtocol is the "protocol" section of a Hornet configuration file.
type hornetProtocol struct {
	MilestonePublicKeyCount int `json:"milestonePublicKeyCount"`
	PublicKeyRanges         []struct {
		Key   string `json:"key"`
		Start uint32 `json:"start"`
		End   uint32 `json:"end"`
	} `json:"publicKeyRanges"`
}

// ParseMilestoneKeys reads milestone keys from a Hornet configuration (the whole file or
// its "protocol" section): milestonePublicKeyCount and publicKeyRanges.
func ParseMilestoneKeys(data []byte) (MilestoneKeys, error) {
	var whole struct {
		Protocol *hornetProtocol `json:"protocol"`
	}
	var p hornetProtocol
	if err := json.Unmarshal(data, &whole); err == nil && whole.Protocol != nil {
		p = *whole.Protocol
	} else if err := json.Unmarshal(data, &p); err != nil {
		return MilestoneKeys{}, fmt.Errorf("milestone keys: %w", err)
	}
	keys := MilestoneKeys{Threshold: p.MilestonePublicKeyCount}
	for i, r := range p.PublicKeyRanges {
		b, err := hex.DecodeString(strings.TrimPrefix(r.Key, "0x"))
		if err != nil || len(b) != 32 {
			return MilestoneKeys{}, fmt.Errorf("milestone keys: publicKeyRanges[%d].key %q: want 32 bytes of hex", i, r.Key)
		}
		kr := KeyRange{Start: r.Start, End: r.End}
		copy(kr.PublicKey[:], b)
		keys.Ranges = append(keys.Ranges, kr)
	}
	if keys.Threshold < 1 || keys.Threshold > len(keys.Ranges) {
		return MilestoneKeys{}, fmt.Errorf("milestone keys: milestonePublicKeyCount %d with %d keys", keys.Threshold, len(keys.Ranges))
	}
	return keys, nil
}
