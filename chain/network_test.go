package chain_test

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Milestone keys from Hornet configuration files, and the built-in networks.

// hornetProtocolJSON renders a Hornet "protocol" section with the given key ranges.
func hornetProtocolJSON(count int, ranges []chain.KeyRange) string {
	var rs []string
	for _, r := range ranges {
		rs = append(rs, fmt.Sprintf(`{"key": "0x%s", "start": %d, "end": %d}`, hex.EncodeToString(r.PublicKey[:]), r.Start, r.End))
	}
	return fmt.Sprintf(`{"targetNetworkName": "shimmer", "milestonePublicKeyCount": %d,
		"baseToken": {"name": "Shimmer", "tickerSymbol": "SMR", "decimals": 6},
		"publicKeyRanges": [%s]}`, count, strings.Join(rs, ",\n"))
}

func TestParseMilestoneKeys(t *testing.T) {
	ranges := slices.Clone(chain.Shimmer().Keys.Ranges)
	ranges[1].Start, ranges[1].End = 100, 2000
	section := hornetProtocolJSON(7, ranges)
	whole := `{"app": {"checkForUpdates": true}, "db": {"engine": "rocksdb"}, "protocol": ` + section + `, "p2p": {}}`
	for name, doc := range map[string]string{"whole file": whole, "protocol section": section} {
		t.Run(name, func(t *testing.T) {
			keys, err := chain.ParseMilestoneKeys([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if keys.Threshold != 7 || !slices.Equal(keys.Ranges, ranges) {
				t.Fatalf("threshold %d, ranges %+v", keys.Threshold, keys.Ranges)
			}
		})
	}
	noPrefix := strings.Replace(section, `"0x`, `"`, 1)
	if keys, err := chain.ParseMilestoneKeys([]byte(noPrefix)); err != nil || keys.Ranges[0] != ranges[0] {
		t.Fatalf("key without 0x: %v", err)
	}
}

func TestParseMilestoneKeysRefuses(t *testing.T) {
	one := []chain.KeyRange{chain.Signer(fixtureKey(1))}
	cases := map[string]struct{ doc, want string }{
		"not json":      {`protocol: {}`, "milestone keys:"},
		"array":         {`[1, 2]`, "milestone keys:"},
		"empty":         {`{}`, "milestonePublicKeyCount 0 with 0 keys"},
		"zero count":    {hornetProtocolJSON(0, one), "milestonePublicKeyCount 0 with 1 keys"},
		"count > keys":  {hornetProtocolJSON(2, one), "milestonePublicKeyCount 2 with 1 keys"},
		"bad hex":       {strings.Replace(hornetProtocolJSON(1, one), `"0x`, `"0xzz`, 1), "publicKeyRanges[0].key"},
		"short key":     {`{"milestonePublicKeyCount": 1, "publicKeyRanges": [{"key": "0xabcd"}]}`, "want 32 bytes of hex"},
		"wrong type":    {`{"milestonePublicKeyCount": "7"}`, "milestone keys:"},
		"null protocol": {`{"protocol": null}`, "milestonePublicKeyCount 0"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := chain.ParseMilestoneKeys([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestBuiltInNetworks(t *testing.T) {
	smr, iota := chain.Shimmer(), chain.IOTAMainnet()
	if smr.Name != "shimmer" || smr.HRP != "smr" || iota.Name != "iota-mainnet" || iota.HRP != "iota" {
		t.Fatalf("names: %+v %+v", smr, iota)
	}
	p := smr.Params
	if p.Version != 2 || p.NetworkName != "shimmer" || p.Bech32HRP != "smr" || p.MinPoWScore != 1500 ||
		p.TokenSupply != 1813620509061365 || p.RentStructure != (chain.RentStructure{100, 1, 10}) {
		t.Fatalf("shimmer parameters: %+v", p)
	}
	for _, n := range []chain.Network{smr, iota} {
		keys, ok := chain.KnownKeys(n.Name)
		if !ok || keys.Threshold != 7 || len(keys.Ranges) != 10 || !slices.Equal(keys.Ranges, n.Keys.Ranges) {
			t.Fatalf("%s keys: %+v", n.Name, keys)
		}
		seen := map[[32]byte]bool{}
		for _, r := range keys.Ranges {
			if seen[r.PublicKey] || r.Start != 0 || r.End != 0 {
				t.Fatalf("%s: duplicate or limited key %x", n.Name, r.PublicKey)
			}
			seen[r.PublicKey] = true
		}
	}
	if smr.Keys.Ranges[0].PublicKey != hex32("a507d2a592a5f0424ed8530603c08acebe088ae26211e90b79bfec0970a2397f") {
		t.Fatal("first shimmer key")
	}
	if _, ok := chain.KnownKeys("testnet-1"); ok {
		t.Fatal("unknown network has keys")
	}
}
