package poi

import (
	"context"
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// poiPrefix is where inx-chronicle serves its proofs of inclusion.
const poiPrefix = "/api/poi/v1"

// Routes are the proof-of-inclusion routes under /api/poi/v1 (inx-chronicle's, see
// docs/poi.md): a block's audit path in its milestone's inclusion or applied Merkle
// tree, with the milestone and the block, and the check of such a proof. Errors take
// this API's own form.
func (s *API) Routes() []rest.Route {
	create := func(tree, summary string, merkle rest.MerkleTree) rest.Route {
		return rest.WithParams(rest.Route{Pattern: poiPrefix + "/" + tree + "/create/{blockId}", Cache: rest.CacheImmutable, Tag: "poi",
			Summary: summary, CanMiss: true, Schema: "PoIProof"},
			func(ctx context.Context, _ *rest.Input, p *rest.BlockIDParams) (any, error) {
				return s.NewProver().Prove(ctx, p.BlockID, merkle)
			})
	}
	validate := func(tree, summary string, merkle rest.MerkleTree) rest.Route {
		return rest.Route{Pattern: poiPrefix + "/" + tree + "/validate", Cache: rest.CacheNoStore, Tag: "poi", Summary: summary,
			Body: "PoIProof", Schema: "PoIValid", CanMiss: true,
			Errs: map[int]string{http.StatusBadRequest: "malformed body, milestone, block or audit path (named), " +
				"or a milestone whose signatures do not verify against the recorded milestone keys",
				http.StatusRequestEntityTooLarge: "a body over 256 KiB"},
			Handle: func(ctx context.Context, in *rest.Input) (any, error) { return s.validate(ctx, in, merkle) }}
	}
	return []rest.Route{
		create("referenced-block", "A block's proof of inclusion: the milestone that referenced it, the block, "+
			"and its audit path to the milestone's inclusion Merkle root", rest.ReferencedTree),
		validate("referenced-block", "Whether a proof of inclusion holds: the milestone's signatures verify, "+
			"the path names the block and hashes to the inclusion Merkle root", rest.ReferencedTree),
		create("applied-block", "A block's proof of application: its audit path to the milestone's applied "+
			"Merkle root (blocks of included transactions only)", rest.AppliedTree),
		validate("applied-block", "Whether a proof of application holds: the milestone's signatures verify, "+
			"the path names the block and hashes to the applied Merkle root", rest.AppliedTree),
	}
}

// Schemas are the proofs' JSON forms (inx-chronicle's).
func Schemas() rest.Object {
	str, obj := rest.Object{"type": "string"}, rest.Object{"type": "object"}
	return rest.Object{
		"PoIProof": rest.Props("milestone", rest.Ref("CoreMilestone"), "block", rest.Ref("CoreBlock"), "proof", rest.Ref("PoIPath")),
		"PoIPath": rest.Object{"type": "object", "description": "an audit path level {l, r} (r absent in a tree of one " +
			"block); each side is a level, {h: sibling subtree hash} or {value: block ID}",
			"properties": rest.Object{"l": obj, "r": obj, "h": str, "value": str}},
		"PoIValid": rest.Props("valid", rest.Object{"type": "boolean"}),
	}
}
