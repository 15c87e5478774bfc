package api

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// walkAll follows a list's cursors to the end and returns every item; no page may
// hold more than pageSize items.
func walkAll[T any](t *testing.T, e *env, path string, pageSize int) []T {
	t.Helper()
	var all []T
	cursor := ""
	for pages := 0; pages < 10000; pages++ {
		p := withQuery(path, "page_size="+rest.Itoa(pageSize))
		if cursor != "" {
			p = withQuery(p, "cursor="+url.QueryEscape(cursor))
		}
		var pg rest.Page[T]
		e.mustGet(t, p, &pg)
		if len(pg.Items) > pageSize {
			t.Fatalf("GET %s: %d items, page_size %d", p, len(pg.Items), pageSize)
		}
		all = append(all, pg.Items...)
		if pg.Cursor == "" {
			return all
		}
		cursor = pg.Cursor
	}
	t.Fatalf("%s: cursor chain does not end", path)
	return nil
}

// testPaging walks the busiest address's outputs (six partitions with the pending
// one) at page sizes that end pages inside a partition, exactly at a partition's end,
// and span several partitions: every walk returns the same rows in the same order.
func testPaging(t *testing.T, e *env) {
	addr := e.busiest(chain.OutputBasic, "address")
	path := "/outputs?address=" + addr
	want := e.outputs(chain.OutputBasic, func(_ chain.OutputID, o *chain.Output) bool { return role(o, "address") == addr })
	whole := walkAll[tables.OutputItemJSON](t, e, path, rest.MaxPageSize)
	checkOutputItems(t, path, whole, want)
	perPartition := partitionSizes(whole)
	if len(perPartition) < 3 {
		t.Fatalf("%s spans %d partitions, the test needs 3 or more", path, len(perPartition))
	}
	sizes := []int{1, 2, 3, perPartition[0], perPartition[0] + 1, perPartition[0] + perPartition[1],
		perPartition[1], len(whole) - 1, len(whole), len(whole) + 1}
	for _, size := range sizes {
		if size < 1 {
			continue
		}
		got := walkAll[tables.OutputItemJSON](t, e, path, size)
		if !slices.EqualFunc(got, whole, func(a, b tables.OutputItemJSON) bool { return a.OutputID == b.OutputID && a.Referenced == b.Referenced }) {
			t.Errorf("page_size %d: %d items differ from the single-page walk (%d items)", size, len(got), len(whole))
		}
	}
}

// partitionSizes counts consecutive items per partition, in list order.
func partitionSizes(items []tables.OutputItemJSON) []int {
	var sizes []int
	last := int64(-1)
	for _, it := range items {
		p := int64(1 << 40)
		if it.Referenced {
			p = int64(*it.MilestoneIndex / testChunk)
		}
		if p != last {
			sizes = append(sizes, 0)
			last = p
		}
		sizes[len(sizes)-1]++
	}
	return sizes
}

// testCursorBinding: a cursor only works for the query it came from; page_size may change.
func testCursorBinding(t *testing.T, e *env) {
	addr := e.busiest(chain.OutputBasic, "address")
	var first rest.Page[tables.OutputItemJSON]
	e.mustGet(t, "/outputs?page_size=2&address="+addr, &first)
	if first.Cursor == "" {
		t.Fatal("first page has no cursor")
	}
	c := url.QueryEscape(first.Cursor)
	var next rest.Page[tables.OutputItemJSON]
	e.mustGet(t, "/outputs?page_size=5&address="+addr+"&cursor="+c, &next)
	if len(next.Items) == 0 || next.Items[0].OutputID == first.Items[0].OutputID {
		t.Errorf("next page with another page_size: %d items, first %v", len(next.Items), next.Items)
	}
	sender := e.busiest(chain.OutputBasic, "sender")
	for _, other := range []string{
		"/outputs?address=" + addr + "&unspent=true&cursor=" + c,
		"/outputs?sender=" + sender + "&cursor=" + c,
		"/nft?address=" + addr + "&cursor=" + c,
	} {
		if code := e.get(t, other, nil); code != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 400 (cursor of another query)", other, code)
		}
	}
}

// testForgedState: a cursor minted for this query but carrying a paging state the node
// cannot read is the client's fault: 400, not a server error.
func testForgedState(t *testing.T, e *env) {
	addr := e.busiest(chain.OutputBasic, "address")
	rt := rest.WithParams(rest.Route{Pattern: "/outputs", Paged: true}, tables.ListOutputs[tables.BasicListParams](tables.New(rest.NewReads(e.st), e.st, e.st.ChunkSize), tables.BasicList))
	in, err := rest.ParseInput(&rt, nil, "address="+addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, state := range [][]byte{{0xff}, []byte("not a paging state at all"), make([]byte, 40)} {
		forged := rest.EncodeCursor(rest.Cursor{Partition: 3, State: state}, in.Hash)
		checkError(t, e.srv.URL, errorCase{"GET", "/outputs?address=" + addr + "&cursor=" + forged, http.StatusBadRequest, "cursor"})
	}
}
