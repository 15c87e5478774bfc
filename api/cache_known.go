package api

import (
	"crypto/sha256"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// maxKnownBytes bounds the memory of the remembered tags: about 85 000 answers.
const maxKnownBytes = 16 << 20

// knownEntryOverhead is what an entry costs beyond its key and its strings' bytes: its
// fixed fields and its share of the map's slots (measured about 85 bytes a JSON entry
// at 100 000 entries, more while a map has just grown).
const knownEntryOverhead = 112

// knownTags remembers the entity tag of each immutable answer by request, so that a
// revalidation (If-None-Match) of one answers 304 without reading the answer again: an
// immutable answer, and so its tag, never changes unless a repair or resync rewrites
// what it was read from, which makes the tags forgotten (forgetMilestones, forgetAll,
// and the store's cache generation, cache_generation.go). The zero value is ready.
//
// Entries are keyed by a hash of the route and its canonical parsed input (knownKey),
// so a query's spelling (parameter order, empty pairs) makes no new entry and a key's
// size does not depend on the request. Memory is bounded by bytes in two halves: new
// entries go to cur; when cur holds half the budget, it becomes prev (and the old prev
// is dropped); an entry found in prev moves back to cur. What is asked for stays, what
// is not asked for within a half's worth of new entries goes.
type knownTags struct {
	mu        sync.Mutex
	cur, prev map[knownKey]knownTag
	curBytes  int
	prevBytes int
	budget    int // maxKnownBytes unless a test sets it
	// gen counts the forgets: an answer read under an older generation is not
	// remembered (its reads may predate what the forget was for).
	gen   atomic.Uint64
	store storeGeneration // the store's cache generation, as last read
}

// knownKey names one answer: the hash of its route, canonical input and form.
type knownKey [sha256.Size]byte

// knownTag is what the tag of an answer as sent depends on (sentETag), and the
// milestone whose rows the answer lists (a synced route's), which a resync forgets.
type knownTag struct {
	tag       string
	size      int
	media     string
	milestone uint32
	listed    bool // milestone is set
}

func (t knownTag) cost() int { return len(knownKey{}) + len(t.tag) + len(t.media) + knownEntryOverhead }

func (k *knownTags) limit() int {
	if k.budget > 0 {
		return k.budget
	}
	return maxKnownBytes
}

func (k *knownTags) get(key knownKey) (knownTag, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if t, ok := k.cur[key]; ok {
		return t, true
	}
	t, ok := k.prev[key]
	if ok {
		delete(k.prev, key)
		k.prevBytes -= t.cost()
		k.add(key, t)
	}
	return t, ok
}

// put remembers t under key, unless a forget happened since generation gen was read.
func (k *knownTags) put(key knownKey, t knownTag, gen uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.gen.Load() != gen {
		return
	}
	if old, ok := k.cur[key]; ok {
		delete(k.cur, key)
		k.curBytes -= old.cost()
	}
	if old, ok := k.prev[key]; ok {
		delete(k.prev, key)
		k.prevBytes -= old.cost()
	}
	k.add(key, t)
}

// add puts t in cur, turning cur into prev first when it holds half the budget.
func (k *knownTags) add(key knownKey, t knownTag) {
	if k.cur == nil || k.curBytes+t.cost() > k.limit()/2 {
		k.prev, k.prevBytes = k.cur, k.curBytes
		k.cur, k.curBytes = map[knownKey]knownTag{}, 0
	}
	k.cur[key] = t
	k.curBytes += t.cost()
}

// bytes is what the remembered tags are counted as holding.
func (k *knownTags) bytes() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.curBytes + k.prevBytes
}

func (k *knownTags) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.cur) + len(k.prev)
}

// generation is the forget count an answer about to be read is remembered under.
func (k *knownTags) generation() uint64 { return k.gen.Load() }

// forgetMilestones forgets the tags of the lists of milestones [from, to].
func (k *knownTags) forgetMilestones(from, to uint32) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.gen.Add(1)
	for _, m := range []struct {
		tags  map[knownKey]knownTag
		bytes *int
	}{{k.cur, &k.curBytes}, {k.prev, &k.prevBytes}} {
		for key, t := range m.tags {
			if t.listed && t.milestone >= from && t.milestone <= to {
				delete(m.tags, key)
				*m.bytes -= t.cost()
			}
		}
	}
}

// forgetAll forgets every tag.
func (k *knownTags) forgetAll() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.gen.Add(1)
	k.cur, k.prev, k.curBytes, k.prevBytes = nil, nil, 0, 0
}

// answerKeyOf names the answer in asks of rt: its canonical input and, for a route with
// a bytes form, which form.
func answerKeyOf(rt *rest.Route, in *rest.Input) knownKey {
	h := sha256.New()
	h.Write([]byte(in.Canon))
	if rt.AltMedia != "" && rest.WantsBytes(in.Accept) {
		h.Write([]byte("\x00" + rt.AltMedia))
	}
	return knownKey(h.Sum(nil))
}

// revalidated answers 304 to a request whose If-None-Match names the remembered tag of
// an immutable answer, and says whether it did. It first notes the generation the
// answer, if it is read, is remembered under, and has the store's cache generation
// read when it is due.
func (s *Server) revalidated(w http.ResponseWriter, r *http.Request, rt *rest.Route, in *rest.Input) bool {
	if !rest.Remembers(rt) {
		return false
	}
	in.KnownGen = s.known.generation()
	s.known.store.check(s)
	if r.Header.Get("If-None-Match") == "" {
		return false
	}
	k, ok := s.known.get(answerKeyOf(rt, in))
	if !ok {
		return false
	}
	sent := sentETag(w, k.tag, k.size, k.media)
	if !notModified(r, sent) {
		return false
	}
	s.setCacheHeaders(w, rt, rest.CacheImmutable)
	w.Header().Set("ETag", sent)
	w.WriteHeader(http.StatusNotModified)
	return true
}

// remember keeps the tag of an immutable answer of rt to in.
func (s *Server) remember(rt *rest.Route, in *rest.Input, out any, tag string, size int, media string) {
	if !rest.Remembers(rt) {
		return
	}
	t := knownTag{tag: tag, size: size, media: media}
	t.milestone, t.listed = listedMilestone(out)
	s.known.put(answerKeyOf(rt, in), t, in.KnownGen)
}
