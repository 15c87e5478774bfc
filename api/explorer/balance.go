package explorer

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// MaxBalanceOutputs bounds GET /balance: the unspent outputs naming the address in an
// owning role that one request may read (pages of 1000 rows). An address past it is
// answered 422; its balance is in the ledger analytics (richest addresses).
const MaxBalanceOutputs = 100_000

// BalanceJSON is GET /api/explorer/v2/balance/{address}. Amounts are decimal strings
// (uint64, as the node APIs write them).
type BalanceJSON struct {
	TotalBalance       string `json:"totalBalance"`
	AvailableBalance   string `json:"availableBalance"`
	SigLockedBalance   string `json:"sigLockedBalance"` // Chronicle's name and rule
	LedgerIndex        uint32 `json:"ledgerIndex"`
	MilestoneTimestamp int64  `json:"milestoneTimestamp"` // of the ledger index: TIP-18's time
	rest.WithCoverage
}

// balanceParams name the address and, optionally, the ledger index the balance is asked at.
type balanceParams struct {
	rest.AddressParams
	LedgerIndex *uint32 `query:"ledgerIndex" kind:"index" doc:"the balance once this milestone was applied (default: the ledger index), with that milestone's time for timelocks and expirations; above the ledger index, 400"`
}

// balance sums the outputs the address owns at the ledger index (analytics.HoldingAt):
// the hint reads of its owning roles, then their partitions' pages. At an earlier index
// N it also reads the spent twin: an output spent after N was still held at N.
func (s *API) balance(ctx context.Context, _ *rest.Input, p *balanceParams) (any, error) {
	li, err := s.ledgerIndex(ctx)
	if err != nil {
		return nil, err
	}
	at, cov, err := s.balanceAt(ctx, li, p.LedgerIndex)
	if err != nil {
		return nil, err
	}
	rows, err := s.heldCandidates(ctx, p.Address.Text, at.Index, p.LedgerIndex != nil)
	if err != nil {
		return nil, err
	}
	var total, available, sigLocked uint64
	seen := make(map[string]bool, len(rows))
	for i := range rows {
		r := &rows[i]
		h := analytics.HoldingAt(r, at.Timestamp)
		if h.Owner != p.Address.Text || seen[r.OutputID] || uint32(r.MilestoneIndex) > at.Index {
			continue
		}
		seen[r.OutputID] = true
		total, available, sigLocked = total+h.Total, available+h.Available, sigLocked+h.SigLocked
	}
	return BalanceJSON{TotalBalance: U64(total), AvailableBalance: U64(available), SigLockedBalance: U64(sigLocked),
		LedgerIndex: at.Index, MilestoneTimestamp: at.Timestamp, WithCoverage: rest.WithCoverage{Coverage: cov}}, nil
}

// balanceAt is the ledger a balance is answered at: li, or the earlier index asked for
// (at most li, a 400 above it; see pastLedger), with the coverage there: partial too when
// the spent twin, which the balance at an earlier index reads, may lack spends.
func (s *API) balanceAt(ctx context.Context, li store.LedgerIndex, asked *uint32) (store.LedgerIndex, rest.CoverageJSON, error) {
	n, cov, err := rest.AtLedgerIndex(li.Index, rest.CoverageOf(li.Coverage), asked)
	if err != nil || asked == nil {
		return li, cov, err
	}
	at, missing, err := s.pastLedger(ctx, li, n)
	if missing {
		cov.Partial(store.SpentMissingReason(li.Coverage.Since)) // outputs spent after n may be missing from the twin
	}
	return at, cov, err
}

// pastLedger is the ledger at index n (at most li's index), a milestone whose time is
// known (indexed, or the bootstrap's; else 404), and whether the spent twin, which a read
// at an earlier index reads, may lack spends.
func (s *API) pastLedger(ctx context.Context, li store.LedgerIndex, n uint32) (store.LedgerIndex, bool, error) {
	at, err := s.st.LedgerAt(ctx, li.Coverage, n)
	if errors.Is(err, store.ErrNotFound) {
		return at, false, rest.NotFound("milestone %d is not indexed: the ledger at it is not known", n)
	} else if err != nil {
		return at, false, err
	}
	missing, err := ledgerquery.SpentMissing(ctx, s.st, li.Coverage)
	return at, missing, err
}

// heldCandidates are the outputs naming address in an owning role that the ledger held
// at index: the unspent ones and, asked at an earlier index (past), the spent ones a
// later milestone spent; 422 past MaxBalanceOutputs of either.
func (s *API) heldCandidates(ctx context.Context, address string, index uint32, past bool) ([]store.UnspentRow, error) {
	createdBy := uint32(0)
	if past {
		createdBy = index // partitions beginning after it hold no output it held
	}
	rows, err := s.st.OwnerCandidates(ctx, address, MaxBalanceOutputs, createdBy)
	if err == nil && past {
		var spent []store.UnspentRow
		spent, err = s.st.SpentOwnerCandidates(ctx, address, MaxBalanceOutputs, createdBy)
		for _, r := range spent {
			if uint32(r.SpentMilestoneIndex) > index {
				rows = append(rows, r)
			}
		}
	}
	if errors.Is(err, store.ErrTooManyOutputs) {
		return nil, &rest.APIError{Status: http.StatusUnprocessableEntity, Title: "too many outputs",
			Detail: err.Error() + "; see /api/explorer/v2/ledger/richest-addresses"}
	}
	return rows, err
}

// ledgerIndex is the advertised ledger index (store.LedgerCoverage); 404 before any
// milestone is synced or a bootstrap recorded.
func (s *API) ledgerIndex(ctx context.Context) (store.LedgerIndex, error) {
	li, err := s.st.LedgerIndex(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return li, rest.NotFound("no milestone is synced yet: there is no ledger state")
	}
	return li, rest.MissingIsInternal(err)
}

func U64(v uint64) string { return strconv.FormatUint(v, 10) }
