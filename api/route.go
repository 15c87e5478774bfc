package api

import (
	"context"
	"net/http"
	"strings"
)

// route is one endpoint: its pattern, what it accepts and how it answers. Routes are
// registered from one table (Server.routes), which also feeds the OpenAPI document.
type route struct {
	pattern string // ServeMux pattern without a method: methods are checked here, to answer 405 in JSON
	summary string
	tag     string // OpenAPI tag
	path    []param
	query   []param
	paged   bool // accepts page_size and cursor; answers page{items, cursor}
	// canMiss: answers 404 when nothing exists (lookups; lists answer an empty page).
	canMiss bool
	schema  string // OpenAPI schema of the 200 answer
	// cache is how long its answers stay true (cache.go); the zero class, cacheMoving,
	// for about a milestone interval.
	cache  cacheClass
	handle func(ctx context.Context, in *input) (any, error)
	// plain, when set, serves the route instead of handle (metrics, probes, the document).
	plain http.Handler
	media string // media type of the 200 answer (default application/json)
	// altMedia: a binary media type the 200 answer takes when Accept asks for it (TIP-25's
	// application/vnd.iota.serializer-v1).
	altMedia string
	// canFail: a plain route that answers 503 (readiness); handled routes all may.
	canFail bool
	// admin: a POST route that requires the admin token (registered only with one).
	admin bool
	// public: a route holding no data (the dashboard's static files), served without
	// the read token; the page's script sends the token on its own API calls.
	public bool
	errs   map[int]string // route-specific error answers, for OpenAPI
	// nodeErrorBody: the route answers its errors in the node's error body,
	// {"error": {"code", "message"}} (TIP-25's form, which TIP-26 shares), so that node
	// clients read them; the node interfaces (core and indexer) set it.
	nodeErrorBody bool
	// refuse, when set, answers every request of the route, whatever its method, with
	// its error: node routes a permanode cannot serve (501), unknown node paths (404).
	refuse func(r *http.Request) *apiError
	// docMethod is the method OpenAPI documents when it is not GET (a node's POST route).
	docMethod string
	// mux is the ServeMux pattern when it must differ from pattern: Go's mux refuses two
	// patterns that overlap with neither more specific, so a wildcard stands in for one
	// of pattern's literal segments, which serve checks.
	mux string
	// body: a POST route whose handler reads a JSON body of at most maxPostBodyBytes
	// (input.body); the OpenAPI document names its schema.
	body string
}

func (rt *route) muxPattern() string {
	if rt.mux != "" {
		return rt.mux
	}
	return rt.pattern
}

// matches says whether path has pattern's literal segments (a route with a mux pattern
// of its own receives paths its pattern does not name).
func (rt *route) matches(path string) bool {
	want, got := strings.Split(rt.pattern, "/"), strings.Split(path, "/")
	if len(want) != len(got) {
		return false
	}
	for i, seg := range want {
		if !strings.HasPrefix(seg, "{") && seg != got[i] {
			return false
		}
	}
	return true
}

// method is the route's method in OpenAPI (HEAD goes with GET).
func (rt *route) method() string {
	switch {
	case rt.docMethod != "":
		return rt.docMethod
	case rt.admin, rt.body != "":
		return "post"
	}
	return "get"
}

func (rt *route) queryParams() []param {
	if rt.paged {
		return append(append([]param{}, rt.query...), pageParams...)
	}
	return rt.query
}

func (rt *route) acceptedNames() string {
	var names []string
	for _, p := range rt.queryParams() {
		names = append(names, p.name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (rt *route) mediaType() string {
	if rt.media == "" {
		return "application/json"
	}
	return rt.media
}

// rawBytes is a handler result sent as application/octet-stream.
type rawBytes []byte

// mediaBytes is a handler result sent as bytes of the given media type (TIP-25's
// application/vnd.iota.serializer-v1).
type mediaBytes struct {
	media string
	data  []byte
}

// pathParam is a route's one path parameter (path parameters are always required).
func pathParam(name string, k kind, doc string) []param {
	return []param{{name: name, kind: k, doc: doc, required: true}}
}

// maxParallelReads bounds the reads one request runs at once.
const maxParallelReads = 8

// maxPostBodyBytes bounds a POST body: a proof carries one block (at most 32 KiB of
// bytes, twice that in hex) and one milestone payload.
const maxPostBodyBytes = 256 << 10

// maxBody is how much of a request's body the route reads.
func (rt *route) maxBody() int64 {
	if rt.body != "" {
		return maxPostBodyBytes
	}
	return maxBodyBytes
}

// wantsBytes says whether the request asked for TIP-25's binary form (Accept names
// application/vnd.iota.serializer-v1, as iota.js's raw calls send it).
func wantsBytes(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		media, _, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(media), serializerMedia) {
			return true
		}
	}
	return false
}

// serializerMedia is the media type of the node interfaces' binary answers (TIP-25's
// serialized blocks, milestones and outputs), asked for in Accept.
const serializerMedia = "application/vnd.iota.serializer-v1"

// maxBodyBytes: routes without a body never read one (admin routes take their
// parameters in the path and query too); a client sending one gets it cut off here
// rather than buffered.
const maxBodyBytes = 1024
