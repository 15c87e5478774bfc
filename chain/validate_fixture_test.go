package chain_test

import (
	"crypto/ed25519"
	"slices"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// A small valid confirmed milestone, built the way a node would: milestone 5's cone
// holds the block of milestone 4, two tagged-data blocks, a transaction spending two
// outputs of milestone 3, and a conflicting double spend of them.

const vIndex = 5

var (
	vTime    = time.Date(2022, 10, 1, 0, 0, 50, 0, time.UTC)
	vNetwork = chain.Network{Name: "testnet-1", HRP: "rms", Keys: fixtureKeys()}
	vOwner   = fixtureKey(5)
)

// ledgerSpec is what the included transaction consumes and creates.
type ledgerSpec struct{ spent, outputs []chain.Output }

func defaultSpec() ledgerSpec {
	owner := ptr(chain.Ed25519Address(publicKey(vOwner)))
	return ledgerSpec{
		spent: []chain.Output{{Kind: chain.OutputBasic, Amount: 600_000, Address: owner}, {Kind: chain.OutputBasic, Amount: 400_000, Address: owner}},
		outputs: []chain.Output{{Kind: chain.OutputBasic, Amount: 700_000, Address: ptr(fixtureAddr(2))},
			{Kind: chain.OutputNFT, Amount: 300_000, Address: ptr(fixtureAddr(3)), ImmutableMetadata: []byte("nft")}},
	}
}

func spentID(i int) chain.OutputID { return chain.NewOutputID(chain.TransactionID{0x99}, uint16(i)) }

// signedTx spends spent (outputs spentID(0..)) into outputs, signed by vOwner.
func signedTx(spent, outputs []chain.Output) *chain.Transaction {
	tx := &chain.Transaction{NetworkID: vNetwork.ID(), Outputs: outputs}
	var hashes []byte
	for i, o := range spent {
		tx.Inputs = append(tx.Inputs, chain.Input{TransactionID: spentID(i).TransactionID(), Index: uint16(i)})
		h := blake2b.Sum256(chain.EncodeOutput(o))
		hashes = append(hashes, h[:]...)
		tx.Unlocks = append(tx.Unlocks, chain.Unlock{Kind: chain.UnlockReference})
	}
	tx.InputsCommitment = blake2b.Sum256(hashes)
	hash := tx.EssenceHash()
	tx.Unlocks[0] = chain.Unlock{Kind: chain.UnlockSignature, PublicKey: publicKey(vOwner)}
	copy(tx.Unlocks[0].Signature[:], ed25519.Sign(vOwner, hash[:]))
	return tx
}

func sortedIDs(ms ...*chain.Message) []chain.MessageID {
	out := make([]chain.MessageID, len(ms))
	for i, m := range ms {
		out[i] = m.ID()
	}
	slices.SortFunc(out, func(a, b chain.MessageID) int { return slices.Compare(a[:], b[:]) })
	return out
}

func prevMilestone() *chain.MilestonePayload {
	mp := &chain.MilestonePayload{Index: vIndex - 1, Timestamp: uint32(vTime.Unix()) - 10, ProtocolVersion: chain.ProtocolVersion,
		PreviousMilestoneID: chain.MilestoneID{3}, Parents: []chain.MessageID{{0x01}}}
	mp.Sign(fixtureKey(1), fixtureKey(2))
	return mp
}

// coneMessages returns the cone's messages with their verdicts (unordered).
func coneMessages(spec ledgerSpec) ([]*chain.Message, map[chain.MessageID]chain.ReferencedMessage) {
	m4 := newMessage(prevMilestone(), chain.MessageID{0x01})
	a := newMessage(&chain.TaggedData{Tag: []byte("a")}, chain.MessageID{0x02})
	b := newMessage(signedTx(spec.spent, spec.outputs), sortedIDs(a, m4)...)
	d := newMessage(signedTx(spec.spent, spec.outputs[:1]), b.ID())
	e := newMessage(&chain.TaggedData{Data: []byte("e")}, a.ID())
	verdicts := map[chain.MessageID]chain.ReferencedMessage{
		b.ID(): {InclusionState: chain.Included},
		d.ID(): {InclusionState: chain.Conflicting, ConflictReason: chain.ConflictInputSpentInMilestone},
	}
	return []*chain.Message{m4, a, b, d, e}, verdicts
}

func validMilestone() *chain.ConfirmedMilestone { return validMilestoneWith(defaultSpec()) }

func validMilestoneWith(spec ledgerSpec) *chain.ConfirmedMilestone {
	msgs, verdicts := coneMessages(spec)
	byID := map[chain.MessageID]*chain.Message{}
	for _, m := range msgs {
		byID[m.ID()] = m
	}
	mp := &chain.MilestonePayload{Index: vIndex, Timestamp: uint32(vTime.Unix()), ProtocolVersion: chain.ProtocolVersion,
		PreviousMilestoneID: msgs[0].MilestoneOf().ID(), Parents: sortedIDs(msgs[3], msgs[4])}
	cm := &chain.ConfirmedMilestone{Index: vIndex, Timestamp: vTime, PreviousMilestoneID: mp.PreviousMilestoneID, Milestone: mp}
	order := chain.WhiteFlagOrder(mp.Parents, func(id chain.MessageID) ([]chain.MessageID, bool) {
		m, ok := byID[id]
		if !ok {
			return nil, false
		}
		return m.Parents, true
	})
	for _, id := range order {
		rm := verdicts[id]
		rm.Message = byID[id]
		cm.Messages = append(cm.Messages, rm)
	}
	addLedger(cm, byID[msgs[2].ID()], spec)
	reseal(cm)
	return cm
}

// addLedger records what the included transaction message b did.
func addLedger(cm *chain.ConfirmedMilestone, b *chain.Message, spec ledgerSpec) {
	tx := b.TransactionOf()
	for i, o := range tx.Outputs {
		cm.Created = append(cm.Created, chain.LedgerOutput{OutputID: chain.NewOutputID(tx.ID(), uint16(i)), MessageID: b.ID(),
			Output: o, MilestoneIndex: vIndex, Timestamp: vTime})
	}
	for i, o := range spec.spent {
		lo := chain.LedgerOutput{OutputID: spentID(i), MessageID: chain.MessageID{0x33}, Output: o, MilestoneIndex: vIndex - 2,
			Timestamp: vTime.Add(-20 * time.Second)}
		cm.Consumed = append(cm.Consumed, chain.LedgerSpent{LedgerOutput: lo, SpentBy: tx.ID(),
			SpentMilestoneIndex: vIndex, SpentTimestamp: vTime})
	}
}

// reseal makes the milestone agree with its messages as they now stand, in the order
// given: raw bytes, IDs, white-flag indexes, both Merkle roots, milestone ID and
// signatures. Tests use it to get past the checks before the one they target.
func reseal(cm *chain.ConfirmedMilestone) {
	var all, applied []chain.MessageID
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		rm.Raw, rm.ID, rm.WhiteFlagIndex = rm.Message.Encode(), rm.Message.ID(), uint32(i)
		all = append(all, rm.ID)
		if rm.InclusionState == chain.Included {
			applied = append(applied, rm.ID)
		}
	}
	mp := cm.Milestone
	mp.InclusionMerkleRoot, mp.AppliedMerkleRoot = chain.MerkleRoot(all), chain.MerkleRoot(applied)
	mp.Sign(fixtureKey(1), fixtureKey(2), fixtureKey(3))
	cm.MilestoneID = mp.ID()
}

