package chain

import (
	"slices"
	"time"
)

// VerifiedMilestone is a confirmed milestone that passed Verify against a network. Only
// Verify and VerifySigned make one, so code that takes one (the ingest's writer) cannot
// be handed a milestone nobody checked. Its milestone is read-only from then on.
type VerifiedMilestone struct {
	cm    *ConfirmedMilestone
	took  time.Duration
	netID uint64
	keys  MilestoneKeys
}

// Confirmed is the verified milestone.
func (v *VerifiedMilestone) Confirmed() *ConfirmedMilestone { return v.cm }

// Took is how long its verification took.
func (v *VerifiedMilestone) Took() time.Duration { return v.took }

// For tells whether it was verified against net: its network ID and milestone keys.
func (v *VerifiedMilestone) For(net Network) bool {
	return v.netID == net.ID() && v.keys.same(net.Keys)
}

// SignedPayload is a milestone payload whose signatures a network's keys accepted: only
// MilestoneKeys.Check makes one. A source checks the payload first, before it spends
// requests on the milestone's cone, and hands the result to VerifySigned, which then
// does not check the signatures again.
type SignedPayload struct {
	mp   *MilestonePayload
	keys MilestoneKeys
}

// Check verifies mp's signatures (Verify) and vouches for them.
func (k MilestoneKeys) Check(mp *MilestonePayload) (SignedPayload, error) {
	if err := k.Verify(mp); err != nil {
		return SignedPayload{}, err
	}
	return SignedPayload{mp: mp, keys: k}, nil
}

// Verify runs every check a milestone passes before anything of it is written: the
// milestone's signatures against the network's keys, the network ID of its
// transactions, and Validate. It is the one place a milestone is verified.
func Verify(cm *ConfirmedMilestone, net Network) (*VerifiedMilestone, error) {
	start := time.Now()
	if cm.Milestone == nil {
		return nil, invalid("milestone", "missing")
	}
	if err := net.Keys.Verify(cm.Milestone); err != nil {
		return nil, err
	}
	return verifySigned(cm, net, start)
}

// VerifySigned is Verify for a milestone whose payload signed already vouches for; a
// payload that is not cm's, or was checked with other keys than net's, is checked again.
func VerifySigned(cm *ConfirmedMilestone, signed SignedPayload, net Network) (*VerifiedMilestone, error) {
	if cm.Milestone == nil || signed.mp != cm.Milestone || !signed.keys.same(net.Keys) {
		return Verify(cm, net)
	}
	return verifySigned(cm, net, time.Now())
}

// verifySigned runs the checks of Verify after the signatures', on a verification
// that started at start.
func verifySigned(cm *ConfirmedMilestone, net Network, start time.Time) (*VerifiedMilestone, error) {
	msgs, err := validate(cm)
	if err != nil {
		return nil, err
	}
	if err := checkNetworkID(msgs, net.ID()); err != nil {
		return nil, err
	}
	return &VerifiedMilestone{cm: cm, took: time.Since(start), netID: net.ID(), keys: net.Keys}, nil
}

func (k MilestoneKeys) same(o MilestoneKeys) bool {
	return k.Threshold == o.Threshold && slices.Equal(k.Ranges, o.Ranges)
}
