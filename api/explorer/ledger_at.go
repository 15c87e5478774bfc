package explorer

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// MaxLedgerScanRows bounds the scan that computes the richest addresses and the token
// distribution at a ledger index the analytics worker did not compute: the rows of the
// unspent set and the spent twin created up to it. A larger ledger is answered 422.
const MaxLedgerScanRows = 5_000_000

// ledgerAtKept is how many ledger indexes' figures computed on request are kept (each
// the top 1000 and at most 19 buckets).
const ledgerAtKept = 16

// ledgerAtCache holds the figures computed on request: one scan at a time in the
// process, requests for the same index share it, and the newest ledgerAtKept are kept
// (a ledger once applied never changes, so they never go stale).
type ledgerAtCache struct {
	scan  chan struct{}
	group singleflight.Group
	mu    sync.Mutex
	kept  map[uint32]ledgerAt
	order []uint32
}

// ledgerAt is what a request's scan found: the figures, the ledger index's time and
// whether the spent twin may lack spends (the figures are then partial).
type ledgerAt struct {
	figures      analytics.LedgerFigures
	timestamp    int64
	spentMissing bool
}

func newLedgerAtCache() *ledgerAtCache {
	return &ledgerAtCache{scan: make(chan struct{}, 1), kept: map[uint32]ledgerAt{}}
}

func (c *ledgerAtCache) get(n uint32) (ledgerAt, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.kept[n]
	return v, ok
}

func (c *ledgerAtCache) put(n uint32, v ledgerAt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.kept[n]; ok {
		return
	}
	if len(c.order) == ledgerAtKept {
		delete(c.kept, c.order[0])
		c.order = c.order[1:]
	}
	c.kept[n], c.order = v, append(c.order, n)
}

// figuresAt are the ledger analytics at ledger index n, computed by a scan of the ledger
// as it stood once n was applied (analytics.LedgerAt): 400 above the ledger index, 404
// for a milestone whose time is unknown, 422 past MaxLedgerScanRows.
func (s *API) figuresAt(ctx context.Context, n uint32) (ledgerAt, error) {
	if v, ok := s.asOf.get(n); ok {
		return v, nil
	}
	v, err, _ := s.asOf.group.Do(strconv.FormatUint(uint64(n), 10), func() (any, error) {
		select {
		case s.asOf.scan <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-s.asOf.scan }()
		v, err := s.scanLedgerAt(ctx, n)
		if err == nil {
			s.asOf.put(n, v)
		}
		return v, err
	})
	if err != nil {
		return ledgerAt{}, err
	}
	return v.(ledgerAt), nil
}

func (s *API) scanLedgerAt(ctx context.Context, n uint32) (ledgerAt, error) {
	li, err := s.ledgerIndex(ctx)
	if err != nil {
		return ledgerAt{}, err
	}
	if _, _, err := rest.AtLedgerIndex(li.Index, rest.CoverageJSON{}, &n); err != nil {
		return ledgerAt{}, err
	}
	at, missing, err := s.pastLedger(ctx, li, n)
	if err != nil {
		return ledgerAt{}, err
	}
	fig, err := analytics.LedgerAt(ctx, s.st, at, MaxLedgerScanRows)
	if errors.Is(err, analytics.ErrLedgerTooLarge) {
		return ledgerAt{}, &rest.APIError{Status: http.StatusUnprocessableEntity, Title: "ledger too large",
			Detail: err.Error() + "; the analytics worker's ledger indexes are served from its tables"}
	}
	return ledgerAt{figures: fig, timestamp: at.Timestamp, spentMissing: missing}, err
}
