package api

import (
	"net/http"
)

// explorerPrefix is where the explorer reads live: Chronicle's explorer API paths.
const explorerPrefix = "/api/explorer/v2"

// explorerRoutes are the explorer reads under /api/explorer/v2 (docs/explorer-api.md):
// balances, an address's ledger-update history, a block's children, the milestones by
// time, a milestone's blocks and ledger updates, and the precomputed ledger analytics;
// and Chronicle's route list, GET /routes. Errors take this API's own form.
func (s *explorerAPI) explorerRoutes() []route {
	tooMany := map[int]string{http.StatusUnprocessableEntity: "the address names more than 100000 unspent outputs"}
	history := func(pattern string) route {
		return route{pattern: explorerPrefix + pattern, tag: "explorer",
			summary: "An address's ledger updates (outputs naming it created or spent, every kind and role), " +
				"newest or oldest first, within milestone and time bounds", schema: "ExplorerHistory"}
	}
	return []route{
		withParams(route{pattern: explorerPrefix + "/balance/{address}", tag: "explorer",
			summary: "An address's total, available and sig-locked balance at the ledger index " +
				"(TIP-18 expiration, timelock and storage deposit return rules)",
			canMiss: true, errs: tooMany, schema: "ExplorerBalance"}, s.balance),
		withParams(history("/addresses/{address}/history"), s.history),
		withParams(history("/ledger/updates/by-address/{address}"), s.ledgerUpdatesByAddress),
		withParams(route{pattern: explorerPrefix + "/blocks/{blockId}/children", tag: "explorer",
			summary: "A block's children a milestone referenced, newest first, by page number", canMiss: true,
			schema: "ExplorerBlockChildren"}, s.blockChildren),
		withParams(route{pattern: "/routes", tag: "explorer",
			summary: "The routes this server answers, cut to depth path segments (Chronicle's route list)",
			schema:  "ChronicleRoutes"}, s.listRoutes),
		withParams(route{pattern: explorerPrefix + "/milestones", tag: "explorer",
			summary: "The indexed milestones within a time range (bounds inclusive), newest or oldest first",
			schema:  "ExplorerMilestones"}, s.milestonesByTime),
		withParams(route{pattern: explorerPrefix + "/milestones/by-index/{index}/blocks", cache: cacheSynced, tag: "explorer",
			summary: "A milestone's blocks (messages) in reverse white-flag order or (oldest) in it, with their payload types",
			canMiss: true, schema: "ExplorerBlocks"}, s.milestoneBlocksByIndex),
		withParams(route{pattern: explorerPrefix + "/milestones/{milestoneId}/blocks", cache: cacheSynced, tag: "explorer",
			summary: "A milestone's blocks (messages) in reverse white-flag order or (oldest) in it, with their " +
				"payload types, by milestone ID",
			canMiss: true, schema: "ExplorerBlocks"}, s.milestoneBlocksByID),
		withParams(route{pattern: explorerPrefix + "/milestones/by-index/{index}/ledger-updates", cache: cacheSynced,
			tag: "explorer", summary: "The outputs a milestone created (first) and consumed, each by output ID",
			canMiss: true, schema: "ExplorerMilestoneUpdates"}, s.milestoneUpdatesByIndex),
		withParams(route{pattern: explorerPrefix + "/ledger/updates/by-milestone/{milestoneId}", cache: cacheSynced,
			tag: "explorer", summary: "The outputs a milestone created (first) and consumed, each by output ID, by milestone ID",
			canMiss: true, schema: "ExplorerMilestoneUpdates"}, s.milestoneUpdatesByID),
		withParams(route{pattern: explorerPrefix + "/ledger/richest-addresses", tag: "explorer",
			summary: "The richest addresses at the newest ledger index the analytics worker computed " +
				"(or ledgerIndex), richest first",
			canMiss: true, schema: "ExplorerRichest"}, s.richestAddresses),
		withParams(route{pattern: explorerPrefix + "/ledger/token-distribution", tag: "explorer",
			summary: "Addresses and tokens by order of magnitude of the balance, at the newest ledger index " +
				"the analytics worker computed (or ledgerIndex)",
			canMiss: true, schema: "ExplorerDistribution"}, s.tokenDistribution),
	}
}

// explorerSchemas are the OpenAPI schemas the explorer routes name.
func explorerSchemas() object {
	str, integer, boolean := object{"type": "string"}, object{"type": "integer"}, object{"type": "boolean"}
	cursor := object{"type": "string", "description": "the next page's cursor; absent on the last page"}
	maxResults := object{"type": "integer",
		"description": "the page size in effect: the one asked for, or the maximum (1000) when more was asked"}
	ledgerMeta := []any{"ledgerIndex", integer, "milestoneTimestamp", integer, "newestAtEnd", integer, "computedAt", str,
		"coverage", ref("LedgerCoverage")}
	return object{
		"ExplorerBalance": props("totalBalance", str, "availableBalance", str, "sigLockedBalance", str,
			"ledgerIndex", integer, "milestoneTimestamp", integer, "coverage", ref("LedgerCoverage")),
		"ExplorerHistory": props("address", str, "cursor", cursor, "maxResults", maxResults, "items", arrayOf(props("outputId", str,
			"isSpent", boolean, "milestoneIndex", integer, "milestoneTimestamp", integer, "kind", str,
			"roles", arrayOf(str), "amount", str, "proof", ref("PoIProof"))), "coverage", ref("LedgerCoverage")),
		"ChronicleRoutes": props("routes", arrayOf(str)),
		"ExplorerBlockChildren": props("blockId", str, "maxResults", maxResults, "count", integer,
			"children", arrayOf(str)),
		"ExplorerMilestones": props("cursor", object{"type": "string",
			"description": "milestoneIndex.pageSize: the next page's cursor; absent on the last page"},
			"maxResults", maxResults, "items", arrayOf(props("milestoneId", str, "index", integer, "timestamp", integer))),
		"ExplorerBlocks": props("milestoneIndex", integer, "cursor", cursor, "maxResults", maxResults, "blocks", arrayOf(props("blockId", str,
			"payloadType", object{"type": "integer", "nullable": true}, "whiteFlagIndex", integer))),
		"ExplorerMilestoneUpdates": props("milestoneIndex", integer, "cursor", cursor, "maxResults", maxResults, "items", arrayOf(props(
			"address", str, "outputId", str, "isSpent", boolean, "kind", str, "amount", str))),
		"ExplorerRichest": props(append([]any{"top", arrayOf(props("address", str, "balance", str)), "maxResults", maxResults},
			ledgerMeta...)...),
		"ExplorerDistribution": props(append([]any{"distribution", arrayOf(props("range",
			props("start", integer, "end", integer), "addressCount", str, "totalBalance", str))}, ledgerMeta...)...),
	}
}
