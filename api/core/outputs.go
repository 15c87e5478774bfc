package core

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// coreOutputJSON and coreOutputMetadataJSON are TIP-25's answers and the ledger's
// coverage (the bytes form carries the output alone, which no ledger state changes).
type coreOutputJSON struct {
	*tip25.OutputResponseJSON
	rest.WithCoverage
}

// Final: an output's answer no longer changes once a milestone confirmed its spend.
func (a coreOutputJSON) Final() bool { return a.Metadata != nil && a.Metadata.IsSpent }

type coreOutputMetadataJSON struct {
	*tip25.OutputMetadataJSON
	rest.WithCoverage
}

// Final: an output's metadata no longer changes once a milestone confirmed its spend.
func (a coreOutputMetadataJSON) Final() bool { return a.OutputMetadataJSON != nil && a.IsSpent }

// outputParams name an output and, optionally, the ledger index it is asked at.
type outputParams struct {
	rest.OutputIDParams
	LedgerIndex *uint32 `query:"ledgerIndex" kind:"index" doc:"the output as it stood once this milestone was applied (default: the ledger index): 404 if it was created later, unspent if it was spent later; above the ledger index, 400"`
}

func (s *API) coreOutput(ctx context.Context, in *rest.Input, p *outputParams) (any, error) {
	lo, err := s.LedgerOutput(ctx, p.OutputID)
	if err != nil {
		return nil, err
	}
	bytes := rest.MediaBytes{Media: rest.SerializerMedia, Data: lo.Raw}
	if rest.WantsBytes(in.Accept) && p.LedgerIndex == nil {
		return bytes, nil // the output's bytes, which no ledger index changes
	}
	at, err := s.outputAt(ctx, lo, p.LedgerIndex)
	if err != nil {
		return nil, err
	}
	if rest.WantsBytes(in.Accept) {
		return bytes, nil
	}
	meta, cov, err := s.outputMetadata(ctx, lo, at)
	if err != nil {
		return nil, err
	}
	out, err := tip25.OutputResponse(lo.Output, meta)
	if err != nil {
		return nil, err
	}
	return coreOutputJSON{OutputResponseJSON: out, WithCoverage: rest.WithCoverage{Coverage: cov}}, nil
}

func (s *API) coreOutputMetadata(ctx context.Context, _ *rest.Input, p *outputParams) (any, error) {
	lo, err := s.LedgerOutput(ctx, p.OutputID)
	if err != nil {
		return nil, err
	}
	at, err := s.outputAt(ctx, lo, p.LedgerIndex)
	if err != nil {
		return nil, err
	}
	meta, cov, err := s.outputMetadata(ctx, lo, at)
	if err != nil {
		return nil, err
	}
	return coreOutputMetadataJSON{OutputMetadataJSON: meta, WithCoverage: rest.WithCoverage{Coverage: cov}}, nil
}

// ledgerAt is the ledger an output is answered at: the ledger index, or the index a
// request asks for (ledgerIndex), with the coverage of the ledger at that index.
type ledgerAt struct {
	index    uint32
	coverage rest.CoverageJSON
}

// outputAt is the ledger lo is answered at: asked is at most the ledger index (a 400
// above it), and lo exists in it (a 404 when a later milestone created it). The
// ledger before the bootstrap's milestone lacks the outputs spent before it: partial.
func (s *API) outputAt(ctx context.Context, lo *rest.LedgerOutput, asked *uint32) (ledgerAt, error) {
	t, err := s.ledgerTip(ctx)
	if err != nil {
		return ledgerAt{}, err
	}
	index, cov, err := rest.AtLedgerIndex(t.li.Index, t.coverage(), asked)
	if err != nil {
		return ledgerAt{}, err
	}
	if asked != nil && lo.Booked > index {
		return ledgerAt{}, rest.NotFound("output %s was created by milestone %d, after ledger index %d",
			lo.ID, lo.Booked, index)
	}
	return ledgerAt{index: index, coverage: cov}, nil
}

// outputMetadata is an output's TIP-25 metadata in the ledger at (rest.OutputMetadataAt).
func (s *API) outputMetadata(ctx context.Context, lo *rest.LedgerOutput, at ledgerAt) (*tip25.OutputMetadataJSON, rest.CoverageJSON, error) {
	meta, err := rest.OutputMetadataAt(ctx, lo.ID, lo.Block, &lo.Row, lo.Booked, at.index, s.st.Milestone)
	return meta, at.coverage, err
}
