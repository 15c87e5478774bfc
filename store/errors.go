package store

import (
	"errors"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// ErrNotFound: the row a reader was asked for does not exist.
var ErrNotFound = errors.New("not found")

// notFound maps the driver's "no row" to ErrNotFound and leaves other errors alone.
func notFound(err error) error {
	if errors.Is(err, gocql.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// Unavailable reports whether err says the database could not serve a request now, and
// which way: "timeout" (the coordinator or the client gave up waiting), "unavailable"
// (too few replicas, no connection) or "overloaded". Repeating the request later may
// succeed. A caller's ended context is not one of these.
func Unavailable(err error) (why string, ok bool) {
	switch class := cql.Classify(err); class {
	case cql.ClassTimeout, cql.ClassUnavailable, cql.ClassOverloaded:
		return string(class), true
	}
	return "", false
}

// Refused reports whether the node refused a statement itself (a protocol error or an
// invalid request): for a read that carried a client's paging state, the state's fault.
func Refused(err error) bool { return cql.Refused(err) }
