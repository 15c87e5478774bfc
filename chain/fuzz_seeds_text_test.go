package chain_test

import (
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Seeds of FuzzParseID and FuzzParseAddress, from the real data.

func idSeeds(t *testing.T) []seed {
	m := realMilestone(t, 17339)
	blocks, txs := realIncluded(t, 17339)
	msg := chain.MessageID(blocks[0].ID).String()
	seeds := []seed{
		{"real-message-id", msg},
		{"real-message-id-upper", "0x" + strings.ToUpper(msg[2:])},
		{"real-transaction-id", txs[0].ID().String()},
		{"real-milestone-id", chain.MilestoneID(m.MilestoneID).String()},
		{"real-output-id", chain.NewOutputID(txs[0].ID(), 0).String()},
	}
	for _, o := range realOutputs(t) {
		if o.Kind == chain.OutputNFT && !o.NFTID.IsZero() {
			seeds = append(seeds, seed{"real-nft-id", o.NFTID.String()})
			break
		}
	}
	for _, o := range realOutputs(t) {
		if len(o.NativeTokens) > 0 {
			seeds = append(seeds, seed{"real-foundry-id", o.NativeTokens[0].ID.String()})
			break
		}
	}
	add := func(name, s string) { seeds = append(seeds, seed{"broken-" + name, s}) }
	add("no-prefix", msg[2:])
	add("odd-length", msg[:len(msg)-1])
	add("one-byte-long", msg+"00")
	add("non-hex", msg[:len(msg)-1]+"g")
	add("upper-prefix", "0X"+msg[2:])
	add("huge", "0x"+strings.Repeat("f", 4096))
	add("utf8", "0x\xff\xfe"+msg[6:])
	return seeds
}

// realOutputs decodes the created outputs of both real milestones.
func realOutputs(t *testing.T) []chain.Output {
	var outs []chain.Output
	for _, index := range realMilestones {
		for _, rec := range realMilestone(t, index).Created {
			o, err := chain.DecodeOutput(rec.Raw)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, o)
		}
	}
	return outs
}

func addressSeeds(t *testing.T) []seed {
	var seeds []seed
	seen := map[chain.AddressKind]bool{}
	var first string
	for _, o := range realOutputs(t) {
		for _, a := range []*chain.Address{o.Address, o.Sender, o.Issuer, o.Governor} {
			if a == nil || seen[a.Kind] {
				continue
			}
			seen[a.Kind] = true
			seeds = append(seeds, seed{"real-" + a.Kind.String() + "-smr", a.Bech32("smr")},
				seed{"real-" + a.Kind.String() + "-hex", a.Hex()}, seed{"real-" + a.Kind.String() + "-iota", a.Bech32("iota")})
			if first == "" {
				first = a.Bech32("smr")
			}
		}
	}
	seeds = append(seeds, seed{"real-upper-bech32", strings.ToUpper(first)})
	add := func(name, s string) { seeds = append(seeds, seed{"broken-" + name, s}) }
	b := []byte(first)
	b[len(b)-1] ^= 1
	add("checksum", string(b))
	add("mixed-case", strings.ToUpper(first[:5])+first[5:])
	add("too-long", first+strings.Repeat("q", 40))
	add("no-separator", strings.ReplaceAll(first, "1", ""))
	add("hex-short", "0x00"+strings.Repeat("ab", 31))
	add("hex-kind-1", "0x01"+strings.Repeat("ab", 32))
	add("empty", "")
	return seeds
}
