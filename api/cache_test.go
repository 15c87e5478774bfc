package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/httpcall"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

const (
	immutableAnswer = "public, max-age=31536000, immutable"
	movingAnswer    = "public, max-age=5"
)

// reply is an answer as it came over the wire (not decompressed).
type reply struct {
	status int
	h      http.Header
	body   []byte
}

// fetchRaw sends method url with the header pairs kv and returns the answer undecoded.
func fetchRaw(t *testing.T, method, url string, kv ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, body := httpcall.Do(t, client, req)
	return reply{status: resp.StatusCode, h: resp.Header, body: body}
}

func (r reply) check(t *testing.T, what string, status int, cacheControl string) {
	t.Helper()
	if r.status != status || r.h.Get("Cache-Control") != cacheControl {
		t.Errorf("%s: %d %q; want %d %q", what, r.status, r.h.Get("Cache-Control"), status, cacheControl)
	}
}

// TestCacheRealNetwork serves Shimmer milestone 17339, then 17340 as it is indexed: a
// moving answer's tag stops matching once the answer changes, a 404 becomes an immutable
// milestone, and every route class answers with its Cache-Control, ETag and 304s.
func TestCacheRealNetwork(t *testing.T) {
	st, _ := storetest.NewOrSkip(t, store.DefaultChunkSize)
	fake, set := nodetest.Start(t)
	ingestReal := func(index uint32) {
		t.Helper()
		cfg := ingest.Config{Start: index, StopAt: index}
		if err := realnettest.Ingest(t, st, node.Config{URL: fake.URL()}, cfg, quiet); err != nil {
			t.Fatalf("ingest %d: %v", index, err)
		}
		if err := st.FlushSyncSummary(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	ingestReal(set.Lowest())
	srv := httptest.NewServer(New(st, Config{RequestTimeout: 10 * time.Second}).Handler())
	defer srv.Close()
	info, next := srv.URL+core.CorePrefix+"/info", fmt.Sprintf("%s%s/milestones/by-index/%d", srv.URL, core.CorePrefix, set.Highest())
	before := fetchRaw(t, "GET", info)
	before.check(t, "info", http.StatusOK, movingAnswer)
	fetchRaw(t, "GET", next).check(t, "milestone not indexed yet", http.StatusNotFound, movingAnswer)

	ingestReal(set.Highest())
	after := fetchRaw(t, "GET", info, "If-None-Match", before.h.Get("ETag"))
	after.check(t, "info after the next milestone, old tag", http.StatusOK, movingAnswer)
	if after.h.Get("ETag") == before.h.Get("ETag") || bytes.Equal(after.body, before.body) {
		t.Errorf("info kept its tag %s across a milestone", after.h.Get("ETag"))
	}
	fetchRaw(t, "GET", info, "If-None-Match", after.h.Get("ETag")).check(t, "info, its tag", http.StatusNotModified, movingAnswer)
	fetchRaw(t, "GET", next).check(t, "milestone indexed", http.StatusOK, immutableAnswer)

	ms := set.Milestones[set.Highest()]
	t.Run("classes", func(t *testing.T) { checkCacheClasses(t, srv.URL, ms) })
	t.Run("if-none-match", func(t *testing.T) { checkIfNoneMatch(t, srv.URL+core.CorePrefix+"/blocks/"+blockOf(ms)) })
	t.Run("gzip", func(t *testing.T) { checkGzip(t, srv.URL, ms) })
	t.Run("private", func(t *testing.T) { checkPrivate(t, st, blockOf(ms)) })
	t.Run("no-store", func(t *testing.T) { checkNoStore(t, st) })
}

func blockOf(ms *realdata.Milestone) string { return chain.MessageID(ms.Cone[0].ID).String() }

// checkCacheClasses: immutable, settled (decided by the answer) and moving routes, the
// binary form's own tag, and the errors.
func checkCacheClasses(t *testing.T, base string, ms *realdata.Milestone) {
	core := base + core.CorePrefix
	spent := chain.OutputID(ms.Consumed[0].OutputID).String()
	unspent := chain.OutputID(ms.Created[0].OutputID).String()
	for _, c := range []struct{ path, want string }{
		{"/blocks/" + blockOf(ms), immutableAnswer},
		{"/blocks/" + blockOf(ms) + "/metadata", immutableAnswer}, // referenced
		{"/milestones/" + chain.MilestoneID(ms.MilestoneID).String() + "/utxo-changes", immutableAnswer},
		{"/outputs/" + spent, immutableAnswer},
		{"/outputs/" + spent + "/metadata", immutableAnswer},
		{"/outputs/" + unspent, movingAnswer},
		{"/outputs/" + unspent + "/metadata", movingAnswer},
	} {
		r := fetchRaw(t, "GET", core+c.path)
		r.check(t, c.path, http.StatusOK, c.want)
		if r.h.Get("ETag") != etagOf(r.body) {
			t.Errorf("%s: ETag %s, want the hash of the body %s", c.path, r.h.Get("ETag"), etagOf(r.body))
		}
	}
	// The newest milestone's messageId comes with the next milestone: settled, not immutable.
	fetchRaw(t, "GET", base+"/milestones/"+fmt.Sprint(ms.Index)).check(t, "permanode newest milestone", http.StatusOK, movingAnswer)
	fetchRaw(t, "GET", base+"/milestones/"+fmt.Sprint(ms.Index-1)).check(t, "permanode milestone", http.StatusOK, immutableAnswer)
	fetchRaw(t, "GET", base+"/outputs/"+spent).check(t, "permanode spent output", http.StatusOK, immutableAnswer)
	fetchRaw(t, "GET", base+"/outputs/"+unspent).check(t, "permanode unspent output", http.StatusOK, movingAnswer)
	fetchRaw(t, "GET", base+indexer.Tip26Prefix+"/outputs/basic").check(t, "TIP-26 list", http.StatusOK, movingAnswer)

	jsonForm := fetchRaw(t, "GET", core+"/blocks/"+blockOf(ms))
	binary := fetchRaw(t, "GET", core+"/blocks/"+blockOf(ms), "Accept", rest.SerializerMedia, "If-None-Match", jsonForm.h.Get("ETag"))
	binary.check(t, "bytes form, the JSON form's tag", http.StatusOK, immutableAnswer)
	if binary.h.Get("ETag") != etagOf(binary.body) || !strings.Contains(strings.Join(binary.h.Values("Vary"), ","), "Accept") {
		t.Errorf("bytes form: ETag %s, Vary %v; want its own tag, Vary: Accept", binary.h.Get("ETag"), binary.h.Values("Vary"))
	}
	fetchRaw(t, "GET", core+"/blocks/0x"+strings.Repeat("ab", 32)).check(t, "unknown block", http.StatusNotFound, movingAnswer)
	fetchRaw(t, "GET", core+"/blocks/0xzz").check(t, "bad block ID", http.StatusBadRequest, "no-store")
	fetchRaw(t, "GET", core+"/tips").check(t, "501", http.StatusNotImplemented, "no-store")
	fetchRaw(t, "GET", base+"/no/such/route").check(t, "no route", http.StatusNotFound, "no-store")
	fetchRaw(t, "POST", core+"/info").check(t, "405", http.StatusMethodNotAllowed, "no-store")
}

// checkIfNoneMatch: RFC 9110's If-None-Match on GET and HEAD: the tag, its weak form, a
// list holding it and * answer 304 with the tag and no body; other tags answer 200.
func checkIfNoneMatch(t *testing.T, url string) {
	tag := fetchRaw(t, "GET", url).h.Get("ETag")
	for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
		for _, method := range []string{"GET", "HEAD"} {
			r := fetchRaw(t, method, url, "If-None-Match", inm)
			r.check(t, method+" If-None-Match "+inm, http.StatusNotModified, immutableAnswer)
			if len(r.body) != 0 || r.h.Get("ETag") != tag {
				t.Errorf("304 to %s: body of %d bytes, ETag %s; want none, %s", inm, len(r.body), r.h.Get("ETag"), tag)
			}
		}
	}
	for _, inm := range []string{`"other"`, strings.TrimSuffix(tag, `"`) + `x"`} {
		fetchRaw(t, "GET", url, "If-None-Match", inm).check(t, "If-None-Match "+inm, http.StatusOK, immutableAnswer)
	}
}

// checkGzip: a long answer is compressed for a client that accepts gzip, under its own
// tag, and decodes to the plain answer; each form's tag answers 304 only to its own
// form; a short answer goes out plain.
func checkGzip(t *testing.T, base string, ms *realdata.Milestone) {
	url := fmt.Sprintf("%s%s/milestones/by-index/%d/blocks", base, explorerPath, ms.Index)
	plain := fetchRaw(t, "GET", url)
	zipped := fetchRaw(t, "GET", url, "Accept-Encoding", "gzip")
	gzTag := strings.TrimSuffix(plain.h.Get("ETag"), `"`) + gzipETagSuffix + `"`
	if len(plain.body) < gzipMinSize || zipped.h.Get("Content-Encoding") != "gzip" || zipped.h.Get("ETag") != gzTag {
		t.Fatalf("%d plain bytes; gzip answer: Content-Encoding %q, ETag %s; want gzip, %s",
			len(plain.body), zipped.h.Get("Content-Encoding"), zipped.h.Get("ETag"), gzTag)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
	if err != nil {
		t.Fatal(err)
	}
	if unzipped, err := io.ReadAll(zr); err != nil || !bytes.Equal(unzipped, plain.body) {
		t.Errorf("gzip answer decodes to %d bytes (%v); want the plain answer's %d", len(unzipped), err, len(plain.body))
	}
	if !strings.Contains(strings.Join(plain.h.Values("Vary"), ","), "Accept-Encoding") {
		t.Errorf("Vary %v; want Accept-Encoding", plain.h.Values("Vary"))
	}
	r := fetchRaw(t, "GET", url, "Accept-Encoding", "gzip", "If-None-Match", gzTag)
	r.check(t, "gzip tag, gzip accepted", http.StatusNotModified, immutableAnswer)
	if r.h.Get("ETag") != gzTag {
		t.Errorf("304 of the gzip form: ETag %s, want %s", r.h.Get("ETag"), gzTag)
	}
	fetchRaw(t, "GET", url, "If-None-Match", plain.h.Get("ETag")).check(t, "plain tag, plain", http.StatusNotModified, immutableAnswer)
	fetchRaw(t, "GET", url, "If-None-Match", gzTag).check(t, "gzip tag, no gzip", http.StatusOK, immutableAnswer)
	fetchRaw(t, "GET", url, "Accept-Encoding", "gzip", "If-None-Match", plain.h.Get("ETag")).check(t,
		"plain tag, gzip accepted", http.StatusOK, immutableAnswer)

	short := fetchRaw(t, "GET", base+core.CorePrefix+"/blocks/"+blockOf(ms)+"/metadata", "Accept-Encoding", "gzip")
	if len(short.body) >= gzipMinSize || short.h.Get("Content-Encoding") != "" || short.h.Get("ETag") != etagOf(short.body) {
		t.Errorf("short answer of %d bytes: Content-Encoding %q, ETag %s; want plain, its hash",
			len(short.body), short.h.Get("Content-Encoding"), short.h.Get("ETag"))
	}
}

// checkPrivate: behind a read token answers are private (and vary by Authorization);
// a refused request is not stored.
func checkPrivate(t *testing.T, st *store.Store, block string) {
	token := Secret(strings.Repeat("r", MinAdminTokenLength))
	srv := httptest.NewServer(New(st, Config{ReadToken: token}).Handler())
	defer srv.Close()
	url := srv.URL + core.CorePrefix + "/blocks/" + block
	r := fetchRaw(t, "GET", url, "Authorization", "Bearer "+string(token))
	r.check(t, "with the read token", http.StatusOK, "private, max-age=31536000, immutable")
	if !strings.Contains(strings.Join(r.h.Values("Vary"), ","), "Authorization") {
		t.Errorf("Vary %v; want Authorization", r.h.Values("Vary"))
	}
	fetchRaw(t, "GET", srv.URL+core.CorePrefix+"/info", "Authorization", "Bearer "+string(token)).check(t,
		"info with the read token", http.StatusOK, "private, max-age=5")
	fetchRaw(t, "GET", url).check(t, "without the read token", http.StatusUnauthorized, "no-store")
}

// checkNoStore: probes, operations and admin routes are never stored; the moving
// max-age follows the configuration.
func checkNoStore(t *testing.T, st *store.Store) {
	srv := httptest.NewServer(New(st, Config{Ops: true, AdminToken: testToken, MovingMaxAge: 12 * time.Second}).Handler())
	defer srv.Close()
	for _, path := range []string{"/health", "/healthz", "/readyz", "/metrics"} {
		// /health answers 503 here: the data's milestones are old.
		if r := fetchRaw(t, "GET", srv.URL+path); r.h.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d, Cache-Control %q; want no-store", path, r.status, r.h.Get("Cache-Control"))
		}
	}
	fetchRaw(t, "POST", srv.URL+"/admin/resync?from=1&to=2").check(t, "admin without its token", http.StatusUnauthorized, "no-store")
	fetchRaw(t, "GET", srv.URL+"/sync").check(t, "moving, -moving-max-age 12s", http.StatusOK, "public, max-age=12")
}

// TestRevalidateWithoutRead: a revalidation of an immutable answer the server has sent
// answers 304 from the remembered tag, without the store (here none); a tag it does not
// know, or a moving route, still needs the store.
func TestRevalidateWithoutRead(t *testing.T) {
	s := New(nil, Config{})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	id := "0x" + strings.Repeat("ab", 32)
	path := core.CorePrefix + "/blocks/" + id
	tag := etagOf([]byte("the block"))
	block, info := s.routeOf(t, core.CorePrefix+"/blocks/{blockId}"), s.routeOf(t, core.CorePrefix+"/info")
	in := mustParse(t, block, id, "")
	s.known.put(answerKeyOf(block, in), knownTag{tag: tag, size: len("the block"), media: "application/json"},
		s.known.generation())
	r := fetchRaw(t, "GET", srv.URL+path, "If-None-Match", "W/"+tag)
	r.check(t, "known tag", http.StatusNotModified, immutableAnswer)
	if r.h.Get("ETag") != tag {
		t.Errorf("ETag %s, want %s", r.h.Get("ETag"), tag)
	}
	for _, c := range []struct {
		inm  string
		rt   *rest.Route
		what string
	}{{"", block, "no If-None-Match"}, {`"other"`, block, "an unknown tag"}, {tag, info, "a moving route"}} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("If-None-Match", c.inm)
		if s.revalidated(httptest.NewRecorder(), req, c.rt, mustParse(t, c.rt, id, "")) {
			t.Errorf("revalidated %s", c.what)
		}
	}
}

