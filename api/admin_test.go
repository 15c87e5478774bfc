package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/internal/logbuf"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// testToken is the admin token of the test servers; wrongToken one a client might try.
const (
	testToken  = "t0ken-for-the-admin-routes-only"
	wrongToken = "t0ken-for-the-admin-routes-onlX"
)

// captureLogs sends the default logger (every level) to a buffer until the test ends.
func captureLogs(t *testing.T) *logbuf.Buffer {
	logs := &logbuf.Buffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return logs
}

// adminAnswer is the status, headers and body of one request.
type adminAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (a adminAnswer) decode(t *testing.T, out any) {
	t.Helper()
	if err := json.Unmarshal(a.body, out); err != nil {
		t.Fatalf("%v: %s", err, a.body)
	}
}

func (a adminAnswer) errorDetail(t *testing.T) string {
	t.Helper()
	var e rest.APIError
	if a.decode(t, &e); e.Title == "" {
		t.Errorf("error answer %s has no title", a.body)
	}
	return e.Detail
}

// do sends method path with the Authorization header auth (none when empty).
func do(t *testing.T, base, method, path, auth string) adminAnswer {
	t.Helper()
	header := ""
	if auth != "" {
		header = "Authorization"
	}
	resp, body := send(t, method, base+path, header, auth)
	return adminAnswer{resp.StatusCode, resp.Header, body}
}

const bearer = "Bearer " + testToken

// testAdmin runs the admin routes against the analytics keyspace: on e's server (no
// token: they do not exist) and on a second server with a token. Every log line of the
// servers meanwhile is captured, and none may hold a token.
func testAdmin(t *testing.T, e *env, w *analyticsWant) {
	logs := captureLogs(t)
	admin := httptest.NewServer(New(e.st, Config{RequestTimeout: 10 * time.Second, AdminToken: testToken}).Handler())
	t.Cleanup(admin.Close)
	t.Run("disabled", func(t *testing.T) { testAdminDisabled(t, e.srv.URL) })
	t.Run("auth", func(t *testing.T) { testAdminAuth(t, admin.URL) })
	t.Run("daily", func(t *testing.T) { testAdminDaily(t, e, admin.URL, w) })
	t.Run("resync", func(t *testing.T) { testAdminResync(t, e, admin.URL, w) })
	out := logs.String()
	for _, secret := range []string{testToken, wrongToken, testToken[:20]} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds a token (%.6s...):\n%s", secret, out)
		}
	}
	for _, line := range []string{`msg="admin request refused"`, `reason="wrong token"`,
		`msg="admin request" route=/admin/resync`, `msg="admin request" route=/admin/analytics/daily/{date}`} {
		if !strings.Contains(out, line) {
			t.Errorf("the log lacks %q: the capture saw nothing?\n%s", line, out)
		}
	}
}

// testAdminDisabled: without a token the admin routes are not there, whatever the
// request carries, and the document does not mention them.
func testAdminDisabled(t *testing.T, base string) {
	for _, path := range []string{"/admin/resync?from=1&to=2", "/admin/analytics/daily/2022-10-01"} {
		for _, auth := range []string{"", bearer, "Bearer "} {
			a := do(t, base, http.MethodPost, path, auth)
			if a.status != http.StatusNotFound || !strings.Contains(a.errorDetail(t), "no route") {
				t.Errorf("POST %s (auth %t), no token configured: %d %s, want 404", path, auth != "", a.status, a.body)
			}
		}
	}
	if doc := do(t, base, http.MethodGet, "/openapi.json", ""); bytes.Contains(doc.body, []byte("/admin")) ||
		bytes.Contains(doc.body, []byte("securitySchemes")) {
		t.Error("/openapi.json describes admin routes that do not exist")
	}
}

