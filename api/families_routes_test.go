package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// The families keyspace: activity rows and sync rows for milestones 1..famSynced, ledger
// rows (the fold's) for 1..famFolded, protocol parameters at famParamsAt. With testChunk
// 10 the rows lie in four ms_range_id partitions.
const (
	famSynced = 35
	famFolded = 30
)

var famParamsAt = []uint32{1, 20}

type familyPointAnswer struct {
	MilestoneIndex     uint32          `json:"milestoneIndex"`
	MilestoneTimestamp int64           `json:"milestoneTimestamp"`
	Figures            map[string]any  `json:"figures"`
	Parameters         json.RawMessage `json:"parameters"`
}

type familySeriesAnswer struct {
	Family   string              `json:"family"`
	Coverage string              `json:"coverage"`
	Points   []familyPointAnswer `json:"points"`
	Cursor   *string             `json:"cursor"`
}

type milestoneFamiliesAnswer struct {
	MilestoneIndex     uint32                    `json:"milestoneIndex"`
	MilestoneTimestamp int64                     `json:"milestoneTimestamp"`
	Coverage           string                    `json:"coverage"`
	Missing            []string                  `json:"missing"`
	Families           map[string]map[string]any `json:"families"`
	Parameters         json.RawMessage           `json:"parameters"`
}

func famTime(index uint32) time.Time { return time.Unix(1664582400+int64(index)*5, 0).UTC() }

// famFigures are the figures the test stores for a family at a milestone: every path of
// the family (buckets 0..3 for token_distribution), distinct per path and milestone,
// amounts past 2^53 so that a number would lose them.
func famFigures(spec analytics.FamilySpec, index uint32) map[string]int64 {
	out := map[string]int64{}
	for j, path := range spec.Figures {
		for n := range 4 {
			p := strings.ReplaceAll(path, "{N}", fmt.Sprint(n))
			v := int64(index)*1000 + int64(j)*10 + int64(n)
			if wantFigure(p, 0) == "0" {
				v += 1 << 60
			}
			out[p] = v
			if p == path {
				break
			}
		}
	}
	return out
}

func famDetail(index uint32) string {
	return fmt.Sprintf(`{"version":2,"networkName":"testnet-%d","bech32Hrp":"rms","minPowScore":1500,`+
		`"belowMaxDepth":15,"rentStructure":{"vByteCost":100,"vByteFactorData":1,"vByteFactorKey":10},`+
		`"tokenSupply":"1813620509061365"}`, index)
}

// famStored is what the test stored for a family at a milestone; ok is false without a row.
func famStored(spec analytics.FamilySpec, index uint32) (store.FamilyFigures, bool) {
	f := store.FamilyFigures{Family: spec.Name, Figures: famFigures(spec, index)}
	switch {
	case spec.Name == analytics.ProtocolParametersFamily:
		f.Detail = famDetail(index)
		return f, slices.Contains(famParamsAt, index)
	case spec.Ledger:
		return f, index >= 1 && index <= famFolded
	}
	return f, index >= 1 && index <= famSynced
}

// famIndexes are the milestones in [from, to] with a row of spec, newest first.
func famIndexes(spec analytics.FamilySpec, from, to uint32) []uint32 {
	var out []uint32
	for i := to; i >= from && i > 0; i-- {
		if _, ok := famStored(spec, i); ok {
			out = append(out, i)
		}
	}
	return out
}

