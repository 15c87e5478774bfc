package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// jsonBuffers are the buffers answers are encoded into before they are sent.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer: a buffer that grew past this (a long page) is left to the collector
// rather than kept for every later small answer.
const maxPooledBuffer = 1 << 20

// writeJSON answers v as JSON with status. The whole answer is encoded first, so that it
// goes out with its Content-Length in one write (net/http otherwise sends an answer over
// 2 KiB in chunks, which its client reads more slowly), and so that a value that does not
// encode is a 500, not a 200 cut off halfway.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf, status := EncodeJSON(v, status)
	defer PutBuffer(buf)
	SendBody(w, status, "application/json", buf.Bytes())
}

// EncodeJSON encodes v into a pooled buffer (give it back with putBuffer); a value that
// does not encode becomes a 500's error body.
func EncodeJSON(v any, status int) (*bytes.Buffer, int) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		slog.Error("answer does not encode as JSON", "type", fmt.Sprintf("%T", v), "error", err)
		buf.Reset()
		status = http.StatusInternalServerError
		_ = json.NewEncoder(buf).Encode(&APIError{Title: "internal error", Detail: "the answer does not encode as JSON"})
	}
	return buf, status
}

func PutBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBuffer {
		jsonBuffers.Put(buf)
	}
}

// SendBody sends body, of media type media, with status and its Content-Length.
func SendBody(w http.ResponseWriter, status int, media string, body []byte) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", media)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// UnixTime is a time as Chronicle's explorer writes it: unix seconds.
func UnixTime(t time.Time) int64 { return t.Unix() }
