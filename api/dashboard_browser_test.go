package api

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// browserFamilies are the families whose charts the browser test reads back: every
// figure Chronicle gives for them is one the activity rows hold exactly.
var browserFamilies = []string{"block_activity", "transaction_size", "base_tokens"}

// TestDashboardBrowser opens /dashboard in headless Chromium against an API over the
// real milestones 17339-17340 with a read token, waits for the page to say it is
// ready, and reads the charts' points back from the DOM: the block_activity,
// transaction_size and base_tokens charts hold, at both milestones, Chronicle's own
// figures and no others; the ledger_outputs chart holds what its route answers (the
// fold ran, from a partial base). Without the token the page reports the API's 401. A
// screenshot is saved under the test's temp dir.
func TestDashboardBrowser(t *testing.T) {
	browser := ensureChromium(t)
	e := newRealEnv(t)
	foldLedger(t, e)
	distribution := closingDistributions(t, e)
	srv := tokenServer(t, e.st)
	want := chronicleCharts(t)

	dom := dumpDOM(t, browser, srv.URL+"/dashboard#token="+readToken)
	checkDashboardReady(t, dom)
	got := chartPoints(dom)
	for _, family := range browserFamilies {
		checkChart(t, family, got[family], want[family])
	}
	checkChart(t, "ledger_outputs", got["ledger_outputs"], routeCharts(t, e, "ledger_outputs"))
	checkChart(t, "token_distribution_daily", got["token_distribution_daily"], distribution)
	shot := filepath.Join(t.TempDir(), "dashboard.png")
	runChromium(t, browser, srv.URL+"/dashboard#token="+readToken, "--screenshot="+shot, "--window-size=1280,2400")
	if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
		t.Fatalf("no screenshot at %s: %v", shot, err)
	}
	t.Logf("screenshot: %s", shot)

	t.Run("without the token the page reports the 401", func(t *testing.T) {
		dom := dumpDOM(t, browser, srv.URL+"/dashboard")
		checkRefused(t, dom)
	})
}

// tokenServer is the API over st with the read token required.
func tokenServer(t *testing.T, st *store.Store) *httptest.Server {
	srv := httptest.NewServer(New(st, Config{RequestTimeout: 10 * time.Second, ReadToken: readToken}).Handler())
	t.Cleanup(srv.Close)
	return srv
}

// ensureChromium is the path of chromium, installed by scripts/ensure-chromium.sh when
// missing; the test skips, saying why, only when it cannot be installed.
func ensureChromium(t *testing.T) string {
	if testing.Short() {
		t.Skip("-short: the browser test needs Cassandra and Chromium")
	}
	if path, err := exec.LookPath("chromium"); err == nil {
		return path
	}
	dir, err := realdata.Dir()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "..", "..", "scripts", "ensure-chromium.sh")
	if out, err := exec.Command(script).CombinedOutput(); err != nil {
		t.Skipf("chromium is missing and %s could not install it: %v\n%s", script, err, out)
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skipf("chromium is still missing after %s: %v", script, err)
	}
	return path
}

// runChromium runs headless Chromium on url with a profile of its own (so that no
// session storage carries over) and returns its standard output.
func runChromium(t *testing.T, browser, url string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--user-data-dir=" + t.TempDir(), "--virtual-time-budget=60000"}
	cmd := exec.CommandContext(ctx, browser, append(append(base, args...), url)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, tail(stderr.String(), 2000))
	}
	return out
}