// testAdminAuth: a missing, malformed or wrong token is a 401 with a challenge, before
// anything else is looked at; with the token, other methods are a 405 (Allow: POST);
// the read-only routes stay read-only.
func testAdminAuth(t *testing.T, base string) {
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+testToken))
	for _, path := range []string{"/admin/resync?from=1&to=2", "/admin/analytics/daily/2022-10-01",
		"/admin/resync?token=" + testToken, "/admin/analytics/daily/" + testToken} {
		for _, c := range []struct{ method, auth string }{
			{"POST", ""}, {"POST", "Bearer " + wrongToken}, {"POST", "Bearer " + testToken[:len(testToken)-1]},
			{"POST", bearer + "x"}, {"POST", "Bearer"}, {"POST", "Bearer "}, {"POST", testToken}, {"POST", basic},
			{"GET", ""}, {"DELETE", "Bearer " + wrongToken},
		} {
			a := do(t, base, c.method, path, c.auth)
			switch {
			case a.status != http.StatusUnauthorized:
				t.Errorf("%s %s with %q: %d %s, want 401", c.method, path, c.auth, a.status, a.body)
			case !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Bearer"):
				t.Errorf("%s %s: 401 without a Bearer challenge", c.method, path)
			case strings.Contains(string(a.body), testToken[:20]):
				t.Errorf("%s %s: the answer echoes the token: %s", c.method, path, a.body)
			}
		}
	}
	for _, c := range []struct{ method, auth string }{{"GET", bearer}, {"HEAD", bearer}, {"PUT", bearer},
		{"GET", "bearer " + testToken}, {"GET", "BEARER  " + testToken + " "}} {
		a := do(t, base, c.method, "/admin/resync?from=1&to=2", c.auth)
		if a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != "POST" {
			t.Errorf("%s /admin/resync with %q: %d (Allow %q), want 405 (Allow: POST)", c.method, c.auth, a.status,
				a.header.Get("Allow"))
		}
	}
	for _, path := range []string{"/sync", "/analytics/milestones?start=1&end=2", "/milestones/1"} {
		a := do(t, base, http.MethodPost, path, bearer)
		if a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST %s with the admin token: %d, want 405: the token opens admin routes only", path, a.status)
		}
	}
	if a := do(t, base, http.MethodPost, "/admin/other", bearer); a.status != http.StatusNotFound {
		t.Errorf("POST /admin/other: %d, want 404", a.status)
	}
}

// testAdminDaily: the trigger computes a date that has no row yet (the figures are the
// truth's, and GET /analytics/daily serves them), recomputes a computed one, refuses
// incomplete dates with 422 and writes nothing for them, and answers 409 while another
// node holds the date's lease.
func testAdminDaily(t *testing.T, e *env, base string, w *analyticsWant) {
	last := w.complete[len(w.complete)-1]
	for _, d := range []string{last, w.complete[0], last} {
		a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+d, bearer)
		if a.status != http.StatusOK {
			t.Fatalf("POST /admin/analytics/daily/%s: %d %s", d, a.status, a.body)
		}
		var got dayResultJSON
		a.decode(t, &got)
		day, want := w.days[d], w.dailyItem(d)
		got.TookMs = 0
		if wantRes := (dayResultJSON{Date: d, StartMilestone: day.first, EndMilestone: day.last,
			Milestones: int(day.last - day.first + 1), TotalAddresses: want.TotalAddresses,
			SendAddresses: want.SendAddresses, RecvAddresses: want.RecvAddresses}); got != wantRes {
			t.Errorf("POST /admin/analytics/daily/%s: %+v, want %+v", d, got, wantRes)
		}
	}
	path := "/analytics/daily?from=" + w.complete[0] + "&to=2022-12-31"
	var daily rest.Page[tables.DailyStatJSON]
	e.mustGet(t, path, &daily)
	want := []tables.DailyStatJSON{}
	for _, d := range slices.Backward(w.complete) {
		want = append(want, w.dailyItem(d))
	}
	checkItems(t, path, daily.Items, want)

	partial := e.truth.Milestones[len(e.truth.Milestones)-1].Timestamp.UTC().Format(rest.DateLayout)
	for d, reason := range map[string]string{partial: "not past its end", "2022-09-30": "no synced milestone",
		"2031-01-01": "no synced milestone"} {
		a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+d, bearer)
		if a.status != http.StatusUnprocessableEntity || !strings.Contains(a.errorDetail(t), reason) {
			t.Errorf("POST /admin/analytics/daily/%s: %d %s, want 422 naming %q", d, a.status, a.body, reason)
		}
	}
	path = "/analytics/daily?from=2022-09-01&to=2031-12-31"
	e.mustGet(t, path, &daily)
	checkItems(t, path, daily.Items, want)

	for _, bad := range []string{"2022-02-30", "20221001", "2022-10-01T00:00:00Z", "1969-12-31", "x"} {
		a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+bad, bearer)
		if a.status != http.StatusBadRequest || !strings.Contains(a.errorDetail(t), "date") {
			t.Errorf("POST /admin/analytics/daily/%s: %d %s, want 400 naming date", bad, a.status, a.body)
		}
	}
	if a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+last+"?force=1", bearer); a.status != http.StatusBadRequest {
		t.Errorf("unknown parameter: %d, want 400", a.status)
	}

	ctx := context.Background()
	lease := store.Lease{Name: analytics.LeaseName(mustDate(t, last)), Owner: "other-node", TTL: time.Minute}
	if held, err := e.st.AcquireLease(ctx, lease); err != nil || !held {
		t.Fatalf("taking the lease: %t, %v", held, err)
	}
	a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+last, bearer)
	if err := e.st.ReleaseLease(ctx, lease); err != nil {
		t.Fatal(err)
	}
	if a.status != http.StatusConflict || !strings.Contains(a.errorDetail(t), "other-node") {
		t.Errorf("lease held elsewhere: %d %s, want 409 naming its holder", a.status, a.body)
	}
	if a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+last, bearer); a.status != http.StatusOK {
		t.Errorf("lease released: %d %s", a.status, a.body)
	}
}

