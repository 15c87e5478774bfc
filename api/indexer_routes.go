package api

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// tip26Prefix is where the TIP-26 indexer routes live (inx-indexer's plugin path).
const tip26Prefix = "/api/indexer/v1"

// tip26GenericKinds are the kinds the generic route /outputs lists: every Stardust kind,
// foundries included, as inx-indexer's combined query unites its basic, alias, NFT and
// foundry queries (since v1.0.0).
var tip26GenericKinds = []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT}

// indexerRoutes are the TIP-26 indexer routes under /api/indexer/v1: output IDs of
// unspent outputs, as inx-indexer (Stardust) answers them (docs/indexer-api.md).
func (s *Server) indexerRoutes() []route {
	tip26 := func(pattern, summary string, query []param, handle func(context.Context, *input) (any, error)) route {
		return route{pattern: tip26Prefix + pattern, tag: "indexer", summary: summary, query: query,
			schema: "IndexerOutputs", handle: handle, nodeErrorBody: true}
	}
	// The kinds' lists are inx-chronicle's routes too: they take its sort and includeSpent.
	list := func(pattern, kind string, query []param, k chain.OutputKind) route {
		return tip26(pattern, "Unspent "+kind+" outputs (TIP-26), oldest first or (sort=newest) newest first; "+
			"with includeSpent=true spent ones too", query, s.tip26List(k))
	}
	byID := func(pattern, summary string, path []param, kind chain.OutputKind, name string) route {
		rt := tip26(pattern, summary, nil, s.tip26Chain(kind, name))
		rt.path, rt.canMiss = path, true
		return rt
	}
	return []route{
		tip26("/outputs", "Unspent outputs of every kind (TIP-26), oldest first", anyQuery,
			s.tip26List(tip26GenericKinds...)),
		list("/outputs/basic", "basic", basicQuery, chain.OutputBasic),
		list("/outputs/alias", "alias", aliasQuery, chain.OutputAlias),
		byID("/outputs/alias/{aliasId}", "The unspent output of an alias (TIP-26)",
			pathParam("aliasId", aliasIDKind, "alias ID"), chain.OutputAlias, "aliasId"),
		list("/outputs/foundry", "foundry", foundryQuery, chain.OutputFoundry),
		byID("/outputs/foundry/{foundryId}", "The unspent output of a foundry (TIP-26)",
			pathParam("foundryId", foundryIDKind, "foundry ID"), chain.OutputFoundry, "foundryId"),
		list("/outputs/nft", "NFT", nftQuery, chain.OutputNFT),
		byID("/outputs/nft/{nftId}", "The unspent output of an NFT (TIP-26)",
			pathParam("nftId", nftIDKind, "NFT ID"), chain.OutputNFT, "nftId"),
	}
}

// indexerSchemas are the OpenAPI schemas the indexer routes name.
func indexerSchemas() object {
	return object{"IndexerOutputs": object{"type": "object", "required": []string{"ledgerIndex", "items"},
		"properties": object{
			"ledgerIndex": object{"type": "integer", "description": "the ledger index: the end of the contiguous " +
				"synced run from coverage.since (a gap below the newest synced milestone is never past it)"},
			"cursor": object{"type": "string", "description": "the next page's cursor; absent on the last page"},
			"items":  arrayOf(object{"type": "string", "description": "output ID, 0x-hex"}),
			"spentPartial": object{"type": "boolean", "description": "includeSpent=true only: the spent outputs " +
				"table lacks spends from coverage.since on (a keyspace indexed before it), so spent outputs are " +
				"missing; coverage is then partial"},
			"coverage": ref("LedgerCoverage"),
		}}}
}

// chainVersionsRead bounds the versions read to find a chain's current output: the
// newest versions come first, and only not-yet-confirmed ones precede the current one.
const chainVersionsRead = 32

// tip26Chain answers the unspent output of an alias, foundry or NFT: its newest
// confirmed version, unless that was spent (404, as when it is not indexed).
func (s *Server) tip26Chain(kind chain.OutputKind, param string) func(context.Context, *input) (any, error) {
	return func(ctx context.Context, in *input) (any, error) {
		key := in.text(param)
		cov, err := s.st.LedgerCoverage(ctx)
		if errors.Is(err, store.ErrNothingSynced) {
			return nil, notFound("%s %s: nothing is indexed yet", param, key)
		} else if err != nil {
			return nil, err
		}
		rows, _, err := s.st.OutputVersions(ctx, kind, key, store.PageRequest{Size: chainVersionsRead})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if !confirmedBy(&r, cov.Index) {
				continue
			}
			if r.SpentBy != "" && r.SpentMilestoneIndex != nil && uint32(*r.SpentMilestoneIndex) <= cov.Index {
				break
			}
			return &outputsJSON{LedgerIndex: cov.Index, Items: []string{r.OutputID},
				withCoverage: withCoverage{coverageOf(cov)}}, nil
		}
		return nil, notFound("%s %s has no unspent output", param, key)
	}
}

// confirmedBy reports whether a version was created by a milestone up to newest.
func confirmedBy(r *store.OutputRow, newest uint32) bool {
	return !r.Pending() && r.InclusionState != nil && chain.InclusionState(*r.InclusionState) == chain.Included &&
		r.MilestoneIndex > 0 && uint32(r.MilestoneIndex) <= newest
}
