package rest

import (
	"cmp"
	"context"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Page is the answer of every list route. Cursor is absent on the last page.
type Page[T any] struct {
	Items  []T    `json:"items"`
	Cursor string `json:"cursor,omitempty"`
}

// WholePage is rows, each in its answer form, as one whole page: its list is empty, never
// null, when there are no rows.
func WholePage[R, T any](rows []R, view func(R) T) Page[T] {
	out := Page[T]{Items: make([]T, 0, len(rows))}
	for _, r := range rows {
		out.Items = append(out.Items, view(r))
	}
	return out
}

// fetchFunc reads one page of one partition: at most req.Size rows from req.State on,
// and the paging state after them (empty when the partition is done).
type fetchFunc[T any] func(ctx context.Context, partition int32, req store.PageRequest) ([]T, []byte, error)

// maxReadsPerPage bounds the reads one page may cost when a filter drops rows: the
// page then comes back short, with a cursor to go on.
const maxReadsPerPage = 16

// OnePartition is the partition list of lists that live in a single partition
// (a message's children, an alias's versions).
var OnePartition = []int32{0}

// Walk reads the page of in (size and cursor) across parts, the partitions the hint
// tables name, newest first. Rows are read in partition order and, within one, in the
// table's clustering order; keep (nil: keep all) filters them. Every row of the list
// comes exactly once over the pages, whether a page ends inside a partition, exactly at
// its end, or spans several.
func Walk[R, T any](ctx context.Context, in *Input, parts []int32, fetch fetchFunc[R], keep func(*R) bool,
	view func(*R) T) (Page[T], error) {
	older := func(p, than int32) bool { return p < than }
	return walkOrdered(ctx, in, newestFirst(parts), older, fetch, keep, view)
}

// walkOrdered is walk over parts in the order given; beyond(p, c) says partition p comes
// after partition c in that order (where a cursor whose partition is gone resumes).
func walkOrdered[R, T any](ctx context.Context, in *Input, parts []int32, beyond func(p, c int32) bool,
	fetch fetchFunc[R], keep func(*R) bool, view func(*R) T) (Page[T], error) {
	i, state := resume(parts, in.Cursor, beyond)
	items := make([]T, 0, min(in.PageSize, 128))
	for reads := 0; i < len(parts) && len(items) < in.PageSize && reads < maxReadsPerPage; reads++ {
		rows, next, err := fetch(ctx, parts[i], store.PageRequest{Size: in.PageSize - len(items), State: state})
		if err != nil {
			return Page[T]{}, err
		}
		for j := range rows {
			if keep == nil || keep(&rows[j]) {
				items = append(items, view(&rows[j]))
			}
		}
		if state = next; len(next) == 0 {
			i++
		}
	}
	out := Page[T]{Items: items}
	if i < len(parts) {
		out.Cursor = EncodeCursor(Cursor{Partition: parts[i], State: state}, in.Hash)
	}
	return out, nil
}

// resume finds where a cursor points in parts: its partition with its paging state, or
// the start of the next partition in the walk's order when its own is no longer listed.
func resume(parts []int32, c *Cursor, beyond func(p, c int32) bool) (int, []byte) {
	if c == nil {
		return 0, nil
	}
	for i, p := range parts {
		if p == c.Partition {
			return i, c.State
		}
		if beyond(p, c.Partition) {
			return i, nil
		}
	}
	return len(parts), nil
}

// newestFirst sorts partitions descending without duplicates (hint rows of several
// roles or kinds may name one partition twice).
func newestFirst(parts []int32) []int32 {
	out := slices.Clone(parts)
	slices.SortFunc(out, func(a, b int32) int { return cmp.Compare(b, a) })
	return slices.Compact(out)
}

// WalkSorted is walk (newest partition first) or, with oldest, its mirror: partitions
// oldest first, each read in the order fetch reads it. Every row comes exactly once over
// the pages either way (see walk).
func WalkSorted[R, T any](ctx context.Context, in *Input, parts []int32, oldest bool, fetch fetchFunc[R],
	keep func(*R) bool, view func(*R) T) (Page[T], error) {
	if !oldest {
		return Walk(ctx, in, parts, fetch, keep, view)
	}
	newer := func(p, than int32) bool { return p > than }
	return walkOrdered(ctx, in, slices.Compact(slices.Sorted(slices.Values(parts))), newer, fetch, keep, view)
}
