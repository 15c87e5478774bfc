package chain

// validateCone checks that the messages are exactly the milestone's cone in white-flag
// order: the walk from the milestone's parents through the messages' own parents gives
// them in the order given, and both Merkle roots of the milestone payload match. A
// message left out of the cone changes the inclusion root; a wrong verdict the applied
// one. So a milestone that passes was given whole and in the right order.
func validateCone(cm *ConfirmedMilestone, msgs []*Message) error {
	byID := make(map[MessageID]*Message, len(msgs))
	for i, m := range msgs {
		byID[cm.Messages[i].ID] = m
	}
	order := WhiteFlagOrder(cm.Milestone.Parents, func(id MessageID) ([]MessageID, bool) {
		m, ok := byID[id]
		if !ok {
			return nil, false
		}
		return m.Parents, true
	})
	if err := compareOrder(cm, order); err != nil {
		return err
	}
	if err := checkRoots(cm); err != nil {
		return err
	}
	return checkCarried(cm, msgs)
}

func compareOrder(cm *ConfirmedMilestone, order []MessageID) error {
	for i := range cm.Messages {
		switch {
		case i >= len(order):
			return invalid(joinField(indexed("messages", i), "id"),
				"%s is not reachable from the milestone's parents", cm.Messages[i].ID)
		case order[i] != cm.Messages[i].ID:
			return invalid(joinField(indexed("messages", i), "whiteFlagIndex"),
				"%s is not at white-flag position %d (the walk from the milestone's parents puts %s there)",
				cm.Messages[i].ID, i, order[i])
		}
	}
	return nil
}

// MerkleRoots recomputes a milestone's two Merkle roots from its messages in the order
// given (TIP-4, TIP-29): the inclusion root over every message, the applied root over the
// messages of included transactions. They equal the payload's roots only when the
// messages are the whole cone in white-flag order with the milestone's verdicts.
func (cm *ConfirmedMilestone) MerkleRoots() (inclusion, applied [32]byte) {
	all := make([]MessageID, len(cm.Messages))
	for i := range cm.Messages {
		all[i] = cm.Messages[i].ID
	}
	return MerkleRoot(all), AppliedMerkleRoot(cm.Messages)
}

// AppliedMerkleRoot is the Merkle root of the included transactions' blocks of msgs, in
// white-flag order (TIP-4).
func AppliedMerkleRoot(msgs []ReferencedMessage) [32]byte {
	var included []MessageID
	for i := range msgs {
		if msgs[i].InclusionState == Included {
			included = append(included, msgs[i].ID)
		}
	}
	return MerkleRoot(included)
}

// checkRoots compares the recomputed Merkle roots with the milestone payload's.
func checkRoots(cm *ConfirmedMilestone) error {
	inclusion, applied := cm.MerkleRoots()
	if want := cm.Milestone.InclusionMerkleRoot; inclusion != want {
		return invalid("milestone.inclusionMerkleRoot", "%s, but the %d messages give %s",
			hexString(want[:]), len(cm.Messages), hexString(inclusion[:]))
	}
	if want := cm.Milestone.AppliedMerkleRoot; applied != want {
		n := 0
		for i := range cm.Messages {
			if cm.Messages[i].InclusionState == Included {
				n++
			}
		}
		return invalid("milestone.appliedMerkleRoot", "%s, but the %d included transactions give %s",
			hexString(want[:]), n, hexString(applied[:]))
	}
	return nil
}

// checkCarried ties the previous milestone's message, when the cone holds it, to the
// previous milestone ID this milestone names.
func checkCarried(cm *ConfirmedMilestone, msgs []*Message) error {
	for i, m := range msgs {
		mp := m.MilestoneOf()
		if mp != nil && mp.Index+1 == cm.Index && mp.ID() != cm.PreviousMilestoneID {
			return invalid(joinField(indexed("messages", i), "payload"),
				"carries milestone %d with ID %s, but milestone %d names %s as its previous",
				mp.Index, mp.ID(), cm.Index, cm.PreviousMilestoneID)
		}
	}
	return nil
}
