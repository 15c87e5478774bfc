package rest

import (
	"context"
	"net/http"
	"strings"
)

// Route is one endpoint: its pattern, what it accepts and how it answers. Routes are
// registered from the surfaces' tables (the server concatenates them), which also feed
// the OpenAPI document.
type Route struct {
	Pattern string // ServeMux pattern without a method: methods are checked here, to answer 405 in JSON
	Summary string
	Tag     string // OpenAPI tag
	Path    []Param
	Query   []Param
	Paged   bool // accepts page_size and cursor; answers page{items, cursor}
	// canMiss: answers 404 when nothing exists (lookups; lists answer an empty page).
	CanMiss bool
	Schema  string // OpenAPI schema of the 200 answer
	// cache is how long its answers stay true (cache.go); the zero class, cacheMoving,
	// for about a milestone interval.
	Cache  CacheClass
	Handle func(ctx context.Context, in *Input) (any, error)
	// plain, when set, serves the route instead of handle (metrics, probes, the document).
	Plain http.Handler
	Media string // media type of the 200 answer (default application/json)
	// altMedia: a binary media type the 200 answer takes when Accept asks for it (TIP-25's
	// application/vnd.iota.serializer-v1).
	AltMedia string
	// canFail: a plain route that answers 503 (readiness); handled routes all may.
	CanFail bool
	// admin: a POST route that requires the admin token (registered only with one).
	Admin bool
	// public: a route holding no data (the dashboard's static files), served without
	// the read token; the page's script sends the token on its own API calls.
	Public bool
	Errs   map[int]string // route-specific error answers, for OpenAPI
	// nodeErrorBody: the route answers its errors in the node's error body,
	// {"error": {"code", "message"}} (TIP-25's form, which TIP-26 shares), so that node
	// clients read them; the node interfaces (core and indexer) set it.
	NodeErrorBody bool
	// refuse, when set, answers every request of the route, whatever its method, with
	// its error: node routes a permanode cannot serve (501), unknown node paths (404).
	Refuse func(r *http.Request) *APIError
	// docMethod is the method OpenAPI documents when it is not GET (a node's POST route).
	DocMethod string
	// mux is the ServeMux pattern when it must differ from pattern: Go's mux refuses two
	// patterns that overlap with neither more specific, so a wildcard stands in for one
	// of pattern's literal segments, which serve checks.
	Mux string
	// body: a POST route whose handler reads a JSON body of at most maxPostBodyBytes
	// (input.body); the OpenAPI document names its schema.
	Body string
}

func (rt *Route) MuxPattern() string {
	if rt.Mux != "" {
		return rt.Mux
	}
	return rt.Pattern
}

// Matches says whether path has pattern's literal segments (a route with a mux pattern
// of its own receives paths its pattern does not name).
func (rt *Route) Matches(path string) bool {
	want, got := strings.Split(rt.Pattern, "/"), strings.Split(path, "/")
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

// Method is the route's method in OpenAPI (HEAD goes with GET).
func (rt *Route) Method() string {
	switch {
	case rt.DocMethod != "":
		return rt.DocMethod
	case rt.Admin, rt.Body != "":
		return "post"
	}
	return "get"
}

func (rt *Route) QueryParams() []Param {
	if rt.Paged {
		return append(append([]Param{}, rt.Query...), pageParams...)
	}
	return rt.Query
}

func (rt *Route) acceptedNames() string {
	var names []string
	for _, p := range rt.QueryParams() {
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (rt *Route) MediaType() string {
	if rt.Media == "" {
		return "application/json"
	}
	return rt.Media
}

// RawBytes is a handler result sent as application/octet-stream.
type RawBytes []byte

// MediaBytes is a handler result sent as bytes of the given media type (TIP-25's
// application/vnd.iota.serializer-v1).
type MediaBytes struct {
	Media string
	Data  []byte
}

// PathParam is a route's one path parameter (path parameters are always required).
func PathParam(name string, k Kind, doc string) []Param {
	return []Param{{Name: name, Kind: k, Doc: doc, Required: true}}
}

// MaxParallelReads bounds the reads one request runs at once.
const MaxParallelReads = 8

// MaxPostBodyBytes bounds a POST body: a proof carries one block (at most 32 KiB of
// bytes, twice that in hex) and one milestone payload.
const MaxPostBodyBytes = 256 << 10

// MaxBody is how much of a request's body the route reads.
func (rt *Route) MaxBody() int64 {
	if rt.Body != "" {
		return MaxPostBodyBytes
	}
	return maxBodyBytes
}

// WantsBytes says whether the request asked for TIP-25's binary form (Accept names
// application/vnd.iota.serializer-v1, as iota.js's raw calls send it).
func WantsBytes(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		media, _, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(media), SerializerMedia) {
			return true
		}
	}
	return false
}

// SerializerMedia is the media type of the node interfaces' binary answers (TIP-25's
// serialized blocks, milestones and outputs), asked for in Accept.
const SerializerMedia = "application/vnd.iota.serializer-v1"

// maxBodyBytes: routes without a body never read one (admin routes take their
// parameters in the path and query too); a client sending one gets it cut off here
// rather than buffered.
const maxBodyBytes = 1024
