package node

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// The node's creation of an output agrees with the keyspace's only when its booking
// milestone, time (to the second), block and bytes are the same; each difference is
// refused with ErrCreationMismatch, naming the output and both values.
func TestSameCreation(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	sp := set.Milestones[17339].Consumed[4] // an alias output booked in 17327
	stored := ledgerOutputOf(t, sp.Output)
	same := stored
	same.Timestamp = stored.Timestamp.In(time.FixedZone("east", 3600))
	if err := sameCreation(stored, same); err != nil {
		t.Fatalf("same creation: %v", err)
	}
	other := ledgerOutputOf(t, set.Milestones[17339].Consumed[0].Output) // a basic output booked in 17001
	cases := map[string]struct {
		alter func(*chain.LedgerOutput)
		names []string
	}{
		"booking milestone": {func(lo *chain.LedgerOutput) { lo.MilestoneIndex++ },
			[]string{"booked in milestone 17327, the node says 17328"}},
		"booking time": {func(lo *chain.LedgerOutput) { lo.Timestamp = lo.Timestamp.Add(time.Second) },
			[]string{strconv.FormatInt(stored.Timestamp.Unix(), 10), strconv.FormatInt(stored.Timestamp.Unix()+1, 10)}},
		"block": {func(lo *chain.LedgerOutput) { lo.MessageID = chain.MessageID{9} },
			[]string{stored.MessageID.String(), chain.MessageID{9}.String()}},
		"bytes": {func(lo *chain.LedgerOutput) { lo.Output = other.Output },
			[]string{"bytes (", "the node's ("}},
		"all four": {func(lo *chain.LedgerOutput) {
			*lo = other
			lo.OutputID, lo.Timestamp = stored.OutputID, lo.Timestamp.Add(time.Hour)
		}, []string{"milestone", "booked at", "block", "bytes"}},
	}
	for name, c := range cases {
		node := stored
		c.alter(&node)
		err := sameCreation(stored, node)
		if !errors.Is(err, ErrCreationMismatch) || !errors.As(err, new(*source.Refusal)) ||
			!strings.Contains(err.Error(), stored.OutputID.String()) {
			t.Errorf("%s: %v, want a refusal naming %s", name, err, stored.OutputID)
			continue
		}
		for _, want := range c.names {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not name %q", name, err, want)
			}
		}
	}
}

// ledgerOutputOf is a record of the data as a creation.
func ledgerOutputOf(t *testing.T, o realdata.Output) chain.LedgerOutput {
	t.Helper()
	out, err := chain.DecodeOutput(o.Raw)
	if err != nil {
		t.Fatal(err)
	}
	return chain.LedgerOutput{OutputID: o.OutputID, MessageID: o.BlockID, Output: out, MilestoneIndex: o.Booked,
		Timestamp: time.Unix(int64(o.BookedTimestamp), 0).UTC()}
}
