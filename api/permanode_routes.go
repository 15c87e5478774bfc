package api

import (
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
func (s *Server) permanodeRoutes() []route {
	return slices.Concat(s.messageRoutes(), s.outputRoutes(), s.analyticsRoutes(), []route{
		{pattern: "/sync", tag: "status", summary: "Fully indexed milestone ranges, gaps and the newest milestone",
			schema: "Sync", handle: s.sync},
	})
}

// messageRoutes are the routes of messages, transactions and milestones.
func (s *Server) messageRoutes() []route {
	msgID := pathParam("id", messageIDKind, "message ID")
	txID := pathParam("id", transactionIDKind, "transaction ID")
	return []route{
		{pattern: "/messages/{id}", cache: cacheSettled, tag: "messages", summary: "A message, decoded, with its metadata",
			path: msgID, canMiss: true, schema: "Message", handle: s.message},
		{pattern: "/messages/{id}/raw", cache: cacheImmutable, tag: "messages", summary: "A message's bytes",
			path: msgID, canMiss: true, media: "application/octet-stream", handle: s.messageRaw},
		{pattern: "/messages/{id}/children", tag: "messages", summary: "Messages naming this one as a parent, newest first",
			path: msgID, query: []param{fromParam, toParam}, paged: true, schema: "ChildPage", handle: s.children},
		{pattern: "/transactions/{id}", tag: "transactions",
			summary: "A transaction: its inputs, outputs, unlocks and the messages carrying it, with inclusion states",
			path:    txID, canMiss: true, schema: "Transaction", handle: s.transaction},
		{pattern: "/transactions/{id}/included-message", cache: cacheSettled, tag: "transactions",
			summary: "The message whose inclusion applied the transaction", path: txID, canMiss: true,
			schema: "Message", handle: s.includedMessage},
		{pattern: "/milestones/{index}", cache: cacheSettled, tag: "milestones", summary: "A milestone by index",
			path: pathParam("index", indexKind, "milestone index"), canMiss: true, schema: "Milestone", handle: s.milestone},
		{pattern: "/milestones", tag: "milestones", summary: "Indexed milestones of [start, end] (at most 1000), newest first",
			query: []param{{name: "start", kind: indexKind, doc: "first milestone index", required: true},
				{name: "end", kind: indexKind, doc: "last milestone index (inclusive)", required: true}},
			schema: "MilestonePage", handle: s.milestones},
		{pattern: "/tags/{tag}/messages", tag: "messages", summary: "Messages with a tag, newest first",
			path: pathParam("tag", tagKind, "tag, 0x-hex"), query: []param{fromParam, toParam}, paged: true,
			schema: "TagMessagePage", handle: s.tagMessages},
	}
}

// outputRoutes are the routes of outputs: lists by owner fields, one output, the versions
// of a chain (alias, NFT, foundry) and legacy outputs.
func (s *Server) outputRoutes() []route {
	return slices.Concat([]route{
		{pattern: "/outputs", tag: "outputs", summary: "Basic outputs by address, sender or tag, newest first",
			query: basicList.params(), paged: true, schema: "OutputPage", handle: s.list(basicList)},
		{pattern: "/outputs/{outputId}", cache: cacheSettled, tag: "outputs", summary: "An output, its creating message and what spent it",
			path: pathParam("outputId", outputIDKind, "output ID"), canMiss: true, schema: "Output", handle: s.output},
	},
		s.chainRoutes("/aliases", "Alias outputs by state controller, governor, issuer or sender", aliasList,
			chainOf{kind: chain.OutputAlias, idParam: "aliasId", idKind: aliasIDKind, name: "alias", article: "an"}),
		s.chainRoutes("/nft", "NFT outputs by address, issuer, sender or tag", nftList,
			chainOf{kind: chain.OutputNFT, idParam: "nftId", idKind: nftIDKind, name: "NFT", article: "an"}),
		s.chainRoutes("/foundries", "Foundry outputs by (alias) address", foundryList,
			chainOf{kind: chain.OutputFoundry, idParam: "foundryId", idKind: foundryIDKind, name: "foundry", article: "a"}),
		[]route{{pattern: "/legacy-outputs", tag: "outputs", summary: "Legacy (pre-Stardust) outputs of an address",
			query: []param{{name: "address", kind: addressKind, doc: "owner address", required: true},
				{name: paramUnspent, kind: boolKind, doc: "true: only unspent outputs; false: only spent ones"}},
			paged: true, schema: "LegacyOutputPage", handle: s.legacyOutputs}})
}

// chainOf names a chain output kind (alias, NFT, foundry) in its routes.
type chainOf struct {
	kind    chain.OutputKind
	idParam string // the path parameter of the chain's ID
	idKind  kind
	name    string // "alias": in the ID's doc, the summary and the 404
	article string // "an": before name in the summary
}

// chainRoutes are a chain output kind's two routes: its outputs by the fields of list, and
// every version of one chain.
func (s *Server) chainRoutes(path, listSummary string, list outputList, c chainOf) []route {
	return []route{
		{pattern: path, tag: "outputs", summary: listSummary,
			query: list.params(), paged: true, schema: "OutputPage", handle: s.list(list)},
		{pattern: path + "/{" + c.idParam + "}", tag: "outputs", summary: "Every version of " + c.article + " " + c.name + ", newest first",
			path: pathParam(c.idParam, c.idKind, c.name+" ID"), paged: true, canMiss: true, schema: "OutputPage",
			handle: s.versions(c.kind, c.idParam, c.name)},
	}
}

// analyticsRoutes are the routes of the analytics tables.
func (s *Server) analyticsRoutes() []route {
	return []route{
		{pattern: "/analytics/milestones", tag: "analytics",
			summary: "Per-milestone analytics of [start, end] (at most 10000), newest first: messages, " +
				"included transactions, tokens transferred",
			query: milestoneRangeParams, schema: "MilestoneStatList", handle: s.analyticsMilestones},
		{pattern: "/analytics/daily", tag: "analytics",
			summary: "Daily analytics of the computed dates of [from, to] (at most 3660 days), newest first: " +
				"addresses that sent, received, either",
			query: dateRangeParams, schema: "DailyStatList", handle: s.analyticsDaily},
		{pattern: "/analytics/addresses/{address}", tag: "analytics",
			summary: "Tokens an address sent and received in each milestone of [start, end] (at most 10000) " +
				"where it did, newest first",
			path:  pathParam("address", addressKind, "the address (bech32, any HRP, or 0x-hex)"),
			query: milestoneRangeParams, schema: "AddressStatList", handle: s.analyticsAddress},
	}
}
