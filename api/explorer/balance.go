package explorer

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
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

// balance sums the outputs the address owns at the ledger index (analytics.HoldingAt):
// the hint reads of its owning roles, then their partitions' pages.
func (s *API) balance(ctx context.Context, _ *rest.Input, p *rest.AddressParams) (any, error) {
	address := p.Address
	li, err := s.ledgerIndex(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.st.OwnerCandidates(ctx, address, MaxBalanceOutputs)
	if errors.Is(err, store.ErrTooManyOutputs) {
		return nil, &rest.APIError{Status: http.StatusUnprocessableEntity, Title: "too many outputs",
			Detail: err.Error() + "; see /api/explorer/v2/ledger/richest-addresses"}
	}
	if err != nil {
		return nil, err
	}
	var total, available, sigLocked uint64
	seen := make(map[string]bool, len(rows))
	for i := range rows {
		r := &rows[i]
		h := analytics.HoldingAt(r, li.Timestamp)
		if h.Owner != address || seen[r.OutputID] || uint32(r.MilestoneIndex) > li.Index {
			continue
		}
		seen[r.OutputID] = true
		total, available, sigLocked = total+h.Total, available+h.Available, sigLocked+h.SigLocked
	}
	return BalanceJSON{TotalBalance: U64(total), AvailableBalance: U64(available), SigLockedBalance: U64(sigLocked),
		LedgerIndex: li.Index, MilestoneTimestamp: li.Timestamp, WithCoverage: rest.WithCoverage{Coverage: rest.CoverageOf(li.Coverage)}}, nil
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
