package analytics_test

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// quietLog drops the ingest's log lines.
var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// activityFamilies are the families the milestone's rows hold.
var activityFamilies = []string{analytics.FamilyBlockActivity, analytics.FamilyMilestoneSize,
	analytics.FamilyActiveAddresses, analytics.FamilyBaseTokens, analytics.FamilyOutputActivity,
	analytics.FamilyTransactionSize}

// TestActivityFamiliesEqualChronicle computes the activity families of the real Shimmer
// milestones 17339-17340, as the fake Hornet node serves them, and compares every
// figure with inx-chronicle's own (no database needed).
func TestActivityFamiliesEqualChronicle(t *testing.T) {
	fake, set := nodetest.Start(t)
	src := realnettest.Source(t, node.Config{URL: fake.URL()})
	want := chronicleFigures(t)
	for index := set.Lowest(); index <= set.Highest(); index++ {
		vm, err := src.Milestone(context.Background(), index)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		got := map[string]map[string]int64{}
		for _, f := range analytics.ActivityFamilies(cm) {
			got[f.Family] = f.Figures
		}
		if len(got) != len(activityFamilies) {
			t.Errorf("%d: %d families, want %d", index, len(got), len(activityFamilies))
		}
		for _, family := range activityFamilies {
			compareFamily(t, index, family, got[family], want[index][family])
		}
	}
}

// TestActivityRowsEqualChronicle ingests the real milestones 17339-17340 with the
// analytics rows and compares every activity figure read back from the store with
// inx-chronicle's own.
func TestActivityRowsEqualChronicle(t *testing.T) {
	st, _ := storetest.NewOrSkip(t, store.DefaultChunkSize)
	fake, set := nodetest.Start(t)
	cfg := ingest.Config{Start: set.Lowest(), StopAt: set.Highest()}
	if err := realnettest.Ingest(t, st, node.Config{URL: fake.URL()}, cfg, quietLog); err != nil {
		t.Fatalf("ingest from the node: %v", err)
	}
	want := chronicleFigures(t)
	for index := set.Lowest(); index <= set.Highest(); index++ {
		for _, family := range activityFamilies {
			p, ok, err := st.MilestoneFamily(context.Background(), family, index)
			if err != nil || !ok {
				t.Fatalf("%d %s: ok %v, %v", index, family, ok, err)
			}
			if p.Timestamp.Unix() != int64(set.Milestones[index].Timestamp) {
				t.Errorf("%d %s: timestamp %v, want the milestone's, %d", index, family, p.Timestamp, set.Milestones[index].Timestamp)
			}
			compareFamily(t, index, family, p.Figures, want[index][family])
		}
	}
}

func chronicleFigures(t *testing.T) map[uint32]realdata.ChronicleFigures {
	t.Helper()
	want, err := realdata.ChronicleAnalytics()
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// compareFamily fails unless got holds exactly Chronicle's figures of the family.
func compareFamily(t *testing.T, index uint32, family string, got, want map[string]int64) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%d: Chronicle's data has no %s", index, family)
	}
	if !maps.Equal(got, want) {
		for key, w := range want {
			if g, ok := got[key]; !ok || g != w {
				t.Errorf("%d %s.%s = %d (present %v), Chronicle %d", index, family, key, g, ok, w)
			}
		}
		for key := range got {
			if _, ok := want[key]; !ok {
				t.Errorf("%d %s.%s is not Chronicle's", index, family, key)
			}
		}
	}
}
