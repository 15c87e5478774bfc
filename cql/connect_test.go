package cql_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// A TLS file that is missing or not PEM is refused before any connection, named by its
// variable, as a TLS error (gocql would report a session it could not create: retried).
func TestOpenChecksTLSFiles(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, says string
		cfg        func(*cql.Config)
	}{
		{"missing CA", "CQL_TLS_CA", func(c *cql.Config) { c.TLSCAFile = filepath.Join(t.TempDir(), "none.pem") }},
		{"CA not PEM", "no PEM certificate", func(c *cql.Config) { c.TLSCAFile = garbage }},
		{"client key pair not PEM", "CQL_TLS_CERT", func(c *cql.Config) { c.TLSCertFile, c.TLSKeyFile = garbage, garbage }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cql.DefaultConfig()
			cfg.Hosts = []string{"127.0.0.1:1"} // never dialed
			tc.cfg(&cfg)
			for _, open := range []func(cql.Config) (*cql.Session, error){cql.Open, cql.OpenSchema} {
				_, err := open(cfg)
				if !errors.Is(err, cql.ErrTLS) || cql.Classify(err) != cql.ClassAuth || !strings.Contains(fmt.Sprint(err), tc.says) {
					t.Errorf("got %v (class %q), want a TLS error naming %q", err, cql.Classify(err), tc.says)
				}
			}
		})
	}
}

func TestFromEnvRefusesHalfCredentials(t *testing.T) {
	for _, env := range [][2]string{{"CQL_PASSWORD", "secret-value"}, {"CQL_TLS_CERT", "/etc/client.pem"}, {"CQL_TLS_KEY", "/etc/client-key.pem"}} {
		t.Run(env[0], func(t *testing.T) {
			t.Setenv(env[0], env[1])
			_, err := cql.DefaultConfig().FromEnv()
			if err == nil || strings.Contains(err.Error(), "secret-value") {
				t.Errorf("%s alone: got %v, want an error (without the value)", env[0], err)
			}
		})
	}
}
