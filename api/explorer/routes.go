package explorer

import (
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// ExplorerPrefix is where the explorer reads live: Chronicle's explorer API paths.
const ExplorerPrefix = "/api/explorer/v2"

// Routes are the explorer reads under /api/explorer/v2 (docs/explorer-api.md):
// balances, an address's ledger-update history, a block's children, the milestones by
// time, a milestone's blocks and ledger updates, and the precomputed ledger analytics;
// and Chronicle's route list, GET /routes. Errors take this API's own form.
func (s *API) Routes() []rest.Route {
	tooMany := map[int]string{http.StatusUnprocessableEntity: "the address names more than 100000 unspent outputs"}
	history := func(pattern string) rest.Route {
		return rest.Route{Pattern: ExplorerPrefix + pattern, Tag: "explorer",
			Summary: "An address's ledger updates (outputs naming it created or spent, every kind and role), " +
				"newest or oldest first, within milestone and time bounds", Schema: "ExplorerHistory"}
	}
	return []rest.Route{
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/balance/{address}", Tag: "explorer",
			Summary: "An address's total, available and sig-locked balance at the ledger index " +
				"(TIP-18 expiration, timelock and storage deposit return rules)",
			CanMiss: true, Errs: tooMany, Schema: "ExplorerBalance"}, s.balance),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/balance/{address}/history", Tag: "explorer",
			Summary: "An address's total balance over milestones, oldest first: after every milestone that changed " +
				"it (with the outputs that did), or at the end of every UTC day",
			CanMiss: true, Errs: tooMany, Schema: "ExplorerBalanceHistory"}, s.balanceHistory),
		rest.WithParams(history("/addresses/{address}/history"), s.history),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/addresses/{address}/export", Tag: "explorer",
			Summary: "An address's ledger changes in a time range as a file (format=csv or jsonl), oldest first and " +
				"streamed: a header record (network, address, range, coverage, token), one row per change (milestone " +
				"and time, block, transaction, output, event, direction, amount in base and display units, native " +
				"tokens, counterparties, balance after) and an end record (rows, closing balance); JSONL records are " +
				"ExplorerExportRecord, CSV's header and end records are # comment lines",
			Cache: rest.CacheNoStore, Media: "text/csv", AltMedia: "application/jsonl", Errs: tooMany}, s.export),
		rest.WithParams(history("/ledger/updates/by-address/{address}"), s.ledgerUpdatesByAddress),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/blocks/{blockId}/children", Tag: "explorer",
			Summary: "A block's children a milestone referenced, newest first, by page number", CanMiss: true,
			Schema: "ExplorerBlockChildren"}, s.blockChildren),
		rest.WithParams(rest.Route{Pattern: "/routes", Tag: "explorer",
			Summary: "The routes this server answers, cut to depth path segments (Chronicle's route list)",
			Schema:  "ChronicleRoutes"}, s.listRoutes),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/milestones", Tag: "explorer",
			Summary: "The indexed milestones within a time range (bounds inclusive), newest or oldest first",
			Schema:  "ExplorerMilestones"}, s.milestonesByTime),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/milestones/by-index/{index}/blocks", Cache: rest.CacheSynced, Tag: "explorer",
			Summary: "A milestone's blocks (messages) in reverse white-flag order or (oldest) in it, with their payload types",
			CanMiss: true, Schema: "ExplorerBlocks"}, s.milestoneBlocksByIndex),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/milestones/{milestoneId}/blocks", Cache: rest.CacheSynced, Tag: "explorer",
			Summary: "A milestone's blocks (messages) in reverse white-flag order or (oldest) in it, with their " +
				"payload types, by milestone ID",
			CanMiss: true, Schema: "ExplorerBlocks"}, s.milestoneBlocksByID),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/milestones/by-index/{index}/ledger-updates", Cache: rest.CacheSynced,
			Tag: "explorer", Summary: "The outputs a milestone created (first) and consumed, each by output ID",
			CanMiss: true, Schema: "ExplorerMilestoneUpdates"}, s.milestoneUpdatesByIndex),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/ledger/updates/by-milestone/{milestoneId}", Cache: rest.CacheSynced,
			Tag: "explorer", Summary: "The outputs a milestone created (first) and consumed, each by output ID, by milestone ID",
			CanMiss: true, Schema: "ExplorerMilestoneUpdates"}, s.milestoneUpdatesByID),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/ledger/richest-addresses", Tag: "explorer",
			Summary: "The richest addresses at the newest ledger index the analytics worker computed " +
				"(or ledgerIndex, computed on request when the worker did not), richest first",
			CanMiss: true, Schema: "ExplorerRichest"}, s.richestAddresses),
		rest.WithParams(rest.Route{Pattern: ExplorerPrefix + "/ledger/token-distribution", Tag: "explorer",
			Summary: "Addresses and tokens by order of magnitude of the balance, at the newest ledger index " +
				"the analytics worker computed (or ledgerIndex, computed on request when the worker did not)",
			CanMiss: true, Schema: "ExplorerDistribution"}, s.tokenDistribution),
	}
}

