package cql_test

import (
	"maps"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testFamilies: a family's milestones list newest first within [start, end] and up to
// the limit; writing a row again leaves one row; another family's rows stay apart; a
// date range lists its dates newest first.
func testFamilies(t *testing.T, n node) {
	const fam = "block_activity"
	for ms := 10; ms <= 13; ms++ {
		figures := map[string]int64{"milestone_count": 1, "tagged_data_count": int64(ms)}
		n.write(t, cql.InsertMilestoneFamily, chainTS(ms, 0), fam, 0, ms, msTime(ms), figures, nil)
	}
	n.write(t, cql.InsertMilestoneFamily, chainTS(12, 0), fam, 0, 12, msTime(12),
		map[string]int64{"milestone_count": 1, "tagged_data_count": 12}, nil)
	n.write(t, cql.InsertMilestoneFamily, chainTS(12, 0), "protocol_parameters", 0, 12, msTime(12),
		map[string]int64{"token_supply": 7}, `{"version":2}`)
	got := n.rows(t, cql.MilestoneFamilyRange, fam, 0, 11, 13, 2)
	if len(got) != 2 || got[0]["milestone_index"] != int64(13) || got[1]["milestone_index"] != int64(12) {
		t.Fatalf("range 11-13 limit 2: %v, want 13 then 12", got)
	}
	if f, _ := got[1]["figures"].(map[string]int64); !maps.Equal(f, map[string]int64{"milestone_count": 1, "tagged_data_count": 12}) {
		t.Errorf("figures of 12: %v", got[1]["figures"])
	}
	if all := n.rows(t, cql.MilestoneFamilyRange, fam, 0, 0, 100, 100); len(all) != 4 {
		t.Errorf("whole range: %d rows, want 4 (a rewrite is one row)", len(all))
	}
	pp := n.rows(t, cql.MilestoneFamilyRange, "protocol_parameters", 0, 0, 100, 100)
	if len(pp) != 1 || pp[0]["detail"] != `{"version":2}` {
		t.Errorf("protocol_parameters: %v, want one row with its detail", pp)
	}
	for d := 9; d <= 11; d++ {
		n.write(t, cql.InsertDailyFamily, chainTS(d, 0), "active_addresses", 2022, day(d), map[string]int64{"count": int64(d)})
	}
	days := n.rows(t, cql.DailyFamilyRange, "active_addresses", 2022, day(10), day(11))
	if len(days) != 2 || days[0]["figures"].(map[string]int64)["count"] != 11 {
		t.Errorf("dates 10-11: %v, want 11 then 10", days)
	}
}
