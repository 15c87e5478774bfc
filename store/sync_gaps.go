package store

import (
	"context"
	"errors"
	"slices"
)

// GapsIn lists the milestones of [from, to] without a sync row, and how many rows it
// read to know. It reads the sync summary and the sync rows past its high mark, so its
// cost does not grow with the milestones synced. The summary lags its writers by up to
// a second (SummaryFlushEvery): a milestone synced since shows as a gap, which the
// caller reads again under the block's lease (a bounded read). Without a summary, with
// one truncated (more ranges than it keeps) or far behind, it reads the sync rows.
func (st *Store) GapsIn(ctx context.Context, from, to uint32) (gaps []Range, rowsRead int, err error) {
	synced, rowsRead, err := st.summarySynced(ctx, to)
	if errors.Is(err, errTailTooLong) || errors.Is(err, errSummaryUnreadable) {
		rows, err := st.Synced(ctx, from, to)
		return Gaps(rows, from, to), len(rows), err
	}
	if err != nil {
		return nil, rowsRead, err
	}
	return Without([]Range{{From: from, To: to}}, synced), rowsRead, nil
}

// summarySynced is the synced ranges up to to from the summary plus its tail;
// errTailTooLong when the summary cannot answer.
func (st *Store) summarySynced(ctx context.Context, to uint32) ([]Range, int, error) {
	s, version, err := st.readSummary(ctx)
	switch {
	case err != nil:
		return nil, 1, err
	case version == 0 || s.Truncated:
		return nil, 1, errTailTooLong
	case s.Newest >= to:
		return s.Ranges, 1, nil
	}
	tail, err := st.syncTail(ctx, s.Newest+1)
	if err != nil {
		return nil, 1, err
	}
	return normalize(append(slices.Clone(s.Ranges), rangesOf(tail)...)), 1 + len(tail), nil
}
