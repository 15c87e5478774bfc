package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/poi"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// openAPI describes every registered route from the route table: parameters, the 200
// answer's schema and each error status the route can answer.
func (s *Server) openAPI() rest.Object {
	paths := rest.Object{}
	components := rest.Object{"schemas": allSchemas()}
	description := "Read-only API over the indexed Stardust ledger. Lists are newest first and paged: " +
		"pass the previous page's cursor (absent on the last page) with the same parameters."
	for i := range s.routes {
		rt := &s.routes[i]
		op := operation(rt)
		rest.DocumentCoverage(op, rt, components["schemas"].(rest.Object))
		paths[rt.Pattern] = rest.Object{rt.Method(): op}
		if rt.Admin {
			components["securitySchemes"] = rest.Object{adminScheme: rest.Object{"type": "http", "scheme": "bearer",
				"description": "the admin token the server was started with (-admin-token-file or API_ADMIN_TOKEN)"}}
		}
	}
	if components["securitySchemes"] != nil {
		description += " The admin routes (POST /admin/...) change state and require the admin token."
	}
	return rest.Object{
		"openapi":    "3.0.3",
		"info":       rest.Object{"title": "stardust-indexer API", "version": "1", "description": description},
		"paths":      paths,
		"components": components,
	}
}

// adminScheme is the security scheme of the admin routes.
const adminScheme = "adminToken"

func operation(rt *rest.Route) rest.Object {
	params := []rest.Object{}
	for _, p := range rt.Path {
		params = append(params, parameterDoc(p, "path", true))
	}
	for _, p := range rt.QueryParams() {
		params = append(params, parameterDoc(p, "query", p.Required))
	}
	resp := responses(rt)
	if rt.NodeErrorBody {
		resp = nodeErrors(resp)
	}
	op := rest.Object{"summary": rt.Summary, "tags": []string{rt.Tag}, "operationId": rt.Method() + operationID(rt.Pattern),
		"parameters": params, "responses": resp}
	if rt.Admin {
		op["security"] = []rest.Object{{adminScheme: []string{}}}
	}
	if rt.Body != "" {
		op["requestBody"] = rest.Object{"required": true, "content": rest.Object{"application/json": rest.Object{"schema": rest.Ref(rt.Body)}}}
	}
	return op
}

func parameterDoc(p rest.Param, in string, required bool) rest.Object {
	return rest.Object{"name": p.Name, "in": in, "required": required, "description": p.Doc, "schema": p.Kind.Schema}
}

// operationID turns "/messages/{id}/raw" into "_messages_id_raw" (after the method).
func operationID(pattern string) string {
	return strings.NewReplacer("/", "_", "{", "", "}", "", "-", "_", ".", "_").Replace(pattern)
}

func responses(rt *rest.Route) rest.Object {
	if rt.Refuse != nil { // answers only its error
		out := rest.Object{}
		for status, when := range rt.Errs {
			out[strconv.Itoa(status)] = errorDoc(when)
		}
		return out
	}
	out := rest.Object{"200": success(rt), "405": errorDoc("method other than GET or HEAD")}
	if rt.Admin {
		out["405"] = errorDoc("method other than POST")
		out["401"] = errorDoc("no admin token, or a wrong one (Authorization: Bearer <token>)")
	}
	if rt.Body != "" {
		out["405"] = errorDoc("method other than POST")
	}
	for status, when := range rt.Errs {
		out[strconv.Itoa(status)] = errorDoc(when)
	}
	if len(rt.Path)+len(rt.QueryParams()) > 0 {
		out["400"] = errorDoc("malformed or unknown parameter, bad range, page size or cursor")
	}
	if rt.CanMiss {
		out["404"] = errorDoc("nothing indexed under this key")
	}
	if rt.Handle != nil || rt.CanFail {
		out["503"] = errorDoc("database unreachable, overloaded or too slow (see Retry-After)")
		out["500"] = errorDoc("unexpected failure")
	}
	if revalidates(rt) {
		out["200"].(rest.Object)["headers"] = cacheHeadersDoc()
		out["304"] = rest.Object{"description": "Not Modified: If-None-Match named the answer's ETag (no body)",
			"headers": cacheHeadersDoc()}
	}
	return out
}

// revalidates says whether rt's answers carry an ETag and answer 304 (docs/caching.md).
func revalidates(rt *rest.Route) bool {
	return rt.Handle != nil && rt.Body == "" && !rt.Admin && classOf(rt, nil) != rest.CacheNoStore
}

func cacheHeadersDoc() rest.Object {
	header := func(doc string) rest.Object {
		return rest.Object{"schema": rest.Object{"type": "string"}, "description": doc}
	}
	return rest.Object{
		"Cache-Control": header("public (private with a read token), max-age: a year and immutable for " +
			"answers that never change, the milestone interval for moving ones"),
		"ETag": header("strong tag of the exact body (suffixed -gzip when compressed)"),
	}
}

func success(rt *rest.Route) rest.Object {
	schema := rest.Object{"type": "string"}
	switch {
	case rt.MediaType() == "application/octet-stream":
		schema = rest.Object{"type": "string", "format": "binary"}
	case rt.Schema != "":
		schema = rest.Ref(rt.Schema)
	}
	content := rest.Object{rt.MediaType(): rest.Object{"schema": schema}}
	if rt.AltMedia != "" {
		content[rt.AltMedia] = rest.Object{"schema": rest.Object{"type": "string", "format": "binary"}}
	}
	return rest.Object{"description": http.StatusText(http.StatusOK), "content": content}
}

