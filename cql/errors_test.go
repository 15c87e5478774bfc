package cql_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		class cql.Class
		retry bool
	}{
		{"nil", nil, cql.ClassNone, false},
		{"canceled", context.Canceled, cql.ClassCanceled, false},
		{"deadline", context.DeadlineExceeded, cql.ClassCanceled, false},
		{"unavailable", &gocql.RequestErrUnavailable{Consistency: gocql.LocalQuorum, Required: 2, Alive: 1}, cql.ClassUnavailable, true},
		{"write timeout", &gocql.RequestErrWriteTimeout{Consistency: gocql.LocalQuorum, WriteType: "SIMPLE"}, cql.ClassTimeout, true},
		{"read timeout", &gocql.RequestErrReadTimeout{Consistency: gocql.One}, cql.ClassTimeout, true},
		{"client timeout", gocql.ErrTimeoutNoResponse, cql.ClassTimeout, true},
		{"no connections", gocql.ErrNoConnections, cql.ClassUnavailable, true},
		{"session closed", gocql.ErrSessionClosed, cql.ClassUnavailable, true},
		{"no streams", errors.New("gocql: no streams available on connection"), cql.ClassOverloaded, true},
		{"other", errors.New("something else"), cql.ClassOther, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// As Session returns them: wrapped with the statement's name.
			for _, err := range []error{tc.err, wrap(tc.err)} {
				if got := cql.Classify(err); got != tc.class {
					t.Errorf("Classify(%v) = %q, want %q", err, got, tc.class)
				}
				if got := cql.Retryable(err); got != tc.retry {
					t.Errorf("Retryable(%v) = %t, want %t", err, got, tc.retry)
				}
			}
		})
	}
}

func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("messages.by_id: %w", err)
}

// testClassifyNodeError: errors the node itself returns for a bad statement are
// invalid (a bug), never retried.
func testClassifyNodeError(t *testing.T, n node) {
	for _, st := range []*cql.Statement{
		{Name: "test.syntax", Kind: cql.Select, CQL: "SELEC milestone_index FROM sync", Idempotent: true, Binds: 1},
		{Name: "test.column", Kind: cql.Select, CQL: "SELECT no_such_column FROM sync WHERE ms_range_id = ?", Idempotent: true, Binds: 1},
		{Name: "test.table", Kind: cql.Insert, CQL: "INSERT INTO no_such_table (a) VALUES (?)", Idempotent: true, Binds: 1},
	} {
		err := n.s.Exec(context.Background(), st, 1)
		var reqErr gocql.RequestError
		if !errors.As(err, &reqErr) {
			t.Errorf("%s: got %v, want a gocql.RequestError from the node", st.Name, err)
		}
		if got := cql.Classify(err); got != cql.ClassInvalid || cql.Retryable(err) {
			t.Errorf("%s: %v classified %q (retryable %t), want invalid", st.Name, err, got, cql.Retryable(err))
		}
	}
}
