package store

import (
	"context"
	"sync"
	"time"
)

// milestoneTimesKept bounds the milestone times a store keeps in memory (some 60 bytes
// each): enough for the partition boundaries of TIP-26 pages, an analytics day search
// and the creations a verification run meets in a stretch of milestones.
const milestoneTimesKept = 4096

// milestoneTimes are the timestamps of milestones read so far, by index. A milestone's
// row carries its timestamp from its first write on and never another one, so a kept
// time never goes stale; a milestone not indexed yet is not kept, as it may be written
// next.
type milestoneTimes struct {
	mu sync.Mutex
	at map[uint32]time.Time
}

func (m *milestoneTimes) get(index uint32) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.at[index]
	return t, ok
}

// put keeps t, first dropping an arbitrary kept time when milestoneTimesKept are kept.
func (m *milestoneTimes) put(index uint32, t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at == nil {
		m.at = map[uint32]time.Time{}
	}
	if len(m.at) >= milestoneTimesKept {
		for old := range m.at {
			delete(m.at, old)
			break
		}
	}
	m.at[index] = t
}

// MilestoneTime is the timestamp (UTC) of milestone index, read once (milestones.by_index)
// and then served from memory; ErrNotFound while the milestone is not indexed.
func (st *Store) MilestoneTime(ctx context.Context, index uint32) (time.Time, error) {
	if t, ok := st.times.get(index); ok {
		return t, nil
	}
	m, err := st.Milestone(ctx, index)
	if err != nil {
		return time.Time{}, err
	}
	t := time.Unix(m.Timestamp, 0).UTC()
	st.times.put(index, t)
	return t, nil
}

// RangeStart is the first milestone of ms_range_id partition rng.
func (st *Store) RangeStart(rng int32) uint32 { return uint32(rng) * st.ChunkSize }
