package api

import (
	"maps"
	"net/http"
)

// corePrefix is the TIP-25 core API's base path.
const corePrefix = "/api/core/v2"

var (
	// anyTextKind documents a path segment of a route that refuses every request.
	anyTextKind = kind{schema: map[string]any{"type": "string"},
		parse: func(_, v string) (any, error) { return v, nil }}
)

// coreRoutes are the TIP-25 core reads under /api/core/v2, Hornet's /health and
// /api/routes, and TIP-25 errors for what a permanode cannot do (docs/core-api.md).
func (s *coreAPI) coreRoutes() []route {
	orBytes := " (JSON; the bytes with Accept: " + serializerMedia + ")"
	routes := []route{
		{pattern: "/health", cache: cacheNoStore, summary: "200 while the ledger index's milestone is recent (-health-max-age), else 503",
			schema: "CoreHealth", handle: s.coreHealth, errs: map[int]string{503: "the ledger index's milestone is too old, or none is indexed"}},
		{pattern: "/api/routes", summary: "The API route groups this server serves", schema: "CoreRoutes", handle: s.coreRouteGroups},
		{pattern: corePrefix + "/info", summary: "The network, the indexed milestones and the protocol parameters",
			schema: "CoreInfo", handle: s.coreInfo},
		withParams(route{pattern: corePrefix + "/blocks/{blockId}", cache: cacheImmutable, summary: "A block" + orBytes, canMiss: true,
			schema: "CoreBlock"}, s.coreBlock),
		withParams(route{pattern: corePrefix + "/blocks/{blockId}/metadata", cache: cacheSettled, summary: "A block's metadata", canMiss: true,
			schema: "CoreBlockMetadata"}, s.coreBlockMetadata),
		withParams(route{pattern: corePrefix + "/transactions/{transactionId}/included-block", cache: cacheImmutable,
			summary: "The block whose inclusion applied the transaction" + orBytes, canMiss: true,
			schema: "CoreBlock"}, s.coreIncludedBlock),
		withParams(route{pattern: corePrefix + "/transactions/{transactionId}/included-block/metadata", cache: cacheSettled,
			summary: "The metadata of the block whose inclusion applied the transaction", canMiss: true,
			schema: "CoreBlockMetadata"}, s.coreIncludedBlockMetadata),
		withParams(route{pattern: corePrefix + "/milestones/{milestoneId}", cache: cacheImmutable, summary: "A milestone payload by ID" + orBytes,
			canMiss: true, schema: "CoreMilestone"}, s.coreMilestoneByID),
		withParams(route{pattern: corePrefix + "/milestones/{milestoneId}/utxo-changes", cache: cacheSynced, mux: corePrefix + "/milestones/{milestoneId}/{view}",
			summary: "The outputs a milestone (by ID) created and consumed", canMiss: true,
			schema: "CoreUTXOChanges"}, s.coreUTXOChangesByID),
		withParams(route{pattern: corePrefix + "/milestones/by-index/{index}", cache: cacheImmutable, summary: "A milestone payload by index" + orBytes,
			canMiss: true, schema: "CoreMilestone"}, s.coreMilestoneByIndex),
		withParams(route{pattern: corePrefix + "/milestones/by-index/{index}/utxo-changes", cache: cacheSynced,
			summary: "The outputs a milestone (by index) created and consumed", canMiss: true,
			schema: "CoreUTXOChanges"}, s.coreUTXOChangesByIndex),
		withParams(route{pattern: corePrefix + "/outputs/{outputId}", cache: cacheSettled, summary: "An output and its metadata (the output's bytes with Accept: " +
			serializerMedia + ")", canMiss: true, schema: "CoreOutput"}, s.coreOutput),
		withParams(route{pattern: corePrefix + "/outputs/{outputId}/metadata", cache: cacheSettled, summary: "An output's metadata",
			canMiss: true, schema: "CoreOutputMetadata"}, s.coreOutputMetadata),
		{pattern: corePrefix + "/receipts", summary: "Every receipt the indexed milestones carry, by migratedAt then milestone index",
			schema: "CoreReceipts", handle: s.coreReceipts},
		withParams(route{pattern: corePrefix + "/receipts/{migratedAt}", summary: "The receipts of the funds migrated at a legacy milestone index",
			schema: "CoreReceipts"}, s.coreReceiptsMigratedAt),
		{pattern: corePrefix + "/treasury", summary: "The newest treasury output: the newest receipt's, or the bootstrap snapshot's",
			schema: "CoreTreasury", handle: s.coreTreasury, errs: map[int]string{http.StatusNotFound: noTreasuryWhy}},
	}
	routes = append(routes, unservableRoutes()...)
	for i := range routes {
		routes[i].nodeErrorBody, routes[i].tag = true, "core"
		if bytesToo[routes[i].pattern] {
			routes[i].altMedia = serializerMedia
		}
	}
	return routes
}

// bytesToo are the core routes that answer bytes when Accept names serializerMedia.
var bytesToo = map[string]bool{
	corePrefix + "/blocks/{blockId}":                            true,
	corePrefix + "/transactions/{transactionId}/included-block": true,
	corePrefix + "/milestones/{milestoneId}":                    true,
	corePrefix + "/milestones/by-index/{index}":                 true,
	corePrefix + "/outputs/{outputId}":                          true,
}

