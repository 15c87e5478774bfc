package api

import (
	"fmt"
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// gzipMinSize: answers shorter than this go out plain (they fit one packet anyway).
const gzipMinSize = gzhttp.DefaultMinSize

// gzipETagSuffix is what gzip adds inside the entity tag of an answer it compresses: the
// compressed bytes are another representation, so their strong tag differs.
const gzipETagSuffix = "-gzip"

// gzipWrap compresses answers with gzip for clients that accept it (and adds
// Vary: Accept-Encoding to every answer).
var gzipWrap = mustGzipWrapper()

func mustGzipWrapper() func(http.Handler) http.HandlerFunc {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(gzipMinSize), gzhttp.EnableZstd(false),
		gzhttp.SuffixETag(gzipETagSuffix))
	if err != nil {
		panic(fmt.Errorf("gzip options: %w", err)) // constant options: a programming error
	}
	return wrap
}

// sentETag is the tag an answer of size bytes and media type goes out with through w:
// gzip suffixes the tag of an answer it compresses.
func sentETag(w http.ResponseWriter, tag string, size int, media string) string {
	if size < gzipMinSize || !gzhttp.DefaultContentTypeFilter(media) || !gzipping(w) {
		return tag
	}
	return tag[:len(tag)-1] + gzipETagSuffix + `"`
}

// gzipping says whether w compresses (the client accepts gzip): whether gzip's writer
// is among the writers w wraps.
func gzipping(w http.ResponseWriter) bool {
	for {
		switch t := w.(type) {
		case *gzhttp.GzipResponseWriter, gzhttp.GzipResponseWriterWithCloseNotify:
			return true
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return false
		}
	}
}
