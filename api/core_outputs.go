package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// ledgerOutput is an output of the ledger as the core routes read it: the output, its
// bytes, the block that created it and its output-table row (booking time and spend).
type ledgerOutput struct {
	id     chain.OutputID
	output chain.Output
	raw    []byte
	block  chain.MessageID // zero for genesis outputs
	booked uint32
	row    store.OutputRow
}

// coreOutputJSON and coreOutputMetadataJSON are TIP-25's answers and the ledger's
// coverage (the bytes form carries the output alone, which no ledger state changes).
type coreOutputJSON struct {
	*tip25.OutputResponseJSON
	withCoverage
}

type coreOutputMetadataJSON struct {
	*tip25.OutputMetadataJSON
	withCoverage
}

func (s *Server) coreOutput(ctx context.Context, in *input) (any, error) {
	lo, err := s.ledgerOutput(ctx, in.text("outputId"))
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

func (s *Server) coreOutputMetadata(ctx context.Context, in *input) (any, error) {
	lo, err := s.ledgerOutput(ctx, in.text("outputId"))
	if err != nil {
		return nil, err
	}
	meta, cov, err := s.outputMetadata(ctx, lo)
	if err != nil {
		return nil, err
	}
	return coreOutputMetadataJSON{OutputMetadataJSON: meta, withCoverage: withCoverage{cov}}, nil
}

// ledgerOutput finds a booked output: through the transactions row of the transaction
// that created it (and that output's row in its output table, found by key and booking
// milestone), or, for a genesis output no transaction created, its basic_outputs rows.
// Outputs of transactions no milestone included are not in the ledger: 404.
func (s *Server) ledgerOutput(ctx context.Context, text string) (*ledgerOutput, error) {
	id, _ := chain.ParseOutputID(text)
	rows, err := s.st.OutputCreations(ctx, id)
	if err != nil {
		return nil, err
	}
	created, _ := pickCreatedAndSpend(rows)
	switch {
	case created == nil:
		return s.genesisOutput(ctx, id)
	case !isIncluded(created) || created.MilestoneIndex == nil:
		return nil, notFound("output %s is not in the ledger: no milestone included the transaction creating it", id)
	}
	lo := &ledgerOutput{id: id, raw: created.Data, booked: uint32(*created.MilestoneIndex)}
	if lo.block, err = chain.ParseMessageID(created.MessageID); err != nil {
		return nil, fmt.Errorf("output %s: creating block %q: %w", id, created.MessageID, err)
	}
	if lo.output, err = decodeLedgerOutput(id, created.Data); err != nil {
		return nil, err
	}
	lo.row, err = s.st.BookedOutput(ctx, id, &lo.output, lo.booked)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("output %s: no output-table row booked in milestone %d", id, lo.booked)
	}
	return lo, err
}

// genesisOutput finds an output no transaction row describes in basic_outputs (where
// genesis outputs are); a legacy output gets a clear 404: it has no TIP-25 form.
func (s *Server) genesisOutput(ctx context.Context, id chain.OutputID) (*ledgerOutput, error) {
	rows, _, err := s.st.OutputVersions(ctx, chain.OutputBasic, id.String(), store.PageRequest{Size: 16})
	if err != nil {
		return nil, err
	}
	r := confirmedRow(rows)
	if r == nil || r.Pending() {
		if _, err := s.st.LegacyOutput(ctx, id.String()); err == nil {
			return nil, legacyOutput(id)
		}
		return nil, notFound("output %s is not indexed", id)
	}
	lo := &ledgerOutput{id: id, raw: r.Data, booked: uint32(r.MilestoneIndex), row: *r}
	lo.output, err = decodeLedgerOutput(id, r.Data)
	return lo, err
}

func decodeLedgerOutput(id chain.OutputID, data []byte) (chain.Output, error) {
	o, err := chain.DecodeOutput(data)
	switch {
	case err != nil:
		return o, fmt.Errorf("output %s: stored bytes do not decode: %w", id, err)
	case o.Kind == chain.OutputLegacy:
		return o, legacyOutput(id)
	}
	return o, nil
}

func legacyOutput(id chain.OutputID) *apiError {
	return notFound("output %s is a legacy (pre-Stardust) output, which has no TIP-25 form; "+
		"GET /outputs/%s serves it", id, id)
}

// outputMetadata is an output's TIP-25 metadata and the coverage of its ledger index:
// its booking from its output-table row, its spend from the same row (the milestone's
// timestamp read from that milestone), and the ledger index (store.LedgerCoverage). A
// spend by a milestone past the ledger index (being written now, or past a gap) is not
// shown yet: the answer is the ledger at its index.
func (s *Server) outputMetadata(ctx context.Context, lo *ledgerOutput) (*tip25.OutputMetadataJSON, coverageJSON, error) {
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

func (s *Server) outputSpent(ctx context.Context, lo *ledgerOutput) (*tip25.Spent, error) {
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
