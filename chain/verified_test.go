package chain_test

import (
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// verifyErr is Verify's error alone.
func verifyErr(cm *chain.ConfirmedMilestone, net chain.Network) error {
	_, err := chain.Verify(cm, net)
	return err
}

func TestVerifiedMilestoneNamesWhatWasVerified(t *testing.T) {
	cm := validMilestone()
	vm, err := chain.Verify(cm, vNetwork)
	if err != nil {
		t.Fatal(err)
	}
	if vm.Confirmed() != cm || vm.Took() <= 0 {
		t.Fatalf("verified %p in %s, want %p and a positive duration", vm.Confirmed(), vm.Took(), cm)
	}
	other := vNetwork
	other.Name = "shimmer"
	fewer := vNetwork
	fewer.Keys.Threshold--
	if !vm.For(vNetwork) || vm.For(other) || vm.For(fewer) {
		t.Fatalf("For: %v for its network, %v for another name, %v for other keys; want true, false, false",
			vm.For(vNetwork), vm.For(other), vm.For(fewer))
	}
}

func TestVerifySignedSkipsOnlyTheSignaturesItVouchesFor(t *testing.T) {
	cm := validMilestone()
	signed, err := vNetwork.Keys.Check(cm.Milestone)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.VerifySigned(cm, signed, vNetwork); err != nil {
		t.Fatal(err)
	}
	cm.Consumed = nil
	_, err = chain.VerifySigned(cm, signed, vNetwork)
	wantField(t, err, fmt.Sprintf("messages[%d].payload.essence.inputs[0]", includedAt(cm)), "unknown input")

	// A payload signed vouches for is not the one checked: its signatures are checked.
	cm, forged := validMilestone(), validMilestone()
	forged.Milestone.Signatures[0].Signature[0] ^= 1
	_, err = chain.VerifySigned(forged, signed, vNetwork)
	wantField(t, err, "milestone.signatures[0]", "invalid signature")

	// Keys other than the network's: checked again with the network's.
	signed, err = chain.MilestoneKeys{Threshold: 1, Ranges: vNetwork.Keys.Ranges}.Check(cm.Milestone)
	if err != nil {
		t.Fatal(err)
	}
	_, err = chain.VerifySigned(cm, signed, chain.Shimmer())
	wantField(t, err, "milestone.signatures", "3 signatures, 7 needed")

	if _, err := vNetwork.Keys.Check(forged.Milestone); err == nil {
		t.Fatal("Check vouched for a forged signature")
	}
}
