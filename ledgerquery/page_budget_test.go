package ledgerquery

import (
	"context"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// A read asks for no more rows than the budget has left.
func TestFetchWithinTheRowsLeft(t *testing.T) {
	r := &run{q: Query{PageSize: 100, Fetch: 50, Budget: Budget{Rows: 10, Partitions: 10}}}
	r.page.Items, r.page.RowsRead = []store.UnspentRow{{}}, 8
	if got := r.fetch(); got != 2 {
		t.Fatalf("fetch with 2 rows of the budget left: %d", got)
	}
}

// A page that has its rows and the one more still reads Fetch rows at a time.
func TestFetchOfAFullPage(t *testing.T) {
	r := &run{q: Query{PageSize: 1, Fetch: 50, Budget: Budget{Rows: 1000, Partitions: 10}}}
	r.page.Items = []store.UnspentRow{{}, {}}
	if got := r.fetch(); got != 50 {
		t.Fatalf("fetch of a page that needs no more rows: %d, want Fetch (50)", got)
	}
}

// A budget of rows is spent when exactly that many were read: the page stops.
func TestBudgetSpentAtItsRows(t *testing.T) {
	r := &run{q: Query{Budget: Budget{Rows: 5, Partitions: 10}}}
	r.page.Items, r.page.RowsRead = []store.UnspentRow{{}}, 5
	r.last = &store.Position{CreatedAt: 10, OutputID: id(1)}
	if err := r.charge(context.Background(), false); !errors.Is(err, errBudget) {
		t.Fatalf("charge after 5 rows of a budget of 5: %v, want errBudget", err)
	}
}

// The next page starts at the lowest unread row of the sources when that is past the
// last consumed position: a buffered row, or the row after an open partition's last.
func TestResumeAtTheLowestUnreadRow(t *testing.T) {
	last := store.Position{CreatedAt: 10, OutputID: id(1)}
	buffered := store.UnspentRow{CreatedAt: 50, OutputID: id(2)}
	r := &run{last: &last, srcs: []*stream{{buf: []store.UnspentRow{buffered}}}}
	if got := r.resume(); got != PositionOf(&buffered) {
		t.Fatalf("resume %+v, want the buffered row at 50", got)
	}
	read := store.Position{CreatedAt: 60, OutputID: id(3)}
	r = &run{last: &last, srcs: []*stream{{src: Source{Partitions: []int32{1}}, open: true, next: 1, last: &read}}}
	if got := r.resume(); got != Successor(read) {
		t.Fatalf("resume %+v, want the position after the open partition's last row", got)
	}
}

// Partition 0 has no boundary; another one's is its first milestone's time.
func TestBoundaryOfPartitions(t *testing.T) {
	rows := storeRows{rd: &memStore{memReader: &memReader{}}}
	if _, ok, err := rows.Boundary(context.Background(), 0); ok || err != nil {
		t.Fatalf("partition 0: boundary known %v, %v", ok, err)
	}
	if at, ok, err := rows.Boundary(context.Background(), 3); !ok || err != nil || at != 30 {
		t.Fatalf("partition 3: %d, %v, %v; want 30", at, ok, err)
	}
}
