package cql_test

import (
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func day(d int) time.Time { return time.Date(2022, 3, d, 0, 0, 0, 0, time.UTC) }

// testAnalytics writes rows of each analytics table (with the server's timestamp, as
// the analytics job does) and reads a range of them back.
func testAnalytics(t *testing.T, n node) {
	for _, tc := range []struct {
		insert *cql.Statement
		cols   []string // the insert's columns; the first, the partition key, is bound by the read
		rows   [][]any
		read   *cql.Statement
		args   []any
		want   []int // indexes into rows, in read order
	}{{
		insert: cql.InsertMsAnalytics,
		cols:   []string{"ms_range_id", "milestone_index", "message_count", "transaction_count", "transferred_tokens"},
		rows:   [][]any{{2, 200, 10, 3, int64(7_000)}, {2, 201, 11, 4, int64(8_000)}, {2, 202, 12, 5, int64(9_000)}},
		read:   cql.MsAnalyticsRange, args: []any{2, 200, 202}, want: []int{1, 0},
	}, {
		insert: cql.InsertDailyAnalytics,
		cols:   []string{"year", "date", "total_addresses", "send_addresses", "recv_addresses"},
		rows:   [][]any{{2022, day(1), 100, 40, 60}, {2022, day(2), 110, 50, 70}, {2022, day(3), 120, 55, 75}},
		read:   cql.DailyAnalyticsRange, args: []any{2022, day(2), day(3)}, want: []int{2, 1},
	}, {
		insert: cql.InsertAddressAnalytics,
		cols:   []string{"address", "milestone_index", "sent_tokens", "recv_tokens"},
		rows:   [][]any{{"analytics-address", 300, int64(5), int64(0)}, {"analytics-address", 305, int64(0), int64(9)}},
		read:   cql.AddressAnalyticsRange, args: []any{"analytics-address", 300, 306}, want: []int{1, 0},
	}, {
		insert: cql.InsertDateCache,
		cols:   []string{"date", "start_ms", "end_ms"},
		rows:   [][]any{{day(1), 0, 8639}, {day(2), 8640, 17279}},
		read:   cql.DateCache, args: []any{day(2)}, want: []int{1},
	}} {
		t.Run(tc.insert.Table, func(t *testing.T) {
			for _, r := range tc.rows {
				n.exec(t, tc.insert, r...)
			}
			var want []row
			for _, i := range tc.want {
				want = append(want, zip(tc.cols[1:], tc.rows[i][1:]))
			}
			n.expect(t, tc.read, want, tc.args...)
		})
	}
}

func testMetricsCache(t *testing.T, n node) {
	count := func(variant, metric string) (c int64) {
		t.Helper()
		if err := n.scan(cql.CountMetric, []any{day(9), variant, metric}, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, addr := range []string{"addr-1", "addr-2", "addr-3", "addr-2"} {
		n.exec(t, cql.InsertMetric, day(9), "address", "sent", addr)
	}
	n.exec(t, cql.InsertMetric, day(9), "index", "used", "tag-1")
	n.exec(t, cql.InsertMetric, day(10), "address", "sent", "addr-9")
	if got := count("address", "sent"); got != 3 {
		t.Errorf("sent addresses on day 9: %d, want 3 (one repeated)", got)
	}
	if got := count("address", "received"); got != 0 {
		t.Errorf("received addresses on day 9: %d, want 0", got)
	}
	n.exec(t, cql.DeleteMetrics, day(9))
	if got := count("address", "sent") + count("index", "used"); got != 0 {
		t.Errorf("after delete_date: %d metrics left, want 0", got)
	}
	var c int64
	if err := n.scan(cql.CountMetric, []any{day(10), "address", "sent"}, &c); err != nil || c != 1 {
		t.Errorf("day 10 count %d, %v: want 1 (delete_date only removes its date)", c, err)
	}
}
