package rest

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// ProofJSON is inx-chronicle's CreateProofResponse: the milestone that referenced the
// block (signed payload), the block, and the block's audit path to the milestone's root.
type ProofJSON struct {
	Milestone *tip25.MilestoneJSON `json:"milestone"`
	Block     *tip25.BlockJSON     `json:"block"`
	Proof     *MerkleJSON          `json:"proof"`
}

// MerkleTree names a milestone's two Merkle trees: the inclusion tree over every block
// it referenced, the applied tree over the blocks of the transactions it included.
type MerkleTree bool

const (
	ReferencedTree MerkleTree = false
	AppliedTree    MerkleTree = true
)

// MilestoneTree is one tree of one milestone, as a proof needs it.
type MilestoneTree struct {
	Payload *chain.MilestonePayload
	json    *tip25.MilestoneJSON
	leaves  []chain.MessageID // white-flag order
}

func (t *MilestoneTree) Root(tree MerkleTree) [32]byte {
	if tree == AppliedTree {
		return t.Payload.AppliedMerkleRoot
	}
	return t.Payload.InclusionMerkleRoot
}

// prover makes proofs from stored data, reading each milestone's tree once (an address
// history page proves many blocks of few milestones).
type prover struct {
	s     *Reads
	trees map[treeKey]*MilestoneTree
}

type treeKey struct {
	index uint32
	tree  MerkleTree
}

func (s *Reads) NewProver() *prover { return &prover{s: s, trees: map[treeKey]*MilestoneTree{}} }

// Prove is the proof of block id in tree: 404 for a block not indexed, 400 for one no
// milestone referenced (or, applied, one that included no transaction), as inx-chronicle.
func (p *prover) Prove(ctx context.Context, id string, tree MerkleTree) (*ProofJSON, error) {
	rec, m, err := p.s.IndexedMessage(ctx, "block", id)
	if err != nil {
		return nil, err
	}
	switch {
	case rec.MilestoneIndex == nil:
		return nil, BadParam("blockId", "block %s was not referenced by a milestone", id)
	case tree == AppliedTree && (rec.InclusionState == nil || chain.InclusionState(*rec.InclusionState) != chain.Included):
		return nil, BadParam("blockId", "block %s was not applied to the ledger (it included no transaction)", id)
	}
	t, err := p.tree(ctx, uint32(*rec.MilestoneIndex), tree)
	if err != nil {
		return nil, err
	}
	path, err := auditPathIn(t, m.ID(), tree)
	if err != nil {
		return nil, err
	}
	block, err := tip25.Block(m)
	if err != nil {
		return nil, err
	}
	return &ProofJSON{Milestone: t.json, Block: block, Proof: merklePathJSON(path)}, nil
}

// auditPathIn is id's audit path in t, checked against the milestone's root: the
// stored cone is the one the milestone committed to, or the keyspace is corrupt.
func auditPathIn(t *MilestoneTree, id chain.MessageID, tree MerkleTree) (*chain.MerklePath, error) {
	path, err := chain.MerkleAuditPath(t.leaves, id)
	if err != nil {
		return nil, fmt.Errorf("milestone %d: the stored cone is incomplete: %w", t.Payload.Index, err)
	}
	if got, want := path.Root(), t.Root(tree); got != want {
		return nil, fmt.Errorf("milestone %d: the stored cone hashes to %x, the milestone commits to %x",
			t.Payload.Index, got, want)
	}
	return path, nil
}

func (p *prover) tree(ctx context.Context, index uint32, tree MerkleTree) (*MilestoneTree, error) {
	key := treeKey{index, tree}
	if t, ok := p.trees[key]; ok {
		return t, nil
	}
	t, err := p.s.readTree(ctx, index, tree)
	if err != nil {
		return nil, err
	}
	p.trees[key] = t
	return t, nil
}

// readTree reads a milestone (404 while it is not indexed) and the leaves of its tree.
func (s *Reads) readTree(ctx context.Context, index uint32, tree MerkleTree) (*MilestoneTree, error) {
	ms, err := s.IndexedMilestone(ctx, index)
	if err != nil {
		return nil, err
	}
	t := &MilestoneTree{}
	if t.Payload, err = decodeStoredMilestone(ms); err != nil {
		return nil, err
	}
	if t.json, err = tip25.Milestone(t.Payload); err != nil {
		return nil, err
	}
	read := s.st.MilestoneMessages
	if tree == AppliedTree {
		read = s.st.AppliedMessages
	}
	ids, err := read(ctx, index)
	if err != nil {
		return nil, MissingIsInternal(err)
	}
	t.leaves = make([]chain.MessageID, len(ids))
	for i, id := range ids {
		if t.leaves[i], err = chain.ParseMessageID(id); err != nil {
			return nil, fmt.Errorf("milestone %d: stored block ID %q: %w", index, id, err)
		}
	}
	return t, nil
}

// ProofParams ask a block's metadata or an address-history page to carry proofs of
// inclusion (beyond inx-chronicle, which serves them on /api/poi/v1 only).
type ProofParams struct {
	Proof *bool `query:"proof" kind:"bool" doc:"true: attach the referenced-block proof of inclusion (as /api/poi/v1/referenced-block/create answers it)"`
}

// Wanted says whether the request asked for proofs.
func (p *ProofParams) Wanted() bool { return p.Proof != nil && *p.Proof }
