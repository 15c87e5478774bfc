package ledgerquery

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// memStore is a Reader over a memReader's rows, with one milestone per partition
// (milestone rng begins partition rng, at the memReader's boundary): an address names
// outputs in the partitions its stream holds rows in. It records what Answer asks.
type memStore struct {
	*memReader
	cov     store.LedgerCoverage
	covErr  error
	asked   []Stream // AddressRanges calls
	streams []Stream // streams read
	// spentSince is the first milestone whose spends the spent twin holds.
	spentSince uint32
}

func newMemStore(cov store.LedgerCoverage) *memStore {
	return &memStore{memReader: &memReader{rows: map[Stream]map[int32][]store.UnspentRow{}}, cov: cov}
}

func (m *memStore) add(s Stream, rng int32, rows ...store.UnspentRow) {
	if m.rows[s] == nil {
		m.rows[s] = map[int32][]store.UnspentRow{}
	}
	m.rows[s][rng] = append(m.rows[s][rng], rows...)
}

func (m *memStore) LedgerCoverage(context.Context) (store.LedgerCoverage, error) {
	return m.cov, m.covErr
}

func (m *memStore) AddressRanges(_ context.Context, address string, kind chain.OutputKind, role string) ([]int32, error) {
	s := Stream{Kind: kind.String(), Address: address, Role: role}
	m.asked = append(m.asked, s)
	spent := s
	spent.Spent = true
	var out []int32
	for rng := range m.rows[s] {
		out = append(out, rng)
	}
	for rng := range m.rows[spent] { // hints name the partitions of spent rows too
		if m.rows[s][rng] == nil {
			out = append(out, rng)
		}
	}
	return out, nil
}

func (m *memStore) LedgerPage(ctx context.Context, ls store.LedgerStream, rng int32, span store.Span,
	req store.PageRequest) ([]store.UnspentRow, []byte, error) {
	s := Stream{Kind: ls.Kind, Address: ls.Address, Role: ls.Role, Spent: ls.Spent}
	if ls.Newest {
		return m.readNewest(ctx, s, rng, span, req)
	}
	return m.read(ctx, s, rng, span, req)
}

// SpentTwinHolds: the twin holds the spends of the milestones from spentSince on.
func (m *memStore) SpentTwinHolds(_ context.Context, index uint32) (bool, error) {
	return index >= m.spentSince, nil
}

// readNewest pages through a partition's rows within span backwards; the state is the
// index of the next row.
func (m *memStore) readNewest(ctx context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) (
	[]store.UnspentRow, []byte, error) {
	rows, _, err := m.read(ctx, s, rng, span, store.PageRequest{Size: math.MaxInt32})
	slices.Reverse(rows)
	start := 0
	if req.State != nil {
		start, _ = strconv.Atoi(string(req.State))
	}
	end := min(len(rows), start+req.Size)
	var state []byte
	if end < len(rows) {
		state = []byte(strconv.Itoa(end))
	}
	return rows[start:end], state, err
}

func (m *memStore) read(ctx context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) (
	[]store.UnspentRow, []byte, error) {
	if !slices.Contains(m.streams, s) {
		m.streams = append(m.streams, s)
	}
	return m.Rows(ctx, s, rng, span, req)
}

func (m *memStore) MilestoneTime(ctx context.Context, index uint32) (time.Time, error) {
	at, ok, err := m.Boundary(ctx, int32(index))
	if err != nil || !ok {
		return time.Time{}, errors.Join(err, store.ErrNotFound)
	}
	return time.Unix(at, 0).UTC(), nil
}

func (m *memStore) RangeStart(rng int32) uint32 { return uint32(rng) }