// newFamiliesEnv writes the families keyspace: the activity rows in the milestones'
// write sets, then their sync rows, then the fold's rows (no fold state yet).
func newFamiliesEnv(t *testing.T) *env {
	t.Helper()
	st, cfg := storetest.NewOrSkip(t, testChunk)
	ctx := context.Background()
	for i := uint32(1); i <= famSynced; i++ {
		var activity, ledger []store.FamilyFigures
		for _, spec := range analytics.Families {
			f, ok := famStored(spec, i)
			switch {
			case !ok:
			case spec.Ledger || spec.Name == analytics.ProtocolParametersFamily:
				ledger = append(ledger, f)
			default:
				activity = append(activity, f)
			}
		}
		if err := st.Apply(ctx, st.FamilyWrites(i, famTime(i), activity), 8); err != nil {
			t.Fatal(err)
		}
		if err := st.WriteSync(ctx, i, 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := st.WriteFamilies(ctx, i, famTime(i), ledger); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FlushSyncSummary(ctx); err != nil {
		t.Fatal(err)
	}
	e := &env{st: st, cfg: cfg}
	e.api = New(st, Config{RequestTimeout: 10 * time.Second})
	e.srv = httptest.NewServer(e.api.Handler())
	t.Cleanup(e.srv.Close)
	return e
}

// TestFamilyRoutes: the /api/analytics/v2 routes over rows the test wrote, across
// ms_range_id partitions: every family's series with its figures nested and amounts as
// strings, paging newest first without skip or repeat, the milestone route with its
// missing families, coverage before and after the fold's state, the daily route, and
// bad parameters.
func TestFamilyRoutes(t *testing.T) {
	e := newFamiliesEnv(t)
	if got := familyNamesOf(analytics.Families); !slices.Equal(got, familyNames) {
		t.Fatalf("families %v, the contract names %v", got, familyNames)
	}
	t.Run("series", func(t *testing.T) { checkFamilySeries(t, e, "partial") })
	t.Run("paging", func(t *testing.T) { checkFamilyPaging(t, e) })
	t.Run("milestone", func(t *testing.T) { checkMilestoneFamilies(t, e, "partial") })
	t.Run("errors", func(t *testing.T) { checkFamilyErrors(t, e) })
	t.Run("daily", func(t *testing.T) { checkDailyFamily(t, e) })
	t.Run("distribution daily", func(t *testing.T) { checkDistributionDaily(t, e) })
	t.Run("cache", func(t *testing.T) { checkFamilyCaching(t, e) })
	ctx := context.Background()
	if err := e.st.AdvanceLedgerFamilies(ctx, store.LedgerFamiliesState{Watermark: famFolded}, "test"); err != nil {
		t.Fatal(err)
	}
	t.Run("series folded partly", func(t *testing.T) { checkFamilySeries(t, e, "partial") })
	if err := e.st.AdvanceLedgerFamilies(ctx, store.LedgerFamiliesState{Watermark: famFolded + 1, Complete: true},
		"test"); err != nil {
		t.Fatal(err)
	}
	t.Run("series folded whole", func(t *testing.T) { checkFamilySeries(t, e, "complete") })
	t.Run("milestone folded whole", func(t *testing.T) { checkMilestoneFamilies(t, e, "complete") })
}

func familyNamesOf(specs []analytics.FamilySpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// checkFamilySeries reads each family's whole series in one page (default bounds) and
// a bounded range, and checks points, figures, timestamps, parameters and coverage
// (ledger: the ledger families' coverage).
func checkFamilySeries(t *testing.T, e *env, ledger string) {
	for _, spec := range analytics.Families {
		for _, q := range []struct {
			query    string
			from, to uint32
		}{{"?pageSize=1000", 0, famSynced}, {"?startIndex=9&endIndex=21", 9, 21}, {"?startIndex=40", 40, 50}} {
			path := analytics.FamiliesPrefix + "/" + spec.Name + q.query
			var got familySeriesAnswer
			if code := e.getNumbers(t, path, &got); code != http.StatusOK {
				t.Fatalf("GET %s: %d", path, code)
			}
			want := famIndexes(spec, q.from, q.to)
			if got.Family != spec.Name || got.Cursor != nil || !slices.Equal(pointIndexes(got.Points), want) {
				t.Errorf("GET %s: family %s, cursor %v, points %v, want %v", path, got.Family, got.Cursor,
					pointIndexes(got.Points), want)
			}
			if wantCov := map[bool]string{false: "complete", true: ledger}[spec.Ledger]; got.Coverage != wantCov {
				t.Errorf("GET %s: coverage %s, want %s", path, got.Coverage, wantCov)
			}
			for _, p := range got.Points {
				checkFamilyPoint(t, path, spec, p)
			}
		}
	}
}

func pointIndexes(points []familyPointAnswer) []uint32 {
	out := []uint32{}
	for _, p := range points {
		out = append(out, p.MilestoneIndex)
	}
	return out
}

func checkFamilyPoint(t *testing.T, path string, spec analytics.FamilySpec, p familyPointAnswer) {
	t.Helper()
	stored, _ := famStored(spec, p.MilestoneIndex)
	where := fmt.Sprintf("GET %s, milestone %d", path, p.MilestoneIndex)
	checkFigures(t, where, p.Figures, stored.Figures)
	if p.MilestoneTimestamp != famTime(p.MilestoneIndex).Unix() {
		t.Errorf("%s: timestamp %d, want %d", where, p.MilestoneTimestamp, famTime(p.MilestoneIndex).Unix())
	}
	checkParameters(t, where, p.Parameters, stored.Detail)
}

// checkParameters compares an answer's parameters with the stored detail, as JSON values.
func checkParameters(t *testing.T, where string, got json.RawMessage, detail string) {
	t.Helper()
	if detail == "" {
		if got != nil {
			t.Errorf("%s: parameters %s, stored none", where, got)
		}
		return
	}
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(detail), &b) != nil || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("%s: parameters %s, want %s", where, got, detail)
	}
}

// checkFamilyPaging follows cursors through series of several page sizes: every point
// once, newest first, full pages but the last, a cursor exactly when points remain.
func checkFamilyPaging(t *testing.T, e *env) {
	for _, spec := range []analytics.FamilySpec{analytics.Families[0], analytics.Families[6]} {
		for _, c := range []struct {
			bounds   string
			from, to uint32
			size     int
		}{{"", 0, famSynced, 4}, {"", 0, famSynced, 5}, {"startIndex=7&endIndex=23&", 7, 23, 3}, {"endIndex=12&", 0, 12, 12}} {
			want := famIndexes(spec, c.from, c.to)
			var seen []uint32
			next := ""
			for pages := 0; ; pages++ {
				path := fmt.Sprintf("%s/%s?%spageSize=%d%s", analytics.FamiliesPrefix, spec.Name, c.bounds, c.size, next)
				var got familySeriesAnswer
				if code := e.getNumbers(t, path, &got); code != http.StatusOK || pages > len(want) {
					t.Fatalf("GET %s: %d after %d pages", path, code, pages)
				}
				seen = append(seen, pointIndexes(got.Points)...)
				if more := len(seen) < len(want); (got.Cursor != nil) != more || more && len(got.Points) != c.size {
					t.Fatalf("GET %s: %d points, cursor %v, with %d of %d seen", path, len(got.Points), got.Cursor,
						len(seen), len(want))
				}
				if got.Cursor == nil {
					break
				}
				next = "&cursor=" + *got.Cursor
			}
			if !slices.Equal(seen, want) {
				t.Errorf("%s %s size %d: pages gave %v, want %v", spec.Name, c.bounds, c.size, seen, want)
			}
		}
	}
}

// checkMilestoneFamilies reads the milestone route where every family has a row, where
// the protocol parameters have none, and past the fold (ledger families missing).
func checkMilestoneFamilies(t *testing.T, e *env, ledger string) {
	for _, index := range []uint32{20, 5, famFolded + 3} {
		path := fmt.Sprintf("%s/milestones/%d", analytics.FamiliesPrefix, index)
		var got milestoneFamiliesAnswer
		if code := e.getNumbers(t, path, &got); code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, code)
		}
		var present, missing []string
		var detail string
		for _, spec := range analytics.Families {
			stored, ok := famStored(spec, index)
			switch {
			case ok:
				present = append(present, spec.Name)
				checkFigures(t, path+" "+spec.Name, map[string]any(got.Families[spec.Name]), stored.Figures)
				detail += stored.Detail
			case spec.Name != analytics.ProtocolParametersFamily:
				missing = append(missing, spec.Name)
			}
		}
		wantCov := ledger
		if len(missing) > 0 {
			wantCov = "partial"
		}
		if got.MilestoneIndex != index || got.MilestoneTimestamp != famTime(index).Unix() || got.Coverage != wantCov ||
			!slices.Equal(got.Missing, missing) || len(got.Families) != len(present) {
			t.Errorf("GET %s: index %d, timestamp %d, coverage %s, missing %v, %d families; want coverage %s, "+
				"missing %v, families %v", path, got.MilestoneIndex, got.MilestoneTimestamp, got.Coverage, got.Missing,
				len(got.Families), wantCov, missing, present)
		}
		checkParameters(t, path, got.Parameters, detail)
	}
}

