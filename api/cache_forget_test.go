package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// TestCacheForgets: what the server remembers of immutable answers follows the data:
// a milestone is immutable only once its messageId exists, a query's spelling makes no
// new entry, and a resync or a verify repair makes the tags of answers they change miss.
func TestCacheForgets(t *testing.T) {
	testcontainers.SkipShort(t)
	const n = 4
	e := newEnv(t, testOptions, n)
	t.Run("milestone_message_id", func(t *testing.T) { testMilestoneMessageID(t, e, n) })
	t.Run("canonical_keys", func(t *testing.T) { testCanonicalKeys(t, e) })
	t.Run("resync", func(t *testing.T) { testResyncForgets(t, e) })
	t.Run("repair", func(t *testing.T) { testRepairForgets(t, e) })
}

// testMilestoneMessageID: the newest milestone's answer (no messageId: the next
// milestone carries it) is moving, and its tag is never remembered; once the next
// milestone is indexed the old tag misses and the answer is immutable.
func testMilestoneMessageID(t *testing.T, e *env, n uint32) {
	newest := fmt.Sprintf("%s/milestones/%d", e.srv.URL, n)
	before := fetchRaw(t, "GET", newest)
	before.check(t, "newest milestone, no messageId", http.StatusOK, movingAnswer)
	if strings.Contains(string(before.body), "messageId") {
		t.Fatalf("newest milestone has a messageId: %s", before.body)
	}
	fetchRaw(t, "GET", newest, "If-None-Match", before.h.Get("ETag")).check(t, "its tag, unchanged",
		http.StatusNotModified, movingAnswer)
	fetchRaw(t, "GET", fmt.Sprintf("%s/milestones/%d", e.srv.URL, n-1)).check(t, "older milestone",
		http.StatusOK, immutableAnswer)

	ingestMore(t, e, testOptions, n+1, n+1)
	after := fetchRaw(t, "GET", newest, "If-None-Match", before.h.Get("ETag"))
	after.check(t, "the old tag once the next milestone is indexed", http.StatusOK, immutableAnswer)
	if !strings.Contains(string(after.body), `"messageId":"0x`) {
		t.Errorf("milestone %d after the next one: %s, want its messageId", n, after.body)
	}
}

// testCanonicalKeys: empty pairs, reordered parameters and spellings of one value name
// one remembered answer; a 4 KiB query costs no more than an empty one.
func testCanonicalKeys(t *testing.T, e *env) {
	e.api.known.forgetAll()
	list := e.srv.URL + explorer.ExplorerPrefix + "/milestones/by-index/2/blocks"
	spellings := [][]string{
		{"", "?", "?&&&", "?" + strings.Repeat("&", rest.MaxQueryLength-1)},
		{"?sort=oldest&pageSize=5", "?pageSize=5&sort=oldest", "?&pageSize=05&&sort=oldest&"},
	}
	var tags []string
	for _, same := range spellings {
		for _, q := range same {
			r := fetchRaw(t, "GET", list+q)
			r.check(t, "list"+q[:min(len(q), 40)], http.StatusOK, immutableAnswer)
			tags = append(tags, r.h.Get("ETag"))
		}
	}
	if got := e.api.known.len(); got != len(spellings) {
		t.Errorf("%d spellings of %d answers: %d remembered, want %d", len(tags), len(spellings), got, len(spellings))
	}
	if b := e.api.known.bytes(); b > len(spellings)*(len(knownKey{})+256) {
		t.Errorf("%d answers remembered in %d bytes", len(spellings), b)
	}
	// The tag of one spelling revalidates another.
	fetchRaw(t, "GET", list+"?&&", "If-None-Match", tags[0]).check(t, "another spelling's tag",
		http.StatusNotModified, immutableAnswer)
}

