// Package source defines where the indexer reads confirmed milestones from.
package source

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// ErrNotFound is returned (possibly wrapped) for a milestone the source
// cannot serve, typically one beyond its tip.
var ErrNotFound = errors.New("source: milestone not found")

// Source serves confirmed milestones and not-yet-referenced messages.
type Source interface {
	// Latest returns the newest confirmed milestone index the source can serve (0 = none yet).
	Latest(ctx context.Context) (uint32, error)
	// Milestone returns confirmed milestone index with its messages in white-flag order and its ledger changes.
	Milestone(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error)
	// Unreferenced returns messages attached after milestone `after` but not yet referenced by a milestone.
	Unreferenced(ctx context.Context, after uint32) ([]chain.UnreferencedMessage, error)
}
