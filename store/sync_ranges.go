package store

import (
	"cmp"
	"slices"
)

// Range-list arithmetic for the sync summary: lists are kept sorted, disjoint and with
// no two ranges touching (normalized), so equal coverage is an equal list.

// normalize sorts rs and merges overlapping or adjacent ranges, in place.
func normalize(rs []Range) []Range {
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Compare(a.From, b.From) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && uint64(r.From) <= uint64(out[n-1].To)+1 {
			out[n-1].To = max(out[n-1].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return out
}

// subtract removes window w from the normalized list rs.
func subtract(rs []Range, w Range) []Range {
	var out []Range
	for _, r := range rs {
		if r.To < w.From || r.From > w.To {
			out = append(out, r)
			continue
		}
		if r.From < w.From {
			out = append(out, Range{r.From, w.From - 1})
		}
		if r.To > w.To {
			out = append(out, Range{w.To + 1, r.To})
		}
	}
	return out
}

// rangesOf folds a set of milestone indexes into a normalized list.
func rangesOf(indexes []uint32) []Range {
	rs := make([]Range, len(indexes))
	for i, x := range indexes {
		rs[i] = Range{x, x}
	}
	return normalize(rs)
}

// gapsBetween lists the holes between consecutive ranges of a normalized list.
func gapsBetween(rs []Range) []Range {
	var out []Range
	for i := 1; i < len(rs); i++ {
		out = append(out, Range{rs[i-1].To + 1, rs[i].From - 1})
	}
	return out
}
