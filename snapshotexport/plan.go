package snapshotexport

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// export is one export's plan: the keyspace's ledger range and what the header says.
type export struct {
	st  *store.Store
	cfg Config
	log *slog.Logger

	boot    store.LedgerBootstrap
	cov     store.LedgerCoverage
	l, x, n uint32 // the bootstrap's ledger index, the keyspace's, the target

	option     snapshot.ProtocolParamsOption // in force at X
	targetID   chain.MilestoneID             // N's milestone
	targetTime uint32
	treasury   snapshot.TreasuryInput // the treasury output at X
	bootParts  []int32                // see bootstrapPartitions
	// spentTreasury is the treasury output each receipt milestone in (L, X] spent.
	spentTreasury map[uint32]snapshot.TreasuryInput
}

// planExport checks that the keyspace holds a whole ledger and that the target lies in
// [L, X], then walks the milestones past L for the treasury and parameters at X.
func planExport(ctx context.Context, st *store.Store, cfg Config) (*export, error) {
	cov, err := st.LedgerCoverage(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return nil, ErrLedgerPartial
	}
	if err != nil {
		return nil, fmt.Errorf("reading the keyspace's ledger coverage: %w", err)
	}
	if !cov.Complete || cov.Bootstrap == nil {
		return nil, fmt.Errorf("%w: its ledger starts at milestone %d", ErrLedgerPartial, cov.Since)
	}
	e := &export{st: st, cfg: cfg, log: cfg.Log, boot: *cov.Bootstrap, cov: cov, l: cov.Bootstrap.Index, x: cov.Index}
	e.n = e.x
	if cfg.At != nil {
		e.n = *cfg.At
	}
	if e.n < e.l || e.n > e.x {
		return nil, fmt.Errorf("%w: target %d, the keyspace holds the ledger from %d (its bootstrap) to %d", ErrTargetRange,
			e.n, e.l, e.x)
	}
	if err := e.bootstrapState(ctx); err != nil {
		return nil, err
	}
	if err := e.walk(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// bootstrapState takes the ledger's state at L from the bootstrap record: the protocol
// parameters option, the treasury, L's milestone.
func (e *export) bootstrapState(ctx context.Context) error {
	raw, err := hex.DecodeString(strings.TrimPrefix(e.boot.Params, "0x"))
	if err != nil {
		return fmt.Errorf("the bootstrap record's protocol parameters: %w", err)
	}
	params, err := chain.DecodeProtocolParameters(raw)
	if err != nil {
		return fmt.Errorf("the bootstrap record's protocol parameters: %w", err)
	}
	e.option = snapshot.ProtocolParamsOption{TargetIndex: e.boot.ParamsTargetIndex, ProtocolVersion: e.boot.ProtocolVersion,
		Params: params, Raw: raw}
	treasuryID, err := chain.ParseMilestoneID(e.boot.TreasuryMilestone)
	if err != nil {
		return fmt.Errorf("the bootstrap record's treasury milestone ID: %w", err)
	}
	e.treasury = snapshot.TreasuryInput{MilestoneID: treasuryID, Amount: e.boot.Treasury}
	if e.n == e.l {
		msID, err := chain.ParseMilestoneID(e.boot.MilestoneID)
		if err != nil {
			return fmt.Errorf("the bootstrap record's milestone ID: %w", err)
		}
		e.targetID, e.targetTime = msID, e.boot.MilestoneTimestamp
	}
	e.spentTreasury = map[uint32]snapshot.TreasuryInput{}
	e.bootParts = e.bootstrapPartitions()
	return nil
}

// header is the file's header (counts zero: the Writer writes them).
func (e *export) header() snapshot.FullHeader {
	return snapshot.FullHeader{GenesisIndex: e.boot.GenesisIndex, TargetIndex: e.n, TargetTimestamp: e.targetTime,
		TargetMilestoneID: e.targetID, LedgerIndex: e.x, TreasuryMilestoneID: e.treasury.MilestoneID,
		TreasuryAmount: e.treasury.Amount, Protocol: e.option}
}
