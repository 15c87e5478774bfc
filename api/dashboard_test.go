package api

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestDashboardPublic: with a read token set, the dashboard's page and the files it
// names are served without the token, each with its media type and a policy that keeps
// the page to its own origin, while the API behind them still answers 401.
func TestDashboardPublic(t *testing.T) {
	srv := httptest.NewServer(New(store.New(nil, testChunk), Config{ReadToken: readToken}).Handler())
	t.Cleanup(srv.Close)
	page := getPublic(t, srv.URL+"/dashboard", "text/html")
	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(refs) != 2 {
		t.Fatalf("the page names %d files, want its script and style sheet: %v", len(refs), refs)
	}
	for _, ref := range refs {
		if !strings.HasPrefix(ref[1], "/dashboard/") {
			t.Errorf("the page names %s, outside /dashboard/", ref[1])
		}
		media := map[bool]string{true: "text/javascript", false: "text/css"}[strings.HasSuffix(ref[1], ".js")]
		getPublic(t, srv.URL+ref[1], media)
	}
	if resp, _ := send(t, http.MethodGet, srv.URL+"/sync", "", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/sync without the token: %d, want 401", resp.StatusCode)
	}
}

// getPublic GETs url without a token and checks the answer is 200 of the media type
// under the dashboard's content security policy.
func getPublic(t *testing.T, url, media string) string {
	t.Helper()
	resp, body := send(t, http.MethodGet, url, "", "")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), media) {
		t.Fatalf("%s: %d %s, want 200 %s", url, resp.StatusCode, resp.Header.Get("Content-Type"), media)
	}
	if resp.Header.Get("Content-Security-Policy") != analytics.DashboardCSP {
		t.Errorf("%s: Content-Security-Policy %q", url, resp.Header.Get("Content-Security-Policy"))
	}
	return string(body)
}

// TestDashboardFamilies: the dashboard draws every family the Chronicle data file
// names, and protocol_parameters, which the file does not hold.
func TestDashboardFamilies(t *testing.T) {
	script, err := analytics.DashboardFiles.ReadFile("dashboard/app.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)const FAMILIES = \[(.*?)\];`).FindSubmatch(script)
	if m == nil {
		t.Fatal("app.js declares no FAMILIES")
	}
	var drawn []string
	for _, q := range regexp.MustCompile(`"([a-z_]+)"`).FindAllSubmatch(m[1], -1) {
		drawn = append(drawn, string(q[1]))
	}
	want := []string{"protocol_parameters"}
	for family := range chronicleCharts(t) {
		want = append(want, family)
	}
	slices.Sort(want)
	if got := slices.Sorted(slices.Values(drawn)); !slices.Equal(got, want) {
		t.Errorf("the dashboard draws %v, want %v", got, want)
	}
}
