package chain

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
)

// ErrMilestoneSignature is wrapped by every error of milestone signature verification.
var ErrMilestoneSignature = errors.New("chain: milestone signature verification failed")

// KeyRange is a coordinator public key and the milestones it may sign: Start..End
// inclusive, End 0 meaning no end (Hornet's protocol.milestonePublicKeyRanges).
type KeyRange struct {
	PublicKey [32]byte
	Start     uint32
	End       uint32
}

func (kr KeyRange) applies(index uint32) bool {
	return index >= kr.Start && (kr.End == 0 || index <= kr.End)
}

// MilestoneKeys is how a network verifies its milestones: the key ranges and how many
// valid signatures of applicable keys a milestone needs.
type MilestoneKeys struct {
	Threshold int
	Ranges    []KeyRange
}

// applicable returns the keys that may sign milestone index.
func (k MilestoneKeys) applicable(index uint32) map[[32]byte]bool {
	keys := make(map[[32]byte]bool)
	for _, kr := range k.Ranges {
		if kr.applies(index) {
			keys[kr.PublicKey] = true
		}
	}
	return keys
}

// Verify checks a milestone's signatures as TIP-29 asks: signatures sorted by key and
// unique, at least Threshold of them and no more than the applicable keys, every key
// applicable at the milestone's index, and every signature a valid Ed25519 signature
// of the milestone ID. A failure is a *ValidationError wrapping ErrMilestoneSignature.
func (k MilestoneKeys) Verify(mp *MilestonePayload) error {
	if k.Threshold < 1 {
		return sigError("signatures", "no milestone keys configured (threshold %d)", k.Threshold)
	}
	keys := k.applicable(mp.Index)
	n := len(mp.Signatures)
	switch {
	case n < k.Threshold:
		return sigError("signatures", "%d signatures, %d needed", n, k.Threshold)
	case n > len(keys):
		return sigError("signatures", "%d signatures, only %d keys apply at milestone %d", n, len(keys), mp.Index)
	}
	id := mp.ID()
	for i, s := range mp.Signatures {
		field := indexed("signatures", i)
		switch {
		case i > 0 && bytes.Compare(mp.Signatures[i-1].PublicKey[:], s.PublicKey[:]) >= 0:
			return sigError(field, "not sorted by public key or duplicate")
		case !keys[s.PublicKey]:
			return sigError(field, "public key %s may not sign milestone %d", hexString(s.PublicKey[:]), mp.Index)
		case !ed25519.Verify(s.PublicKey[:], id[:], s.Signature[:]):
			return sigError(field, "invalid signature by %s over milestone ID %s", hexString(s.PublicKey[:]), MilestoneID(id))
		}
	}
	return nil
}

func sigError(field, format string, args ...any) error {
	return &ValidationError{Field: joinField("milestone", field), Reason: fmt.Sprintf(format, args...), Err: ErrMilestoneSignature}
}

// Sign sets the milestone's signatures: each key signs the milestone ID, and the
// signatures are sorted by public key as TIP-29 requires. Coordinators (and the
// simulated chain) sign; the indexer only verifies.
func (mp *MilestonePayload) Sign(keys ...ed25519.PrivateKey) {
	id := mp.ID()
	sigs := make([]MilestoneSignature, len(keys))
	for i, k := range keys {
		copy(sigs[i].PublicKey[:], k.Public().(ed25519.PublicKey))
		copy(sigs[i].Signature[:], ed25519.Sign(k, id[:]))
	}
	slices.SortFunc(sigs, func(a, b MilestoneSignature) int { return bytes.Compare(a.PublicKey[:], b.PublicKey[:]) })
	mp.Signatures = sigs
}

// Signer returns the key range of an all-time signing key.
func Signer(key ed25519.PrivateKey) KeyRange {
	var kr KeyRange
	copy(kr.PublicKey[:], key.Public().(ed25519.PublicKey))
	return kr
}