// nodeErrors gives a node route's error answers their TIP-25 form.
func nodeErrors(out rest.Object) rest.Object {
	for status, doc := range out {
		if status != "200" {
			out[status] = rest.Object{"description": doc.(rest.Object)["description"],
				"content": rest.Object{"application/json": rest.Object{"schema": rest.Ref("TIP25Error")}}}
		}
	}
	return out
}

func errorDoc(when string) rest.Object {
	return rest.Object{"description": when, "content": rest.Object{"application/json": rest.Object{"schema": rest.Ref("Error")}}}
}

// allSchemas are this API's schemas and those of the node interfaces and the explorer
// (each area's file declares its own).
func allSchemas() rest.Object {
	out := schemas()
	for _, more := range []rest.Object{core.Schemas(), indexer.Schemas(), explorer.Schemas(), poi.Schemas(), analytics.Schemas(),
		{"LedgerCoverage": rest.CoverageSchema()}} {
		for name, sch := range more {
			out[name] = sch
		}
	}
	return out
}

// Component schemas: the shapes of the answers, at the level a client needs to read
// them (the JSON structs of this package are authoritative for every field).
func schemas() rest.Object {
	str, integer, boolean, obj := rest.Object{"type": "string"}, rest.Object{"type": "integer"}, rest.Object{"type": "boolean"},
		rest.Object{"type": "object"}
	state := []any{"referenced", boolean, "milestoneIndex", integer, "estimatedMilestoneIndex", integer,
		"ledgerInclusionState", rest.Object{"type": "string", "enum": []string{"noTransaction", "conflicting", "included"}}}
	withState := func(kv ...any) rest.Object { return rest.Props(append(append([]any{}, state...), kv...)...) }
	rangeList := rest.ArrayOf(rest.Props("from", integer, "to", integer))
	return rest.Object{
		"Error": rest.Props("error", str, "detail", str),
		"Message": rest.Props("messageId", str, "protocolVersion", integer, "parents", rest.ArrayOf(str), "payload", obj,
			"nonce", str, "metadata", withState("variant", str, "conflictReason", integer, "whiteFlagIndex", integer)),
		"Transaction": rest.Props("transactionId", str, "messages", rest.ArrayOf(obj), "inputs", rest.ArrayOf(obj),
			"outputs", rest.ArrayOf(obj), "unlocks", rest.ArrayOf(obj)),
		"Milestone": rest.Props("index", integer, "milestoneId", str, "messageId", str, "timestamp", integer,
			"payload", rest.Props("type", integer, "index", integer, "timestamp", integer,
				"protocolVersion", integer, "previousMilestoneId", str, "parents", rest.ArrayOf(str),
				"inclusionMerkleRoot", str, "appliedMerkleRoot", str, "metadata", str, "options", rest.ArrayOf(obj),
				"signatures", rest.ArrayOf(rest.Props("type", integer, "publicKey", str, "signature", str)))),
		"Child":      withState("messageId", str, "timestamp", integer),
		"TagMessage": withState("messageId", str, "timestamp", integer),
		"OutputItem": withState("outputId", str, "aliasId", str, "nftId", str, "foundryId", str, "messageId", str,
			"timestamp", integer, "amount", str, "spent", boolean, "spentBy", str, "output", obj),
		"LegacyOutput": withState("outputId", str, "outputType", integer, "messageId", str, "timestamp", integer,
			"amount", str, "address", str, "spent", boolean, "output", obj),
		"Output": withState("outputId", str, "transactionId", str, "outputIndex", integer, "messageId", str,
			"output", obj, "spent", boolean, "transactionIdSpent", str, "milestoneIndexSpent", integer, "source", str),
		"MilestoneStat": rest.Props("milestoneIndex", integer, "messageCount", integer, "transactionCount", integer,
			"transferredTokens", str),
		"DailyStat": rest.Props("date", rest.Object{"type": "string", "format": "date"}, "totalAddresses", integer,
			"sendAddresses", integer, "recvAddresses", integer),
		"AddressStat":       rest.Props("milestoneIndex", integer, "sentTokens", str, "recvTokens", str),
		"MilestoneStatList": rest.ListOf("MilestoneStat"),
		"DailyStatList":     rest.ListOf("DailyStat"),
		"AddressStatList":   rest.ListOf("AddressStat"),
		"DayResult": rest.Props("date", rest.Object{"type": "string", "format": "date"}, "startMilestone", integer,
			"endMilestone", integer, "milestones", integer, "totalAddresses", integer, "sendAddresses", integer,
			"recvAddresses", integer, "tookMs", integer),
		"Resync":           rest.Props("from", integer, "to", integer, "unsynced", integer),
		"Sync":             rest.Props("chunkSize", integer, "oldest", integer, "newest", integer, "synced", rangeList, "gaps", rangeList, "truncated", boolean, "unavailable", rangeList),
		"OpenAPI":          obj,
		"ChildPage":        rest.PageOf("Child"),
		"TagMessagePage":   rest.PageOf("TagMessage"),
		"OutputPage":       rest.PageOf("OutputItem"),
		"LegacyOutputPage": rest.PageOf("LegacyOutput"),
		"MilestonePage":    rest.PageOf("Milestone"),
	}
}
