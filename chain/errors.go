package chain

import (
	"errors"
	"fmt"
)

// ErrMalformedID is wrapped by every error about an ID that cannot be parsed
// or does not match the bytes it names.
var ErrMalformedID = errors.New("chain: malformed id")

// ErrMalformedAddress is wrapped by every error about an unparsable address.
var ErrMalformedAddress = errors.New("chain: malformed address")

// ValidationError reports data that breaks a structural rule. Field is a
// dotted path to the offending value (e.g. "payload.outputs[2].amount") so
// an operator can find the bad byte range without a debugger.
type ValidationError struct {
	Field  string
	Reason string
	// Err is an optional sentinel (such as ErrMalformedID) for errors.Is.
	Err error
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("chain: invalid %s: %s", e.Field, e.Reason)
}

// Unwrap exposes the optional sentinel.
func (e *ValidationError) Unwrap() error { return e.Err }

func invalid(field, format string, args ...any) *ValidationError {
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// joinField builds a dotted field path. The relative name "message" stands
// for the message as a whole, so under a prefix it collapses to the prefix.
func joinField(prefix, field string) string {
	switch {
	case prefix == "":
		return field
	case field == "" || field == "message":
		return prefix
	default:
		return prefix + "." + field
	}
}

func indexed(field string, i int) string {
	return fmt.Sprintf("%s[%d]", field, i)
}

// underField re-roots a ValidationError beneath prefix; other errors pass
// through unchanged.
func underField(prefix string, err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	return &ValidationError{Field: joinField(prefix, ve.Field), Reason: ve.Reason, Err: ve.Err}
}
