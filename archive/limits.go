package archive

import (
	"errors"
	"fmt"
)

// Limits bound what reading an archive holds in memory.
type Limits struct {
	// Window is how many milestones below the one asked for the source decodes and holds
	// for the requests still to come: the pipeline's FetchAhead, whose requests are at
	// most that far apart. Records further below are skipped undecoded. Default
	// DefaultWindow.
	Window int
	// MaxRecord is the largest record body read, in bytes: a record declaring more is
	// refused (TooLargeError) before any of its body is read. Default DefaultMaxRecord.
	MaxRecord uint32
}

// DefaultWindow is the pipeline's default FetchAhead.
const DefaultWindow = 8

// DefaultMaxRecord is far above a real milestone's record: the Shimmer milestones of the
// test data take 19 KB and 84 KB, a sim milestone of 12 blocks 11 KB.
const DefaultMaxRecord = 64 << 20

func (l Limits) withDefaults() Limits {
	if l.Window < 1 {
		l.Window = DefaultWindow
	}
	if l.MaxRecord == 0 {
		l.MaxRecord = DefaultMaxRecord
	}
	return l
}

// ErrTooLarge is wrapped by every TooLargeError.
var ErrTooLarge = errors.New("archive: record over the size cap")

// TooLargeError is a record whose declared length is over the cap (Limits.MaxRecord):
// refused before its body is read. The archive may be sound; a larger cap reads it.
type TooLargeError struct {
	File     string
	Record   int   // 1 is the first milestone
	Offset   int64 // of the record's first byte in the decompressed stream
	Declared uint32
	Max      uint32
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("archive %s: record %d at offset %d declares %d bytes, over the cap of %d "+
		"(a real milestone takes some 10-100 KB; raise the cap only for an archive you trust)",
		e.File, e.Record, e.Offset, e.Declared, e.Max)
}

func (e *TooLargeError) Unwrap() error { return ErrTooLarge }
