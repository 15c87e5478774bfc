package api

import (
	"context"
	"errors"
	"slices"
)

// chronicleHistoryParams are historyParams with startMilestoneIndex as Chronicle reads it.
var chronicleHistoryParams = func() []param {
	ps := slices.Clone(historyParams)
	for i := range ps {
		if ps[i].name == "startMilestoneIndex" {
			ps[i].doc = "where the listing starts: updates of milestones before it (newest) or after it (oldest)"
		}
	}
	return ps
}()

// ledgerUpdatesByAddress is history on Chronicle's path, with Chronicle's startMilestoneIndex.
func (s *Server) ledgerUpdatesByAddress(ctx context.Context, in *input) (any, error) {
	return s.historyOf(ctx, in, true)
}

// errEmptyHistory: Chronicle's startMilestoneIndex leaves no milestone to list.
var errEmptyHistory = errors.New("no milestone in range")