func checkFamilyErrors(t *testing.T, e *env) {
	series := analytics.FamiliesPrefix + "/block_activity"
	for _, c := range []errorCase{
		{"GET", series + "?startIndex=x", 400, "startIndex"},
		{"GET", series + "?endIndex=-1", 400, "endIndex"},
		{"GET", series + "?startIndex=9&endIndex=8", 400, "endIndex"},
		{"GET", series + "?pageSize=0", 400, "pageSize"},
		{"GET", series + "?pageSize=1001", 400, "pageSize"},
		{"GET", series + "?cursor=abc", 400, "cursor"},
		{"GET", series + "?cursor=", 400, "cursor"},
		{"GET", series + "?endIndex=20&cursor=21", 400, "cursor"},
		{"GET", series + "?startIndex=5&cursor=4", 400, "cursor"},
		{"GET", series + "?page_size=5", 400, "page_size"},
		{"GET", analytics.FamiliesPrefix + "/no_such_family", 404, "no route"},
		{"GET", analytics.FamiliesPrefix + "/milestones/abc", 400, "index"},
		{"GET", analytics.FamiliesPrefix + "/milestones/4294967296", 400, "index"},
		{"GET", analytics.FamiliesPrefix + "/milestones/999", 404, "999"},
		{"GET", analytics.FamiliesPrefix + "/milestones/0", 404, "0"},
		{"GET", analytics.FamiliesPrefix + "/milestones/4294967295", 404, "4294967295"},
		{"GET", analytics.FamiliesPrefix + "/active_addresses/daily?from=2022-13-01", 400, "from"},
		{"GET", analytics.FamiliesPrefix + "/active_addresses/daily?from=2022-10-02&to=2022-10-01", 400, "from"},
		{"GET", analytics.FamiliesPrefix + "/active_addresses/daily?from=9999-01-01", 400, "from"},
		{"GET", analytics.FamiliesPrefix + "/active_addresses/daily?to=2022-10-01&from=2012-09-01", 400, "to"},
		{"POST", series, 405, "read-only"},
	} {
		checkError(t, e.srv.URL, c)
	}
}