// TestCacheUnreferenced: a block no milestone referenced yet is itself immutable, but
// its metadata (and the permanode's message answer, which carries it) is moving.
func TestCacheUnreferenced(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, testOptions, 5)
	if len(e.pending) == 0 {
		t.Fatal("no pending block")
	}
	id := e.pending[0].ID.String()
	fetchRaw(t, "GET", e.srv.URL+core.CorePrefix+"/blocks/"+id).check(t, "pending block", http.StatusOK, immutableAnswer)
	fetchRaw(t, "GET", e.srv.URL+core.CorePrefix+"/blocks/"+id+"/metadata").check(t, "pending metadata", http.StatusOK, movingAnswer)
	fetchRaw(t, "GET", e.srv.URL+"/messages/"+id).check(t, "pending message", http.StatusOK, movingAnswer)
	fetchRaw(t, "GET", e.srv.URL+"/messages/"+id+"/raw").check(t, "pending message bytes", http.StatusOK, immutableAnswer)
}

// TestCacheSyncedLists: a milestone's lists are immutable only once its sync row exists;
// while it is missing (the milestone being written) they are moving answers.
func TestCacheSyncedLists(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, testOptions, 3)
	lists := []string{
		core.CorePrefix + "/milestones/by-index/3/utxo-changes",
		explorer.ExplorerPrefix + "/milestones/by-index/3/blocks",
		explorer.ExplorerPrefix + "/milestones/by-index/3/ledger-updates",
	}
	for _, path := range lists {
		fetchRaw(t, "GET", e.srv.URL+path).check(t, path+" synced", http.StatusOK, immutableAnswer)
	}
	if err := e.st.Unsync(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	for _, path := range lists {
		fetchRaw(t, "GET", e.srv.URL+path).check(t, path+" not synced", http.StatusOK, movingAnswer)
	}
}

// routeOf is s's route of pattern.
func (s *Server) routeOf(t testing.TB, pattern string) *rest.Route {
	t.Helper()
	for i := range s.routes {
		if s.routes[i].Pattern == pattern {
			return &s.routes[i]
		}
	}
	t.Fatalf("no route %s", pattern)
	return nil
}

// mustParse parses rawQuery for rt, whose path parameters all take value.
func mustParse(t testing.TB, rt *rest.Route, value, rawQuery string) *rest.Input {
	t.Helper()
	in, err := rest.ParseInput(rt, func(string) string { return value }, rawQuery)
	if err != nil {
		t.Fatalf("%s?%s: %v", rt.Pattern, rawQuery, err)
	}
	return in
}
