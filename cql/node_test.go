package cql_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestAgainstNode runs every test that needs Cassandra as a parallel subtest on ONE
// fresh, migrated keyspace (creating and migrating a keyspace costs seconds; each
// subtest uses its own keys, so they do not see each other's rows). Run one with e.g.
// go test -run 'TestAgainstNode/outputs' ./cql/
func TestAgainstNode(t *testing.T) {
	s, cfg := testcontainers.NewKeyspaceOrSkip(t)
	n := node{s: s, cfg: cfg, used: &sync.Map{}}
	tests := []struct {
		name string
		run  func(*testing.T, node)
	}{
		{"prepare_all", testPrepareAll},
		{"models_match_the_schema", testModelsMatchTheSchema},
		{"records", testRecords},
		{"messages", testMessages},
		{"messages_by_milestone", testMessagesByMilestone},
		{"milestones", testMilestones},
		{"milestones_by_bucket", testMilestoneBuckets},
		{"receipts", testReceipts},
		{"families", testFamilies},
		{"ledger_families", testLedgerFamilies},
		{"transactions", testTransactions},
		{"transaction_output_rows", testTransactionOutputRows},
		{"tag_hints", testTagHints},
		{"addresses_hints", testAddressHints},
		{"outputs", testOutputTables},
		{"outputs_booked", testOutputsBooked},
		{"legacy_outputs", testLegacyOutputs},
		{"tags", testTags},
		{"parents", testParents},
		{"sync", testSync},
		{"analytics", testAnalytics},
		{"metrics_cache", testMetricsCache},
		{"indexer_meta", testIndexerMeta},
		{"leases", testLeases},
		{"unspent_outputs", testUnspent},
		{"unspent_outputs_by_address", testUnspentByAddress},
		{"spent_outputs", testSpentTwin},
		{"address_ledger_updates", testAddressUpdates},
		{"milestone_ledger_updates", testMilestoneUpdates},
		{"ledger_analytics", testLedgerAnalytics},
		{"explorer_reads", testExplorerReads},
		{"ping", testPing},
		{"classify_node_error", testClassifyNodeError},
		{"older_timestamp_loses", testOlderTimestampLoses},
		{"bounded_in_flight", testBoundedInFlight},
		{"canceled_context", testCanceledContext},
		{"read_speculation", testReadSpeculation},
		{"verify_statements", testVerifyStatements},
	}
	var ran atomic.Int32
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ran.Add(1)
			tc.run(t, n)
		})
	}
	// After every subtest (unless -run picked some): each statement of the catalogue
	// took part in a round trip, beyond being prepared.
	t.Cleanup(func() {
		if int(ran.Load()) != len(tests) {
			return
		}
		for _, st := range cql.Catalogue() {
			if _, ok := n.used.Load(st.Name); !ok {
				t.Errorf("%s: no round trip runs it", st.Name)
			}
		}
	})
}