// Schemas are the OpenAPI schemas the explorer routes name.
func Schemas() rest.Object {
	str, integer, boolean := rest.Object{"type": "string"}, rest.Object{"type": "integer"}, rest.Object{"type": "boolean"}
	cursor := rest.Object{"type": "string", "description": "the next page's cursor; absent on the last page"}
	maxResults := rest.Object{"type": "integer",
		"description": "the page size in effect: the one asked for, or the maximum (1000) when more was asked"}
	ledgerMeta := []any{"ledgerIndex", integer, "milestoneTimestamp", integer, "newestAtEnd", integer, "computedAt", str,
		"computedOnRequest", boolean, "coverage", rest.Ref("LedgerCoverage")}
	return rest.Object{
		"ExplorerBalance": rest.Props("totalBalance", str, "availableBalance", str, "sigLockedBalance", str,
			"ledgerIndex", integer, "milestoneTimestamp", integer, "coverage", rest.Ref("LedgerCoverage")),
		"ExplorerHistory": rest.Props("address", str, "cursor", cursor, "maxResults", maxResults, "ledgerIndex", rest.Object{
			"type": "integer", "description": "the ledgerIndex asked for; absent without one"}, "items", rest.ArrayOf(rest.Props("outputId", str,
			"isSpent", boolean, "milestoneIndex", integer, "milestoneTimestamp", integer, "kind", str,
			"roles", rest.ArrayOf(str), "amount", str, "proof", rest.Ref("PoIProof"))), "coverage", rest.Ref("LedgerCoverage")),
		"ExplorerBalanceHistory": rest.Props("address", str, "granularity", rest.Object{"type": "string",
			"enum": []string{"milestone", "day"}}, "from", integer, "to", integer, "startBalance", str, "cursor", cursor,
			"maxResults", maxResults, "items", rest.ArrayOf(rest.Props("date", str, "milestoneIndex", integer,
				"milestoneTimestamp", integer, "balance", str, "change", str,
				"outputs", rest.ArrayOf(rest.Props("outputId", str, "change", str)))), "coverage", rest.Ref("LedgerCoverage")),
		"ChronicleRoutes":      rest.Props("routes", rest.ArrayOf(str)),
		"ExplorerExportRecord": exportRecordSchema(str, integer),
		"ExplorerBlockChildren": rest.Props("blockId", str, "maxResults", maxResults, "count", integer,
			"children", rest.ArrayOf(str)),
		"ExplorerMilestones": rest.Props("cursor", rest.Object{"type": "string",
			"description": "milestoneIndex.pageSize: the next page's cursor; absent on the last page"},
			"maxResults", maxResults, "items", rest.ArrayOf(rest.Props("milestoneId", str, "index", integer, "timestamp", integer))),
		"ExplorerBlocks": rest.Props("milestoneIndex", integer, "cursor", cursor, "maxResults", maxResults, "blocks", rest.ArrayOf(rest.Props("blockId", str,
			"payloadType", rest.Object{"type": "integer", "nullable": true}, "whiteFlagIndex", integer))),
		"ExplorerMilestoneUpdates": rest.Props("milestoneIndex", integer, "cursor", cursor, "maxResults", maxResults, "items", rest.ArrayOf(rest.Props(
			"address", str, "outputId", str, "isSpent", boolean, "kind", str, "amount", str))),
		"ExplorerRichest": rest.Props(append([]any{"top", rest.ArrayOf(rest.Props("address", str, "balance", str)), "maxResults", maxResults},
			ledgerMeta...)...),
		"ExplorerDistribution": rest.Props(append([]any{"distribution", rest.ArrayOf(rest.Props("range",
			rest.Props("start", integer, "end", integer), "addressCount", str, "totalBalance", str))}, ledgerMeta...)...),
	}
}
