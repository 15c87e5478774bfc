package api

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// testOptions is the chain every route test reads: small pools, so addresses and tags
// recur across partitions.
var testOptions = sim.Options{Seed: 7, MessagesPerMilestone: 12, AddressPool: 30, TagPool: 6, LegacyGenesisOutputs: 20}

// testMilestones is the indexed length of the test chain (five partitions of testChunk).
const chainLength = 40

// TestAPI checks every route against the simulator's ground truth, on one keyspace.
func TestAPI(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, testOptions, chainLength)
	tests := []struct {
		name string
		run  func(*testing.T, *env)
	}{
		{"messages", testMessages},
		{"raw", testRaw},
		{"children", testChildren},
		{"tags", testTags},
		{"transactions", testTransactions},
		{"output_by_id", testOutputByID},
		{"legacy", testLegacy},
		{"milestones", testMilestones},
		{"output_lists", testOutputLists},
		{"versions", testVersions},
		{"paging", testPaging},
		{"cursor_binding", testCursorBinding},
		{"pending_outputs", testPendingOutputs},
		{"errors", testErrors},
		{"forged_state", testForgedState},
		{"ops", testOps}, // last: counts what the others asked
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, e) })
	}
}