func answer(t *testing.T, m *memStore, req Request) Result {
	t.Helper()
	if req.PageSize == 0 {
		req.PageSize = 100
	}
	if req.Budget == (Budget{}) {
		req.Budget = Budget{Rows: 1000, Partitions: 48}
	}
	res, err := Answer(context.Background(), m, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAnswerReadsTheCheapestAnchor: of a filter's address-like conditions, the one
// whose streams span the fewest partitions is read, and the others are checked on its
// rows; a condition that names no partition answers empty without reading a row.
func TestAnswerReadsTheCheapestAnchor(t *testing.T) {
	m := newMemStore(store.LedgerCoverage{Index: 50, Partitions: []int32{0, 1, 2, 3}})
	byOwner := Stream{Kind: "basic", Address: "a", Role: store.RoleAddress}
	bySender := Stream{Kind: "basic", Address: "s", Role: store.RoleSender}
	both := store.UnspentRow{Kind: "basic", CreatedAt: 21, OutputID: id(2), Owner: "a", Sender: "s"}
	for rng := range int32(4) {
		m.add(byOwner, rng, store.UnspentRow{Kind: "basic", CreatedAt: int64(10*rng) + 1, OutputID: id(int(rng)), Owner: "a"})
	}
	m.memReader.rows[byOwner][2][0] = both
	m.add(bySender, 2, both)
	res := answer(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic}, Filter: Filter{Address: at("a"), Sender: at("s")}})
	if !slices.Equal(res.Items, []string{both.OutputID}) || !slices.Equal(m.streams, []Stream{bySender}) {
		t.Errorf("items %v from streams %v; want %s from the sender's stream alone", res.Items, m.streams, both.OutputID)
	}
	m.streams, m.asked = nil, nil
	res = answer(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic}, Filter: Filter{Issuer: at("nobody"), Sender: at("s")}})
	if len(res.Items) != 0 || res.Items == nil || len(m.streams) != 0 || len(m.asked) != 1 {
		t.Errorf("an issuer in no partition: items %v, streams read %v, partitions asked for %v; "+
			"want no items and no row read, the sender's partitions not asked for", res.Items, m.streams, m.asked)
	}
}

// TestAnswerWithoutAnchor: a filter without an address-like condition reads every
// unspent output of each kind over the covered partitions, and leaves out rows of
// milestones past the ledger index.
func TestAnswerWithoutAnchor(t *testing.T) {
	m := newMemStore(store.LedgerCoverage{Index: 30, Partitions: []int32{1, 2}})
	basic, nft := Stream{Kind: "basic"}, Stream{Kind: "nft"}
	m.add(basic, 1, store.UnspentRow{Kind: "basic", CreatedAt: 11, OutputID: id(1), MilestoneIndex: 11})
	m.add(nft, 2, store.UnspentRow{Kind: "nft", CreatedAt: 21, OutputID: id(2), MilestoneIndex: 21},
		store.UnspentRow{Kind: "nft", CreatedAt: 22, OutputID: id(3), MilestoneIndex: 31})
	m.add(basic, 3, store.UnspentRow{Kind: "basic", CreatedAt: 31, OutputID: id(4), MilestoneIndex: 21})
	res := answer(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic, chain.OutputNFT}})
	if want := []string{id(1), id(2)}; !slices.Equal(res.Items, want) || res.LedgerIndex != 30 || res.Next != "" {
		t.Errorf("items %v at %d, next %q; want %v at 30, no next", res.Items, res.LedgerIndex, res.Next, want)
	}
	if len(m.asked) != 0 || len(m.streams) != 2 {
		t.Errorf("partitions asked for %v, streams read %v; want none asked, both kinds read", m.asked, m.streams)
	}
}

// TestAnswerPages: following Next through Answer visits every match once; its cursor
// names the page size.
func TestAnswerPages(t *testing.T) {
	m := newMemStore(store.LedgerCoverage{Index: 90, Partitions: []int32{0, 1, 2, 3, 4, 5, 6, 7, 8}})
	var want []string
	for n := range 40 {
		rng := int32(n / 5)
		m.add(Stream{Kind: "alias"}, rng, store.UnspentRow{Kind: "alias", CreatedAt: int64(10*rng) + int64(n%5), OutputID: id(n)})
		want = append(want, id(n))
	}
	got := followPages(t, m, Request{Kinds: []chain.OutputKind{chain.OutputAlias}, PageSize: 7})
	if !slices.Equal(got, want) {
		t.Errorf("%d items over the pages, want %d in order", len(got), len(want))
	}
}

// TestAnswerNothingToRead: with nothing synced the answer is empty at ledger index 0; a
// filter that lets nothing through answers empty at the ledger index without a read.
func TestAnswerNothingToRead(t *testing.T) {
	m := newMemStore(store.LedgerCoverage{})
	m.covErr = store.ErrNothingSynced
	if res := answer(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic}}); res.Items == nil || len(res.Items) != 0 ||
		res.LedgerIndex != 0 {
		t.Errorf("nothing synced: %+v, want no items at 0", res)
	}
	m = newMemStore(store.LedgerCoverage{Index: 9, Partitions: []int32{0}})
	m.add(Stream{Kind: "basic"}, 0, store.UnspentRow{Kind: "basic", CreatedAt: 1, OutputID: id(1)})
	res := answer(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic}, Filter: Filter{Address: at("a"), CreatedBefore: ptr(int64(0))}})
	if res.Items == nil || len(res.Items) != 0 || res.LedgerIndex != 9 || len(m.asked)+m.reads != 0 {
		t.Errorf("createdBefore 0: %+v after %d partition lookups and %d reads, want no items at 9 and no lookup or read",
			res, len(m.asked), m.reads)
	}
}