// checkDailyFamily writes daily rows across a year boundary and around the default
// window (the last 30 dates up to today) and reads them back.
func checkDailyFamily(t *testing.T, e *env) {
	ctx := context.Background()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	days := []time.Time{date(t, "2022-12-30"), date(t, "2022-12-31"), date(t, "2023-01-01"), date(t, "2023-01-02"),
		today, today.AddDate(0, 0, -29), today.AddDate(0, 0, -30)}
	count := func(d time.Time) int64 { return d.Unix()/86400 + 7 }
	for _, d := range days {
		if err := e.st.WriteDailyFamily(ctx, d, analytics.DailyFamily, map[string]int64{"count": count(d)}); err != nil {
			t.Fatal(err)
		}
	}
	for query, want := range map[string][]time.Time{
		"?from=2022-12-31&to=2023-01-02": {days[3], days[2], days[1]},
		"?from=2022-12-01&to=2023-12-31": {days[3], days[2], days[1], days[0]},
		"":                               {days[4], days[5]},
		"?from=2023-01-02":               {days[4], days[6], days[5], days[3]},
	} {
		slices.SortFunc(want, func(a, b time.Time) int { return b.Compare(a) })
		var got struct {
			Family string `json:"family"`
			Points []struct {
				Date    string         `json:"date"`
				Figures map[string]any `json:"figures"`
			} `json:"points"`
		}
		path := analytics.FamiliesPrefix + "/active_addresses/daily" + query
		if code := e.getNumbers(t, path, &got); code != http.StatusOK || got.Family != analytics.DailyFamily ||
			len(got.Points) != len(want) {
			t.Fatalf("GET %s: %d, family %s, %d points, want %d", path, code, got.Family, len(got.Points), len(want))
		}
		for i, p := range got.Points {
			if p.Date != want[i].Format(rest.DateLayout) {
				t.Errorf("GET %s: point %d is %s, want %s", path, i, p.Date, want[i].Format(rest.DateLayout))
			}
			checkFigures(t, path+" "+p.Date, p.Figures, map[string]int64{"count": count(want[i])})
		}
	}
}

func date(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(rest.DateLayout, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkFamilyCaching: the family answers move (the fold and recounts write rows after the
// milestone): caches keep them for a milestone interval.
func checkFamilyCaching(t *testing.T, e *env) {
	want := "public, max-age=" + seconds(DefaultMovingMaxAge)
	for _, path := range []string{analytics.FamiliesPrefix + "/ledger_outputs", analytics.FamiliesPrefix + "/milestones/20",
		analytics.FamiliesPrefix + "/active_addresses/daily", analytics.FamiliesPrefix + "/milestones/999"} {
		resp, _ := send(t, http.MethodGet, e.srv.URL+path, "", "")
		if got := resp.Header.Get("Cache-Control"); got != want {
			t.Errorf("GET %s: %d, Cache-Control %q, want %q", path, resp.StatusCode, got, want)
		}
	}
}
