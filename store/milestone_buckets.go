package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// MilestoneBucket is how many milestones share a milestones_by_bucket partition: a list
// of up to that many reads one or two partitions, and a partition stays small (about
// 200 bytes a row).
const MilestoneBucket = 1000

// MilestoneBucketsConcern is the indexer_meta row that says milestones_by_bucket lists
// every milestone of the milestones table: written once it was filled from it (a
// keyspace indexed before migration 000010) or found it empty. Until then readers list
// milestones from the milestones table.
const MilestoneBucketsConcern = "milestone_buckets"

func bucketOf(index uint32) int32 { return int32(index / MilestoneBucket) }

func bucketPartition(index uint32) string {
	return "milestones_by_bucket/" + strconv.Itoa(int(bucketOf(index)))
}

// listMilestone writes a milestone's row of its bucket.
func (b *builder) listMilestone(ts int64, index uint32, milestoneID string, unix int64) {
	b.add(cql.InsertMilestoneInBucket, ts, bucketPartition(index), bucketOf(index), int32(index), milestoneID, unix)
}

// listMilestoneMessage records the message carrying a milestone in its bucket's row.
func (b *builder) listMilestoneMessage(ts int64, index uint32, msgID string) {
	b.add(cql.SetMilestoneMessageInBucket, ts, bucketPartition(index), msgID, bucketOf(index), int32(index))
}

// MilestoneList reads the indexed milestones of [start, end], newest first, from their
// buckets (one read per bucket, at most two for a range of MilestoneBucket). A row that
// holds only the message ID (written by the next milestone first) is not indexed yet
// and left out, as Milestone does. Payloads are not read.
func (st *Store) MilestoneList(ctx context.Context, start, end uint32) ([]MilestoneRecord, error) {
	if end < start {
		return nil, nil
	}
	first, last := bucketOf(start), bucketOf(end)
	found := make([][]MilestoneRecord, last-first+1)
	g, ctx := errgroup.WithContext(ctx)
	for i := range found {
		bucket := last - int32(i) // newest bucket first
		g.Go(func() (err error) {
			found[i], err = st.bucketRows(ctx, bucket, start, end)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return slices.Concat(found...), nil
}

func (st *Store) bucketRows(ctx context.Context, bucket int32, start, end uint32) ([]MilestoneRecord, error) {
	rows, err := cql.Records[MilestoneRecord](ctx, st.s, cql.MilestonesInBucket, []any{bucket, int32(start), int32(end)})
	if err != nil {
		return nil, fmt.Errorf("milestones of bucket %d: %w", bucket, err)
	}
	return slices.DeleteFunc(rows, func(m MilestoneRecord) bool { return m.MilestoneID == "" }), nil
}

// MilestoneBucketsReady says whether milestones_by_bucket lists every milestone (see
// MilestoneBucketsConcern).
func (st *Store) MilestoneBucketsReady(ctx context.Context) (bool, error) {
	_, _, _, err := st.Meta(ctx, MilestoneBucketsConcern)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// fillPage is how many milestones rows FillMilestoneBuckets reads and writes at a time.
const fillPage = 1000

// FillMilestoneBuckets lists in milestones_by_bucket every milestone of the milestones
// table, once per keyspace: a keyspace indexed before migration 000010 has milestones
// that no bucket lists. It pages through the table (milestones only: no payload read)
// and writes each page's bucket rows with the timestamps the indexer writes them with,
// so a later milestone's message ID is never overwritten; then it records
// MilestoneBucketsConcern. Milestones written meanwhile list themselves. It returns how
// many milestones rows it copied, those holding only a message ID included (0 when the
// row was there).
func (st *Store) FillMilestoneBuckets(ctx context.Context, node string) (int, error) {
	if ready, err := st.MilestoneBucketsReady(ctx); ready || err != nil {
		return 0, err
	}
	listed := 0
	var state []byte
	for {
		rows, next, err := cql.RecordPage[MilestoneRecord](ctx, st.s, cql.AllMilestones, nil, fillPage, state)
		if err != nil {
			return listed, fmt.Errorf("reading milestones to list: %w", err)
		}
		if err := st.Apply(ctx, bucketWrites(rows), 16); err != nil {
			return listed, fmt.Errorf("listing milestones in buckets: %w", err)
		}
		listed += len(rows)
		if state = next; len(state) == 0 {
			break
		}
	}
	if _, _, err := st.s.CAS(ctx, cql.InitMeta, MilestoneBucketsConcern, strconv.Itoa(listed), int64(0), node); err != nil {
		return listed, fmt.Errorf("recording %s: %w", MilestoneBucketsConcern, err)
	}
	return listed, nil
}

// bucketWrites are the bucket rows of milestones rows, as MilestoneWrites writes them:
// the row at its milestone's timestamp, the message ID at the next milestone's.
func bucketWrites(rows []MilestoneRecord) []Write {
	var b builder
	for _, m := range rows {
		if m.MilestoneID != "" {
			b.listMilestone(Timestamp(m.Index, PhaseConfirmed), m.Index, m.MilestoneID, m.Timestamp)
		}
		if m.MessageID != "" {
			b.listMilestoneMessage(Timestamp(m.Index+1, PhaseConfirmed), m.Index, m.MessageID)
		}
	}
	return b.Writes
}
