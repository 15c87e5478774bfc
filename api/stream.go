package api

import (
	"bufio"
	"context"
	"log/slog"
	"mime"
	"net/http"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// maxStreamTime bounds one streamed answer that is not live (an export): its reads and
// its writes.
const maxStreamTime = 30 * time.Minute

// streamWriteWindow is how long one flushed chunk of a stream may take to leave: the
// write deadline moves before each flush, so a stream lives as long as its client reads.
const streamWriteWindow = 30 * time.Second

// DefaultSlowFlush: a client that takes longer than this to accept one flush is slow; a
// live stream then ends, telling it where to resume (Config.SlowFlush).
const DefaultSlowFlush = 5 * time.Second

// streamChunk is how much of a stream is buffered before it is flushed to the client;
// liveChunk the same for a live stream, which flushes its events as they come and may
// stay open idle by the thousand.
const (
	streamChunk = 32 << 10
	liveChunk   = 4 << 10
)

// stream sends a streamed answer: its body as Write produces it, flushed chunk by chunk
// (and when Write flushes). The status goes with the first chunk: a failure before it is
// answered as any other (its status and error body); one after it ends the body with the
// stream's failure record, the status being 200 by then. A live stream first takes a
// place under the caps on live streams (429 past them).
func (s *Server) stream(w http.ResponseWriter, r *http.Request, rt *rest.Route, st *rest.Stream) {
	if st.Live {
		release, refused := s.live.Admit(clientID(r, s.guard.trusted))
		if refused != nil {
			s.fail(w, r, rt, refused.APIError, nil)
			return
		}
		defer release()
	}
	h := w.Header()
	h.Set("Content-Type", st.Media)
	h.Set("Cache-Control", "no-store")
	rest.SetCoverageHeader(w, st)
	if st.Filename != "" {
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": st.Filename}))
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	ctx := r.Context()
	if !st.Live {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxStreamTime)
		defer cancel()
	}
	fw := &flushingWriter{w: w, rc: http.NewResponseController(w), slowAfter: s.cfg.SlowFlush}
	size := streamChunk
	if st.Live {
		size = liveChunk
	}
	sw := &streamWriter{Writer: bufio.NewWriterSize(fw, size), fw: fw}
	err := st.Write(ctx, sw)
	switch {
	case err != nil && !fw.started:
		for _, k := range []string{"Content-Type", "Content-Disposition", rest.CoverageHeader} {
			h.Del(k)
		}
		s.fail(w, r, rt, rest.Classify(ctx, err, false), err)
		return
	case err != nil && r.Context().Err() == nil: // the client is still there to read it
		slog.Warn("stream ended early", "path", r.URL.Path, "error", err)
		st.WriteFailure(sw, err)
	}
	_ = sw.Flush()
}

// streamWriter is a stream's buffered writer (rest.StreamWriter).
type streamWriter struct {
	*bufio.Writer
	fw *flushingWriter
}

func (s *streamWriter) Slow() bool { return s.fw.slow }

// flushingWriter writes each chunk under a fresh write deadline and flushes it to the
// client; started tells whether a chunk (and so the status) was sent, slow whether one
// took longer than slowAfter to leave.
type flushingWriter struct {
	w         http.ResponseWriter
	rc        *http.ResponseController
	slowAfter time.Duration
	started   bool
	slow      bool
}

func (f *flushingWriter) Write(p []byte) (int, error) {
	f.started = true
	start := time.Now()
	_ = f.rc.SetWriteDeadline(start.Add(streamWriteWindow))
	n, err := f.w.Write(p)
	if err == nil {
		err = f.rc.Flush()
	}
	f.slow = f.slow || time.Since(start) > f.slowAfter
	return n, err
}
