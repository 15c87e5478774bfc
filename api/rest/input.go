package rest

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
	DefaultPageSize = 100
	MaxPageSize     = 1000
	MaxQueryLength  = 4096 // longer queries are not something a client of this API sends
)

// Param is one path or query parameter a route accepts.
type Param struct {
	Name     string
	Kind     Kind
	Doc      string
	Required bool // path parameters always are
}

// Query parameters of every paged route.
var pageParams = []Param{
	{Name: "page_size", Kind: pageSizeKind, Doc: "items per page (1-1000, default 100)"},
	{Name: "cursor", Kind: cursorKind, Doc: "where the page starts: the cursor of the previous page"},
}

// Input is a request's parameters, parsed and validated against its route.
type Input struct {
	// values holds the canonical value of each given parameter: what the route's
	// parameter struct is filled from (rest/params_typed.go), cursors are tied to and
	// remembered answers are keyed by. Handlers read their parameter struct, never this.
	Values   map[string]any
	PageSize int
	Cursor   *Cursor // nil: the first page
	Hash     QueryHash
	HRP      string // the network's bech32 HRP: addresses are stored and shown under it
	Accept   string // the request's Accept header (TIP-25 routes answer bytes or JSON by it)
	// LastEventID is the request's Last-Event-ID header (an event stream resumes after it).
	LastEventID string
	// canon is the route and its parameters in canonical form, before localize (routes
	// whose answers are remembered only: cache_known.go); knownGen the remembered tags'
	// generation the answer is read under.
	Canon    string
	KnownGen uint64

	Body io.Reader // the request's body, bounded (routes with a body only)
}

// Localize pairs address parameters with their text under the network's HRP, the form
// the tables hold (any HRP is accepted in requests).
func (in *Input) Localize(hrp string) {
	in.HRP = hrp
	for name, v := range in.Values {
		if a, ok := v.(chain.Address); ok {
			in.Values[name] = a.Local(hrp)
		}
	}
}

func (in *Input) text(name string) string { s, _ := in.Values[name].(string); return s }

func (in *Input) Time(name string) time.Time { t, _ := in.Values[name].(time.Time); return t }

func (in *Input) Has(name string) bool { _, ok := in.Values[name]; return ok }

// ParseInput validates a request against rt: no unknown or repeated query parameters,
// each value well-formed, required ones present, from <= to, and a cursor minted for
// this very query.
func ParseInput(rt *Route, pathValue func(string) string, rawQuery string) (*Input, error) {
	if len(rawQuery) > MaxQueryLength {
		return nil, BadParam("query", "longer than %d bytes", MaxQueryLength)
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, BadParam("query", "malformed: %v", err)
	}
	in := &Input{Values: map[string]any{}, PageSize: DefaultPageSize}
	if err := in.checkNames(rt, q); err != nil {
		return nil, err
	}
	for _, p := range rt.Path {
		if err := in.set(p, pathValue(p.Name)); err != nil {
			return nil, err
		}
	}
	for _, p := range rt.QueryParams() {
		if vs, ok := q[p.Name]; ok {
			if err := in.set(p, vs[0]); err != nil {
				return nil, err
			}
		} else if p.Required {
			return nil, BadParam(p.Name, "required")
		}
	}
	if err := in.checkRange(); err != nil {
		return nil, err
	}
	if err := in.page(rt); err != nil {
		return nil, err
	}
	if Remembers(rt) {
		in.Canon = CanonicalInput(rt.Pattern, in.Values)
	}
	return in, nil
}

func (in *Input) checkNames(rt *Route, q url.Values) error {
	for name, vs := range q {
		if !slices.ContainsFunc(rt.QueryParams(), func(p Param) bool { return p.Name == name }) {
			return BadParam(Quote(name), "unknown query parameter for %s (accepted: %s)", rt.Pattern, rt.acceptedNames())
		}
		if len(vs) > 1 {
			return BadParam(name, "given %d times, want once", len(vs))
		}
	}
	return nil
}

func (in *Input) set(p Param, raw string) error {
	v, err := p.Kind.Parse(p.Name, raw)
	if err == nil {
		in.Values[p.Name] = v
	}
	return err
}

func (in *Input) checkRange() error {
	if in.Has("from") && in.Has("to") && in.Time("from").After(in.Time("to")) {
		return BadParam("from", "%s is after to (%s)", in.Time("from").Format(time.RFC3339),
			in.Time("to").Format(time.RFC3339))
	}
	return nil
}

// page reads page_size and decodes the cursor against the hash of the other parameters.
func (in *Input) page(rt *Route) error {
	if !rt.Paged {
		return nil
	}
	if n, ok := in.Values["page_size"].(int); ok {
		in.PageSize = n
	}
	in.Hash = HashQuery(rt.Pattern, in.Values)
	raw := in.text("cursor")
	if raw == "" && !in.Has("cursor") {
		return nil
	}
	c, err := DecodeCursor(raw, in.Hash)
	if err != nil {
		return BadParam("cursor", "%v", err)
	}
	in.Cursor = &c
	return nil
}

func parsePageSize(name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 || n > MaxPageSize {
		return 0, BadParam(name, "want an integer in 1..%d, got %s", MaxPageSize, Quote(value))
	}
	return n, nil
}

// QueryHash ties a cursor to the query it was minted for.
type QueryHash [8]byte

// HashQuery hashes the route and every canonical parameter value except the page's own.
func HashQuery(pattern string, values map[string]any) QueryHash {
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
	return QueryHash(sum[:8])
}

func canonical(v any) string {
	if t, ok := v.(time.Time); ok {
		return strconv.FormatInt(t.Unix(), 10)
	}
	return fmt.Sprint(v)
}

func Itoa(n int) string { return strconv.Itoa(n) }