func dumpDOM(t *testing.T, browser, url string) string {
	t.Helper()
	return string(runChromium(t, browser, url, "--dump-dom"))
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

var (
	bodyTag     = regexp.MustCompile(`<body[^>]*>`)
	circleTag   = regexp.MustCompile(`<circle [^>]*>`)
	attribute   = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
	errorBox    = regexp.MustCompile(`<[^>]* id="([^"]+)"[^>]* data-state="error"[^>]*>`)
	authMessage = regexp.MustCompile(`<p id="auth-message"([^>]*)>([^<]*)</p>`)
)

// attrs are the attributes of one tag of the dumped DOM.
func attrs(tag string) map[string]string {
	out := map[string]string{}
	for _, m := range attribute.FindAllStringSubmatch(tag, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// checkDashboardReady: the page has loaded every section, the API took the token, and
// no chart shows an error.
func checkDashboardReady(t *testing.T, dom string) {
	t.Helper()
	body := attrs(bodyTag.FindString(dom))
	if body["data-ready"] != "true" || body["data-auth"] != "" {
		m := authMessage.FindStringSubmatch(dom)
		t.Fatalf("body %v: not ready, or the API refused the page (%v); DOM:\n%s", body, m, tail(dom, 3000))
	}
	for _, at := range errorBox.FindAllStringSubmatchIndex(dom, -1) {
		t.Errorf("%s shows an error: %.300s", dom[at[2]:at[3]], dom[at[1]:])
	}
}

// checkRefused: the page has given up on a clear message naming the 401.
func checkRefused(t *testing.T, dom string) {
	t.Helper()
	body := attrs(bodyTag.FindString(dom))
	m := authMessage.FindStringSubmatch(dom)
	if body["data-ready"] != "true" || body["data-auth"] != "refused" || m == nil ||
		strings.Contains(m[1], "hidden") || !strings.Contains(m[2], "401") || !strings.Contains(m[2], "read token") {
		t.Fatalf("without the token: body %v, message %q; want data-auth=refused and a visible message "+
			"naming the 401 and the read token", body, m)
	}
}

// chartData is a chart's points: series -> milestone index -> value, as text.
type chartData map[string]map[string]string

// chartPoints reads every chart's points (its <circle>s) from the dumped DOM, by family.
func chartPoints(dom string) map[string]chartData {
	out := map[string]chartData{}
	for _, tag := range circleTag.FindAllString(dom, -1) {
		a := attrs(tag)
		fam, series := a["data-family"], a["data-series"]
		if out[fam] == nil {
			out[fam] = chartData{}
		}
		if out[fam][series] == nil {
			out[fam][series] = map[string]string{}
		}
		out[fam][series][a["data-index"]] = a["data-value"]
	}
	return out
}

func checkChart(t *testing.T, family string, got, want chartData) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("the data file has no figures of %s", family)
	}
	if len(got) == 0 {
		t.Errorf("the %s chart holds no points (see its box in the screenshot)", family)
		return
	}
	for series, byIndex := range want {
		for index, value := range byIndex {
			if g, ok := got[series][index]; !ok || g != value {
				t.Errorf("%s chart: %s at %s is %q (drawn: %t), Chronicle's figure is %s", family, series, index, g, ok, value)
			}
		}
	}
	for series, byIndex := range got {
		for index := range byIndex {
			if _, ok := want[series][index]; !ok {
				t.Errorf("%s chart: a point %s at %s the data file does not have", family, series, index)
			}
		}
	}
}

// chronicleCharts are the points the families' charts must hold: inx-chronicle's
// figures (realdata's loader), by family, series (the figure's path) and milestone.
func chronicleCharts(t *testing.T) map[string]chartData {
	byMilestone, err := realdata.ChronicleAnalytics()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]chartData{}
	for index, families := range byMilestone {
		for family, figures := range families {
			if out[family] == nil {
				out[family] = chartData{}
			}
			for path, value := range figures {
				if out[family][path] == nil {
					out[family][path] = map[string]string{}
				}
				out[family][path][fmt.Sprint(index)] = strconv.FormatInt(value, 10)
			}
		}
	}
	return out
}

// foldLedger runs what the analytics worker runs beside the ingest: the ledger
// families' fold and the ledger analytics (richest addresses, token distribution).
func foldLedger(t *testing.T, e *realEnv) {
	t.Helper()
	ctx := context.Background()
	if _, err := (analytics.LedgerFold{Store: e.st, Owner: "test"}).Run(ctx); err != nil {
		t.Fatalf("folding the ledger families: %v", err)
	}
	if _, err := (analytics.LedgerJob{Store: e.st, Owner: "test"}).Run(ctx); err != nil {
		t.Fatalf("ledger analytics: %v", err)
	}
}

// closingDistributions records the date of 17339-17340 as the daily job does (its
// date_cache row) and is the token distribution over time as its route answers it, by
// series and day (unix seconds), in the DOM's form: the address counts the chart draws.
func closingDistributions(t *testing.T, e *realEnv) chartData {
	t.Helper()
	ctx := context.Background()
	at, err := e.st.MilestoneTime(ctx, 17340)
	if err != nil {
		t.Fatal(err)
	}
	day := at.UTC().Truncate(24 * time.Hour)
	if err := e.st.WriteDateCache(ctx, day, store.Range{From: 17339, To: 17340}); err != nil {
		t.Fatal(err)
	}
	var page struct {
		Points []struct {
			Date    string         `json:"date"`
			Figures map[string]any `json:"figures"`
		} `json:"points"`
	}
	path := "/api/analytics/v2/token-distribution?from=" + day.Format(time.DateOnly) + "&to=" + day.Format(time.DateOnly)
	if code := e.getNumbers(t, path, &page); code != 200 || len(page.Points) != 1 {
		t.Fatalf("GET %s: %d, %d points; want the day's", path, code, len(page.Points))
	}
	out := chartData{}
	for series, value := range leaves("", page.Points[0].Figures, map[string]any{}) {
		if !strings.Contains(series, "amount") {
			out[series] = map[string]string{fmt.Sprint(day.Unix()): fmt.Sprint(value)}
		}
	}
	return out
}

// routeCharts is a family's figures as its route answers them, by series and index, in
// the DOM's form (amounts as their decimal text).
func routeCharts(t *testing.T, e *realEnv, family string) chartData {
	t.Helper()
	var page struct {
		Points []struct {
			MilestoneIndex uint32         `json:"milestoneIndex"`
			Figures        map[string]any `json:"figures"`
		} `json:"points"`
	}
	if code := e.getNumbers(t, "/api/analytics/v2/"+family+"?startIndex=17339&endIndex=17340", &page); code != 200 {
		t.Fatalf("%s route: %d", family, code)
	}
	out := chartData{}
	for _, p := range page.Points {
		for kind, v := range p.Figures {
			for figure, value := range v.(map[string]any) {
				series := kind + "." + figure
				if out[series] == nil {
					out[series] = map[string]string{}
				}
				out[series][fmt.Sprint(p.MilestoneIndex)] = fmt.Sprint(value)
			}
		}
	}
	return out
}
