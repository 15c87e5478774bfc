package rest

import (
	"context"
	"io"
)

// Stream is a handler result written as it is read: an export too long to build in
// memory, or a live event stream. The server sends its headers, then runs Write with a
// context of its own (the stream's time bound, none for a live stream, never the
// request timeout). Write reports a failure after the first byte in the body itself
// (WriteFailure): the status is 200 by then.
type Stream struct {
	Media    string // the Content-Type
	Filename string // the Content-Disposition attachment's file name ("": inline)
	WithCoverage
	// Live: the stream follows the ledger and has no time bound; it counts against the
	// server's caps on live streams (per client and in all).
	Live  bool
	Write func(ctx context.Context, w StreamWriter) error
	// WriteFailure ends a body Write left unfinished, in the body's own format.
	WriteFailure func(w io.Writer, err error)
}

// StreamWriter is where a stream writes: buffered, sent to the client when a chunk fills
// or on Flush.
type StreamWriter interface {
	io.Writer
	Flush() error
	// Slow reports that the client took longer than the server's bound to accept a flush:
	// a live stream then ends, telling the client where to resume.
	Slow() bool
}
