package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// ledgerOutput is an output as created: from the cache of outputs created by milestones
// this source read, else as the keyspace holds its creation, else as the node serves it.
// The node is asked even when the keyspace holds the creation, and must agree with it:
// its metadata is signed by nothing, so an answer naming another block, booking or bytes
// refuses the milestone (ErrCreationMismatch), while a node that no longer holds the
// output (404) leaves the keyspace's facts standing.
func (s *member) ledgerOutput(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, error) {
	if lo, ok := s.outputs.get(id); ok {
		return lo, nil
	}
	stored, held, err := s.storedCreation(ctx, id)
	if err != nil {
		return chain.LedgerOutput{}, err
	}
	served, err := s.nodeOutput(ctx, id)
	switch {
	case held && errors.Is(err, errNotFound):
		return stored, nil
	case err != nil:
		return chain.LedgerOutput{}, err
	case !held:
		return served, nil
	}
	if err := sameCreation(stored, served); err != nil {
		return chain.LedgerOutput{}, err
	}
	return stored, nil
}

// storedCreation reads the keyspace's creation of id, if a reader is configured. Its
// errors are the database's: they are passed on to be retried, never refused.
func (s *member) storedCreation(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, bool, error) {
	if s.cfg.Created == nil {
		return chain.LedgerOutput{}, false, nil
	}
	lo, ok, err := s.cfg.Created.StoredCreation(ctx, id)
	if err != nil {
		return chain.LedgerOutput{}, false, fmt.Errorf("reading the keyspace's creation of output %s: %w", id, err)
	}
	return lo, ok, nil
}

// nodeOutput is an output as the node serves it: its bytes in binary, its booking from
// its metadata, both asked at once.
func (s *member) nodeOutput(ctx context.Context, id chain.OutputID) (chain.LedgerOutput, error) {
	route := "/outputs/" + id.String()
	var md tip25.OutputMetadataJSON
	mdErr := make(chan error, 1)
	go func() { mdErr <- s.c.getJSON(ctx, route+"/metadata", &md) }()
	raw, err := s.c.get(ctx, route, mimeBinary)
	if metaErr := <-mdErr; err == nil {
		err = metaErr
	}
	if err != nil {
		return chain.LedgerOutput{}, err
	}
	o, err := chain.DecodeOutput(raw)
	if err != nil {
		return chain.LedgerOutput{}, source.Refuse(fmt.Errorf("GET %s%s: %w", apiBase, route, err))
	}
	block, err := chain.ParseMessageID(md.BlockID)
	tx, txErr := chain.ParseTransactionID(md.TransactionID)
	if err != nil || txErr != nil || chain.NewOutputID(tx, md.OutputIndex) != id {
		return chain.LedgerOutput{}, source.Refuse(fmt.Errorf("GET %s%s/metadata: names block %q, output %s#%d",
			apiBase, route, md.BlockID, md.TransactionID, md.OutputIndex))
	}
	return chain.LedgerOutput{OutputID: id, MessageID: block, Output: o, MilestoneIndex: md.MilestoneIndexBooked,
		Timestamp: time.Unix(int64(md.MilestoneTimestampBooked), 0).UTC()}, nil
}
