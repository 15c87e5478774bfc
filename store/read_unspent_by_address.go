package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"golang.org/x/sync/errgroup"
)

// The unspent outputs an address may own, in every role, read from
// unspent_outputs_by_address for the explorer's balance.

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

// ownerReads bounds the partitions one OwnerCandidates call reads at once, over its
// roles: an address's history spans many partitions, read side by side.
const ownerReads = 16

// OwnerCandidates reads the unspent outputs naming address in one of OwnerRoles, in the
// partitions addresses_hints names (those that may hold outputs created by milestone
// createdBy; 0: all): one hint read per role, then the partitions' pages, ownerReads at
// a time. It reads at most limit rows (ErrTooManyOutputs past them). An output naming
// the address in two roles comes twice; which role makes it the owner is the caller's
// rule.
func (st *Store) OwnerCandidates(ctx context.Context, address string, limit int, createdBy uint32) ([]UnspentRow, error) {
	return st.ownerCandidates(ctx, address, limit, createdBy, false)
}

// SpentOwnerCandidates is OwnerCandidates of the spent twin, spent_outputs_by_address:
// the outputs the ledger spent that named address in one of OwnerRoles, each with the
// milestone that spent it (UnspentRow.SpentMilestoneIndex). With OwnerCandidates it is
// what an address held at any ledger index since the coverage's start.
func (st *Store) SpentOwnerCandidates(ctx context.Context, address string, limit int, createdBy uint32) ([]UnspentRow, error) {
	return st.ownerCandidates(ctx, address, limit, createdBy, true)
}

// ownerStream is one partition of one owning role's stream.
type ownerStream struct {
	stream LedgerStream
	rng    int32
}

func (st *Store) ownerCandidates(ctx context.Context, address string, limit int, createdBy uint32, spent bool) (
	[]UnspentRow, error) {
	parts, err := st.ownerStreams(ctx, address, createdBy, spent)
	if err != nil {
		return nil, err
	}
	var (
		mu    sync.Mutex
		out   []UnspentRow
		count atomic.Int64
	)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(ownerReads)
	for _, p := range parts {
		g.Go(func() error {
			rows, err := st.allOfStream(ctx, p.stream, p.rng, limit, &count)
			mu.Lock()
			out = append(out, rows...)
			mu.Unlock()
			return err
		})
	}
	return out, g.Wait()
}

// ownerStreams are the partitions of the owning roles' streams of address that may hold
// outputs created by milestone createdBy (0: all), by the roles' hints, read at once.
func (st *Store) ownerStreams(ctx context.Context, address string, createdBy uint32, spent bool) ([]ownerStream, error) {
	var (
		mu  sync.Mutex
		out []ownerStream
	)
	g, ctx := errgroup.WithContext(ctx)
	for _, or := range OwnerRoles {
		g.Go(func() error {
			parts, err := st.AddressRanges(ctx, address, or.Kind, or.Role)
			mu.Lock()
			defer mu.Unlock()
			for _, rng := range parts {
				if createdBy == 0 || st.RangeStart(rng) <= createdBy {
					out = append(out, ownerStream{LedgerStream{Address: address, Kind: or.Kind.String(), Role: or.Role,
						Spent: spent}, rng})
				}
			}
			return err
		})
	}
	return out, g.Wait()
}

// allOfStream reads one partition's rows of a stream, page by page, counting them
// against limit.
func (st *Store) allOfStream(ctx context.Context, stream LedgerStream, rng int32, limit int,
	count *atomic.Int64) ([]UnspentRow, error) {
	var out []UnspentRow
	req := PageRequest{Size: ownerPageSize}
	for {
		rows, next, err := st.LedgerPage(ctx, stream, rng, Span{}, req)
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
