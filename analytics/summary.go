package analytics

import (
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Flow is what one address sent and received in one milestone.
type Flow struct {
	Sent, Received uint64
}

// Summary is one milestone's analytics (see the package doc for the definitions).
type Summary struct {
	Index        uint32
	Date         time.Time // the UTC date of the milestone's timestamp
	Messages     int
	Transactions int
	Transferred  uint64
	Flows        map[chain.Address]*Flow
	Tags         map[string]bool // as the tags table stores them (store.TagText)
}

// Summarize computes a milestone's analytics from its messages and ledger changes.
func Summarize(cm *chain.ConfirmedMilestone) *Summary {
	s := &Summary{Index: cm.Index, Date: Day(cm.Timestamp), Messages: len(cm.Messages),
		Flows: map[chain.Address]*Flow{}, Tags: map[string]bool{}}
	included := s.readMessages(cm.Messages)
	s.Transactions = len(included)
	s.addFlows(cm)
	s.Transferred = transferred(cm, included)
	return s
}

// readMessages collects the tags of every referenced message and returns the IDs of the
// transactions the milestone applied.
func (s *Summary) readMessages(msgs []chain.ReferencedMessage) map[chain.TransactionID]bool {
	included := map[chain.TransactionID]bool{}
	for i := range msgs {
		m := msgs[i].Message
		if tag := m.Tag(); len(tag) > 0 {
			s.Tags[store.TagText(tag)] = true
		}
		if tx := m.TransactionOf(); tx != nil && msgs[i].InclusionState == chain.Included {
			included[tx.ID()] = true
		}
	}
	return included
}

func (s *Summary) addFlows(cm *chain.ConfirmedMilestone) {
	for i := range cm.Consumed {
		if a, ok := Owner(&cm.Consumed[i].Output); ok {
			s.flow(a).Sent += cm.Consumed[i].Output.Amount
		}
	}
	for i := range cm.Created {
		if a, ok := Owner(&cm.Created[i].Output); ok {
			s.flow(a).Received += cm.Created[i].Output.Amount
		}
	}
}

func (s *Summary) flow(a chain.Address) *Flow {
	f := s.Flows[a]
	if f == nil {
		f = &Flow{}
		s.Flows[a] = f
	}
	return f
}

// transferred sums the outputs of included transactions that go to an address none of
// the transaction's inputs belonged to. Consumed outputs name their spender; created
// outputs carry their transaction's ID in their output ID, so genesis outputs (created
// by no transaction) never count.
func transferred(cm *chain.ConfirmedMilestone, included map[chain.TransactionID]bool) uint64 {
	inputOwners := map[chain.TransactionID]map[chain.Address]bool{}
	for i := range cm.Consumed {
		ls := &cm.Consumed[i]
		if a, ok := Owner(&ls.Output); ok {
			if inputOwners[ls.SpentBy] == nil {
				inputOwners[ls.SpentBy] = map[chain.Address]bool{}
			}
			inputOwners[ls.SpentBy][a] = true
		}
	}
	var sum uint64
	for i := range cm.Created {
		lo := &cm.Created[i]
		tx := lo.OutputID.TransactionID()
		if a, ok := Owner(&lo.Output); ok && included[tx] && !inputOwners[tx][a] {
			sum += lo.Output.Amount
		}
	}
	return sum
}
