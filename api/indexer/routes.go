package indexer

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Tip26Prefix is where the TIP-26 indexer routes live (inx-indexer's plugin path).
const Tip26Prefix = "/api/indexer/v1"

// Tip26GenericKinds are the kinds the generic route /outputs lists: every Stardust kind,
// foundries included, as inx-indexer's combined query unites its basic, alias, NFT and
// foundry queries (since v1.0.0).
var Tip26GenericKinds = []chain.OutputKind{chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT}

// Routes are the TIP-26 indexer routes under /api/indexer/v1: output IDs of
// unspent outputs, as inx-indexer (Stardust) answers them (docs/indexer-api.md). Each
// route's parameters are the fields of its parameter struct (below; the parameter groups they are made of are in params.go).
func (s *API) Routes() []rest.Route {
	return []rest.Route{
		tip26("/outputs", "Unspent outputs of every kind (TIP-26), oldest first",
			tip26List[AnyParams](s, Tip26GenericKinds...)),
		tip26("/outputs/basic", kindList("basic"), tip26List[BasicParams](s, chain.OutputBasic)),
		tip26("/outputs/alias", kindList("alias"), tip26List[aliasParams](s, chain.OutputAlias)),
		tip26ByID("/outputs/alias/{aliasId}", "The unspent output of an alias (TIP-26)",
			tip26Chain[aliasIDParams](s, chain.OutputAlias, "aliasId")),
		tip26("/outputs/foundry", kindList("foundry"), tip26List[foundryParams](s, chain.OutputFoundry)),
		tip26ByID("/outputs/foundry/{foundryId}", "The unspent output of a foundry (TIP-26)",
			tip26Chain[foundryIDParams](s, chain.OutputFoundry, "foundryId")),
		tip26("/outputs/nft", kindList("NFT"), tip26List[nftParams](s, chain.OutputNFT)),
		tip26ByID("/outputs/nft/{nftId}", "The unspent output of an NFT (TIP-26)",
			tip26Chain[nftIDParams](s, chain.OutputNFT, "nftId")),
	}
}

// tip26 is a TIP-26 route under tip26Prefix answering with the parameters P declares.
func tip26[P any](pattern, summary string, handle func(context.Context, *rest.Input, *P) (any, error)) rest.Route {
	return rest.WithParams(rest.Route{Pattern: Tip26Prefix + pattern, Tag: "indexer", Summary: summary,
		Schema: "IndexerOutputs", NodeErrorBody: true}, handle)
}

// tip26ByID is a TIP-26 look-up of one chain's unspent output: 404 when there is none.
func tip26ByID[P any](pattern, summary string, handle func(context.Context, *rest.Input, *P) (any, error)) rest.Route {
	rt := tip26(pattern, summary, handle)
	rt.CanMiss = true
	return rt
}

// kindList is the summary of a kind's list, which is inx-chronicle's route too: it takes
// its sort and includeSpent.
func kindList(kind string) string {
	return "Unspent " + kind + " outputs (TIP-26), oldest first or (sort=newest) newest first; " +
		"with includeSpent=true spent ones too"
}

// Schemas are the OpenAPI schemas the indexer routes name.
func Schemas() rest.Object {
	return rest.Object{"IndexerOutputs": rest.Object{"type": "object", "required": []string{"ledgerIndex", "items"},
		"properties": rest.Object{
			"ledgerIndex": rest.Object{"type": "integer", "description": "the ledger index the answer is at: the " +
				"ledgerIndex asked for, or the end of the contiguous synced run from coverage.since (a gap below the " +
				"newest synced milestone is never past it)"},
			"cursor": rest.Object{"type": "string", "description": "the next page's cursor; absent on the last page"},
			"items":  rest.ArrayOf(rest.Object{"type": "string", "description": "output ID, 0x-hex"}),
			"spentPartial": rest.Object{"type": "boolean", "description": "includeSpent=true or an earlier " +
				"ledgerIndex only: the spent outputs table lacks spends from coverage.since on (a keyspace indexed " +
				"before it), so outputs are missing; coverage is then partial"},
			"coverage": rest.Ref("LedgerCoverage"),
		}}}
}

// chainVersionsRead is the versions one read of a chain's output asks for: the newest
// versions come first, and only not-yet-confirmed ones (or, at an earlier ledger index,
// later ones) precede the one sought.
const chainVersionsRead = 32

// The parameters of the chain look-ups: the chain's ID and the ledger index.
type (
	aliasIDParams struct {
		rest.AliasIDParams
		AsOfParams
	}
	foundryIDParams struct {
		rest.FoundryIDParams
		AsOfParams
	}
	nftIDParams struct {
		rest.NFTIDParams
		AsOfParams
	}
)

// tip26Chain answers the unspent output of an alias, foundry or NFT (the chain ID the
// path parameter name gives) at the ledger index asked for: its newest version confirmed
// by then, unless that was spent by then (404, as when it is not indexed).
func tip26Chain[P any, R interface {
	*P
	ChainID() string
	asked() *uint32
}](s *API, kind chain.OutputKind, name string) func(context.Context, *rest.Input, *P) (any, error) {
	return func(ctx context.Context, _ *rest.Input, p *P) (any, error) {
		key := R(p).ChainID()
		cov, err := s.st.LedgerCoverage(ctx)
		if errors.Is(err, store.ErrNothingSynced) && R(p).asked() == nil {
			return nil, rest.NotFound("%s %s: nothing is indexed yet", name, key)
		} else if err != nil && !errors.Is(err, store.ErrNothingSynced) {
			return nil, err
		}
		at, coverage, err := rest.AtLedgerIndex(cov.Index, rest.CoverageOf(cov), R(p).asked())
		if err != nil {
			return nil, err
		}
		id, err := s.chainOutputAt(ctx, kind, key, at)
		if err != nil {
			return nil, err
		}
		if id == "" {
			return nil, rest.NotFound("%s %s has no unspent output", name, key)
		}
		return &OutputsJSON{LedgerIndex: at, Items: []string{id}, WithCoverage: rest.WithCoverage{Coverage: coverage}}, nil
	}
}

// chainOutputAt is the ID of a chain's output unspent at ledger index at ("" when there
// is none): its newest version created by then, unless that was spent by then. It reads
// versions newest first until one is at or before at.
func (s *API) chainOutputAt(ctx context.Context, kind chain.OutputKind, key string, at uint32) (string, error) {
	req := store.PageRequest{Size: chainVersionsRead}
	for {
		rows, next, err := s.st.OutputVersions(ctx, kind, key, req)
		if err != nil {
			return "", err
		}
		for _, r := range rows {
			if !confirmedBy(&r, at) {
				continue
			}
			if r.SpentBy != "" && r.SpentMilestoneIndex != nil && uint32(*r.SpentMilestoneIndex) <= at {
				return "", nil
			}
			return r.OutputID, nil
		}
		if len(next) == 0 {
			return "", nil
		}
		req.State = next
	}
}

// confirmedBy reports whether a version was created by a milestone up to newest.
func confirmedBy(r *store.OutputRow, newest uint32) bool {
	return !r.Pending() && r.InclusionState != nil && chain.InclusionState(*r.InclusionState) == chain.Included &&
		r.MilestoneIndex > 0 && uint32(r.MilestoneIndex) <= newest
}

// The parameters of each TIP-26 list route, as inx-indexer (Stardust) accepts them.
type (
	BasicParams struct {
		TokenParams
		ConditionParams
		SenderParams
		TagParams
		TailParams
		OrderParams
	}
	nftParams struct {
		TokenParams
		ConditionParams
		IssuerParams
		SenderParams
		TagParams
		TailParams
		OrderParams
	}
	aliasParams struct {
		TokenParams
		unlockableParams
		AliasRoleParams
		IssuerParams
		SenderParams
		TailParams
		OrderParams
	}
	foundryParams struct {
		TokenParams
		AliasAddressParams
		TailParams
		OrderParams
	}
	AnyParams struct {
		TokenParams
		unlockableParams
		TailParams
	}
)

// tip26Request is what the list handler asks of a route's parameters: the filter they
// spell, the page, and the order (nil on /outputs, which takes none).
type tip26Request interface {
	filter() ledgerquery.Filter
	tail() *TailParams
	order() *OrderParams
}

func (p *BasicParams) filter() (f ledgerquery.Filter) {
	p.TokenParams.setOn(&f)
	p.ConditionParams.setOn(&f)
	f.Sender, f.Tag = opt(p.Sender), opt(p.Tag)
	return f
}

func (p *nftParams) filter() (f ledgerquery.Filter) {
	p.TokenParams.setOn(&f)
	p.ConditionParams.setOn(&f)
	f.Issuer, f.Sender, f.Tag = opt(p.Issuer), opt(p.Sender), opt(p.Tag)
	return f
}

func (p *aliasParams) filter() (f ledgerquery.Filter) {
	p.TokenParams.setOn(&f)
	f.Unlockable, f.StateController, f.Governor = opt(p.Unlockable), opt(p.StateController), opt(p.Governor)
	f.Issuer, f.Sender = opt(p.Issuer), opt(p.Sender)
	return f
}

func (p *foundryParams) filter() (f ledgerquery.Filter) {
	p.TokenParams.setOn(&f)
	f.AliasAddress = opt(p.AliasAddress)
	return f
}

func (p *AnyParams) filter() (f ledgerquery.Filter) {
	p.TokenParams.setOn(&f)
	f.Unlockable = opt(p.Unlockable)
	return f
}

// tip26List serves a TIP-26 list route over the kinds it covers, with the parameters P
// declares, in the order the request asks for (sort, on the routes that take it).
func tip26List[P any, R interface {
	*P
	tip26Request
}](s *API, kinds ...chain.OutputKind) func(context.Context, *rest.Input, *P) (any, error) {
	return func(ctx context.Context, _ *rest.Input, p *P) (any, error) {
		r := R(p)
		tail, order := r.tail(), r.order()
		newest, err := order.Newest(tail.Cursor)
		if err != nil {
			return nil, err
		}
		start, size := tail.Page()
		f := r.filter()
		f.CreatedBefore, f.CreatedAfter = unix(tail.CreatedBefore), unix(tail.CreatedAfter)
		return s.Tip26Answer(ctx, ledgerquery.Request{Kinds: kinds, Filter: f, Start: start,
			PageSize: size, Budget: Tip26Budget, Newest: newest, IncludeSpent: order.includeSpent(),
			AsOf: tail.asked()})
	}
}
