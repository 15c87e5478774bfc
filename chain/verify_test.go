package chain_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Verify: signatures against the network's keys, Validate, and the network ID of every
// transaction (validate.go).

func TestVerifyAcceptsFixture(t *testing.T) {
	if _, err := chain.Verify(validMilestone(), vNetwork); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyRefusesOtherNetwork(t *testing.T) {
	cm := validMilestone()
	other := vNetwork
	other.Name = "shimmer"
	first := min(includedAt(cm), conflictingAt(cm))
	wantField(t, verifyErr(cm, other), fmt.Sprintf("messages[%d].payload.essence.networkId", first),
		fmt.Sprintf("%d is not this network's ID %d", vNetwork.ID(), chain.Shimmer().ID()))
}

func TestVerifyChecksSignatures(t *testing.T) {
	cm := validMilestone()
	cm.Milestone.Signatures[1].Signature[0] ^= 1
	if err := chain.Validate(cm); err != nil {
		t.Fatalf("Validate does not look at signatures, yet: %v", err)
	}
	_, err := chain.Verify(cm, vNetwork)
	wantField(t, err, "milestone.signatures[1]", "invalid signature")
	if !errors.Is(err, chain.ErrMilestoneSignature) {
		t.Fatalf("%v does not wrap ErrMilestoneSignature", err)
	}
	wantField(t, verifyErr(validMilestone(), chain.Shimmer()), "milestone.signatures", "3 signatures, 7 needed")
}

func TestVerifyRunsValidate(t *testing.T) {
	cm := validMilestone()
	cm.Consumed = nil
	wantField(t, verifyErr(cm, vNetwork), fmt.Sprintf("messages[%d].payload.essence.inputs[0]", includedAt(cm)), "unknown input")
	wantField(t, verifyErr(&chain.ConfirmedMilestone{Index: 1}, vNetwork), "milestone", "missing")
}

// Validate accepts messages given by their raw bytes alone; Verify must too.
func TestVerifyRawOnlyMessages(t *testing.T) {
	cm := validMilestone()
	for i := range cm.Messages {
		cm.Messages[i].Message = nil
	}
	noPanic(t, "Verify of raw-only messages", func() {
		if _, err := chain.Verify(cm, vNetwork); err != nil {
			t.Fatal(err)
		}
	})
	other := vNetwork
	other.Name = "shimmer"
	noPanic(t, "Verify of raw-only messages", func() {
		if _, err := chain.Verify(cm, other); err == nil {
			t.Fatal("raw-only transactions of another network accepted")
		}
	})
}
