package api

import (
	"net/http"
	"strconv"
	"strings"

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

// serverSchemas are the schemas of the server's own answers: errors, the admin routes'
// and the document itself.
func serverSchemas() rest.Object {
	str, integer := rest.Object{"type": "string"}, rest.Object{"type": "integer"}
	return rest.Object{
		"Error": rest.Props("error", str, "detail", str),
		"DayResult": rest.Props("date", rest.Object{"type": "string", "format": "date"}, "startMilestone", integer,
			"endMilestone", integer, "milestones", integer, "totalAddresses", integer, "sendAddresses", integer,
			"recvAddresses", integer, "tookMs", integer),
		"Resync":  rest.Props("from", integer, "to", integer, "unsynced", integer),
		"OpenAPI": rest.Object{"type": "object"},
	}
}
