package chain_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Seeds of FuzzDecodeInput, FuzzDecodeUnlock and FuzzDecodeMilestonePayload.

func inputSeeds(t *testing.T) []seed {
	_, txs := realIncluded(t, 17340)
	raw := chain.EncodeInput(txs[0].Inputs[0])
	seeds := []seed{{"real-input", raw}, {"fixture-input-127", chain.EncodeInput(fixtureTransaction().Inputs[3])}}
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, f(clone(raw))})
	}
	mut("index-128", func(b []byte) []byte { b[33], b[34] = 128, 0; return b })
	mut("type-1", func(b []byte) []byte { b[0] = 1; return b })
	mut("truncated", func(b []byte) []byte { return b[:20] })
	mut("trailing", func(b []byte) []byte { return append(b, 0) })
	return seeds
}

func unlockSeeds(t *testing.T) []seed {
	var seeds []seed
	seen := map[chain.UnlockKind]bool{}
	var sig []byte
	for _, index := range realMilestones {
		_, txs := realIncluded(t, index)
		for _, tx := range txs {
			for _, u := range tx.Unlocks {
				if !seen[u.Kind] {
					seen[u.Kind] = true
					seeds = append(seeds, seed{"real-" + u.Kind.String(), chain.EncodeUnlock(u)})
				}
				if sig == nil && u.Kind == chain.UnlockSignature {
					sig = chain.EncodeUnlock(u)
				}
			}
		}
	}
	seeds = append(seeds, seed{"fixture-nft", chain.EncodeUnlock(chain.Unlock{Kind: chain.UnlockNFT, Reference: 2})})
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, f(clone(sig))})
	}
	mut("type-4", func(b []byte) []byte { b[0] = 4; return b })
	mut("signature-type-1", func(b []byte) []byte { b[1] = 1; return b })
	mut("truncated-signature", func(b []byte) []byte { return b[:len(b)-10] })
	mut("reference-truncated", func(b []byte) []byte { return []byte{1, 0} })
	mut("trailing", func(b []byte) []byte { return append(b, 0) })
	return seeds
}

func milestoneSeeds(t *testing.T) []seed {
	seeds := []seed{
		{"real-17339", realMilestone(t, 17339).Payload},
		{"real-17340", realMilestone(t, 17340).Payload},
		{"fixture-options", fixtureMilestonePayload().Encode()},
	}
	plain := fixtureMilestonePayload()
	plain.Receipt, plain.ProtocolParams = nil, nil
	plain.Sign(fixtureKey(1))
	seeds = append(seeds, seed{"fixture-plain", plain.Encode()})

	raw := realMilestone(t, 17339).Payload // essence 4..305, 10 signatures of 97 bytes
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, f(clone(raw))})
	}
	mut("truncated", func(b []byte) []byte { return b[:len(b)-1] })
	mut("trailing", func(b []byte) []byte { return append(b, 0) })
	mut("type-6", func(b []byte) []byte { b[0] = 6; return b })
	mut("version-3", func(b []byte) []byte { b[12] = 3; return b })
	mut("parents-0", func(b []byte) []byte { b[45] = 0; return b })
	mut("signatures-0", func(b []byte) []byte { b[305] = 0; return b[:306] })
	mut("signatures-unsorted", func(b []byte) []byte {
		first := clone(b[306 : 306+97])
		copy(b[306:], b[306+97:306+2*97])
		copy(b[306+97:], first)
		return b
	})
	mut("option-unknown", func(b []byte) []byte {
		head := append(clone(b[:304]), 1, 7)
		return append(head, b[305:]...)
	})
	// A flipped signature byte decodes (verification fails): not "broken".
	b := clone(raw)
	b[len(b)-1] ^= 1
	return append(seeds, seed{"mutated-flipped-signature", b})
}
