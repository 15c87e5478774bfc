package cql

import (
	"cmp"
	"context"
	"errors"
	"net"
	"strings"

	"github.com/gocql/gocql"
)

// Class groups driver errors by what a caller should do about them.
type Class string

const (
	ClassNone        Class = ""
	ClassTimeout     Class = "timeout"     // the coordinator or the client gave up waiting: retry idempotent work
	ClassUnavailable Class = "unavailable" // not enough replicas or no connection: back off, retry
	ClassOverloaded  Class = "overloaded"  // the node sheds load: back off harder, retry
	ClassInvalid     Class = "invalid"     // bad statement or schema: a bug, do not retry
	ClassCanceled    Class = "canceled"    // the caller's context ended
	ClassAuth        Class = "auth"        // login, permission or TLS refused: a configuration error, do not retry
	ClassOther       Class = "other"
)

// Classify maps an error from gocql to a Class.
func Classify(err error) Class {
	switch {
	case err == nil:
		return ClassNone
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ClassCanceled
	case errors.Is(err, ErrCredentials), errors.Is(err, ErrPermission), errors.Is(err, ErrTLS),
		errors.Is(err, ErrTLSRequired), credentialsText(err.Error()):
		return ClassAuth
	}
	var (
		reqErr  gocql.RequestError
		netErr  net.Error
		timeout *gocql.RequestErrWriteTimeout
		readTO  *gocql.RequestErrReadTimeout
		unavail *gocql.RequestErrUnavailable
	)
	switch {
	case errors.As(err, &timeout), errors.As(err, &readTO), errors.Is(err, gocql.ErrTimeoutNoResponse),
		errors.As(err, &netErr) && netErr.Timeout():
		return ClassTimeout
	case errors.As(err, &unavail), errors.Is(err, gocql.ErrNoConnections), errors.Is(err, gocql.ErrConnectionClosed),
		errors.Is(err, gocql.ErrSessionClosed), errors.As(err, &netErr):
		return ClassUnavailable
	}
	if errors.As(err, &reqErr) {
		return classifyCode(reqErr.Code())
	}
	return classifyText(err.Error())
}

// codeClasses are the classes of the error codes of the protocol; others are ClassOther.
var codeClasses = map[int]Class{gocql.ErrCodeOverloaded: ClassOverloaded, gocql.ErrCodeTruncate: ClassOverloaded,
	gocql.ErrCodeUnavailable: ClassUnavailable, gocql.ErrCodeBootstrapping: ClassUnavailable,
	gocql.ErrCodeWriteTimeout: ClassTimeout, gocql.ErrCodeReadTimeout: ClassTimeout,
	gocql.ErrCodeSyntax: ClassInvalid, gocql.ErrCodeInvalid: ClassInvalid, gocql.ErrCodeUnprepared: ClassInvalid,
	gocql.ErrCodeConfig: ClassInvalid, gocql.ErrCodeAlreadyExists: ClassInvalid, gocql.ErrCodeProtocol: ClassInvalid,
	gocql.ErrCodeUnauthorized: ClassAuth, gocql.ErrCodeCredentials: ClassAuth}

func classifyCode(code int) Class { return cmp.Or(codeClasses[code], ClassOther) }

// classifyText covers driver errors that carry no code (gocql builds some with fmt.Errorf).
func classifyText(msg string) Class {
	switch {
	case strings.Contains(msg, "no streams available"), strings.Contains(msg, "overloaded"):
		return ClassOverloaded
	case strings.Contains(msg, "no hosts available"), strings.Contains(msg, "connection refused"),
		strings.Contains(msg, "unable to create session"):
		return ClassUnavailable
	case strings.Contains(msg, "timeout"):
		return ClassTimeout
	}
	return ClassOther
}

// Retryable reports whether repeating the same idempotent statement may succeed.
func Retryable(err error) bool {
	switch Classify(err) {
	case ClassTimeout, ClassUnavailable, ClassOverloaded:
		return true
	}
	return false
}

// Refused reports whether the node refused the request itself: a protocol error or an
// invalid request (how a node answers a paging state it cannot read, for one). Classify
// leaves the first as "other" and the second as "invalid".
func Refused(err error) bool {
	var re gocql.RequestError
	return errors.As(err, &re) && (re.Code() == gocql.ErrCodeProtocol || re.Code() == gocql.ErrCodeInvalid)
}

// TooManyTombstones reports whether the node aborted a read for crossing more tombstones
// than its tombstone_failure_threshold (a read failure naming READ_TOO_MANY_TOMBSTONES).
func TooManyTombstones(err error) bool {
	var re gocql.RequestError
	return errors.As(err, &re) && re.Code() == gocql.ErrCodeReadFailure && strings.Contains(err.Error(), "TOMBSTONES")
}
