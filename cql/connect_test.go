package cql_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// A refused login, a missing permission or a TLS failure is a configuration error:
// class auth, never retried (authtls/ checks the real ones against a secure node).
func TestClassifyAuth(t *testing.T) {
	for _, err := range []error{
		cql.ErrCredentials, cql.ErrPermission, cql.ErrTLS, cql.ErrTLSRequired,
		fmt.Errorf("connecting: %w", cql.ErrTLS),
		// gocql flattens the node's answer to a bad login into text.
		errors.New("gocql: unable to create session: unable to connect to initial hosts: " +
			"Provided username api and/or password are incorrect"),
		errors.New(`gocql: unable to create session: authentication required (using "org.apache.cassandra.auth.PasswordAuthenticator")`),
	} {
		if got := cql.Classify(err); got != cql.ClassAuth || cql.Retryable(err) {
			t.Errorf("Classify(%v) = %q (retryable %t), want auth, not retryable", err, got, cql.Retryable(err))
		}
	}
	// Still unavailable: a session that could not connect for another reason.
	down := errors.New("gocql: unable to create session: unable to connect to initial hosts: dial tcp: connection refused")
	if got := cql.Classify(down); got != cql.ClassUnavailable {
		t.Errorf("Classify(%v) = %q, want unavailable", down, got)
	}
}
