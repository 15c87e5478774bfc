package chain_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Milestone signature verification (TIP-29) with generated keys.

func TestVerifyAcceptsSignedMilestone(t *testing.T) {
	mp := fixtureMilestonePayload()
	if err := fixtureKeys().Verify(mp); err != nil {
		t.Fatal(err)
	}
	mp.Sign(fixtureKey(3), fixtureKey(1)) // threshold 2: two of three keys suffice
	if err := fixtureKeys().Verify(mp); err != nil {
		t.Fatal(err)
	}
}

func wantSigError(t *testing.T, err error, field, reason string) {
	t.Helper()
	wantField(t, err, field, reason)
	if !errors.Is(err, chain.ErrMilestoneSignature) {
		t.Fatalf("%v does not wrap ErrMilestoneSignature", err)
	}
}

// fourKeys adds an all-time key that signs nothing, so limiting one range keeps as
// many applicable keys as signatures.
func fourKeys() chain.MilestoneKeys {
	mk := fixtureKeys()
	mk.Ranges = append(mk.Ranges, chain.Signer(fixtureKey(4)))
	return mk
}

// sigField names the signature of key k in mp.
func sigField(mp *chain.MilestonePayload, k byte) string {
	for i, s := range mp.Signatures {
		if s.PublicKey == publicKey(fixtureKey(k)) {
			return fmt.Sprintf("milestone.signatures[%d]", i)
		}
	}
	return "no signature of key " + fmt.Sprint(k)
}

func TestVerifyRefuses(t *testing.T) {
	limited := func(k int, start, end uint32) chain.MilestoneKeys {
		mk := fourKeys()
		mk.Ranges[k-1].Start, mk.Ranges[k-1].End = start, end
		return mk
	}
	cases := []struct {
		name, field, reason string
		signer              byte // when set, the field is this key's signature
		keys                chain.MilestoneKeys
		mod                 func(mp *chain.MilestonePayload)
	}{
		{"too few", "milestone.signatures", "1 signatures, 2 needed", 0, fixtureKeys(),
			func(mp *chain.MilestonePayload) { mp.Sign(fixtureKey(1)) }},
		{"more than the keys", "milestone.signatures", "3 signatures, only 2 keys apply at milestone 9", 0,
			chain.MilestoneKeys{Threshold: 2, Ranges: fixtureKeys().Ranges[:2]}, func(*chain.MilestonePayload) {}},
		{"unknown key", "", "may not sign milestone 9", 9, fixtureKeys(),
			func(mp *chain.MilestonePayload) { mp.Sign(fixtureKey(1), fixtureKey(9)) }},
		{"range ended", "", "may not sign milestone 9", 2, limited(2, 0, 8), func(*chain.MilestonePayload) {}},
		{"range not started", "", "may not sign milestone 9", 3, limited(3, 10, 0), func(*chain.MilestonePayload) {}},
		{"unsorted", "milestone.signatures[1]", "not sorted by public key", 0, fixtureKeys(), func(mp *chain.MilestonePayload) {
			mp.Signatures[0], mp.Signatures[1] = mp.Signatures[1], mp.Signatures[0]
		}},
		{"duplicate", "milestone.signatures[2]", "or duplicate", 0, fixtureKeys(), func(mp *chain.MilestonePayload) {
			mp.Signatures[2] = mp.Signatures[1]
		}},
		{"bad signature", "milestone.signatures[1]", "invalid signature", 0, fixtureKeys(), func(mp *chain.MilestonePayload) {
			mp.Signatures[1].Signature[10] ^= 1
		}},
		{"zero threshold", "milestone.signatures", "threshold 0", 0, chain.MilestoneKeys{Ranges: fixtureKeys().Ranges}, func(*chain.MilestonePayload) {}},
		{"no keys", "milestone.signatures", "threshold 0", 0, chain.MilestoneKeys{}, func(*chain.MilestonePayload) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mp := fixtureMilestonePayload()
			c.mod(mp)
			if c.signer != 0 {
				c.field = sigField(mp, c.signer)
			}
			wantSigError(t, c.keys.Verify(mp), c.field, c.reason)
		})
	}
}

func TestVerifyKeyRangeBounds(t *testing.T) {
	for _, r := range [][2]uint32{{9, 9}, {0, 9}, {9, 0}, {1, 100}} {
		mk := fixtureKeys()
		for i := range mk.Ranges {
			mk.Ranges[i].Start, mk.Ranges[i].End = r[0], r[1]
		}
		if err := mk.Verify(fixtureMilestonePayload()); err != nil {
			t.Errorf("range %d..%d refused milestone 9: %v", r[0], r[1], err)
		}
	}
}

func TestSignerAndSign(t *testing.T) {
	kr := chain.Signer(fixtureKey(4))
	if kr.PublicKey != publicKey(fixtureKey(4)) || kr.Start != 0 || kr.End != 0 {
		t.Fatalf("Signer: %+v", kr)
	}
	mp := fixtureMilestonePayload()
	mp.Sign(fixtureKey(3), fixtureKey(2), fixtureKey(1))
	for i := 1; i < len(mp.Signatures); i++ {
		if string(mp.Signatures[i-1].PublicKey[:]) >= string(mp.Signatures[i].PublicKey[:]) {
			t.Fatal("Sign must sort the signatures by public key")
		}
	}
}
