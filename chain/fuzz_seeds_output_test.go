package chain_test

import (
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Seeds of FuzzDecodeOutput: one real output of each shape, the fixtures, and broken
// variants of the worked example's 46-byte basic output.

// outputShape names an output's kind and the optional parts it has.
func outputShape(o chain.Output) string {
	parts := []struct {
		name string
		has  bool
	}{
		{"tokens", len(o.NativeTokens) > 0}, {"sdr", o.StorageDepositReturn != nil}, {"timelock", o.Timelock != nil},
		{"expiration", o.Expiration != nil}, {"sender", o.Sender != nil}, {"metadata", o.Metadata != nil},
		{"tag", o.Tag != nil}, {"issuer", o.Issuer != nil}, {"immutable", o.ImmutableMetadata != nil},
		{"new", (o.Kind == chain.OutputAlias && o.AliasID.IsZero()) || (o.Kind == chain.OutputNFT && o.NFTID.IsZero())},
	}
	s := o.Kind.String()
	for _, p := range parts {
		if p.has {
			s += "-" + p.name
		}
	}
	return s
}

func realOutputSeeds(t *testing.T) []seed {
	var seeds []seed
	seen := map[string]bool{}
	for _, index := range realMilestones {
		for _, raw := range recordedOutputs(t, index) {
			o, err := chain.DecodeOutput(raw)
			if err != nil {
				t.Fatal(err)
			}
			if shape := outputShape(o); !seen[shape] {
				seen[shape] = true
				seeds = append(seeds, seed{"real-" + shape, raw})
			}
		}
	}
	return seeds
}

func outputSeeds(t *testing.T) []seed {
	seeds := realOutputSeeds(t)
	for i, o := range append(fixtureOutputs(), fixtureLegacyOutputs()...) {
		seeds = append(seeds, seed{fmt.Sprintf("fixture-%d-%s", i, outputShape(o)), chain.EncodeOutput(o)})
	}
	// The worked output: type 0, amount 1..8, native tokens 9, conditions 10, condition
	// type 11, address type 12, address 13..44, features 45.
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, f(mustHex(workedOutput))})
	}
	set := func(at int, v byte) func(b []byte) []byte { return func(b []byte) []byte { b[at] = v; return b } }
	mut("type-2", set(0, 2))
	mut("type-7", set(0, 7))
	mut("amount-zero", func(b []byte) []byte { clear(b[1:9]); return b })
	mut("native-tokens-65", set(9, 65))
	mut("conditions-none", func(b []byte) []byte { return append(b[:10], 0, 0) })
	mut("condition-type-4", set(11, 4))
	mut("condition-type-7", set(11, 7))
	mut("address-type-1", set(12, 1))
	mut("feature-tag-empty", func(b []byte) []byte { return append(b[:45], 1, 3, 0) })
	mut("truncated", func(b []byte) []byte { return b[:40] })
	mut("trailing", func(b []byte) []byte { return append(b, 1, 2) })
	mut("legacy-alias-address", func(b []byte) []byte { return append(append([]byte{0, 8}, b[13:45]...), b[1:9]...) })
	return seeds
}
