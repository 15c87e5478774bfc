package api

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// FuzzParseCursor: decoding never panics, accepts only canonical encodings, and a
// cursor parameter is either taken or refused with a 400 about the cursor.
func FuzzParseCursor(f *testing.F) {
	h := rest.QueryHash{1, 2, 3, 4, 5, 6, 7, 8}
	f.Add(rest.EncodeCursor(rest.Cursor{Partition: 3, State: []byte("paging state")}, h))
	f.Add(rest.EncodeCursor(rest.Cursor{Partition: store.PendingRange}, h))
	f.Add(rest.EncodeCursor(rest.Cursor{Partition: 1, State: make([]byte, rest.MaxStateBytes)}, h))
	for _, s := range []string{"", "AAAA", "AQECAwQFBgcIAAAAAwA", "AQECAwQFBgcIAAAAA4AA", "!!", "AQ==", strings.Repeat("A", 5000)} {
		f.Add(s)
	}
	paged := &rest.Route{Pattern: "/fuzz", Paged: true}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := rest.DecodeCursor(s, h); err == nil && rest.EncodeCursor(c, h) != s {
			t.Errorf("accepted %q, which encodes as %q", s, rest.EncodeCursor(c, h))
		}
		query, what := "cursor="+url.QueryEscape(s), "cursor"
		if len(query) > rest.MaxQueryLength {
			what = "query"
		}
		if _, err := rest.ParseInput(paged, nil, query); err != nil {
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
		f.Add(uint8(i), "12", rt.Pattern+"=%zz&from=-1&to=99999999999999")
	}
	f.Fuzz(func(t *testing.T, which uint8, pathValue, rawQuery string) {
		rt := &routes[int(which)%len(routes)]
		if rt.Plain != nil {
			return
		}
		in, err := rest.ParseInput(rt, func(string) string { return pathValue }, rawQuery)
		if err != nil {
			checkClientError(t, err, "")
			return
		}
		switch {
		case rt.Paged && (in.PageSize < 1 || in.PageSize > rest.MaxPageSize):
			t.Errorf("page size %d accepted", in.PageSize)
		case in.Has("from") && in.Has("to") && in.Time("from").After(in.Time("to")):
			t.Errorf("from %s after to %s accepted", in.Time("from"), in.Time("to"))
		}
		for _, p := range rt.Path {
			if !in.Has(p.Name) {
				t.Errorf("%s: path parameter %s missing after a successful parse", rt.Pattern, p.Name)
			}
		}
	})
}

// checkClientError: err is a 4xx with a detail (naming what, when given).
func checkClientError(t *testing.T, err error, what string) {
	t.Helper()
	var ae *rest.APIError
	if !errors.As(err, &ae) || ae.Status < 400 || ae.Status > 499 || ae.Detail == "" || !strings.Contains(ae.Detail, what) {
		t.Fatalf("refusal %v is not a 4xx naming %q", err, what)
	}
}