// testResyncForgets: a milestone's list served while a row of it was missing is
// remembered; after POST /admin/resync of the milestone and the row written again, its
// old tag misses.
func testResyncForgets(t *testing.T, e *env) {
	admin := New(e.st, Config{AdminToken: testToken})
	srv := httptest.NewServer(admin.Handler())
	defer srv.Close()
	generationRead(t, admin, srv.URL) // the first read forgets everything: before the list is remembered
	restore := dropListedBlock(t, e, 2)
	list := srv.URL + explorer.ExplorerPrefix + "/milestones/by-index/2/blocks"
	damaged := fetchRaw(t, "GET", list)
	damaged.check(t, "list without a row", http.StatusOK, immutableAnswer)
	fetchRaw(t, "GET", list, "If-None-Match", damaged.h.Get("ETag")).check(t, "remembered", http.StatusNotModified,
		immutableAnswer)

	r := fetchRaw(t, "POST", srv.URL+"/admin/resync?from=2&to=2", "Authorization", "Bearer "+string(testToken))
	if r.status != http.StatusOK {
		t.Fatalf("resync: %d %s", r.status, r.body)
	}
	restore() // what the indexer does when it fetches the milestone again
	again := fetchRaw(t, "GET", list, "If-None-Match", damaged.h.Get("ETag"))
	if again.status != http.StatusOK || len(again.body) <= len(damaged.body) {
		t.Errorf("after the resync, the old tag: %d (%d bytes, were %d); want 200 and the whole list",
			again.status, len(again.body), len(damaged.body))
	}
}

// testRepairForgets: a tag remembered from a damaged list misses once `indexer verify
// -repair` (another process: it raises the store's cache generation) repaired the list,
// within the interval the server reads the generation at; it stays remembered while
// nothing is repaired.
func testRepairForgets(t *testing.T, e *env) {
	e.api.known.store.every.Store(int64(20 * time.Millisecond))
	list := e.srv.URL + explorer.ExplorerPrefix + "/milestones/by-index/3/blocks"
	generationRead(t, e.api, e.srv.URL)
	dropListedBlock(t, e, 3)
	damaged := fetchRaw(t, "GET", list)
	damaged.check(t, "list without a row", http.StatusOK, immutableAnswer)
	time.Sleep(100 * time.Millisecond) // reads of an unchanged generation forget nothing
	fetchRaw(t, "GET", list, "If-None-Match", damaged.h.Get("ETag")).check(t, "remembered", http.StatusNotModified,
		immutableAnswer)
	if _, ok := e.api.known.get(answerKeyOf(e.api.routeOf(t, explorer.ExplorerPrefix+"/milestones/by-index/{index}/blocks"),
		mustParse(t, e.api.routeOf(t, explorer.ExplorerPrefix+"/milestones/by-index/{index}/blocks"), "3", ""))); !ok {
		t.Fatal("the damaged list's tag was forgotten before any repair")
	}

	sum, err := verify.Run(context.Background(), e.st, verify.Options{From: 3, To: 3, Repair: true})
	if err != nil || sum.Rewritten == 0 {
		t.Fatalf("verify -repair: %+v, %v; want rows rewritten", sum, err)
	}
	waitFor(t, "the old tag to miss", func() bool {
		r := fetchRaw(t, "GET", list, "If-None-Match", damaged.h.Get("ETag"))
		return r.status == http.StatusOK && len(r.body) > len(damaged.body)
	})
}

// generationRead waits until s, served at url, has read the store's cache generation.
func generationRead(t *testing.T, s *Server, url string) {
	t.Helper()
	waitFor(t, "the first read of the cache generation", func() bool {
		fetchRaw(t, "GET", url+core.CorePrefix+"/milestones/by-index/1")
		s.known.store.mu.Lock()
		defer s.known.store.mu.Unlock()
		return s.known.store.read
	})
}

// dropListedBlock deletes one messages_by_milestone row of milestone index and returns
// what writes it again (at the wall clock, newer than the delete).
func dropListedBlock(t *testing.T, e *env, index int) func() {
	t.Helper()
	rows := storetest.Rows(t, e.st, fmt.Sprintf(
		"SELECT white_flag_index, message_id FROM messages_by_milestone WHERE milestone_index = %d LIMIT 1", index))
	if len(rows) == 0 {
		t.Fatalf("milestone %d lists no block", index)
	}
	wfi, id := rows[0]["white_flag_index"], rows[0]["message_id"]
	storetest.Rows(t, e.st, fmt.Sprintf("DELETE FROM messages_by_milestone WHERE milestone_index = %d "+
		"AND white_flag_index = %v AND message_id = '%v'", index, wfi, id))
	return func() {
		storetest.Rows(t, e.st, fmt.Sprintf("INSERT INTO messages_by_milestone (milestone_index, white_flag_index, "+
			"message_id) VALUES (%d, %v, '%v')", index, wfi, id))
	}
}

// waitFor polls done until it holds, for at most 10 s.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}
