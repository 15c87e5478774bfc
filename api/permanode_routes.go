package api

import (
	"context"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Parameters several routes share.
var (
	fromParam = param{name: "from", kind: timeKind, doc: "only rows at or after this time (milestone timestamp)"}
	toParam   = param{name: "to", kind: timeKind, doc: "only rows before this time"}
)

// permanodeRoutes is the table of the permanode API's routes (permanode_*.go, the seed's own
// surface): registration, parameter checks and the OpenAPI document all come from it.
func (s *tablesAPI) permanodeRoutes() []route {
	return slices.Concat(s.messageRoutes(), s.outputRoutes(), s.analyticsRoutes(), []route{
		{pattern: "/sync", tag: "status", summary: "Fully indexed milestone ranges, gaps and the newest milestone",
			schema: "Sync", handle: s.sync},
	})
}

// messageRoutes are the routes of messages, transactions and milestones.
func (s *tablesAPI) messageRoutes() []route {
	return []route{
		withParams(route{pattern: "/messages/{id}", cache: cacheSettled, tag: "messages",
			summary: "A message, decoded, with its metadata", canMiss: true, schema: "Message"}, s.message),
		withParams(route{pattern: "/messages/{id}/raw", cache: cacheImmutable, tag: "messages", summary: "A message's bytes",
			canMiss: true, media: "application/octet-stream"}, s.messageRaw),
		withParams(route{pattern: "/messages/{id}/children", tag: "messages",
			summary: "Messages naming this one as a parent, newest first", paged: true, schema: "ChildPage"}, s.children),
		withParams(route{pattern: "/transactions/{id}", tag: "transactions",
			summary: "A transaction: its inputs, outputs, unlocks and the messages carrying it, with inclusion states",
			canMiss: true, schema: "Transaction"}, s.transaction),
		withParams(route{pattern: "/transactions/{id}/included-message", cache: cacheSettled, tag: "transactions",
			summary: "The message whose inclusion applied the transaction", canMiss: true, schema: "Message"},
			s.includedMessage),
		withParams(route{pattern: "/milestones/{index}", cache: cacheSettled, tag: "milestones", summary: "A milestone by index",
			canMiss: true, schema: "Milestone"}, s.milestone),
		withParams(route{pattern: "/milestones", tag: "milestones",
			summary: "Indexed milestones of [start, end] (at most 1000), newest first", schema: "MilestonePage"}, s.milestones),
		withParams(route{pattern: "/tags/{tag}/messages", tag: "messages", summary: "Messages with a tag, newest first",
			paged: true, schema: "TagMessagePage"}, s.tagMessages),
	}
}

// outputRoutes are the routes of outputs: lists by owner fields, one output, the versions
// of a chain (alias, NFT, foundry) and legacy outputs.
func (s *tablesAPI) outputRoutes() []route {
	return slices.Concat([]route{
		withParams(route{pattern: "/outputs", tag: "outputs", summary: "Basic outputs by address, sender or tag, newest first",
			paged: true, schema: "OutputPage"}, listOutputs[basicListParams](s, basicList)),
		withParams(route{pattern: "/outputs/{outputId}", cache: cacheSettled, tag: "outputs",
			summary: "An output, its creating message and what spent it", canMiss: true, schema: "Output"}, s.output),
	},
		chainRoutes("/aliases", "Alias outputs by state controller, governor, issuer or sender",
			listOutputs[aliasListParams](s, aliasList),
			chainVersions[aliasIDParams](s, chainOf{kind: chain.OutputAlias, idParam: "aliasId", name: "alias", article: "an"})),
		chainRoutes("/nft", "NFT outputs by address, issuer, sender or tag", listOutputs[nftListParams](s, nftList),
			chainVersions[nftIDParams](s, chainOf{kind: chain.OutputNFT, idParam: "nftId", name: "NFT", article: "an"})),
		chainRoutes("/foundries", "Foundry outputs by (alias) address", listOutputs[foundryListParams](s, foundryList),
			chainVersions[foundryIDParams](s, chainOf{kind: chain.OutputFoundry, idParam: "foundryId", name: "foundry",
				article: "a"})),
		[]route{withParams(route{pattern: "/legacy-outputs", tag: "outputs", summary: "Legacy (pre-Stardust) outputs of an address",
			paged: true, schema: "LegacyOutputPage"}, s.legacyOutputs)})
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
func chainRoutes[L any](path, listSummary string, list func(context.Context, *input, *L) (any, error),
	versions chainVersionsRoute) []route {
	return []route{
		withParams(route{pattern: path, tag: "outputs", summary: listSummary, paged: true, schema: "OutputPage"}, list),
		versions(path),
	}
}

// chainVersionsRoute is the route of every version of one chain under a list's path.
type chainVersionsRoute func(path string) route

// chainVersions is the versions route of c, whose chain ID the parameters P hold.
func chainVersions[P any, R interface {
	*P
	chainID() string
}](s *tablesAPI, c chainOf) chainVersionsRoute {
	return func(path string) route {
		return withParams(route{pattern: path + "/{" + c.idParam + "}", tag: "outputs",
			summary: "Every version of " + c.article + " " + c.name + ", newest first", paged: true, canMiss: true,
			schema: "OutputPage"}, versions[P, R](s, c.kind, c.name))
	}
}

// analyticsRoutes are the routes of the analytics tables.
func (s *tablesAPI) analyticsRoutes() []route {
	return []route{
		withParams(route{pattern: "/analytics/milestones", tag: "analytics",
			summary: "Per-milestone analytics of [start, end] (at most 10000), newest first: messages, " +
				"included transactions, tokens transferred",
			schema: "MilestoneStatList"}, s.analyticsMilestones),
		withParams(route{pattern: "/analytics/daily", tag: "analytics",
			summary: "Daily analytics of the computed dates of [from, to] (at most 3660 days), newest first: " +
				"addresses that sent, received, either",
			schema: "DailyStatList"}, s.analyticsDaily),
		withParams(route{pattern: "/analytics/addresses/{address}", tag: "analytics",
			summary: "Tokens an address sent and received in each milestone of [start, end] (at most 10000) " +
				"where it did, newest first",
			schema: "AddressStatList"}, s.analyticsAddress),
	}
}
