package api

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// answer sends out, a handler's result, with its cache headers and entity tag; a GET or
// HEAD whose If-None-Match names that tag gets 304 and no body (RFC 9110 13.1.2).
func (s *Server) answer(w http.ResponseWriter, r *http.Request, rt *rest.Route, in *rest.Input, out any) {
	body, media, status, done := encodeAnswer(out)
	defer done()
	if status != http.StatusOK {
		w.Header().Set("Cache-Control", "no-store")
		rest.SendBody(w, status, media, body)
		return
	}
	class := s.answerClass(r.Context(), rt, out)
	s.setCacheHeaders(w, rt, class)
	if class == rest.CacheNoStore {
		rest.SendBody(w, status, media, body)
		return
	}
	tag := etagOf(body)
	w.Header().Set("ETag", tag)
	if class == rest.CacheImmutable {
		s.remember(rt, in, out, tag, len(body), media)
	}
	if sent := sentETag(w, tag, len(body), media); notModified(r, sent) {
		// The 304 carries the tag the 200 would have: gzip suffixes it only on a body.
		w.Header().Set("ETag", sent)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	rest.SendBody(w, status, media, body)
}

// encodeAnswer is out's body, media type and status (500 when JSON cannot hold out);
// done gives a pooled buffer back.
func encodeAnswer(out any) (body []byte, media string, status int, done func()) {
	switch raw := out.(type) {
	case rest.RawBytes:
		return raw, "application/octet-stream", http.StatusOK, func() {}
	case rest.MediaBytes:
		return raw.Data, raw.Media, http.StatusOK, func() {}
	}
	buf, status := rest.EncodeJSON(out, http.StatusOK)
	return buf.Bytes(), "application/json", status, func() { rest.PutBuffer(buf) }
}

// etagOf is the strong entity tag of body: a hash of its exact bytes.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}

// notModified says whether r's If-None-Match names tag: "*" (some answer exists), or a
// list of tags compared weakly (W/ ignored), as RFC 9110 asks of If-None-Match. Only
// GET and HEAD answer 304.
func notModified(r *http.Request, tag string) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	opaque := strings.TrimPrefix(tag, "W/")
	for _, field := range r.Header.Values("If-None-Match") {
		for _, t := range strings.Split(field, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == opaque {
				return true
			}
		}
	}
	return false
}
