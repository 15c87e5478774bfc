package rest

import (
	"errors"
	"strings"
	"testing"
)

// inputRoute is a paged route with one free-text query parameter and a time range.
var inputRoute = &Route{Pattern: "/input-test", Paged: true, Query: []Param{
	{Name: "q", Kind: cursorKind}, {Name: "from", Kind: TimeKind}, {Name: "to", Kind: TimeKind}}}

// oneParamRoute accepts exactly one query parameter and is not paged.
var oneParamRoute = &Route{Pattern: "/one-param", Query: []Param{{Name: "q", Kind: cursorKind}}}

func parseQuery(rt *Route, rawQuery string) (*Input, error) {
	return ParseInput(rt, func(string) string { return "" }, rawQuery)
}

// wantRefused: err is a 400 whose detail starts with what it names and holds says.
func wantRefused(t *testing.T, err error, names, says string) {
	t.Helper()
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 400 || !strings.HasPrefix(ae.Detail, names+":") || !strings.Contains(ae.Detail, says) {
		t.Fatalf("refusal %v, want a 400 naming %s and saying %q", err, names, says)
	}
}

// TestQueryAtItsLengthCap: a query of exactly maxQueryLength bytes is read, one byte more
// is refused as a whole.
func TestQueryAtItsLengthCap(t *testing.T) {
	atCap := "q=" + strings.Repeat("a", MaxQueryLength-2)
	in, err := parseQuery(oneParamRoute, atCap)
	if err != nil || len(in.text("q")) != MaxQueryLength-2 {
		t.Fatalf("a query of %d bytes: %v", len(atCap), err)
	}
	_, err = parseQuery(oneParamRoute, atCap+"a")
	wantRefused(t, err, "query", "longer than 4096 bytes")
}

// TestQueryParameterNames: a route's own parameter is read (the only one it has, or one
// of several), an unknown one is refused naming what the route accepts, and a parameter
// given twice is refused.
func TestQueryParameterNames(t *testing.T) {
	if in, err := parseQuery(oneParamRoute, "q=x"); err != nil || in.text("q") != "x" {
		t.Fatalf("the route's only parameter: %v", err)
	}
	if in, err := parseQuery(inputRoute, "page_size=7"); err != nil || in.PageSize != 7 {
		t.Fatalf("one of the route's parameters: %v", err)
	}
	_, err := parseQuery(inputRoute, "zzz=1")
	wantRefused(t, err, `"zzz"`, "unknown query parameter for /input-test (accepted: q, from, to, page_size, cursor)")
	_, err = parseQuery(oneParamRoute, "q=1&q=2")
	wantRefused(t, err, "q", "given 2 times, want once")
}

// TestTimeRangeEnds: from equal to to is a range of one instant; from after to is refused.
func TestTimeRangeEnds(t *testing.T) {
	if _, err := parseQuery(inputRoute, "from=1700000000&to=1700000000"); err != nil {
		t.Fatalf("from = to: %v", err)
	}
	_, err := parseQuery(inputRoute, "from=1700000001&to=1700000000")
	wantRefused(t, err, "from", "is after to")
}

// TestPageSizeBounds: 1 and maxPageSize are page sizes, 0, maxPageSize+1 and words are
// not; no page_size is the default.
func TestPageSizeBounds(t *testing.T) {
	for size, ok := range map[string]bool{"1": true, "1000": true, "0": false, "1001": false, "-1": false, "ten": false} {
		in, err := parseQuery(inputRoute, "page_size="+size)
		switch {
		case ok && (err != nil || Itoa(in.PageSize) != size):
			t.Errorf("page_size=%s: %v", size, err)
		case !ok:
			wantRefused(t, err, "page_size", "want an integer in 1..1000")
		}
	}
	if in, err := parseQuery(inputRoute, ""); err != nil || in.PageSize != DefaultPageSize {
		t.Fatalf("no page_size: %v", err)
	}
}

// TestCursorOfThePage: no cursor is the first page; an empty, foreign or damaged cursor is
// refused; the cursor a page minted resumes the same query, whatever its page size.
func TestCursorOfThePage(t *testing.T) {
	first, err := parseQuery(inputRoute, "q=x&page_size=5")
	if err != nil || first.Cursor != nil {
		t.Fatalf("no cursor: %+v, %v, want the first page", first, err)
	}
	_, err = parseQuery(inputRoute, "q=x&cursor=")
	wantRefused(t, err, "cursor", "length 0")
	next := EncodeCursor(Cursor{Partition: 42, State: []byte("state")}, first.Hash)
	for _, q := range []string{"q=x&cursor=", "q=x&page_size=9&cursor=", "page_size=1&q=x&cursor="} {
		in, err := parseQuery(inputRoute, q+next)
		if err != nil || in.Cursor == nil || in.Cursor.Partition != 42 || string(in.Cursor.State) != "state" {
			t.Fatalf("%s<cursor>: %+v, %v, want partition 42 resumed", q, in, err)
		}
	}
	_, err = parseQuery(inputRoute, "q=y&cursor="+next)
	wantRefused(t, err, "cursor", "")
	_, err = parseQuery(inputRoute, "q=x&cursor="+next[:len(next)-1]+"$")
	wantRefused(t, err, "cursor", "")
}

// TestQueryHashLeavesOutThePage: the hash a cursor carries is the route's and its other
// parameters', not page_size's or cursor's.
func TestQueryHashLeavesOutThePage(t *testing.T) {
	base := HashQuery("/r", map[string]any{"q": "x"})
	if h := HashQuery("/r", map[string]any{"q": "x", "page_size": 10, "cursor": "abc"}); h != base {
		t.Error("page_size and cursor change the hash")
	}
	for name, h := range map[string]QueryHash{
		"another value":   HashQuery("/r", map[string]any{"q": "y"}),
		"another name":    HashQuery("/r", map[string]any{"p": "x"}),
		"another route":   HashQuery("/s", map[string]any{"q": "x"}),
		"one more filter": HashQuery("/r", map[string]any{"q": "x", "tag": "0x01"}),
	} {
		if h == base {
			t.Errorf("%s: same hash", name)
		}
	}
}
