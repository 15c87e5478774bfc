package analytics_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestAnalyticsAgainstGenerator ingests 3.6 days of the sim chain with the analytics rows
// attached and checks every table against the generator's own data. The steps share
// one keyspace (an ingest takes a while) and run in order.
func TestAnalyticsAgainstGenerator(t *testing.T) {
	t.Parallel()
	st, _, src := ingestedSim(t, tip)
	w := expected(t, src, tip)
	t.Logf("chain: %d addresses moved tokens, %d change outputs, outputs by kind %v", len(w.flows), w.change, w.kinds)
	if w.change == 0 || w.kinds[chain.OutputAlias] == 0 || w.kinds[chain.OutputNFT] == 0 {
		t.Fatalf("the test chain must have change outputs, aliases and NFTs to tell the definitions apart")
	}
	t.Run("milestone rows", func(t *testing.T) { checkMilestoneRows(t, st, w) })
	t.Run("block states", func(t *testing.T) { checkBlockStates(t, st, w) })
	t.Run("address rows", func(t *testing.T) { checkAddressRows(t, st, w) })
	t.Run("metric sets", func(t *testing.T) { checkMetricSets(t, st, w) })
	t.Run("milestone readers", func(t *testing.T) { checkMilestoneReaders(t, st, w) })
	t.Run("incomplete dates", func(t *testing.T) { checkIncompleteDates(t, st, src) })
	t.Run("daily jobs", func(t *testing.T) { checkDailyJobs(t, st, w) })
	t.Run("daily families", func(t *testing.T) { checkDailyFamilies(t, st, w) })
	t.Run("replay changes nothing", func(t *testing.T) { checkReplay(t, st, src) })
}
