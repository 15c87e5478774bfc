package poi

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// validProof is inx-chronicle's ValidateProofResponse.
type validProof struct {
	Valid bool `json:"valid"`
}

// proofBody is a posted proof, each member decoded on its own so that a malformed one
// is named.
type proofBody struct {
	Milestone json.RawMessage  `json:"milestone"`
	Block     json.RawMessage  `json:"block"`
	Proof     *rest.MerkleJSON `json:"proof"`
}

// postedProof is a posted proof, decoded.
type postedProof struct {
	milestone *chain.MilestonePayload
	blockID   chain.MessageID
	path      *chain.MerklePath
}

// validate checks a posted proof as inx-chronicle does: the milestone's signatures
// verify against the keys the keyspace recorded (else 400), and then the proof is valid
// when its path names the block's ID (the hash of the block as posted) and hashes to the
// milestone's root of the tree.
func (s *API) validate(ctx context.Context, in *rest.Input, tree rest.MerkleTree) (any, error) {
	pp, err := readProof(in.Body)
	if err != nil {
		return nil, err
	}
	keys, err := s.st.MilestoneKeys(ctx)
	if errors.Is(err, store.ErrNotFound) {
		return nil, rest.NotFound("the keyspace recorded no milestone keys to verify milestones against")
	} else if err != nil {
		return nil, err
	}
	if err := keys.Verify(pp.milestone); err != nil {
		return nil, rest.BadParam("milestone", "invalid milestone: %v", err)
	}
	t := rest.MilestoneTree{Payload: pp.milestone}
	return validProof{Valid: pp.path.Contains(pp.blockID) && pp.path.Root() == t.Root(tree)}, nil
}

func readProof(body io.Reader) (*postedProof, error) {
	var pb proofBody
	if err := rest.ReadJSONBody(body, &pb, "a proof {milestone, block, proof}"); err != nil {
		return nil, err
	}
	return pb.decode()
}

func (pb *proofBody) decode() (*postedProof, error) {
	if pb.Milestone == nil || pb.Block == nil || pb.Proof == nil {
		return nil, rest.BadParam("body", "a proof has the members milestone, block and proof")
	}
	var pp postedProof
	var err error
	if pp.milestone, err = tip25.DecodeMilestone(pb.Milestone); err != nil {
		return nil, rest.BadParam("milestone", "invalid JSON representation of the milestone: %v", err)
	}
	m, err := tip25.DecodeBlock(pb.Block)
	if err != nil {
		return nil, rest.BadParam("block", "invalid JSON representation of the block: %v", err)
	}
	pp.blockID = m.ID()
	if pp.path, err = pb.Proof.Path(); err == nil {
		err = pp.path.Check()
	}
	if err != nil {
		return nil, rest.BadParam("proof", "invalid JSON representation of the audit path: %v", err)
	}
	return &pp, nil
}
