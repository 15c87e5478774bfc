package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/tip25"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// DefaultHealthMaxAge is how old the newest indexed milestone may be for /health to
// say healthy (Config.HealthMaxAge). Milestones come every ~5s; an indexer following
// the network stays well within it.
const DefaultHealthMaxAge = 2 * time.Minute

// nodeName and nodeVersion are /info's name and version.
const (
	nodeName    = "stardust-indexer"
	nodeVersion = "1"
)

// routeGroups are /api/routes: the node interfaces this server answers, as Hornet lists
// its plugins' route groups.
var routeGroups = []string{"core/v2", "indexer/v1", "explorer/v2"}

// ledgerTip is the indexed span: its oldest and newest synced milestones and the
// newest's row (ok false while nothing is synced).
type ledgerTip struct {
	ok             bool
	oldest, newest uint32
	milestone      store.MilestoneRecord
}

// ledgerTip reads the sync span and the newest synced milestone: a handful of rows.
func (s *Server) ledgerTip(ctx context.Context) (ledgerTip, error) {
	span, err := s.st.SyncTip(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return ledgerTip{}, nil
	}
	if err != nil {
		return ledgerTip{}, err
	}
	m, err := s.st.Milestone(ctx, span.Newest)
	if err != nil {
		return ledgerTip{}, fmt.Errorf("newest synced milestone %d: %w", span.Newest, missingIsInternal(err))
	}
	return ledgerTip{ok: true, oldest: span.Oldest, newest: span.Newest, milestone: m}, nil
}

// age is how long ago the newest synced milestone was issued.
func (t ledgerTip) age(now time.Time) time.Duration {
	return now.Sub(time.Unix(t.milestone.Timestamp, 0))
}

func (s *Server) healthy(t ledgerTip) bool {
	return t.ok && t.age(time.Now()) <= s.cfg.HealthMaxAge
}

func (t ledgerTip) ref() tip25.MilestoneRef {
	if !t.ok {
		return tip25.MilestoneRef{}
	}
	id, _ := chain.ParseMilestoneID(t.milestone.MilestoneID)
	return tip25.MilestoneRef{Index: t.newest, Timestamp: uint32(t.milestone.Timestamp), ID: id}
}

// healthJSON is /health's answer (Hornet answers an empty 200; clients read the status).
type healthJSON struct {
	IsHealthy       bool                    `json:"isHealthy"`
	NewestMilestone tip25.MilestoneInfoJSON `json:"newestMilestone"`
	AgeSeconds      int64                   `json:"ageSeconds"`
}

func (s *Server) coreHealth(ctx context.Context, _ *input) (any, error) {
	t, err := s.ledgerTip(ctx)
	if err != nil {
		return nil, err
	}
	if !t.ok {
		return nil, &apiError{Status: http.StatusServiceUnavailable, Title: "unhealthy", Expected: true, Detail: "no milestone is indexed yet"}
	}
	age := t.age(time.Now())
	if !s.healthy(t) {
		return nil, &apiError{Status: http.StatusServiceUnavailable, Title: "unhealthy", Expected: true,
			Detail: fmt.Sprintf("the newest indexed milestone, %d, is %s old (more than %s)", t.newest,
				age.Round(time.Second), s.cfg.HealthMaxAge)}
	}
	newest := tip25.MilestoneInfoJSON{Index: t.newest, Timestamp: uint32(t.milestone.Timestamp),
		MilestoneID: t.milestone.MilestoneID}
	return healthJSON{IsHealthy: true, NewestMilestone: newest, AgeSeconds: int64(age / time.Second)}, nil
}

func (s *Server) coreRouteGroups(context.Context, *input) (any, error) {
	return map[string][]string{"routes": routeGroups}, nil
}

func (s *Server) coreNoReceipts(context.Context, *input) (any, error) {
	return nil, &apiError{Status: http.StatusNotImplemented, Title: "not implemented", Expected: true, Detail: noReceiptsWhy}
}

// coreInfo is /info: the recorded network and protocol parameters, and the indexed
// span standing for the node's milestones (latest = confirmed = newest synced; pruning
// index = oldest synced - 1).
func (s *Server) coreInfo(ctx context.Context, _ *input) (any, error) {
	t, err := s.ledgerTip(ctx)
	if err != nil {
		return nil, err
	}
	net, err := s.infoNetwork(ctx)
	if err != nil {
		return nil, err
	}
	in := tip25.NodeInfoInput{Name: nodeName, Version: nodeVersion, Network: net, BaseToken: baseTokenJSON(net),
		Healthy: s.healthy(t), Latest: t.ref(), Confirmed: t.ref()}
	if t.ok && t.oldest > 0 {
		in.PruningIndex = t.oldest - 1
	}
	return tip25.NodeInfo(in), nil
}

// infoNetwork is the network as the keyspace records it: name and HRP, the protocol
// parameters and base token once an indexer recorded them. A keyspace written before
// those were recorded reports what it has (name and HRP, zero parameters); one that no
// indexer has written reports nothing.
func (s *Server) infoNetwork(ctx context.Context) (chain.Network, error) {
	rec, ok, err := s.st.Network(ctx)
	if err != nil || !ok {
		return chain.Network{}, err
	}
	net := chain.Network{Name: rec.Name, HRP: rec.HRP,
		Params: chain.ProtocolParameters{Version: chain.ProtocolVersion, NetworkName: rec.Name, Bech32HRP: rec.HRP}}
	p, ok, err := s.st.Protocol(ctx)
	if err != nil || !ok {
		return net, err
	}
	net.Params = p.Params
	if p.BaseToken != nil {
		net.BaseToken = *p.BaseToken
	}
	return net, nil
}

// baseTokenJSON is the network's base token: the recorded one; Shimmer's when none is
// recorded for Shimmer; else one named after the network (docs/core-api.md).
func baseTokenJSON(net chain.Network) tip25.BaseToken {
	bt := net.BaseToken
	switch {
	case bt == (chain.BaseToken{}) && net.Name == chain.Shimmer().Name:
		return tip25.ShimmerBaseToken()
	case bt == (chain.BaseToken{}):
		return tip25.BaseToken{Name: net.Name, TickerSymbol: net.Name, Unit: net.Name}
	}
	return tip25.BaseToken{Name: bt.Name, TickerSymbol: bt.TickerSymbol, Unit: bt.Unit, Subunit: bt.Subunit,
		Decimals: bt.Decimals, UseMetricPrefix: bt.UseMetricPrefix}
}