// reorder puts the messages back in white-flag order (as WhiteFlagOrder walks them)
// and renumbers them, leaving the payload alone.
func reorder(cm *chain.ConfirmedMilestone) {
	byID := map[chain.MessageID]chain.ReferencedMessage{}
	for _, rm := range cm.Messages {
		byID[rm.Message.ID()] = rm
	}
	order := chain.WhiteFlagOrder(cm.Milestone.Parents, func(id chain.MessageID) ([]chain.MessageID, bool) {
		rm, ok := byID[id]
		if !ok {
			return nil, false
		}
		return rm.Message.Parents, true
	})
	cm.Messages = cm.Messages[:0]
	for i, id := range order {
		rm := byID[id]
		rm.ID, rm.Raw, rm.WhiteFlagIndex = id, rm.Message.Encode(), uint32(i)
		cm.Messages = append(cm.Messages, rm)
	}
}

// indexWhere returns the position of the first message for which f holds.
func indexWhere(cm *chain.ConfirmedMilestone, f func(rm *chain.ReferencedMessage) bool) int {
	for i := range cm.Messages {
		if f(&cm.Messages[i]) {
			return i
		}
	}
	panic("no such message")
}

func includedAt(cm *chain.ConfirmedMilestone) int {
	return indexWhere(cm, func(rm *chain.ReferencedMessage) bool { return rm.InclusionState == chain.Included })
}

func conflictingAt(cm *chain.ConfirmedMilestone) int {
	return indexWhere(cm, func(rm *chain.ReferencedMessage) bool { return rm.InclusionState == chain.Conflicting })
}

func milestoneAt(cm *chain.ConfirmedMilestone) int {
	return indexWhere(cm, func(rm *chain.ReferencedMessage) bool { return rm.Message.MilestoneOf() != nil })
}

func taggedAt(cm *chain.ConfirmedMilestone) int {
	return indexWhere(cm, func(rm *chain.ReferencedMessage) bool { _, ok := rm.Message.Payload.(*chain.TaggedData); return ok })
}

// tipAt is the position of the tagged-data message "e", a parent of the milestone that
// no other message references.
func tipAt(cm *chain.ConfirmedMilestone) int {
	return indexWhere(cm, func(rm *chain.ReferencedMessage) bool {
		td, ok := rm.Message.Payload.(*chain.TaggedData)
		return ok && string(td.Data) == "e"
	})
}

// replaceMessage puts m in place of message i (a message no other message references),
// renaming it among the milestone's parents, and reseals the milestone.
func replaceMessage(cm *chain.ConfirmedMilestone, i int, m *chain.Message) {
	old := cm.Messages[i].Message.ID()
	cm.Messages[i].Message = m
	parents := cm.Milestone.Parents
	if k := slices.Index(parents, old); k >= 0 {
		parents[k] = m.ID()
		slices.SortFunc(parents, func(a, b chain.MessageID) int { return slices.Compare(a[:], b[:]) })
	}
	reorder(cm)
	reseal(cm)
}
