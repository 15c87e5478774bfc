package chain_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The frame of an output: type codes, list order, lengths, truncation, trailing bytes.

func TestRejectOutputTypes(t *testing.T) {
	for _, typ := range []byte{2, 7, 8, 255} {
		raw := minimalOutput(chain.OutputBasic).encode()
		raw[0] = typ
		wantField(t, decodeOutputErr(raw), "output.type", fmt.Sprintf("output type %d not allowed in a transaction", typ))
	}
}

func TestRejectListOrder(t *testing.T) {
	cases := []struct {
		name, field string
		mod         func(o *outputBytes)
	}{
		{"conditions descending", "output.unlockConditions[1].type", func(o *outputBytes) {
			o.conds = [][]byte{condEntry(chain.CondTimelock), condEntry(chain.CondAddress)}
		}},
		{"conditions duplicate", "output.unlockConditions[1].type", func(o *outputBytes) {
			o.conds = [][]byte{condEntry(chain.CondAddress), condEntry(chain.CondAddress)}
		}},
		{"features descending", "output.features[1].type", func(o *outputBytes) {
			o.feats = [][]byte{featEntry(chain.FeatTag), featEntry(chain.FeatSender)}
		}},
		{"features duplicate", "output.features[1].type", func(o *outputBytes) {
			o.feats = [][]byte{featEntry(chain.FeatMetadata), featEntry(chain.FeatMetadata)}
		}},
		{"immutable descending", "output.immutableFeatures[1].type", func(o *outputBytes) {
			o.imm = [][]byte{featEntry(chain.FeatMetadata), featEntry(chain.FeatIssuer)}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := minimalOutput(chain.OutputNFT)
			c.mod(&o)
			wantField(t, decodeOutputErr(o.encode()), c.field, "not in ascending order or duplicate")
		})
	}
}

func TestRejectEmptyFeatures(t *testing.T) {
	o := minimalOutput(chain.OutputBasic)
	o.feats = [][]byte{{chain.FeatTag, 0}}
	wantField(t, decodeOutputErr(o.encode()), "output.features[0].tag", "too short: 0 bytes < 1")
	o.feats = [][]byte{{chain.FeatMetadata, 0, 0}}
	wantField(t, decodeOutputErr(o.encode()), "output.features[0].data", "too short: 0 bytes < 1")
}

func TestRejectAddressTypes(t *testing.T) {
	for _, kind := range []byte{1, 7, 9, 17, 255} {
		o := minimalOutput(chain.OutputBasic)
		o.conds[0][1] = kind
		wantField(t, decodeOutputErr(o.encode()), "output.unlockConditions[0].address.type",
			fmt.Sprintf("unknown address type %d", kind))
	}
	o := minimalOutput(chain.OutputBasic)
	o.feats = [][]byte{featEntry(chain.FeatSender)}
	o.feats[0][1] = 2
	wantField(t, decodeOutputErr(o.encode()), "output.features[0].address.type", "unknown address type 2")
	legacy := chain.EncodeOutput(fixtureLegacyOutputs()[0])
	legacy[1] = 3
	wantField(t, decodeOutputErr(legacy), "output.address.type", "unknown address type 3")
}

func TestRejectOutputTruncationAndTrailing(t *testing.T) {
	for i, o := range append(fixtureOutputs(), fixtureLegacyOutputs()...) {
		raw := chain.EncodeOutput(o)
		for n := 0; n < len(raw); n++ {
			var ve *chain.ValidationError
			if err := decodeOutputErr(raw[:n]); !errors.As(err, &ve) || !strings.HasPrefix(ve.Reason, "truncated") {
				t.Fatalf("output %d cut at %d/%d: %v", i, n, len(raw), err)
			}
		}
		wantField(t, decodeOutputErr(append(clone(raw), 0)), "output", "trailing bytes: 1 unexpected")
	}
}
