package api

import (
	"net/http"
	"time"
)

// sendChunk is the slice of an answer that must leave within sendWindow: the write
// deadline moves forward by that much before each slice, so a client that reads at
// least MinSendRate keeps its connection, and one that stops reading loses it within a
// window instead of holding it for the server's whole write timeout.
const sendChunk = 8 << 10

// sendWriter frees its request's in-flight slot when the answer starts (the answer is
// then built: what remains is the client's reading, which is no work of the server's
// and must not hold a slot others wait for), and writes the answer a chunk at a time
// under a deadline that moves as the client reads.
type sendWriter struct {
	http.ResponseWriter
	release func()
	rc      *http.ResponseController
	window  time.Duration // 0: no deadline of its own
}

func newSendWriter(w http.ResponseWriter, release func(), minRate int) *sendWriter {
	sw := &sendWriter{ResponseWriter: w, release: release, rc: http.NewResponseController(w)}
	if minRate > 0 {
		sw.window = time.Duration(sendChunk) * time.Second / time.Duration(minRate)
	}
	return sw
}

// extend gives the next write its window.
func (w *sendWriter) extend() {
	if w.window > 0 {
		_ = w.rc.SetWriteDeadline(time.Now().Add(w.window))
	}
}

func (w *sendWriter) WriteHeader(status int) {
	w.release()
	w.extend()
	w.ResponseWriter.WriteHeader(status)
}

func (w *sendWriter) Write(p []byte) (int, error) {
	w.release()
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), sendChunk)]
		w.extend()
		m, err := w.ResponseWriter.Write(chunk)
		n += m
		if err != nil {
			return n, err
		}
		p = p[len(chunk):]
	}
	return n, nil
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *sendWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
