package chain_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Strict decoding of the milestone payload (TIP-29) alone: paths start at "milestone".

type milestoneCase = fieldCase[*chain.MilestonePayload]

var runMilestoneCases = fieldCaseRunner(fixtureMilestonePayload,
	func(mp *chain.MilestonePayload) error { return decodeMilestoneErr(mp.Encode()) })

func TestRejectMilestoneEssence(t *testing.T) {
	nine := make([]chain.MessageID, 9)
	for i := range nine {
		nine[i] = chain.MessageID{byte(i + 1)}
	}
	runMilestoneCases(t, []milestoneCase{
		{"version", "milestone.protocolVersion", "unsupported version 1", func(mp *chain.MilestonePayload) { mp.ProtocolVersion = 1 }},
		{"no parents", "milestone.parents", "count 0 not in 1..8", func(mp *chain.MilestonePayload) { mp.Parents = nil }},
		{"9 parents", "milestone.parents", "count 9 not in 1..8", func(mp *chain.MilestonePayload) { mp.Parents = nine }},
		{"unsorted parents", "milestone.parents[1]", "not sorted ascending", func(mp *chain.MilestonePayload) {
			mp.Parents[0], mp.Parents[1] = mp.Parents[1], mp.Parents[0]
		}},
		{"duplicate parents", "milestone.parents[2]", "or duplicate", func(mp *chain.MilestonePayload) { mp.Parents[2] = mp.Parents[1] }},
		{"metadata", "milestone.metadata", "too long: 8193 bytes > 8192", func(mp *chain.MilestonePayload) {
			mp.Metadata = make([]byte, 8193)
		}},
	})
}

func TestRejectMilestoneSignatures(t *testing.T) {
	runMilestoneCases(t, []milestoneCase{
		{"none", "milestone.signatures", "at least one signature", func(mp *chain.MilestonePayload) { mp.Signatures = nil }},
		{"unsorted", "milestone.signatures[1].publicKey", "not sorted ascending", func(mp *chain.MilestonePayload) {
			mp.Signatures[0], mp.Signatures[1] = mp.Signatures[1], mp.Signatures[0]
		}},
		{"duplicate", "milestone.signatures[2].publicKey", "or duplicate", func(mp *chain.MilestonePayload) {
			mp.Signatures[2] = mp.Signatures[1]
		}},
	})
	raw := fixtureMilestonePayload().Encode()
	at := len(raw) - 3*97
	raw[at] = 1
	wantField(t, decodeMilestoneErr(raw), "milestone.signatures[0].type", "unknown signature type 1")
}

func TestRejectMilestoneFrame(t *testing.T) {
	raw := fixtureMilestonePayload().Encode()
	wantField(t, decodeMilestoneErr(append(clone(raw), 0)), "milestone", "trailing bytes: 1 unexpected")
	for _, typ := range []byte{4, 5, 6, 8} {
		bad := clone(raw)
		bad[0] = typ
		wantField(t, decodeMilestoneErr(bad), "milestone.type", "is not a milestone")
	}
	for n := 0; n < len(raw); n++ {
		var ve *chain.ValidationError
		if err := decodeMilestoneErr(raw[:n]); !errors.As(err, &ve) || !strings.HasPrefix(ve.Reason, "truncated") {
			t.Fatalf("cut at %d/%d: %v", n, len(raw), err)
		}
	}
}

func TestRejectMilestoneInMessage(t *testing.T) {
	mp := fixtureMilestonePayload()
	mp.Parents = []chain.MessageID{{2}, {1}}
	wantField(t, decodeErr(chain.EncodeMessage(newMessage(mp))), "payload.parents[1]", "not sorted ascending")
	mp = fixtureMilestonePayload()
	mp.Signatures = nil
	wantField(t, decodeErr(chain.EncodeMessage(newMessage(mp))), "payload.signatures", "at least one signature")
}

func TestMilestoneLimitsAccepted(t *testing.T) {
	mp := fixtureMilestonePayload()
	mp.Metadata = bytes.Repeat([]byte{1}, chain.MaxMetadataLength)
	mp.Parents = make([]chain.MessageID, chain.MaxParents)
	for i := range mp.Parents {
		mp.Parents[i] = chain.MessageID{byte(i)}
	}
	mp.Signatures = make([]chain.MilestoneSignature, chain.MaxMilestoneSignatures)
	for i := range mp.Signatures {
		mp.Signatures[i].PublicKey = [32]byte{byte(i)}
	}
	if _, err := chain.DecodeMilestonePayload(mp.Encode()); err != nil {
		t.Fatalf("maximal milestone refused: %v", err)
	}
}
