package api

import (
	"net/http"
	"sync"
)

// maxKnownTags bounds the remembered tags (about 200 bytes each).
const maxKnownTags = 1 << 16

// knownTags remembers the entity tag of each immutable answer by request, so that a
// revalidation (If-None-Match) of one answers 304 without reading the answer again: an
// immutable answer, and so its tag, never changes. The zero value is ready; when full,
// an arbitrary entry makes room.
type knownTags struct {
	mu   sync.Mutex
	tags map[string]knownTag
}

// knownTag is what the tag of an answer as sent depends on (sentETag).
type knownTag struct {
	tag   string
	size  int
	media string
}

func (k *knownTags) get(key string) (knownTag, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	t, ok := k.tags[key]
	return t, ok
}

func (k *knownTags) put(key string, t knownTag) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.tags == nil {
		k.tags = make(map[string]knownTag)
	}
	if _, ok := k.tags[key]; !ok && len(k.tags) >= maxKnownTags {
		for old := range k.tags {
			delete(k.tags, old)
			break
		}
	}
	k.tags[key] = t
}

// answerKey names the answer r asks of rt: its path and query, and for a route with a
// bytes form, which form.
func answerKey(r *http.Request, rt *route) string {
	key := r.URL.Path + "?" + r.URL.RawQuery
	if rt.altMedia != "" && wantsBytes(r.Header.Get("Accept")) {
		key += "\x00" + rt.altMedia
	}
	return key
}

// revalidated answers 304 to a request whose If-None-Match names the remembered tag of
// an immutable answer, and says whether it did.
func (s *Server) revalidated(w http.ResponseWriter, r *http.Request, rt *route) bool {
	if r.Header.Get("If-None-Match") == "" || cachePolicy[rt.pattern] == cacheMoving {
		return false
	}
	k, ok := s.known.get(answerKey(r, rt))
	if !ok {
		return false
	}
	sent := sentETag(w, k.tag, k.size, k.media)
	if !notModified(r, sent) {
		return false
	}
	s.setCacheHeaders(w, rt, cacheImmutable)
	w.Header().Set("ETag", sent)
	w.WriteHeader(http.StatusNotModified)
	return true
}
