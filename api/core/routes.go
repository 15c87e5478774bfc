package core

import (
	"maps"
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// CorePrefix is the TIP-25 core API's base path.
const CorePrefix = "/api/core/v2"

var (
	// anyTextKind documents a path segment of a route that refuses every request.
	anyTextKind = rest.Kind{Schema: map[string]any{"type": "string"},
		Parse: func(_, v string) (any, error) { return v, nil }}
)

// Routes are the TIP-25 core reads under /api/core/v2, Hornet's /health and
// /api/routes, and TIP-25 errors for what a permanode cannot do (docs/core-api.md).
func (s *API) Routes() []rest.Route {
	orBytes := " (JSON; the bytes with Accept: " + rest.SerializerMedia + ")"
	routes := []rest.Route{
		{Pattern: "/health", Cache: rest.CacheNoStore, Summary: "200 while the ledger index's milestone is recent (-health-max-age), else 503",
			Schema: "CoreHealth", Handle: s.coreHealth, Errs: map[int]string{503: "the ledger index's milestone is too old, or none is indexed"}},
		{Pattern: "/api/routes", Summary: "The API route groups this server serves", Schema: "CoreRoutes", Handle: s.coreRouteGroups},
		{Pattern: CorePrefix + "/info", Summary: "The network, the indexed milestones and the protocol parameters",
			Schema: "CoreInfo", Handle: s.coreInfo},
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/blocks/{blockId}", Cache: rest.CacheImmutable, Summary: "A block" + orBytes, CanMiss: true,
			Schema: "CoreBlock"}, s.coreBlock),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/blocks/{blockId}/metadata", Cache: rest.CacheSettled, Summary: "A block's metadata", CanMiss: true,
			Schema: "CoreBlockMetadata"}, s.coreBlockMetadata),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/transactions/{transactionId}/included-block", Cache: rest.CacheImmutable,
			Summary: "The block whose inclusion applied the transaction" + orBytes, CanMiss: true,
			Schema: "CoreBlock"}, s.coreIncludedBlock),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/transactions/{transactionId}/included-block/metadata", Cache: rest.CacheSettled,
			Summary: "The metadata of the block whose inclusion applied the transaction", CanMiss: true,
			Schema: "CoreBlockMetadata"}, s.coreIncludedBlockMetadata),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/milestones/{milestoneId}", Cache: rest.CacheImmutable, Summary: "A milestone payload by ID" + orBytes,
			CanMiss: true, Schema: "CoreMilestone"}, s.coreMilestoneByID),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/milestones/{milestoneId}/utxo-changes", Cache: rest.CacheSynced, Mux: CorePrefix + "/milestones/{milestoneId}/{view}",
			Summary: "The outputs a milestone (by ID) created and consumed", CanMiss: true,
			Schema: "CoreUTXOChanges"}, s.coreUTXOChangesByID),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/milestones/by-index/{index}", Cache: rest.CacheImmutable, Summary: "A milestone payload by index" + orBytes,
			CanMiss: true, Schema: "CoreMilestone"}, s.coreMilestoneByIndex),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/milestones/by-index/{index}/utxo-changes", Cache: rest.CacheSynced,
			Summary: "The outputs a milestone (by index) created and consumed", CanMiss: true,
			Schema: "CoreUTXOChanges"}, s.coreUTXOChangesByIndex),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/outputs/{outputId}", Cache: rest.CacheSettled, Summary: "An output and its metadata (the output's bytes with Accept: " +
			rest.SerializerMedia + ")", CanMiss: true, Schema: "CoreOutput"}, s.coreOutput),
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/outputs/{outputId}/metadata", Cache: rest.CacheSettled, Summary: "An output's metadata",
			CanMiss: true, Schema: "CoreOutputMetadata"}, s.coreOutputMetadata),
		{Pattern: CorePrefix + "/receipts", Summary: "Every receipt the indexed milestones carry, by migratedAt then milestone index",
			Schema: "CoreReceipts", Handle: s.coreReceipts},
		rest.WithParams(rest.Route{Pattern: CorePrefix + "/receipts/{migratedAt}", Summary: "The receipts of the funds migrated at a legacy milestone index",
			Schema: "CoreReceipts"}, s.coreReceiptsMigratedAt),
		{Pattern: CorePrefix + "/treasury", Summary: "The newest treasury output: the newest receipt's, or the bootstrap snapshot's",
			Schema: "CoreTreasury", Handle: s.coreTreasury, Errs: map[int]string{http.StatusNotFound: noTreasuryWhy}},
	}
	routes = append(routes, unservableRoutes()...)
	for i := range routes {
		routes[i].NodeErrorBody, routes[i].Tag = true, "core"
		if bytesToo[routes[i].Pattern] {
			routes[i].AltMedia = rest.SerializerMedia
		}
	}
	return routes
}

// bytesToo are the core routes that answer bytes when Accept names serializerMedia.
var bytesToo = map[string]bool{
	CorePrefix + "/blocks/{blockId}":                            true,
	CorePrefix + "/transactions/{transactionId}/included-block": true,
	CorePrefix + "/milestones/{milestoneId}":                    true,
	CorePrefix + "/milestones/by-index/{index}":                 true,
	CorePrefix + "/outputs/{outputId}":                          true,
}

