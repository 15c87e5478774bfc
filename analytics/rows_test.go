package analytics_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// checkMilestoneRows: one ms_analytics row per milestone, in its partition, with the
// generator's counts and the milestone's chain-order timestamp.
func checkMilestoneRows(t *testing.T, st *store.Store, w *want) {
	rows := storetest.Rows(t, st, `SELECT ms_range_id, milestone_index, message_count, transaction_count,
		transferred_tokens, writetime(message_count) AS ts FROM ms_analytics`)
	if len(rows) != tip {
		t.Fatalf("%d ms_analytics rows, want %d", len(rows), tip)
	}
	var transferred uint64
	for _, r := range rows {
		if t.Failed() {
			break // the first milestone that differs tells enough
		}
		i := uint32(r["milestone_index"].(int))
		got := msWant{r["message_count"].(int), r["transaction_count"].(int), uint64(r["transferred_tokens"].(int64))}
		if got != w.ms[i] {
			t.Errorf("milestone %d: got %+v, want %+v", i, got, w.ms[i])
		}
		if rng := r["ms_range_id"].(int); rng != int(i/testChunk) {
			t.Errorf("milestone %d in ms_range_id %d, want %d", i, rng, i/testChunk)
		}
		if ts := r["ts"].(int64); ts != store.Timestamp(i, store.PhaseConfirmed) {
			t.Errorf("milestone %d written at %d, want its chain-order timestamp", i, ts)
		}
		transferred += got.transferred
	}
	if transferred == 0 {
		t.Fatal("nothing transferred on the whole chain: the check above proves little")
	}
}

// checkAddressRows: exactly the (address, milestone) pairs that moved tokens, with the
// generator's sums.
func checkAddressRows(t *testing.T, st *store.Store, w *want) {
	got := map[string]flowWant{}
	for _, r := range storetest.Rows(t, st, `SELECT address, milestone_index, sent_tokens, recv_tokens FROM address_analytics`) {
		key := fmt.Sprintf("%s@%d", r["address"], r["milestone_index"])
		got[key] = flowWant{uint64(r["sent_tokens"].(int64)), uint64(r["recv_tokens"].(int64))}
	}
	wantRows := map[string]flowWant{}
	for addr, byMs := range w.flows {
		for i, f := range byMs {
			wantRows[fmt.Sprintf("%s@%d", addr, i)] = *f
		}
	}
	if !maps.Equal(got, wantRows) {
		t.Fatalf("address_analytics: %d rows, want %d; first differences: %s", len(got), len(wantRows),
			firstDiffs(got, wantRows))
	}
}

// checkMetricSets: each date's four sets hold exactly the generator's members.
func checkMetricSets(t *testing.T, st *store.Store, w *want) {
	got := map[string]map[string]bool{}
	for _, r := range storetest.Rows(t, st, `SELECT date, variant, metric, value FROM metrics_cache`) {
		key := fmt.Sprintf("%s %s/%s", r["date"].(time.Time).UTC().Format(time.DateOnly), r["variant"], r["metric"])
		if got[key] == nil {
			got[key] = map[string]bool{}
		}
		got[key][r["value"].(string)] = true
	}
	wantSets := map[string]map[string]bool{}
	for d, day := range w.days {
		wantSets[d+" address/sent"], wantSets[d+" address/received"] = day.sent, day.recv
		wantSets[d+" address/sent_or_received"], wantSets[d+" index/used"] = day.any, day.tag
	}
	for _, key := range slices.Sorted(maps.Keys(wantSets)) {
		if !maps.Equal(got[key], wantSets[key]) {
			t.Errorf("metrics_cache %s: %d members, want %d; first differences: %s", key, len(got[key]),
				len(wantSets[key]), firstDiffs(got[key], wantSets[key]))
		}
	}
	if len(got) != len(wantSets) {
		t.Errorf("metrics_cache has %d sets, want %d", len(got), len(wantSets))
	}
}

// firstDiffs names up to three keys whose values differ between got and want.
func firstDiffs[V comparable](got, want map[string]V) string {
	keys := slices.Collect(maps.Keys(got))
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		g, inGot := got[k]
		x, inWant := want[k]
		if inGot != inWant || g != x {
			out = append(out, fmt.Sprintf("%s: got %v (present %v), want %v (present %v)", k, g, inGot, x, inWant))
		}
		if len(out) == 3 {
			break
		}
	}
	return fmt.Sprint(out)
}
