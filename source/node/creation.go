package node

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// CreatedOutputs reads the creation of an output as the keyspace holds it (written by a
// snapshot bootstrap, by the milestone that created it, or as created before the first
// indexed milestone): its bytes, block, booking milestone and that milestone's time. ok
// is false when the keyspace holds none; an error is the database's.
type CreatedOutputs interface {
	StoredCreation(ctx context.Context, id chain.OutputID) (lo chain.LedgerOutput, ok bool, err error)
}

// ErrCreationMismatch: the node's answer about an output's creation (its bytes, or the
// metadata naming its block, booking milestone and time) differs from the creation the
// keyspace holds. Nothing signs the metadata, so the keyspace's facts stand and the
// milestone spending the output is refused (wrapped in a source.Refusal).
var ErrCreationMismatch = errors.New("the node's creation of the output differs from the keyspace's")

// sameCreation refuses a node's creation of an output that differs from the keyspace's,
// naming the output and both values of each difference.
func sameCreation(stored, node chain.LedgerOutput) error {
	var diffs []string
	if stored.MilestoneIndex != node.MilestoneIndex {
		diffs = append(diffs, fmt.Sprintf("booked in milestone %d, the node says %d", stored.MilestoneIndex, node.MilestoneIndex))
	}
	if stored.Timestamp.Unix() != node.Timestamp.Unix() {
		diffs = append(diffs, fmt.Sprintf("booked at %s, the node says %s", stamp(stored.Timestamp), stamp(node.Timestamp)))
	}
	if stored.MessageID != node.MessageID {
		diffs = append(diffs, fmt.Sprintf("created in block %s, the node says %s", stored.MessageID, node.MessageID))
	}
	if a, b := chain.EncodeOutput(stored.Output), chain.EncodeOutput(node.Output); !bytes.Equal(a, b) {
		diffs = append(diffs, fmt.Sprintf("bytes %s, the node's %s", digest(a), digest(b)))
	}
	if len(diffs) == 0 {
		return nil
	}
	return source.Refuse(fmt.Errorf("output %s: %w: the keyspace has it %s", stored.OutputID, ErrCreationMismatch,
		strings.Join(diffs, "; ")))
}

// stamp is a booking time as the metadata gives it (Unix seconds) and readable.
func stamp(t time.Time) string { return fmt.Sprintf("%d (%s)", t.Unix(), t.UTC().Format(time.RFC3339)) }

// digest names output bytes in a log line: their length and BLAKE2b-256.
func digest(b []byte) string {
	sum := blake2b.Sum256(b)
	return fmt.Sprintf("(%d bytes, BLAKE2b-256 0x%x)", len(b), sum)
}
