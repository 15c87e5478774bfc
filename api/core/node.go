package core

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// nodeName and nodeVersion are /info's name and version.
const (
	NodeName    = "stardust-indexer"
	NodeVersion = "1"
)

// routeGroups are /api/routes: the node interfaces this server answers, as Hornet lists
// its plugins' route groups.
var routeGroups = []string{"core/v2", "indexer/v1", "explorer/v2"}

// ledgerTip is the ledger as the node routes advertise it: the ledger index (the end
// of the contiguous synced run, see store.LedgerCoverage), its milestone and the
// coverage (ok false while nothing is synced or bootstrapped).
type ledgerTip struct {
	ok bool
	li store.LedgerIndex
}

// ledgerTip reads the sync summary, the bootstrap record (cached) and the ledger
// index's milestone: a handful of rows.
func (s *API) ledgerTip(ctx context.Context) (ledgerTip, error) {
	li, err := s.st.LedgerIndex(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return ledgerTip{}, nil
	}
	if err != nil {
		return ledgerTip{}, rest.MissingIsInternal(err)
	}
	return ledgerTip{ok: true, li: li}, nil
}

func (t ledgerTip) coverage() rest.CoverageJSON { return rest.CoverageOf(t.li.Coverage) }

// age is how long ago the ledger index's milestone was issued.
func (t ledgerTip) age(now time.Time) time.Duration {
	return now.Sub(time.Unix(t.li.Timestamp, 0))
}

func (s *API) healthy(t ledgerTip) bool {
	return t.ok && t.age(time.Now()) <= s.healthMaxAge
}

// ref is the ledger index's milestone (/info's confirmed milestone).
func (t ledgerTip) ref() tip25.MilestoneRef {
	if !t.ok {
		return tip25.MilestoneRef{}
	}
	id, _ := chain.ParseMilestoneID(t.li.MilestoneID)
	return tip25.MilestoneRef{Index: t.li.Index, Timestamp: uint32(t.li.Timestamp), ID: id}
}

// latest is the newest synced milestone (/info's latest milestone): past the ledger
// index when a gap lies between them, else the ledger index's own.
func (s *API) latest(ctx context.Context, t ledgerTip) (tip25.MilestoneRef, error) {
	newest := t.li.Coverage.Newest
	if !t.ok || newest <= t.li.Index {
		return t.ref(), nil
	}
	m, err := s.st.Milestone(ctx, newest)
	if err != nil {
		return tip25.MilestoneRef{}, fmt.Errorf("newest synced milestone %d: %w", newest, rest.MissingIsInternal(err))
	}
	id, _ := chain.ParseMilestoneID(m.MilestoneID)
	return tip25.MilestoneRef{Index: newest, Timestamp: uint32(m.Timestamp), ID: id}, nil
}

// pruningIndex is the milestone below which nothing is served: the one before the
// oldest synced milestone, or the bootstrap's when none is synced.
func (t ledgerTip) pruningIndex() uint32 {
	switch c := t.li.Coverage; {
	case c.Oldest > 0:
		return c.Oldest - 1
	case c.Bootstrap != nil:
		return c.Bootstrap.Index
	}
	return 0
}

// HealthJSON is /health's answer (Hornet answers an empty 200; clients read the status).
// Its newest milestone is the ledger index's: the newest one applied to the ledger.
type HealthJSON struct {
	IsHealthy       bool                    `json:"isHealthy"`
	NewestMilestone tip25.MilestoneInfoJSON `json:"newestMilestone"`
	AgeSeconds      int64                   `json:"ageSeconds"`
	rest.WithCoverage
}

// coreHealth answers from the ledger tip the health probe keeps (refreshed at most once
// a second by one goroutine); a failed read answers a generic 503, its error is logged.
func (s *API) coreHealth(ctx context.Context, _ *rest.Input) (any, error) {
	t, err := s.health.Get(ctx)
	if err != nil {
		return nil, &rest.APIError{Status: http.StatusServiceUnavailable, Title: "unhealthy", Expected: true,
			Detail: "the ledger could not be read", RetryAfter: 1}
	}
	if !t.ok {
		return nil, &rest.APIError{Status: http.StatusServiceUnavailable, Title: "unhealthy", Expected: true, Detail: "no milestone is indexed yet"}
	}
	age := t.age(time.Now())
	if !s.healthy(t) {
		return nil, &rest.APIError{Status: http.StatusServiceUnavailable, Title: "unhealthy", Expected: true,
			Detail: fmt.Sprintf("the ledger index, milestone %d, is %s old (more than %s)", t.li.Index,
				age.Round(time.Second), s.healthMaxAge)}
	}
	newest := tip25.MilestoneInfoJSON{Index: t.li.Index, Timestamp: uint32(t.li.Timestamp),
		MilestoneID: t.li.MilestoneID}
	return HealthJSON{IsHealthy: true, NewestMilestone: newest, AgeSeconds: int64(age / time.Second),
		WithCoverage: rest.WithCoverage{Coverage: t.coverage()}}, nil
}

func (s *API) coreRouteGroups(context.Context, *rest.Input) (any, error) {
	return map[string][]string{"routes": routeGroups}, nil
}

// infoJSON is /info: TIP-25's answer and the ledger's coverage.
type infoJSON struct {
	*tip25.NodeInfoJSON
	rest.WithCoverage
}

// coreInfo is /info: the recorded network and protocol parameters, and the indexed
// milestones standing for the node's: latest = the newest synced, confirmed = the
// ledger index (the end of the contiguous synced run, which a node's confirmed
// milestone is: the newest applied to its ledger), pruning index = oldest synced - 1.
func (s *API) coreInfo(ctx context.Context, _ *rest.Input) (any, error) {
	t, err := s.ledgerTip(ctx)
	if err != nil {
		return nil, err
	}
	latest, err := s.latest(ctx, t)
	if err != nil {
		return nil, err
	}
	net, err := s.Network(ctx)
	if err != nil {
		return nil, err
	}
	in := tip25.NodeInfoInput{Name: NodeName, Version: NodeVersion, Network: net, BaseToken: rest.BaseTokenOf(net),
		Healthy: s.healthy(t), Latest: latest, Confirmed: t.ref(), PruningIndex: t.pruningIndex()}
	return infoJSON{NodeInfoJSON: tip25.NodeInfo(in), WithCoverage: rest.WithCoverage{Coverage: t.coverage()}}, nil
}
