package analytics

import (
	"context"
	"encoding/json"
	"math"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// milestoneFamiliesJSON is every family of one milestone, named as inx-chronicle names
// them.
type milestoneFamiliesJSON struct {
	MilestoneIndex     uint32 `json:"milestoneIndex"`
	MilestoneTimestamp int64  `json:"milestoneTimestamp"`
	Coverage           string `json:"coverage"`
	// Missing are the families without a row for the milestone (yet): the ledger
	// families before the fold reached it, say. The protocol parameters, which have a row
	// only where they change, are never missing.
	Missing    []string               `json:"missing,omitempty"`
	Families   map[string]rest.Object `json:"families"`
	Parameters json.RawMessage        `json:"parameters,omitempty"` // the protocol object, where it has a row
}

// milestoneFamilies serves GET /api/analytics/v2/milestones/{index}: the twelve
// families' rows of the milestone, read concurrently.
func (s *API) milestoneFamilies(ctx context.Context, _ *rest.Input, p *rest.MilestoneIndexParams) (any, error) {
	index := p.Index
	if index > math.MaxInt32 { // milestone indexes are stored as int
		return nil, rest.NotFound("no analytics family of milestone %d", index)
	}
	rows, err := s.readMilestoneFamilies(ctx, index)
	if err != nil {
		return nil, err
	}
	state, folded, err := s.st.LedgerFamilies(ctx)
	if err != nil {
		return nil, err
	}
	out := milestoneFamiliesJSON{MilestoneIndex: index, Coverage: rest.CoverageComplete, Families: map[string]rest.Object{}}
	found := false
	for i, spec := range Families {
		row := rows[i]
		if row == nil {
			if spec.Name != ProtocolParametersFamily {
				out.Missing = append(out.Missing, spec.Name)
			}
			continue
		}
		if !found {
			found, out.MilestoneTimestamp = true, rest.UnixTime(row.Timestamp)
		}
		p, err := pointJSON(*row)
		if err != nil {
			return nil, err
		}
		out.Families[spec.Name] = p.Figures
		if p.Parameters != nil {
			out.Parameters = p.Parameters
		}
		if familyCoverage(spec, state, folded) == rest.CoveragePartial {
			out.Coverage = rest.CoveragePartial
		}
	}
	if !found {
		return nil, rest.NotFound("no analytics family of milestone %d", index)
	}
	if len(out.Missing) > 0 {
		out.Coverage = rest.CoveragePartial
	}
	return out, nil
}

// readMilestoneFamilies reads each family's row of the milestone, by the family's place
// in families; nil for a family without a row.
func (s *API) readMilestoneFamilies(ctx context.Context, index uint32) ([]*store.FamilyPoint, error) {
	found := make([]*store.FamilyPoint, len(Families))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(rest.MaxParallelReads)
	for i, spec := range Families {
		g.Go(func() error {
			row, ok, err := s.st.MilestoneFamily(gctx, spec.Name, index)
			if ok {
				found[i] = &row
			}
			return err
		})
	}
	return found, g.Wait()
}
