package chain_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The real milestone payloads: decoding, IDs and signatures against Shimmer's keys.

func decodeRealPayload(t *testing.T, index uint32) *chain.MilestonePayload {
	t.Helper()
	mp, err := chain.DecodeMilestonePayload(realMilestone(t, index).Payload)
	if err != nil {
		t.Fatalf("%d: %v", index, err)
	}
	return mp
}

func TestRealMilestonePayloads(t *testing.T) {
	forEachRealMilestone(t, func(t *testing.T, index uint32) {
		m := realMilestone(t, index)
		mp := decodeRealPayload(t, index)
		switch {
		case !bytes.Equal(mp.Encode(), m.Payload):
			t.Fatal("re-encoding differs")
		case !bytes.Equal(mp.Essence(), m.Essence):
			t.Fatal("essence differs")
		case mp.ID() != chain.MilestoneID(m.MilestoneID):
			t.Fatalf("ID %s, recorded %x", mp.ID(), m.MilestoneID)
		case mp.Index != index || mp.Timestamp != m.Timestamp || !slices.Equal(mp.Parents, toMessageIDs(m.Parents)):
			t.Fatalf("index %d timestamp %d", mp.Index, mp.Timestamp)
		case len(mp.Signatures) != 10 || mp.Receipt != nil || mp.ProtocolParams != nil:
			t.Fatalf("%d signatures, options %v %v", len(mp.Signatures), mp.Receipt, mp.ProtocolParams)
		}
		if err := chain.Shimmer().Keys.Verify(mp); err != nil {
			t.Fatal(err)
		}
	})
	if id := decodeRealPayload(t, 17339).ID(); id.String() != "0xef16bf8eae2756dce09732f6faa0ba906e5991e82133b68c9bff8c9486b9af59" {
		t.Fatalf("17339: %s", id)
	}
}

// The milestone carried in 17340's cone is the payload the data records for 17339.
func TestRealMilestoneInBlock(t *testing.T) {
	m := decodeReal(t, realMilestone(t, 17340).Cone[0])
	if !bytes.Equal(m.MilestoneOf().Encode(), realMilestone(t, 17339).Payload) {
		t.Fatal("carried payload differs from the recorded one")
	}
	if !slices.Equal(m.Parents, m.MilestoneOf().Parents) {
		t.Fatal("a milestone block's parents are the milestone's")
	}
}

// Shimmer() holds the keys, threshold and parameters of the data's node configuration.
func TestRealShimmerPreset(t *testing.T) {
	s := realSet(t)
	net := chain.Shimmer()
	if net.Keys.Threshold != s.KeyThreshold || len(net.Keys.Ranges) != len(s.KeyRanges) {
		t.Fatalf("threshold %d / %d, %d keys", net.Keys.Threshold, s.KeyThreshold, len(net.Keys.Ranges))
	}
	if !slices.Equal(net.Keys.Ranges, s.KeyRanges) {
		t.Fatalf("key ranges %x, data %x", net.Keys.Ranges, s.KeyRanges)
	}
	if net.Params != s.Protocol {
		t.Fatalf("parameters %+v, data %+v", net.Params, s.Protocol)
	}
}

// One flipped bit anywhere in the essence: the payload, if it still decodes, no longer
// verifies.
func TestRealMilestoneTampered(t *testing.T) {
	for _, index := range realMilestones {
		m := realMilestone(t, index)
		decoded := 0
		for i := 4; i < 4+len(m.Essence); i++ {
			bad := clone(m.Payload)
			bad[i] ^= 1 << (i % 8)
			mp, err := chain.DecodeMilestonePayload(bad)
			if err != nil {
				continue
			}
			decoded++
			if err := chain.Shimmer().Keys.Verify(mp); err == nil {
				t.Fatalf("%d: essence byte %d flipped, still verifies", index, i-4)
			}
		}
		if decoded < len(m.Essence)*9/10 {
			t.Fatalf("%d: only %d of %d tampered payloads decode", index, decoded, len(m.Essence))
		}
	}
}
