package api

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Page sizes of list routes.
const (
	defaultPageSize = 100
	maxPageSize     = 1000
	maxQueryLength  = 4096 // longer queries are not something a client of this API sends
)

// param is one path or query parameter a route accepts.
type param struct {
	name     string
	kind     kind
	doc      string
	required bool // path parameters always are
}

// Query parameters of every paged route.
var pageParams = []param{
	{name: "page_size", kind: pageSizeKind, doc: "items per page (1-1000, default 100)"},
	{name: "cursor", kind: cursorKind, doc: "where the page starts: the cursor of the previous page"},
}

// input is a request's parameters, parsed and validated against its route.
type input struct {
	// values holds the canonical value of each given parameter: what the route's
	// parameter struct is filled from (params_typed.go), cursors are tied to and
	// remembered answers are keyed by. Handlers read their parameter struct, never this.
	values   map[string]any
	pageSize int
	cursor   *cursor // nil: the first page
	hash     queryHash
	hrp      string // the network's bech32 HRP: addresses are stored and shown under it
	accept   string // the request's Accept header (TIP-25 routes answer bytes or JSON by it)
	// canon is the route and its parameters in canonical form, before localize (routes
	// whose answers are remembered only: cache_known.go); knownGen the remembered tags'
	// generation the answer is read under.
	canon    string
	knownGen uint64

	body io.Reader // the request's body, bounded (routes with a body only)
}

// localize renders address parameters under the network's HRP, the form the tables
// hold (any HRP is accepted in requests).
func (in *input) localize(hrp string) {
	in.hrp = hrp
	for name, v := range in.values {
		if a, ok := v.(chain.Address); ok {
			in.values[name] = a.Bech32(hrp)
		}
	}
}

func (in *input) text(name string) string { s, _ := in.values[name].(string); return s }

func (in *input) time(name string) time.Time { t, _ := in.values[name].(time.Time); return t }

func (in *input) has(name string) bool { _, ok := in.values[name]; return ok }

// parseInput validates a request against rt: no unknown or repeated query parameters,
// each value well-formed, required ones present, from <= to, and a cursor minted for
// this very query.
func parseInput(rt *route, pathValue func(string) string, rawQuery string) (*input, error) {
	if len(rawQuery) > maxQueryLength {
		return nil, badParam("query", "longer than %d bytes", maxQueryLength)
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, badParam("query", "malformed: %v", err)
	}
	in := &input{values: map[string]any{}, pageSize: defaultPageSize}
	if err := in.checkNames(rt, q); err != nil {
		return nil, err
	}
	for _, p := range rt.path {
		if err := in.set(p, pathValue(p.name)); err != nil {
			return nil, err
		}
	}
	for _, p := range rt.queryParams() {
		if vs, ok := q[p.name]; ok {
			if err := in.set(p, vs[0]); err != nil {
				return nil, err
			}
		} else if p.required {
			return nil, badParam(p.name, "required")
		}
	}
	if err := in.checkRange(); err != nil {
		return nil, err
	}
	if err := in.page(rt); err != nil {
		return nil, err
	}
	if remembers(rt) {
		in.canon = canonicalInput(rt.pattern, in.values)
	}
	return in, nil
}

func (in *input) checkNames(rt *route, q url.Values) error {
	for name, vs := range q {
		if !slices.ContainsFunc(rt.queryParams(), func(p param) bool { return p.name == name }) {
			return badParam(quote(name), "unknown query parameter for %s (accepted: %s)", rt.pattern, rt.acceptedNames())
		}
		if len(vs) > 1 {
			return badParam(name, "given %d times, want once", len(vs))
		}
	}
	return nil
}

func (in *input) set(p param, raw string) error {
	v, err := p.kind.parse(p.name, raw)
	if err == nil {
		in.values[p.name] = v
	}
	return err
}

func (in *input) checkRange() error {
	if in.has("from") && in.has("to") && in.time("from").After(in.time("to")) {
		return badParam("from", "%s is after to (%s)", in.time("from").Format(time.RFC3339),
			in.time("to").Format(time.RFC3339))
	}
	return nil
}

// page reads page_size and decodes the cursor against the hash of the other parameters.
func (in *input) page(rt *route) error {
	if !rt.paged {
		return nil
	}
	if n, ok := in.values["page_size"].(int); ok {
		in.pageSize = n
	}
	in.hash = hashQuery(rt.pattern, in.values)
	raw := in.text("cursor")
	if raw == "" && !in.has("cursor") {
		return nil
	}
	c, err := decodeCursor(raw, in.hash)
	if err != nil {
		return badParam("cursor", "%v", err)
	}
	in.cursor = &c
	return nil
}

func parsePageSize(name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 || n > maxPageSize {
		return 0, badParam(name, "want an integer in 1..%d, got %s", maxPageSize, quote(value))
	}
	return n, nil
}

// queryHash ties a cursor to the query it was minted for.
type queryHash [8]byte

// hashQuery hashes the route and every canonical parameter value except the page's own.
func hashQuery(pattern string, values map[string]any) queryHash {
	names := make([]string, 0, len(values))
	for name := range values {
		if name != "page_size" && name != "cursor" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(pattern)
	for _, name := range names {
		b.WriteString("\x00" + name + "=" + canonical(values[name]))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return queryHash(sum[:8])
}

func canonical(v any) string {
	if t, ok := v.(time.Time); ok {
		return strconv.FormatInt(t.Unix(), 10)
	}
	return fmt.Sprint(v)
}

func itoa(n int) string { return strconv.Itoa(n) }
