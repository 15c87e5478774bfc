package tables

import (
	"context"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Parameters several routes share.
var (
	fromParam = rest.Param{Name: "from", Kind: rest.TimeKind, Doc: "only rows at or after this time (milestone timestamp)"}
	toParam   = rest.Param{Name: "to", Kind: rest.TimeKind, Doc: "only rows before this time"}
)

// Routes is the table of the schema's own read routes (this package; the seed's own
// surface): registration, parameter checks and the OpenAPI document all come from it.
func (s *API) Routes() []rest.Route {
	return slices.Concat(s.messageRoutes(), s.outputRoutes(), s.analyticsRoutes(), []rest.Route{
		{Pattern: "/sync", Tag: "status", Summary: "Fully indexed milestone ranges, gaps and the newest milestone",
			Schema: "Sync", Handle: s.sync},
	})
}

// messageRoutes are the routes of messages, transactions and milestones.
func (s *API) messageRoutes() []rest.Route {
	return []rest.Route{
		rest.WithParams(rest.Route{Pattern: "/messages/{id}", Cache: rest.CacheSettled, Tag: "messages",
			Summary: "A message, decoded, with its metadata", CanMiss: true, Schema: "Message"}, s.message),
		rest.WithParams(rest.Route{Pattern: "/messages/{id}/raw", Cache: rest.CacheImmutable, Tag: "messages", Summary: "A message's bytes",
			CanMiss: true, Media: "application/octet-stream"}, s.messageRaw),
		rest.WithParams(rest.Route{Pattern: "/messages/{id}/children", Tag: "messages",
			Summary: "Messages naming this one as a parent, newest first", Paged: true, Schema: "ChildPage"}, s.children),
		rest.WithParams(rest.Route{Pattern: "/transactions/{id}", Tag: "transactions",
			Summary: "A transaction: its inputs, outputs, unlocks and the messages carrying it, with inclusion states",
			CanMiss: true, Schema: "Transaction"}, s.transaction),
		rest.WithParams(rest.Route{Pattern: "/transactions/{id}/included-message", Cache: rest.CacheSettled, Tag: "transactions",
			Summary: "The message whose inclusion applied the transaction", CanMiss: true, Schema: "Message"},
			s.includedMessage),
		rest.WithParams(rest.Route{Pattern: "/milestones/{index}", Cache: rest.CacheSettled, Tag: "milestones", Summary: "A milestone by index",
			CanMiss: true, Schema: "Milestone"}, s.milestone),
		rest.WithParams(rest.Route{Pattern: "/milestones", Tag: "milestones",
			Summary: "Indexed milestones of [start, end] (at most 1000), newest first", Schema: "MilestonePage"}, s.milestones),
		rest.WithParams(rest.Route{Pattern: "/tags/{tag}/messages", Tag: "messages", Summary: "Messages with a tag, newest first",
			Paged: true, Schema: "TagMessagePage"}, s.tagMessages),
	}
}

// outputRoutes are the routes of outputs: lists by owner fields, one output, the versions
// of a chain (alias, NFT, foundry) and legacy outputs.
func (s *API) outputRoutes() []rest.Route {
	return slices.Concat([]rest.Route{
		rest.WithParams(rest.Route{Pattern: "/outputs", Tag: "outputs", Summary: "Basic outputs by address, sender or tag, newest first",
			Paged: true, Schema: "OutputPage"}, ListOutputs[BasicListParams](s, BasicList)),
		rest.WithParams(rest.Route{Pattern: "/outputs/{outputId}", Cache: rest.CacheSettled, Tag: "outputs",
			Summary: "An output, its creating message and what spent it", CanMiss: true, Schema: "Output"}, s.output),
	},
		chainRoutes("/aliases", "Alias outputs by state controller, governor, issuer or sender",
			ListOutputs[aliasListParams](s, aliasList),
			chainVersions[rest.AliasIDParams](s, chainOf{kind: chain.OutputAlias, idParam: "aliasId", name: "alias", article: "an"})),
		chainRoutes("/nft", "NFT outputs by address, issuer, sender or tag", ListOutputs[nftListParams](s, nftList),
			chainVersions[rest.NFTIDParams](s, chainOf{kind: chain.OutputNFT, idParam: "nftId", name: "NFT", article: "an"})),
		chainRoutes("/foundries", "Foundry outputs by (alias) address", ListOutputs[foundryListParams](s, foundryList),
			chainVersions[rest.FoundryIDParams](s, chainOf{kind: chain.OutputFoundry, idParam: "foundryId", name: "foundry",
				article: "a"})),
		[]rest.Route{rest.WithParams(rest.Route{Pattern: "/legacy-outputs", Tag: "outputs", Summary: "Legacy (pre-Stardust) outputs of an address",
			Paged: true, Schema: "LegacyOutputPage"}, s.legacyOutputs)})
}

// chainOf names a chain output kind (alias, NFT, foundry) in its routes.
type chainOf struct {
	kind    chain.OutputKind
	idParam string // the path parameter of the chain's ID
	name    string // "alias": in the summary and the 404
	article string // "an": before name in the summary
}

// chainRoutes are a chain output kind's two routes: its outputs by the fields of its
// list's parameters, and every version of one chain.
func chainRoutes[L any](path, listSummary string, list func(context.Context, *rest.Input, *L) (any, error),
	versions chainVersionsRoute) []rest.Route {
	return []rest.Route{
		rest.WithParams(rest.Route{Pattern: path, Tag: "outputs", Summary: listSummary, Paged: true, Schema: "OutputPage"}, list),
		versions(path),
	}
}

// chainVersionsRoute is the route of every version of one chain under a list's path.
type chainVersionsRoute func(path string) rest.Route

// chainVersions is the versions route of c, whose chain ID the parameters P hold.
func chainVersions[P any, R interface {
	*P
	ChainID() string
}](s *API, c chainOf) chainVersionsRoute {
	return func(path string) rest.Route {
		return rest.WithParams(rest.Route{Pattern: path + "/{" + c.idParam + "}", Tag: "outputs",
			Summary: "Every version of " + c.article + " " + c.name + ", newest first", Paged: true, CanMiss: true,
			Schema: "OutputPage"}, versions[P, R](s, c.kind, c.name))
	}
}

// analyticsRoutes are the routes of the analytics tables.
func (s *API) analyticsRoutes() []rest.Route {
	return []rest.Route{
		rest.WithParams(rest.Route{Pattern: "/analytics/milestones", Tag: "analytics",
			Summary: "Per-milestone analytics of [start, end] (at most 10000), newest first: messages, " +
				"included transactions, tokens transferred",
			Schema: "MilestoneStatList"}, s.analyticsMilestones),
		rest.WithParams(rest.Route{Pattern: "/analytics/daily", Tag: "analytics",
			Summary: "Daily analytics of the computed dates of [from, to] (at most 3660 days), newest first: " +
				"addresses that sent, received, either",
			Schema: "DailyStatList"}, s.analyticsDaily),
		rest.WithParams(rest.Route{Pattern: "/analytics/addresses/{address}", Tag: "analytics",
			Summary: "Tokens an address sent and received in each milestone of [start, end] (at most 10000) " +
				"where it did, newest first",
			Schema: "AddressStatList"}, s.analyticsAddress),
	}
}
