package chain_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Changing any part of a signed milestone's essence must break its signatures.

func TestVerifyRefusesChangedEssence(t *testing.T) {
	cases := map[string]func(mp *chain.MilestonePayload){
		"index":              func(mp *chain.MilestonePayload) { mp.Index++ },
		"timestamp":          func(mp *chain.MilestonePayload) { mp.Timestamp ^= 1 << 20 },
		"protocol version":   func(mp *chain.MilestonePayload) { mp.ProtocolVersion++ },
		"previous milestone": func(mp *chain.MilestonePayload) { mp.PreviousMilestoneID[31] ^= 1 },
		"parent":             func(mp *chain.MilestonePayload) { mp.Parents[1][0] ^= 0x80 },
		"parents dropped":    func(mp *chain.MilestonePayload) { mp.Parents = mp.Parents[:2] },
		"inclusion root":     func(mp *chain.MilestonePayload) { mp.InclusionMerkleRoot[5] ^= 4 },
		"applied root":       func(mp *chain.MilestonePayload) { mp.AppliedMerkleRoot[0] ^= 1 },
		"metadata":           func(mp *chain.MilestonePayload) { mp.Metadata[0] ^= 1 },
		"metadata dropped":   func(mp *chain.MilestonePayload) { mp.Metadata = nil },
		"migrated at":        func(mp *chain.MilestonePayload) { mp.Receipt.MigratedAt++ },
		"final":              func(mp *chain.MilestonePayload) { mp.Receipt.Final = false },
		"funds deposit":      func(mp *chain.MilestonePayload) { mp.Receipt.Funds[1].Deposit++ },
		"treasury amount":    func(mp *chain.MilestonePayload) { mp.Receipt.Transaction.OutputAmount++ },
		"receipt dropped":    func(mp *chain.MilestonePayload) { mp.Receipt = nil },
		"params target":      func(mp *chain.MilestonePayload) { mp.ProtocolParams.TargetMilestoneIndex-- },
		"params bytes":       func(mp *chain.MilestonePayload) { mp.ProtocolParams.Params[3] ^= 1 },
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			mp := fixtureMilestonePayload()
			mod(mp)
			wantSigError(t, fixtureKeys().Verify(mp), "milestone.signatures[0]", "invalid signature")
		})
	}
}

// One flipped bit in any byte of the serialized essence: whatever still decodes no
// longer verifies.
func TestVerifyRefusesFlippedEssenceBits(t *testing.T) {
	raw := fixtureMilestonePayload().Encode()
	essenceLen := len(fixtureMilestonePayload().Essence())
	decoded := 0
	for i := 4; i < 4+essenceLen; i++ {
		bad := clone(raw)
		bad[i] ^= 1 << (i % 8)
		mp, err := chain.DecodeMilestonePayload(bad)
		if err != nil {
			continue
		}
		decoded++
		if err := fixtureKeys().Verify(mp); err == nil {
			t.Fatalf("bit %d of essence byte %d flipped: still verifies", i%8, i-4)
		}
	}
	if decoded < essenceLen/2 {
		t.Fatalf("only %d of %d tampered payloads decoded: the test checks too little", decoded, essenceLen)
	}
}
