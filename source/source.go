// Package source defines where the indexer reads confirmed milestones from.
package source

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// ErrNotFound is returned (possibly wrapped) for a milestone the source
// cannot serve, typically one beyond its tip.
var ErrNotFound = errors.New("source: milestone not found")

// ErrNotHeld is returned (wrapped in a Refusal) for a milestone the source no longer
// holds, such as one below a pruned node's pruning index: asking again cannot help, but
// another node, or an archive, may hold it.
var ErrNotHeld = errors.New("source: milestone not held")

// Source serves confirmed milestones and not-yet-referenced messages.
type Source interface {
	// Network names the network the source serves, with the keys its milestones are
	// verified against: a keyspace records it and refuses another.
	Network(ctx context.Context) (chain.Network, error)
	// Latest returns the newest confirmed milestone index the source can serve (0 = none yet).
	Latest(ctx context.Context) (uint32, error)
	// Milestone returns confirmed milestone index: its payload, its cone in white-flag order
	// with each message's verdict, and its ledger changes, verified against the network
	// (chain.Verify). A milestone that fails verification is refused (Unverified).
	Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error)
	// Unreferenced returns messages attached after milestone `after` but not yet referenced by a milestone.
	Unreferenced(ctx context.Context, after uint32) ([]chain.UnreferencedMessage, error)
}

// Refusal is an answer of a source that retrying cannot fix: a request the source
// refuses (4xx), or an answer that is malformed or contradicts itself. The indexer stops
// on it with the route and ID it names, instead of retrying forever.
type Refusal struct{ Err error }

func (e *Refusal) Error() string { return "source refused: " + e.Err.Error() }
func (e *Refusal) Unwrap() error { return e.Err }

// Refuse wraps err as a Refusal.
func Refuse(err error) error { return &Refusal{err} }

// ErrUnverified is wrapped by the refusal of a milestone that fails verification.
var ErrUnverified = errors.New("fails verification")

// Unverified is the refusal of milestone index, which failed verification with err.
func Unverified(index uint32, err error) error {
	return Refuse(fmt.Errorf("milestone %d %w: %w", index, ErrUnverified, err))
}

// Verified reads milestone index with read and verifies it against net (chain.Verify),
// as a source does before it serves a milestone; a milestone that fails is refused
// (Unverified).
func Verified(ctx context.Context, index uint32, net chain.Network,
	read func(context.Context, uint32) (*chain.ConfirmedMilestone, error)) (*chain.VerifiedMilestone, error) {
	cm, err := read(ctx, index)
	if err != nil {
		return nil, err
	}
	vm, err := chain.Verify(cm, net)
	if err != nil {
		return nil, Unverified(index, err)
	}
	return vm, nil
}

// Notifier is a source that can tell sooner than polling Latest that a new milestone
// may be confirmed (a node's event API).
type Notifier interface {
	// NewMilestones receives when a milestone may have been confirmed (or new
	// unreferenced messages arrived): a hint to ask Latest (and Unreferenced) now, never
	// a statement of what was confirmed. Nil when the source cannot tell.
	NewMilestones() <-chan struct{}
}
