package analytics

import "github.com/stardust-indexer/stardust-indexer/chain"

// blockActivity is Chronicle's BlockActivity: the cone's blocks counted by payload type
// and, apart, by inclusion state.
func blockActivity(msgs []chain.ReferencedMessage) map[string]int64 {
	f := zeroFiguresOf(FamilyBlockActivity)
	for i := range msgs {
		f[payloadName(msgs[i].Message)+"_count"]++
		switch msgs[i].InclusionState {
		case chain.Included:
			f["confirmed_count"]++
		case chain.Conflicting:
			f["conflicting_count"]++
		case chain.NoTransaction:
			f["no_transaction_count"]++
		}
	}
	return f
}

// milestoneSize is Chronicle's MilestoneSize: the bytes of the cone's blocks as the
// network serialized them, in all and by payload type (a block without payload counts
// in the total only).
func milestoneSize(msgs []chain.ReferencedMessage) map[string]int64 {
	f := zeroFiguresOf(FamilyMilestoneSize)
	for i := range msgs {
		n := int64(len(msgs[i].Raw))
		f["total_milestone_bytes"] += n
		if name := payloadName(msgs[i].Message); name != "no_payload" {
			f["total_"+name+"_payload_bytes"] += n
		}
	}
	return f
}

// payloadName is Chronicle's name of a block's payload type.
func payloadName(m *chain.Message) string {
	switch m.Payload.(type) {
	case *chain.MilestonePayload:
		return "milestone"
	case *chain.TaggedData:
		return "tagged_data"
	case *chain.Transaction:
		return "transaction"
	case *chain.TreasuryTransaction:
		return "treasury_transaction"
	}
	return "no_payload"
}
