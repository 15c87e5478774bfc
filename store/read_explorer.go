package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Reads of the explorer routes (/api/explorer/v2): the ledger index, the unspent outputs
// an address may own, a milestone's messages and ledger updates page by page.

// LedgerIndex is the ledger state's position: the advertised ledger index (see
// LedgerCoverage), its milestone's ID and timestamp (unix seconds, the time TIP-18's
// time conditions are judged at), and the coverage it was derived from.
type LedgerIndex struct {
	Index       uint32
	Timestamp   int64
	MilestoneID string
	Coverage    LedgerCoverage
}

// LedgerIndex reads the coverage and the ledger index's milestone: the bootstrap
// record's when the index is its L (a bootstrap writes no milestone row), else the
// milestones row. ErrNothingSynced when nothing is synced and nothing bootstrapped.
func (st *Store) LedgerIndex(ctx context.Context) (LedgerIndex, error) {
	c, err := st.LedgerCoverage(ctx)
	if err != nil {
		return LedgerIndex{}, err
	}
	if b := c.Bootstrap; b != nil && c.Index == b.Index {
		return LedgerIndex{Index: c.Index, Timestamp: int64(b.MilestoneTimestamp), MilestoneID: b.MilestoneID,
			Coverage: c}, nil
	}
	m, err := st.Milestone(ctx, c.Index)
	if err != nil {
		return LedgerIndex{}, fmt.Errorf("milestone %d of the ledger index: %w", c.Index, err)
	}
	return LedgerIndex{Index: c.Index, Timestamp: m.Timestamp, MilestoneID: m.MilestoneID, Coverage: c}, nil
}

// OwnerRole is an output kind and a role in which an address may own an unspent output.
type OwnerRole struct {
	Kind chain.OutputKind
	Role string
}

// OwnerRoles are the roles that can make an address an output's owner (the one whose
// balance the output counts in): the address unlock condition of basic and NFT outputs
// and the alias address of a foundry (RoleAddress), the return address of an expired
// basic or NFT output (RoleExpirationReturn), and the state controller of an alias (as
// Chronicle counts an alias in its state controller's balance). Senders, issuers,
// governors and storage deposit return addresses never own.
var OwnerRoles = []OwnerRole{
	{chain.OutputBasic, RoleAddress}, {chain.OutputBasic, RoleExpirationReturn},
	{chain.OutputNFT, RoleAddress}, {chain.OutputNFT, RoleExpirationReturn},
	{chain.OutputFoundry, RoleAddress}, {chain.OutputAlias, RoleStateController},
}

// ErrTooManyOutputs: an address names more unspent outputs than a request may read.
var ErrTooManyOutputs = errors.New("the address names too many unspent outputs to read in one request")

// ownerPageSize is the page of OwnerCandidates' reads.
const ownerPageSize = 1000

// OwnerCandidates reads the unspent outputs naming address in one of OwnerRoles, in the
// partitions addresses_hints names: one hint read per role, then the pages. It reads at
// most limit rows (ErrTooManyOutputs past them). An output naming the address in two
// roles comes twice; which role makes it the owner is the caller's rule.
func (st *Store) OwnerCandidates(ctx context.Context, address string, limit int) ([]UnspentRow, error) {
	var (
		mu    sync.Mutex
		out   []UnspentRow
		count atomic.Int64
	)
	g, ctx := errgroup.WithContext(ctx)
	for _, or := range OwnerRoles {
		g.Go(func() error {
			parts, err := st.AddressRanges(ctx, address, or.Kind, or.Role)
			if err != nil {
				return err
			}
			for _, rng := range parts {
				rows, err := st.allUnspentByAddress(ctx, address, rng, or, limit, &count)
				if err != nil {
					return err
				}
				mu.Lock()
				out = append(out, rows...)
				mu.Unlock()
			}
			return nil
		})
	}
	return out, g.Wait()
}

// allUnspentByAddress reads one partition's rows of a role, page by page, counting them
// against limit.
func (st *Store) allUnspentByAddress(ctx context.Context, address string, rng int32, or OwnerRole, limit int,
	count *atomic.Int64) ([]UnspentRow, error) {
	var out []UnspentRow
	req := PageRequest{Size: ownerPageSize}
	for {
		rows, next, err := st.LedgerPage(ctx, LedgerStream{Address: address, Kind: or.Kind.String(), Role: or.Role}, rng, Span{}, req)
		if err != nil {
			return nil, err
		}
		if count.Add(int64(len(rows))) > int64(limit) {
			return nil, fmt.Errorf("%w (more than %d)", ErrTooManyOutputs, limit)
		}
		out = append(out, rows...)
		if len(next) == 0 {
			return out, nil
		}
		req.State = next
	}
}

// MilestoneMessage is a message a milestone referenced, at its white-flag position.
type MilestoneMessage struct {
	WhiteFlagIndex int32  `cql:"white_flag_index"`
	MessageID      string `cql:"message_id"`
}

// MilestoneMessagesPage reads one page of a milestone's messages in white-flag order,
// or in reverse with newest.
func (st *Store) MilestoneMessagesPage(ctx context.Context, index uint32, newest bool, req PageRequest) (
	[]MilestoneMessage, []byte, error) {
	stmt := cql.MessagesByMilestone
	if newest {
		stmt = cql.MessagesByMilestoneDesc
	}
	return readRows[MilestoneMessage](ctx, st, stmt, []any{int32(index)}, req)
}

// MilestoneUpdatesPage reads one page of the outputs a milestone created (first) and
// consumed, each group by output ID.
func (st *Store) MilestoneUpdatesPage(ctx context.Context, index uint32, req PageRequest) ([]MilestoneUpdate, []byte, error) {
	return readRows[MilestoneUpdate](ctx, st, cql.MilestoneUpdates, []any{int32(index)}, req)
}

// LedgerUpdateRanges lists the partitions of address_ledger_updates holding an address
// (addresses_hints: output_kind "any", variant "ledger_update").
func (st *Store) LedgerUpdateRanges(ctx context.Context, address string) ([]int32, error) {
	return st.ranges(ctx, cql.AddressHints, address, LedgerUpdateHintKind, LedgerUpdateHintRoles)
}
