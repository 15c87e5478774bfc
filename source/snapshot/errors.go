package snapshot

import (
	"errors"
	"fmt"
)

// Sentinels: every refusal of a file's content is a *FormatError whose Err is one of them.
var (
	// ErrTruncated: the file ends inside a field.
	ErrTruncated = errors.New("truncated")
	// ErrTrailingData: bytes follow the last SEP.
	ErrTrailingData = errors.New("data after the last SEP")
	// ErrVersion: the file format version is not Version.
	ErrVersion = errors.New("unsupported file format version")
	// ErrKind: the type byte is neither full (0) nor delta (1).
	ErrKind = errors.New("unknown snapshot type")
	// ErrMalformed: a length, count, offset or encoded value that the format does not allow.
	ErrMalformed = errors.New("malformed")
	// ErrOutputType: an output whose type is not basic, alias, foundry or NFT (3-6).
	ErrOutputType = errors.New("output type not allowed in a snapshot")
	// ErrOrder: milestone diffs out of the order the file's type prescribes.
	ErrOrder = errors.New("milestone diffs out of order")
	// ErrDiffTooLarge: a milestone diff states a length above Limits.DiffLength.
	ErrDiffTooLarge = errors.New("milestone diff longer than the limit of one diff")
	// ErrDiffsTooLarge: the file's milestone diffs together state more than Limits.DiffsLength.
	ErrDiffsTooLarge = errors.New("milestone diffs longer than the limit of all diffs")
)

// FormatError is a file refused at a byte offset. Offset is the first byte of the field the
// error is about; for ErrTruncated it is where the file ends (the first missing byte), for
// ErrTrailingData the first byte after the last SEP; -1 when unknown (an Output the caller
// built). Field names the field ("output 17
// block ID"; entries are numbered from 0 in file order). Err is one of the sentinels above;
// Cause, when set, gives the detail (a length, or the codec's error about an output or a
// milestone payload).
type FormatError struct {
	Offset int64
	Field  string
	Err    error
	Cause  error
}

func (e *FormatError) Error() string {
	msg := fmt.Sprintf("snapshot: offset %d (%s): %v", e.Offset, e.Field, e.Err)
	if e.Offset < 0 {
		msg = fmt.Sprintf("snapshot: %s: %v", e.Field, e.Err)
	}
	if e.Cause != nil {
		msg += ": " + e.Cause.Error()
	}
	return msg
}

// Unwrap exposes the sentinel and the cause to errors.Is and errors.As.
func (e *FormatError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Cause}
}

// ErrWriteOrder is returned by a Writer used out of order (an output after a diff, an
// output in a delta file, anything after Close).
var ErrWriteOrder = errors.New("snapshot: write out of order")
