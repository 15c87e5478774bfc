package api

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// FuzzParseCursor: decoding never panics, accepts only canonical encodings, and a
// cursor parameter is either taken or refused with a 400 about the cursor.
func FuzzParseCursor(f *testing.F) {
	h := queryHash{1, 2, 3, 4, 5, 6, 7, 8}
	f.Add(encodeCursor(cursor{partition: 3, state: []byte("paging state")}, h))
	f.Add(encodeCursor(cursor{partition: store.PendingRange}, h))
	f.Add(encodeCursor(cursor{partition: 1, state: make([]byte, maxStateBytes)}, h))
	for _, s := range []string{"", "AAAA", "AQECAwQFBgcIAAAAAwA", "AQECAwQFBgcIAAAAA4AA", "!!", "AQ==", strings.Repeat("A", 5000)} {
		f.Add(s)
	}
	paged := &route{pattern: "/fuzz", paged: true}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := decodeCursor(s, h); err == nil && encodeCursor(c, h) != s {
			t.Errorf("accepted %q, which encodes as %q", s, encodeCursor(c, h))
		}
		query, what := "cursor="+url.QueryEscape(s), "cursor"
		if len(query) > maxQueryLength {
			what = "query"
		}
		if _, err := parseInput(paged, nil, query); err != nil {
			checkClientError(t, err, what)
		}
	})
}

// FuzzParseListParams: any path value and query against any route parses or is
// refused with a 4xx; what parses is within bounds.
func FuzzParseListParams(f *testing.F) {
	routes := New(store.New(nil, testChunk), Config{}).routes
	addr := "smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje"
	id := "0x" + strings.Repeat("ab", 32)
	for i, rt := range routes {
		f.Add(uint8(i), id, "page_size=10&from=0&to=2022-10-01T00:00:00Z")
		f.Add(uint8(i), id+"0000", "address="+addr+"&unspent=true&requiresDustReturn=false&cursor=AQ")
		f.Add(uint8(i), "0x"+strings.Repeat("00", 38), "start=1&end=1000&tag=0x73696d&page_size=1001")
		f.Add(uint8(i), "12", rt.pattern+"=%zz&from=-1&to=99999999999999")
	}
	f.Fuzz(func(t *testing.T, which uint8, pathValue, rawQuery string) {
		rt := &routes[int(which)%len(routes)]
		if rt.plain != nil {
			return
		}
		in, err := parseInput(rt, func(string) string { return pathValue }, rawQuery)
		if err != nil {
			checkClientError(t, err, "")
			return
		}
		switch {
		case rt.paged && (in.pageSize < 1 || in.pageSize > maxPageSize):
			t.Errorf("page size %d accepted", in.pageSize)
		case in.has("from") && in.has("to") && in.time("from").After(in.time("to")):
			t.Errorf("from %s after to %s accepted", in.time("from"), in.time("to"))
		}
		for _, p := range rt.path {
			if !in.has(p.name) {
				t.Errorf("%s: path parameter %s missing after a successful parse", rt.pattern, p.name)
			}
		}
	})
}

// checkClientError: err is a 4xx with a detail (naming what, when given).
func checkClientError(t *testing.T, err error, what string) {
	t.Helper()
	var ae *apiError
	if !errors.As(err, &ae) || ae.Status < 400 || ae.Status > 499 || ae.Detail == "" || !strings.Contains(ae.Detail, what) {
		t.Fatalf("refusal %v is not a 4xx naming %q", err, what)
	}
}
