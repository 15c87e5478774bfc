package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// coreOutputJSON and coreOutputMetadataJSON are TIP-25's answers and the ledger's
// coverage (the bytes form carries the output alone, which no ledger state changes).
type coreOutputJSON struct {
	*tip25.OutputResponseJSON
	withCoverage
}

// final: an output's answer no longer changes once a milestone confirmed its spend.
func (a coreOutputJSON) final() bool { return a.Metadata != nil && a.Metadata.IsSpent }

type coreOutputMetadataJSON struct {
	*tip25.OutputMetadataJSON
	withCoverage
}

// final: an output's metadata no longer changes once a milestone confirmed its spend.
func (a coreOutputMetadataJSON) final() bool { return a.OutputMetadataJSON != nil && a.IsSpent }

func (s *coreAPI) coreOutput(ctx context.Context, in *input, p *outputIDParams) (any, error) {
	lo, err := s.ledgerOutput(ctx, p.OutputID)
	if err != nil {
		return nil, err
	}
	if wantsBytes(in.accept) {
		return mediaBytes{media: serializerMedia, data: lo.raw}, nil
	}
	meta, cov, err := s.outputMetadata(ctx, lo)
	if err != nil {
		return nil, err
	}
	out, err := tip25.OutputResponse(lo.output, meta)
	if err != nil {
		return nil, err
	}
	return coreOutputJSON{OutputResponseJSON: out, withCoverage: withCoverage{cov}}, nil
}

func (s *coreAPI) coreOutputMetadata(ctx context.Context, _ *input, p *outputIDParams) (any, error) {
	lo, err := s.ledgerOutput(ctx, p.OutputID)
	if err != nil {
		return nil, err
	}
	meta, cov, err := s.outputMetadata(ctx, lo)
	if err != nil {
		return nil, err
	}
	return coreOutputMetadataJSON{OutputMetadataJSON: meta, withCoverage: withCoverage{cov}}, nil
}

// outputMetadata is an output's TIP-25 metadata and the coverage of its ledger index:
// its booking from its output-table row, its spend from the same row (the milestone's
// timestamp read from that milestone), and the ledger index (store.LedgerCoverage). A
// spend by a milestone past the ledger index (being written now, or past a gap) is not
// shown yet: the answer is the ledger at its index.
func (s *coreAPI) outputMetadata(ctx context.Context, lo *ledgerOutput) (*tip25.OutputMetadataJSON, coverageJSON, error) {
	t, err := s.ledgerTip(ctx)
	if err != nil {
		return nil, coverageJSON{}, err
	}
	booked := tip25.Booked{MilestoneIndex: lo.booked, MilestoneTimestamp: uint32(lo.row.Timestamp.Unix())}
	var spent *tip25.Spent
	if lo.row.SpentBy != "" && lo.row.SpentMilestoneIndex != nil && uint32(*lo.row.SpentMilestoneIndex) <= t.li.Index {
		if spent, err = s.outputSpent(ctx, lo); err != nil {
			return nil, coverageJSON{}, err
		}
	}
	return tip25.OutputMetadata(lo.id, lo.block, booked, spent, t.li.Index), t.coverage(), nil
}

func (s *coreAPI) outputSpent(ctx context.Context, lo *ledgerOutput) (*tip25.Spent, error) {
	tx, err := chain.ParseTransactionID(lo.row.SpentBy)
	if err != nil {
		return nil, fmt.Errorf("output %s: spent by %q: %w", lo.id, lo.row.SpentBy, err)
	}
	index := uint32(*lo.row.SpentMilestoneIndex)
	m, err := s.st.Milestone(ctx, index)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil // a milestone of a gap being filled: its spend shows once it is written
	} else if err != nil {
		return nil, fmt.Errorf("output %s: spending milestone %d: %w", lo.id, index, err)
	}
	return &tip25.Spent{TransactionID: tx, MilestoneIndex: index, MilestoneTimestamp: uint32(m.Timestamp)}, nil
}