// unservableRoutes are the node routes a permanode cannot serve: each answers 501, to
// every method, saying why; any other path under /api/core/v2 answers a TIP-25 404.
// Snapshot creation is Hornet's /control/snapshots/create and inx-chronicle's
// /control/snapshot/create: both refuse.
func unservableRoutes() []rest.Route {
	refuse := func(pattern, docMethod, what string, path ...rest.Param) rest.Route {
		return rest.Route{Pattern: CorePrefix + pattern, DocMethod: docMethod, Path: path,
			Summary: "Not served: " + what + " (a permanode is no node)",
			Errs:    map[int]string{http.StatusNotImplemented: what + ": not served by a permanode"},
			Refuse:  func(r *http.Request) *rest.APIError { return notServed(r, what) }}
	}
	peer := rest.PathParam("peerId", anyTextKind, "peer ID")
	return []rest.Route{
		refuse("/blocks", "post", "submitting blocks"),
		refuse("/tips", "", "tips to attach a block to"),
		refuse("/peers", "", "peers"),
		refuse("/peers/{peerId}", "", "peers", peer...),
		refuse("/control/database/prune", "post", "pruning the database"),
		refuse("/control/snapshots/create", "post", "creating snapshots"),
		refuse("/control/snapshot/create", "post", "creating snapshots"),
		refuse("/whiteflag", "post", "computing white-flag mutations of unconfirmed parents"),
		{Pattern: CorePrefix + "/", Summary: "Any other path under " + CorePrefix + ": a TIP-25 404",
			Errs: map[int]string{http.StatusNotFound: "no such route"},
			Refuse: func(r *http.Request) *rest.APIError {
				return rest.NotFound("no route %s %s (see /openapi.json)", r.Method, r.URL.Path)
			}},
	}
}

// notServed is the 501 of a node route a permanode does not serve.
func notServed(r *http.Request, what string) *rest.APIError {
	return &rest.APIError{Status: http.StatusNotImplemented, Title: "not implemented", Expected: true,
		Detail: r.Method + " " + r.URL.Path + ": " + what + " is not served here: this is a permanode " +
			"(a read-only index of confirmed data), not a node; ask a node"}
}

// Schemas are the OpenAPI schemas the core routes name (tip25's types are
// authoritative for every field).
func Schemas() rest.Object {
	str, integer, boolean, obj := rest.Object{"type": "string"}, rest.Object{"type": "integer"}, rest.Object{"type": "boolean"},
		rest.Object{"type": "object"}
	msRef := rest.Props("index", integer, "timestamp", integer, "milestoneId", str)
	out := rest.Object{
		"TIP25Error": rest.Props("error", rest.Props("code", str, "message", str)),
		"CoreHealth": rest.Props("isHealthy", boolean, "newestMilestone", msRef, "ageSeconds", integer,
			"coverage", rest.Ref("LedgerCoverage")),
		"CoreRoutes": rest.Props("routes", rest.ArrayOf(str)),
		"CoreInfo": rest.Props("name", str, "version", str,
			"status", rest.Props("isHealthy", boolean, "latestMilestone", msRef, "confirmedMilestone", msRef,
				"pruningIndex", integer),
			"supportedProtocolVersions", rest.ArrayOf(integer),
			"protocol", rest.Props("version", integer, "networkName", str, "bech32Hrp", str, "minPowScore", integer,
				"belowMaxDepth", integer, "rentStructure", rest.Props("vByteCost", integer, "vByteFactorData", integer,
					"vByteFactorKey", integer), "tokenSupply", str),
			"pendingProtocolParameters", rest.ArrayOf(obj),
			"baseToken", rest.Props("name", str, "tickerSymbol", str, "unit", str, "subunit", str, "decimals", integer,
				"useMetricPrefix", boolean),
			"metrics", rest.Props("blocksPerSecond", rest.Object{"type": "number"}, "referencedBlocksPerSecond",
				rest.Object{"type": "number"}, "referencedRate", rest.Object{"type": "number"}),
			"features", rest.ArrayOf(str), "coverage", rest.Ref("LedgerCoverage")),
		"CoreBlock": rest.Props("protocolVersion", integer, "parents", rest.ArrayOf(str), "payload", obj, "nonce", str),
		"CoreBlockMetadata": rest.Props("blockId", str, "parents", rest.ArrayOf(str), "isSolid", boolean,
			"referencedByMilestoneIndex", integer, "milestoneIndex", integer, "ledgerInclusionState",
			rest.Object{"type": "string", "enum": []string{"noTransaction", "conflicting", "included"}},
			"conflictReason", integer, "whiteFlagIndex", integer, "shouldPromote", boolean, "shouldReattach", boolean,
			"proof", rest.Ref("PoIProof")),
		"CoreMilestone": rest.Props("type", integer, "index", integer, "timestamp", integer, "protocolVersion", integer,
			"previousMilestoneId", str, "parents", rest.ArrayOf(str), "inclusionMerkleRoot", str, "appliedMerkleRoot", str,
			"metadata", str, "options", rest.ArrayOf(obj),
			"signatures", rest.ArrayOf(rest.Props("type", integer, "publicKey", str, "signature", str))),
		"CoreUTXOChanges": rest.Props("index", integer, "createdOutputs", rest.ArrayOf(str), "consumedOutputs", rest.ArrayOf(str)),
		"CoreOutputMetadata": rest.Props("blockId", str, "transactionId", str, "outputIndex", integer, "isSpent", boolean,
			"milestoneIndexSpent", integer, "milestoneTimestampSpent", integer, "transactionIdSpent", str,
			"milestoneIndexBooked", integer, "milestoneTimestampBooked", integer, "ledgerIndex", integer,
			"coverage", rest.Ref("LedgerCoverage")),
		"CoreOutput": rest.Props("metadata", rest.Ref("CoreOutputMetadata"), "output", obj, "coverage", rest.Ref("LedgerCoverage")),
	}
	maps.Copy(out, receiptSchemas())
	return out
}