// unservableRoutes are the node routes a permanode cannot serve: each answers 501, to
// every method, saying why; any other path under /api/core/v2 answers a TIP-25 404.
// Snapshot creation is Hornet's /control/snapshots/create and inx-chronicle's
// /control/snapshot/create: both refuse.
func unservableRoutes() []route {
	refuse := func(pattern, docMethod, what string, path ...param) route {
		return route{pattern: corePrefix + pattern, docMethod: docMethod, path: path,
			summary: "Not served: " + what + " (a permanode is no node)",
			errs:    map[int]string{http.StatusNotImplemented: what + ": not served by a permanode"},
			refuse:  func(r *http.Request) *apiError { return notServed(r, what) }}
	}
	peer := pathParam("peerId", anyTextKind, "peer ID")
	return []route{
		refuse("/blocks", "post", "submitting blocks"),
		refuse("/tips", "", "tips to attach a block to"),
		refuse("/peers", "", "peers"),
		refuse("/peers/{peerId}", "", "peers", peer...),
		refuse("/control/database/prune", "post", "pruning the database"),
		refuse("/control/snapshots/create", "post", "creating snapshots"),
		refuse("/control/snapshot/create", "post", "creating snapshots"),
		refuse("/whiteflag", "post", "computing white-flag mutations of unconfirmed parents"),
		{pattern: corePrefix + "/", summary: "Any other path under " + corePrefix + ": a TIP-25 404",
			errs: map[int]string{http.StatusNotFound: "no such route"},
			refuse: func(r *http.Request) *apiError {
				return notFound("no route %s %s (see /openapi.json)", r.Method, r.URL.Path)
			}},
	}
}

// notServed is the 501 of a node route a permanode does not serve.
func notServed(r *http.Request, what string) *apiError {
	return &apiError{Status: http.StatusNotImplemented, Title: "not implemented", Expected: true,
		Detail: r.Method + " " + r.URL.Path + ": " + what + " is not served here: this is a permanode " +
			"(a read-only index of confirmed data), not a node; ask a node"}
}

// coreSchemas are the OpenAPI schemas the core routes name (tip25's types are
// authoritative for every field).
func coreSchemas() object {
	str, integer, boolean, obj := object{"type": "string"}, object{"type": "integer"}, object{"type": "boolean"},
		object{"type": "object"}
	msRef := props("index", integer, "timestamp", integer, "milestoneId", str)
	out := object{
		"TIP25Error": props("error", props("code", str, "message", str)),
		"CoreHealth": props("isHealthy", boolean, "newestMilestone", msRef, "ageSeconds", integer,
			"coverage", ref("LedgerCoverage")),
		"CoreRoutes": props("routes", arrayOf(str)),
		"CoreInfo": props("name", str, "version", str,
			"status", props("isHealthy", boolean, "latestMilestone", msRef, "confirmedMilestone", msRef,
				"pruningIndex", integer),
			"supportedProtocolVersions", arrayOf(integer),
			"protocol", props("version", integer, "networkName", str, "bech32Hrp", str, "minPowScore", integer,
				"belowMaxDepth", integer, "rentStructure", props("vByteCost", integer, "vByteFactorData", integer,
					"vByteFactorKey", integer), "tokenSupply", str),
			"pendingProtocolParameters", arrayOf(obj),
			"baseToken", props("name", str, "tickerSymbol", str, "unit", str, "subunit", str, "decimals", integer,
				"useMetricPrefix", boolean),
			"metrics", props("blocksPerSecond", object{"type": "number"}, "referencedBlocksPerSecond",
				object{"type": "number"}, "referencedRate", object{"type": "number"}),
			"features", arrayOf(str), "coverage", ref("LedgerCoverage")),
		"CoreBlock": props("protocolVersion", integer, "parents", arrayOf(str), "payload", obj, "nonce", str),
		"CoreBlockMetadata": props("blockId", str, "parents", arrayOf(str), "isSolid", boolean,
			"referencedByMilestoneIndex", integer, "milestoneIndex", integer, "ledgerInclusionState",
			object{"type": "string", "enum": []string{"noTransaction", "conflicting", "included"}},
			"conflictReason", integer, "whiteFlagIndex", integer, "shouldPromote", boolean, "shouldReattach", boolean,
			"proof", ref("PoIProof")),
		"CoreMilestone": props("type", integer, "index", integer, "timestamp", integer, "protocolVersion", integer,
			"previousMilestoneId", str, "parents", arrayOf(str), "inclusionMerkleRoot", str, "appliedMerkleRoot", str,
			"metadata", str, "options", arrayOf(obj),
			"signatures", arrayOf(props("type", integer, "publicKey", str, "signature", str))),
		"CoreUTXOChanges": props("index", integer, "createdOutputs", arrayOf(str), "consumedOutputs", arrayOf(str)),
		"CoreOutputMetadata": props("blockId", str, "transactionId", str, "outputIndex", integer, "isSpent", boolean,
			"milestoneIndexSpent", integer, "milestoneTimestampSpent", integer, "transactionIdSpent", str,
			"milestoneIndexBooked", integer, "milestoneTimestampBooked", integer, "ledgerIndex", integer,
			"coverage", ref("LedgerCoverage")),
		"CoreOutput": props("metadata", ref("CoreOutputMetadata"), "output", obj, "coverage", ref("LedgerCoverage")),
	}
	maps.Copy(out, receiptSchemas())
	return out
}
