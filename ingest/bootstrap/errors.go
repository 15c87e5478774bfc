package bootstrap

import (
	"errors"
	"fmt"
)

// Refusals: a file that fails one of these checks is refused before anything of it is
// written. Format errors (version, kind, truncation, trailing bytes, malformed entries)
// are package snapshot's and keep its names.
var (
	// ErrWrongKind: the -snapshot file is a delta, or the -delta file a full snapshot.
	ErrWrongKind = errors.New("bootstrap: wrong kind of snapshot file")
	// ErrNetwork: the file's protocol parameters name another network than the keyspace's.
	ErrNetwork = errors.New("bootstrap: snapshot of another network")
	// ErrNoMilestoneKeys: the files carry milestones, and no keys are known to verify them.
	ErrNoMilestoneKeys = errors.New("bootstrap: no milestone keys for the snapshot's network")
	// ErrDuplicateOutput: an output ID occurs twice in the file's output list.
	ErrDuplicateOutput = errors.New("bootstrap: duplicate output ID")
	// ErrSupply: the outputs plus the treasury do not sum to the token supply.
	ErrSupply = errors.New("bootstrap: outputs and treasury do not sum to the token supply")
	// ErrDiffOrder: the delta's diffs do not start right after the full file's target (the
	// order within a file is the reader's check: snapshot.ErrOrder).
	ErrDiffOrder = errors.New("bootstrap: milestone diffs out of order")
	// ErrDiffLedger: a diff consumes an output the ledger does not hold, creates one it
	// already holds, or records an output otherwise than the snapshot does.
	ErrDiffLedger = errors.New("bootstrap: milestone diff contradicts the ledger")
	// ErrMilestoneChain: a diff's milestone does not follow the one before it (previous
	// milestone ID), or the milestone IDs the headers name.
	ErrMilestoneChain = errors.New("bootstrap: milestones do not chain")
	// ErrDeltaMismatch: the delta file does not continue the full file.
	ErrDeltaMismatch = errors.New("bootstrap: delta snapshot does not continue the full snapshot")
	// ErrTreasury: a receipt's treasury input is not the treasury the ledger holds.
	ErrTreasury = errors.New("bootstrap: treasury does not match")
	// ErrOtherBootstrap: the keyspace holds (or began to write) the ledger of a snapshot at
	// another milestone, and the milestones between the two are not all indexed: the rows of
	// two ledgers would mix (an output spent between them would stay unspent).
	ErrOtherBootstrap = errors.New("bootstrap: the keyspace holds another snapshot's ledger")
	// ErrFileChanged: a snapshot file read again (the check and write passes) is not the
	// file the first pass read: another header, or other outputs.
	ErrFileChanged = errors.New("bootstrap: snapshot file changed between passes")
)

// refuse wraps a refusal with what was found.
func refuse(err error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", err, fmt.Sprintf(format, args...))
}