// testAdminResync: the sync rows of the range are deleted (the store and GET /sync
// show the gap), the count is of rows that existed, the range is bounded, and a date
// over the gap is no longer complete.
func testAdminResync(t *testing.T, e *env, base string, w *analyticsWant) {
	resync := func(from, to uint32) resyncJSON {
		t.Helper()
		a := do(t, base, http.MethodPost, fmt.Sprintf("/admin/resync?from=%d&to=%d", from, to), bearer)
		if a.status != http.StatusOK {
			t.Fatalf("POST /admin/resync?from=%d&to=%d: %d %s", from, to, a.status, a.body)
		}
		var got resyncJSON
		a.decode(t, &got)
		return got
	}
	gapDay := w.days[w.complete[len(w.complete)-1]]
	from, to := gapDay.first+3, gapDay.first+5 // inside the date: its first milestone stays synced
	if got := resync(from, to); got != (resyncJSON{From: from, To: to, Unsynced: 3}) {
		t.Errorf("resync %d..%d: %+v, want 3 rows deleted", from, to, got)
	}
	st, err := e.st.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantGaps := []store.Range{{From: from, To: to}}
	if !slices.Equal(st.Gaps, wantGaps) || st.Oldest != 1 || st.Newest != chainLength {
		t.Errorf("status after resync: %+v, want %d..%d with gaps %v", st, 1, chainLength, wantGaps)
	}
	var sync tables.SyncJSON
	if e.mustGet(t, "/sync", &sync); !slices.Equal(sync.Gaps, wantGaps) {
		t.Errorf("GET /sync gaps %v, want %v", sync.Gaps, wantGaps)
	}
	for _, r := range [][2]uint32{{from, to}, {from - 1, to + 1}, {chainLength + 1, chainLength + 1000},
		{4294967295 - 999, 4294967295}} {
		want := uint32(0)
		if r == [2]uint32{from - 1, to + 1} {
			want = 2 // the two ends were still synced
		}
		if got := resync(r[0], r[1]); got.Unsynced != int(want) {
			t.Errorf("resync %d..%d: %d rows deleted, want %d", r[0], r[1], got.Unsynced, want)
		}
	}
	d := w.complete[len(w.complete)-1]
	a := do(t, base, http.MethodPost, "/admin/analytics/daily/"+d, bearer)
	if gap := fmt.Sprintf("%d..%d", from-1, to+1); a.status != http.StatusUnprocessableEntity ||
		!strings.Contains(a.errorDetail(t), gap) {
		t.Errorf("daily job of %s over the gap: %d %s, want 422 naming %s", d, a.status, a.body, gap)
	}
	for _, c := range []struct {
		query, name string
	}{{"from=5&to=4", "to"}, {"from=1&to=1001", "to"}, {"from=1", "to"}, {"to=3", "from"}, {"from=-1&to=3", "from"},
		{"from=1&to=2&from=1", "from"}, {"from=1&to=2&dry_run=1", "dry_run"}} {
		a := do(t, base, http.MethodPost, "/admin/resync?"+c.query, bearer)
		if a.status != http.StatusBadRequest || !strings.Contains(a.errorDetail(t), c.name) {
			t.Errorf("POST /admin/resync?%s: %d %s, want 400 naming %s", c.query, a.status, a.body, c.name)
		}
	}
	testResyncBelowSources(t, e, base, from)
}

