package api

import (
	"context"
	"net/http"
)

// poiPrefix is where inx-chronicle serves its proofs of inclusion.
const poiPrefix = "/api/poi/v1"

// poiRoutes are the proof-of-inclusion routes under /api/poi/v1 (inx-chronicle's, see
// docs/poi.md): a block's audit path in its milestone's inclusion or applied Merkle
// tree, with the milestone and the block, and the check of such a proof. Errors take
// this API's own form.
func (s *poiAPI) poiRoutes() []route {
	create := func(tree, summary string, merkle merkleTree) route {
		return withParams(route{pattern: poiPrefix + "/" + tree + "/create/{blockId}", cache: cacheImmutable, tag: "poi",
			summary: summary, canMiss: true, schema: "PoIProof"},
			func(ctx context.Context, _ *input, p *blockIDParams) (any, error) {
				return s.newProver().prove(ctx, p.BlockID, merkle)
			})
	}
	validate := func(tree, summary string, merkle merkleTree) route {
		return route{pattern: poiPrefix + "/" + tree + "/validate", cache: cacheNoStore, tag: "poi", summary: summary,
			body: "PoIProof", schema: "PoIValid", canMiss: true,
			errs: map[int]string{http.StatusBadRequest: "malformed body, milestone, block or audit path (named), " +
				"or a milestone whose signatures do not verify against the recorded milestone keys",
				http.StatusRequestEntityTooLarge: "a body over 256 KiB"},
			handle: func(ctx context.Context, in *input) (any, error) { return s.validate(ctx, in, merkle) }}
	}
	return []route{
		create("referenced-block", "A block's proof of inclusion: the milestone that referenced it, the block, "+
			"and its audit path to the milestone's inclusion Merkle root", referencedTree),
		validate("referenced-block", "Whether a proof of inclusion holds: the milestone's signatures verify, "+
			"the path names the block and hashes to the inclusion Merkle root", referencedTree),
		create("applied-block", "A block's proof of application: its audit path to the milestone's applied "+
			"Merkle root (blocks of included transactions only)", appliedTree),
		validate("applied-block", "Whether a proof of application holds: the milestone's signatures verify, "+
			"the path names the block and hashes to the applied Merkle root", appliedTree),
	}
}

// poiSchemas are the proofs' JSON forms (inx-chronicle's).
func poiSchemas() object {
	str, obj := object{"type": "string"}, object{"type": "object"}
	return object{
		"PoIProof": props("milestone", ref("CoreMilestone"), "block", ref("CoreBlock"), "proof", ref("PoIPath")),
		"PoIPath": object{"type": "object", "description": "an audit path level {l, r} (r absent in a tree of one " +
			"block); each side is a level, {h: sibling subtree hash} or {value: block ID}",
			"properties": object{"l": obj, "r": obj, "h": str, "value": str}},
		"PoIValid": props("valid", object{"type": "boolean"}),
	}
}
