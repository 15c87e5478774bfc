package api

import (
	"net/http"
	"strconv"
	"strings"
)

// openAPI describes every registered route from the route table: parameters, the 200
// answer's schema and each error status the route can answer.
func (s *Server) openAPI() object {
	paths := object{}
	components := object{"schemas": allSchemas()}
	description := "Read-only API over the indexed Stardust ledger. Lists are newest first and paged: " +
		"pass the previous page's cursor (absent on the last page) with the same parameters."
	for i := range s.routes {
		rt := &s.routes[i]
		op := operation(rt)
		documentCoverage(op, rt, components["schemas"].(object))
		paths[rt.pattern] = object{rt.method(): op}
		if rt.admin {
			components["securitySchemes"] = object{adminScheme: object{"type": "http", "scheme": "bearer",
				"description": "the admin token the server was started with (-admin-token-file or API_ADMIN_TOKEN)"}}
		}
	}
	if components["securitySchemes"] != nil {
		description += " The admin routes (POST /admin/...) change state and require the admin token."
	}
	return object{
		"openapi":    "3.0.3",
		"info":       object{"title": "stardust-indexer API", "version": "1", "description": description},
		"paths":      paths,
		"components": components,
	}
}

// adminScheme is the security scheme of the admin routes.
const adminScheme = "adminToken"

func operation(rt *route) object {
	params := []object{}
	for _, p := range rt.path {
		params = append(params, parameterDoc(p, "path", true))
	}
	for _, p := range rt.queryParams() {
		params = append(params, parameterDoc(p, "query", p.required))
	}
	resp := responses(rt)
	if rt.nodeErrorBody {
		resp = nodeErrors(resp)
	}
	op := object{"summary": rt.summary, "tags": []string{rt.tag}, "operationId": rt.method() + operationID(rt.pattern),
		"parameters": params, "responses": resp}
	if rt.admin {
		op["security"] = []object{{adminScheme: []string{}}}
	}
	if rt.body != "" {
		op["requestBody"] = object{"required": true, "content": object{"application/json": object{"schema": ref(rt.body)}}}
	}
	return op
}

func parameterDoc(p param, in string, required bool) object {
	return object{"name": p.name, "in": in, "required": required, "description": p.doc, "schema": p.kind.schema}
}

// operationID turns "/messages/{id}/raw" into "_messages_id_raw" (after the method).
func operationID(pattern string) string {
	return strings.NewReplacer("/", "_", "{", "", "}", "", "-", "_", ".", "_").Replace(pattern)
}

func responses(rt *route) object {
	if rt.refuse != nil { // answers only its error
		out := object{}
		for status, when := range rt.errs {
			out[strconv.Itoa(status)] = errorDoc(when)
		}
		return out
	}
	out := object{"200": success(rt), "405": errorDoc("method other than GET or HEAD")}
	if rt.admin {
		out["405"] = errorDoc("method other than POST")
		out["401"] = errorDoc("no admin token, or a wrong one (Authorization: Bearer <token>)")
	}
	if rt.body != "" {
		out["405"] = errorDoc("method other than POST")
	}
	for status, when := range rt.errs {
		out[strconv.Itoa(status)] = errorDoc(when)
	}
	if len(rt.path)+len(rt.queryParams()) > 0 {
		out["400"] = errorDoc("malformed or unknown parameter, bad range, page size or cursor")
	}
	if rt.canMiss {
		out["404"] = errorDoc("nothing indexed under this key")
	}
	if rt.handle != nil || rt.canFail {
		out["503"] = errorDoc("database unreachable, overloaded or too slow (see Retry-After)")
		out["500"] = errorDoc("unexpected failure")
	}
	if revalidates(rt) {
		out["200"].(object)["headers"] = cacheHeadersDoc()
		out["304"] = object{"description": "Not Modified: If-None-Match named the answer's ETag (no body)",
			"headers": cacheHeadersDoc()}
	}
	return out
}

// revalidates says whether rt's answers carry an ETag and answer 304 (docs/caching.md).
func revalidates(rt *route) bool {
	return rt.handle != nil && rt.body == "" && !rt.admin && classOf(rt, nil) != cacheNoStore
}

func cacheHeadersDoc() object {
	header := func(doc string) object { return object{"schema": object{"type": "string"}, "description": doc} }
	return object{
		"Cache-Control": header("public (private with a read token), max-age: a year and immutable for " +
			"answers that never change, the milestone interval for moving ones"),
		"ETag": header("strong tag of the exact body (suffixed -gzip when compressed)"),
	}
}

func success(rt *route) object {
	schema := object{"type": "string"}
	switch {
	case rt.mediaType() == "application/octet-stream":
		schema = object{"type": "string", "format": "binary"}
	case rt.schema != "":
		schema = ref(rt.schema)
	}
	content := object{rt.mediaType(): object{"schema": schema}}
	if rt.altMedia != "" {
		content[rt.altMedia] = object{"schema": object{"type": "string", "format": "binary"}}
	}
	return object{"description": http.StatusText(http.StatusOK), "content": content}
}

