package api

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// TestKnownTagsByteBound: one client asking for many answers, each with a query of 4 KiB
// of empty pairs, fills the remembered tags no further than their byte budget, counted
// and on the heap, and what stays is at least half a budget's worth of entries.
func TestKnownTagsByteBound(t *testing.T) {
	const budget = 4 << 20
	s := New(nil, Config{})
	s.known.budget = budget
	rt := s.routeOf(t, core.CorePrefix+"/blocks/{blockId}")
	query := strings.Repeat("&", rest.MaxQueryLength)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const answers = 25_000
	for i := range answers {
		id := fmt.Sprintf("0x%064x", i)
		in := mustParse(t, rt, id, query)
		s.known.put(answerKeyOf(rt, in), knownTag{tag: etagOf([]byte(id)), size: 500, media: "application/json"},
			s.known.generation())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	entry := knownTag{tag: etagOf(nil), media: "application/json"}.cost()
	t.Logf("%d answers of 4 KiB queries: %d remembered, counted %d bytes, heap %+d bytes (budget %d)",
		answers, s.known.len(), s.known.bytes(), held, budget)
	if s.known.bytes() > budget || held > budget {
		t.Errorf("remembered tags counted %d bytes, heap grew %d; budget %d", s.known.bytes(), held, budget)
	}
	if s.known.len() < budget/2/entry {
		t.Errorf("%d remembered, want at least half a budget's worth (%d)", s.known.len(), budget/2/entry)
	}
	runtime.KeepAlive(s)
}

// TestKnownTagsKeepWhatIsAsked: an entry asked for while newer ones arrive survives
// the turnover of the halves; one never asked for again goes.
func TestKnownTagsKeepWhatIsAsked(t *testing.T) {
	var k knownTags
	entry := knownTag{tag: etagOf(nil), media: "application/json"}
	k.budget = 100 * entry.cost()
	key := func(i int) knownKey { return knownKey{byte(i), byte(i >> 8), 1} }
	k.put(key(0), entry, 0)
	k.put(key(1), entry, 0)
	for i := 2; i < 1000; i++ {
		k.put(key(i), entry, 0)
		if _, ok := k.get(key(0)); !ok {
			t.Fatalf("the entry asked for all along was dropped after %d others", i)
		}
	}
	if _, ok := k.get(key(1)); ok {
		t.Error("an entry never asked for outlived 10 budgets of others")
	}
	k.forgetAll()
	k.put(key(2), entry, 0) // read before the forget: not remembered
	if _, ok := k.get(key(2)); ok || k.bytes() != 0 {
		t.Errorf("an answer read before a forget was remembered after it (%d bytes)", k.bytes())
	}
}

// BenchmarkAnswerKey: what naming an answer costs a request of a route whose answers are
// remembered (the canonical input at parse time, its hash at lookup), beside parsing the
// request, which every request pays.
func BenchmarkAnswerKey(b *testing.B) {
	s := New(nil, Config{})
	rt := s.routeOf(b, explorer.ExplorerPrefix+"/milestones/by-index/{index}/blocks")
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := rest.ParseInput(rt, func(string) string { return "17339" }, "sort=oldest&pageSize=50"); err != nil {
				b.Fatal(err)
			}
		}
	})
	in := mustParse(b, rt, "17339", "sort=oldest&pageSize=50")
	b.Run("key", func(b *testing.B) {
		for b.Loop() {
			_ = answerKeyOf(rt, canonicalOf(rt, in))
		}
	})
}

// canonicalOf is in with its canonical input built again (as parseInput builds it).
func canonicalOf(rt *rest.Route, in *rest.Input) *rest.Input {
	in.Canon = rest.CanonicalInput(rt.Pattern, in.Values)
	return in
}
