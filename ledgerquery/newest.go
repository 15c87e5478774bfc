package ledgerquery

import (
	"context"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Newest-first order is TIP-26 order read backwards. The merge (Read) reads it as TIP-26
// order of mirrored positions: a row at (t, id) lies at (mirrorBase - t, the complement
// of id's hex digits), which reverses both keys, and partition rng is partition -rng, so
// the mirrored partitions ascend too. The merge, its budget and its cursors then work
// unchanged; rows, spans and cursors are mirrored at its edges.

// mirrorBase is past every creation time (unix seconds fit 32 bits): mirrored times are
// positive, as the merge's zero position must stay below every row.
const mirrorBase = int64(1) << 32

// mirror is p's place in newest-first order (and, mirroring twice, the way back).
func mirror(p store.Position) store.Position {
	return store.Position{CreatedAt: mirrorBase - p.CreatedAt, OutputID: complement(p.OutputID)}
}

// complement maps each hex digit d of a 0x-hex ID to f-d, which reverses the IDs' order;
// a non-canonical ID ("") stays.
func complement(id string) string {
	digits, ok := strings.CutPrefix(id, "0x")
	if !ok {
		return id
	}
	const hex = "0123456789abcdef"
	b := []byte(digits)
	for i, c := range b {
		b[i] = hex[15-strings.IndexByte(hex, c)]
	}
	return "0x" + string(b)
}

// mirrorRow is r with its position mirrored.
func mirrorRow(r store.UnspentRow) store.UnspentRow {
	p := mirror(PositionOf(&r))
	r.CreatedAt, r.OutputID = p.CreatedAt, p.OutputID
	return r
}

// mirrorSources mirrors each source's partitions (negated, ascending).
func mirrorSources(in []Source) []Source {
	out := make([]Source, len(in))
	for i, src := range in {
		parts := make([]int32, len(src.Partitions))
		for j, rng := range src.Partitions {
			parts[len(parts)-1-j] = -rng
		}
		out[i] = Source{Stream: src.Stream, Partitions: parts}
	}
	return out
}

// newestSpan is the mirrored span of newest-first order a cursor (the real position of
// the page's first item, inclusive) and f's creation times allow.
func newestSpan(f *Filter, cursor *store.Position) store.Span {
	var s store.Span
	if cursor != nil {
		s.From = mirror(*cursor)
	}
	if f.CreatedBefore != nil { // created <= before-1
		if from := (store.Position{CreatedAt: mirrorBase - *f.CreatedBefore + 1}); Less(s.From, from) {
			s.From = from
		}
	}
	if f.CreatedAfter != nil { // created >= after+1
		s.To = store.Position{CreatedAt: mirrorBase - *f.CreatedAfter}
	}
	return s
}

// realSpan is the span of TIP-26 order whose positions mirror into m.
func realSpan(m store.Span) store.Span {
	var s store.Span
	if m.To != (store.Position{}) {
		s.From = realAbove(m.To)
	}
	if m.From != (store.Position{}) {
		s.To = realAbove(m.From)
	}
	return s
}

// realAbove is the first position of TIP-26 order past every position whose mirror is
// at or after q.
func realAbove(q store.Position) store.Position {
	if q.OutputID == "" { // every ID at time mirrorBase - q.CreatedAt
		return store.Position{CreatedAt: mirrorBase - q.CreatedAt + 1}
	}
	return Successor(mirror(q))
}

// newestRows reads a page's mirrored partitions through a Reader, newest first.
type newestRows struct{ rd Reader }

func (r newestRows) Rows(ctx context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) (
	[]store.UnspentRow, []byte, error) {
	rows, state, err := readStream(ctx, r.rd, s, true, -rng, realSpan(span), req)
	for i := range rows {
		rows[i] = mirrorRow(rows[i])
	}
	return rows, state, err
}

// Boundary of mirrored partition rng is the mirrored start of the partition after the
// real one: every row of real partition -rng was created at or before it, every row of
// a later partition at or after it.
func (r newestRows) Boundary(ctx context.Context, rng int32) (int64, bool, error) {
	at, ok, err := storeRows(r).Boundary(ctx, -rng+1)
	return mirrorBase - at, ok, err
}
