package explorer

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// ledgerUpdatesByAddress is history on Chronicle's path, with Chronicle's startMilestoneIndex.
func (s *API) ledgerUpdatesByAddress(ctx context.Context, in *rest.Input, p *chronicleHistoryParams) (any, error) {
	return s.historyOf(ctx, in, historyRequest{p.Address.Text, p.oldest(), p.Start, &p.historyTail}, true)
}

// errEmptyHistory: Chronicle's startMilestoneIndex leaves no milestone to list.
var errEmptyHistory = errors.New("no milestone in range")
