package chain_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Seeds of FuzzDecodeMessage: real blocks of every payload kind, the fixtures, and
// broken variants of the worked-example transaction block (stardust-wire.md section 10).

func payloadKind(m *chain.Message) string {
	switch m.Payload.(type) {
	case *chain.TaggedData:
		return "tagged"
	case *chain.Transaction:
		return "tx"
	case *chain.MilestonePayload:
		return "milestone"
	}
	return "empty"
}

// realBlockSeeds takes every transaction and milestone block and the first tagged one.
func realBlockSeeds(t *testing.T, name string, blocks []realdata.Block) []seed {
	var seeds []seed
	tagged := false
	for _, b := range blocks {
		kind := payloadKind(decodeReal(t, b))
		if kind == "tagged" {
			if tagged {
				continue
			}
			tagged = true
		}
		seeds = append(seeds, seed{fmt.Sprintf("real-%s-%s-%x", name, kind, b.ID[:4]), b.Raw})
	}
	return seeds
}

func messageSeeds(t *testing.T) []seed {
	var seeds []seed
	for _, index := range realMilestones {
		seeds = append(seeds, realBlockSeeds(t, fmt.Sprint(index), realMilestone(t, index).Cone)...)
	}
	seeds = append(seeds, realBlockSeeds(t, "2418187", realBlocks2418187(t))...)
	for i, m := range fixtureMessages() {
		seeds = append(seeds, seed{fmt.Sprintf("fixture-%d-%s", i, payloadKind(m)), chain.EncodeMessage(m)})
	}
	return append(seeds, brokenMessageSeeds()...)
}

// brokenMessageSeeds mutates the worked-example block: 4 parents, payload length at
// 130, payload type at 134, essence type at 138, inputs count at 147, unlocks count at 268.
func brokenMessageSeeds() []seed {
	var seeds []seed
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, f(workedBlock())})
	}
	u16 := func(at int, v uint16) func(b []byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint16(b[at:], v); return b }
	}
	u32 := func(at int, v uint32) func(b []byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[at:], v); return b }
	}
	mut("truncated-half", func(b []byte) []byte { return b[:len(b)/2] })
	mut("truncated-nonce", func(b []byte) []byte { return b[:len(b)-1] })
	mut("trailing-byte", func(b []byte) []byte { return append(b, 0) })
	mut("version-3", func(b []byte) []byte { b[0] = 3; return b })
	mut("parents-0", func(b []byte) []byte { return append([]byte{b[0], 0}, b[130:]...) })
	mut("parents-9", func(b []byte) []byte { b[1] = 9; return b })
	mut("parents-unsorted", func(b []byte) []byte { copy(b[34:66], b[2:34]); return b })
	mut("payload-length-huge", u32(130, 0xffffffff))
	mut("payload-length-short", u32(130, 233))
	mut("payload-type-99", u32(134, 99))
	mut("payload-type-treasury", u32(134, 4))
	mut("payload-type-indexation", u32(134, 2))
	mut("essence-type-2", func(b []byte) []byte { b[138] = 2; return b })
	mut("inputs-0", u16(147, 0))
	mut("inputs-huge", u16(147, 0xffff))
	mut("unlocks-0", u16(268, 0))
	mut("output-type-2", func(b []byte) []byte { b[218] = 2; return b })
	seeds = append(seeds,
		seed{"broken-oversized", chain.EncodeMessage(newMessage(&chain.TaggedData{Data: make([]byte, chain.MaxMessageSize)}))},
		seed{"broken-empty", []byte{}},
		seed{"broken-version-only", []byte{chain.ProtocolVersion}})
	// A flipped byte in the signature still decodes: not "broken".
	b := workedBlock()
	b[330] ^= 0xff
	return append(seeds, seed{"mutated-flipped-signature", b})
}