// nodeErrors gives a node route's error answers their TIP-25 form.
func nodeErrors(out object) object {
	for status, doc := range out {
		if status != "200" {
			out[status] = object{"description": doc.(object)["description"],
				"content": object{"application/json": object{"schema": ref("TIP25Error")}}}
		}
	}
	return out
}

func errorDoc(when string) object {
	return object{"description": when, "content": object{"application/json": object{"schema": ref("Error")}}}
}

// allSchemas are this API's schemas and those of the node interfaces and the explorer
// (each area's file declares its own).
func allSchemas() object {
	out := schemas()
	for _, more := range []object{coreSchemas(), indexerSchemas(), explorerSchemas(), poiSchemas(), familySchemas(),
		{"LedgerCoverage": coverageSchema()}} {
		for name, sch := range more {
			out[name] = sch
		}
	}
	return out
}

// Component schemas: the shapes of the answers, at the level a client needs to read
// them (the JSON structs of this package are authoritative for every field).
func schemas() object {
	str, integer, boolean, obj := object{"type": "string"}, object{"type": "integer"}, object{"type": "boolean"},
		object{"type": "object"}
	state := []any{"referenced", boolean, "milestoneIndex", integer, "estimatedMilestoneIndex", integer,
		"ledgerInclusionState", object{"type": "string", "enum": []string{"noTransaction", "conflicting", "included"}}}
	withState := func(kv ...any) object { return props(append(append([]any{}, state...), kv...)...) }
	rangeList := arrayOf(props("from", integer, "to", integer))
	return object{
		"Error": props("error", str, "detail", str),
		"Message": props("messageId", str, "protocolVersion", integer, "parents", arrayOf(str), "payload", obj,
			"nonce", str, "metadata", withState("variant", str, "conflictReason", integer, "whiteFlagIndex", integer)),
		"Transaction": props("transactionId", str, "messages", arrayOf(obj), "inputs", arrayOf(obj),
			"outputs", arrayOf(obj), "unlocks", arrayOf(obj)),
		"Milestone": props("index", integer, "milestoneId", str, "messageId", str, "timestamp", integer,
			"payload", props("type", integer, "index", integer, "timestamp", integer,
				"protocolVersion", integer, "previousMilestoneId", str, "parents", arrayOf(str),
				"inclusionMerkleRoot", str, "appliedMerkleRoot", str, "metadata", str, "options", arrayOf(obj),
				"signatures", arrayOf(props("type", integer, "publicKey", str, "signature", str)))),
		"Child":      withState("messageId", str, "timestamp", integer),
		"TagMessage": withState("messageId", str, "timestamp", integer),
		"OutputItem": withState("outputId", str, "aliasId", str, "nftId", str, "foundryId", str, "messageId", str,
			"timestamp", integer, "amount", str, "spent", boolean, "spentBy", str, "output", obj),
		"LegacyOutput": withState("outputId", str, "outputType", integer, "messageId", str, "timestamp", integer,
			"amount", str, "address", str, "spent", boolean, "output", obj),
		"Output": withState("outputId", str, "transactionId", str, "outputIndex", integer, "messageId", str,
			"output", obj, "spent", boolean, "transactionIdSpent", str, "milestoneIndexSpent", integer, "source", str),
		"MilestoneStat": props("milestoneIndex", integer, "messageCount", integer, "transactionCount", integer,
			"transferredTokens", str),
		"DailyStat": props("date", object{"type": "string", "format": "date"}, "totalAddresses", integer,
			"sendAddresses", integer, "recvAddresses", integer),
		"AddressStat":       props("milestoneIndex", integer, "sentTokens", str, "recvTokens", str),
		"MilestoneStatList": listOf("MilestoneStat"),
		"DailyStatList":     listOf("DailyStat"),
		"AddressStatList":   listOf("AddressStat"),
		"DayResult": props("date", object{"type": "string", "format": "date"}, "startMilestone", integer,
			"endMilestone", integer, "milestones", integer, "totalAddresses", integer, "sendAddresses", integer,
			"recvAddresses", integer, "tookMs", integer),
		"Resync":           props("from", integer, "to", integer, "unsynced", integer),
		"Sync":             props("chunkSize", integer, "oldest", integer, "newest", integer, "synced", rangeList, "gaps", rangeList, "truncated", boolean, "unavailable", rangeList),
		"OpenAPI":          obj,
		"ChildPage":        pageOf("Child"),
		"TagMessagePage":   pageOf("TagMessage"),
		"OutputPage":       pageOf("OutputItem"),
		"LegacyOutputPage": pageOf("LegacyOutput"),
		"MilestonePage":    pageOf("Milestone"),
	}
}
