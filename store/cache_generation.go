package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// CacheGenerationConcern is the indexer_meta row that tells the API processes to forget
// the entity tags they remember (api/cache_known.go): a versioned row (meta_versioned.go)
// whose version is the generation, raised by every writer that may change answers the
// API serves as immutable (a resync, a verify repair), and whose value says what the last
// change was. A compare-and-set raises it, so two raises never count as one and no clock
// decides between them; an API process forgets everything when it reads a generation
// other than the one it last read.
const CacheGenerationConcern = "cache_generation"

var errCacheGenerationContended = errors.New("cache_generation: compare-and-set lost too many times")

// CacheChange is what raised the cache generation: the value of its row.
type CacheChange struct {
	Reason string    `json:"reason"`         // "resync", "verify repair"
	From   uint32    `json:"from,omitempty"` // the milestones it concerned, when it names them
	To     uint32    `json:"to,omitempty"`
	At     time.Time `json:"at"`
}

// RaiseCacheGeneration raises the cache generation for change and returns the new one.
func (st *Store) RaiseCacheGeneration(ctx context.Context, node string, change CacheChange) (int64, error) {
	for range summarySwapTries {
		version, err := st.CacheGeneration(ctx) // the value is not read: any value is replaced
		if err != nil {
			return 0, err
		}
		applied, err := st.swapVersioned(ctx, CacheGenerationConcern, change, version, node)
		if err != nil {
			return 0, fmt.Errorf("raising the cache generation: %w", err)
		}
		if applied {
			return version + 1, nil
		}
	}
	return 0, errCacheGenerationContended
}

// CacheGeneration is the current cache generation (0: never raised): one read.
func (st *Store) CacheGeneration(ctx context.Context) (int64, error) {
	_, version, _, err := st.Meta(ctx, CacheGenerationConcern)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return version, err
}