// testResyncBelowSources: once the only source holds milestones from oldest on, a resync
// from below it is refused with a 400 that names indexer import; from oldest on it runs.
func testResyncBelowSources(t *testing.T, e *env, base string, oldest uint32) {
	ctx := context.Background()
	if err := e.st.RecordSourceOldest(ctx, "test-source", oldest); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.st.RecordSourceOldest(ctx, "test-source", 1); err != nil {
			t.Fatal(err)
		}
	}()
	a := do(t, base, http.MethodPost, fmt.Sprintf("/admin/resync?from=%d&to=%d", oldest-1, oldest), bearer)
	if a.status != http.StatusBadRequest || !strings.Contains(a.errorDetail(t), "indexer import") {
		t.Errorf("resync from below the sources' oldest %d: %d %s, want 400 naming indexer import", oldest, a.status, a.body)
	}
	if a := do(t, base, http.MethodPost, fmt.Sprintf("/admin/resync?from=%d&to=%d", oldest, oldest), bearer); a.status != http.StatusOK {
		t.Errorf("resync from the sources' oldest %d: %d %s", oldest, a.status, a.body)
	}
}

// TestSecretNeverPrints: however a Secret (or a Config holding one) is printed, logged
// or encoded, its value does not show.
func TestSecretNeverPrints(t *testing.T) {
	cfg := Config{AdminToken: testToken, RequestTimeout: time.Second}
	var out bytes.Buffer
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s"} {
		fmt.Fprintf(&out, verb+"|"+verb+"\n", cfg, cfg.AdminToken)
	}
	fmt.Fprintln(&out, cfg, cfg.AdminToken, cfg.AdminToken.String())
	j, _ := json.Marshal(struct {
		Token Secret
		Cfg   Config
	}{cfg.AdminToken, cfg})
	out.Write(j)
	for _, h := range []slog.Handler{slog.NewTextHandler(&out, nil), slog.NewJSONHandler(&out, nil)} {
		slog.New(h).Info("config", "token", cfg.AdminToken, "cfg", cfg, slog.Any("any", cfg.AdminToken))
	}
	if strings.Contains(out.String(), testToken) || strings.Contains(strings.ToLower(out.String()), fmt.Sprintf("%x", testToken[:8])) {
		t.Fatalf("a Secret printed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), redacted) {
		t.Fatalf("no redaction marker in:\n%s", out.String())
	}
	if s := New(store.New(nil, testChunk), cfg); s.cfg.AdminToken != "" {
		t.Error("the server keeps the token, not only its sum")
	}
}

func TestCheckAdminToken(t *testing.T) {
	for token, ok := range map[Secret]bool{
		testToken: true, "0123456789abcdef": true, "0123456789abcde": false, "": false,
		"0123456789 abcdef": false, "0123456789abcdef\n": false, "0123456789abcdéf": false,
	} {
		err := CheckAdminToken(token)
		if (err == nil) != ok {
			t.Errorf("CheckAdminToken(%q): %v, want ok %t", string(token), err, ok)
		}
		if err != nil && len(token) > 0 && strings.Contains(err.Error(), string(token)) {
			t.Errorf("the error %q holds the token", err)
		}
	}
}
