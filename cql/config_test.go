package cql_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func TestConfigFromEnvAndSecrets(t *testing.T) {
	t.Setenv("CQL_HOSTS", "10.0.0.1:9042,10.0.0.2:9042")
	t.Setenv("CQL_KEYSPACE", "ledger")
	t.Setenv("CQL_CONSISTENCY", "quorum")
	t.Setenv("CQL_USERNAME", "indexer")
	t.Setenv("CQL_PASSWORD", "s3cret-value")
	t.Setenv("CQL_TLS_CA", "/etc/ssl/ca.pem")
	t.Setenv("CQL_TIMEOUT", "3s")
	t.Setenv("CQL_MAX_IN_FLIGHT", "64")
	cfg, err := cql.DefaultConfig().FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hosts) != 2 || cfg.Keyspace != "ledger" || cfg.Consistency != gocql.Quorum ||
		cfg.Timeout != 3*time.Second || cfg.MaxInFlight != 64 {
		t.Fatalf("FromEnv = %+v", cfg)
	}
	if s := cfg.String(); strings.Contains(s, "s3cret") || !strings.Contains(s, "auth=indexer:***") || !strings.Contains(s, "tls=true") {
		t.Fatalf("String() = %q: want the user, TLS on, and no password", s)
	}
	cl := cfg.Cluster()
	auth, ok := cl.Authenticator.(gocql.PasswordAuthenticator)
	if !ok || auth.Username != "indexer" || auth.Password != "s3cret-value" {
		t.Fatalf("authenticator = %#v", cl.Authenticator)
	}
	if cl.SslOpts == nil || cl.SslOpts.CaPath != "/etc/ssl/ca.pem" || !cl.SslOpts.EnableHostVerification {
		t.Fatalf("TLS options = %#v", cl.SslOpts)
	}
}

func TestConfigFromEnvRefusesBadValues(t *testing.T) {
	for name, value := range map[string]string{"CQL_CONSISTENCY": "MOSTLY", "CQL_TIMEOUT": "soon", "CQL_MAX_IN_FLIGHT": "0",
		"CQL_READ_SPECULATION": "-1s"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			if _, err := cql.DefaultConfig().FromEnv(); err == nil || !strings.Contains(err.Error(), value) {
				t.Fatalf("%s=%s: err = %v, want a clear error", name, value, err)
			}
		})
	}
}

func TestConfigReadSpeculation(t *testing.T) {
	if d := cql.DefaultConfig().ReadSpeculation; d != cql.DefaultReadSpeculation || d <= 0 {
		t.Fatalf("default ReadSpeculation = %v, want %v (on)", d, cql.DefaultReadSpeculation)
	}
	for value, want := range map[string]time.Duration{"150ms": 150 * time.Millisecond, "0": 0, "0s": 0} {
		t.Run(value, func(t *testing.T) {
			t.Setenv("CQL_READ_SPECULATION", value)
			cfg, err := cql.DefaultConfig().FromEnv()
			if err != nil || cfg.ReadSpeculation != want {
				t.Fatalf("CQL_READ_SPECULATION=%s: %v, %v; want %v", value, cfg.ReadSpeculation, err, want)
			}
		})
	}
	t.Run("soon", func(t *testing.T) {
		t.Setenv("CQL_READ_SPECULATION", "soon")
		if _, err := cql.DefaultConfig().FromEnv(); err == nil || !strings.Contains(err.Error(), "CQL_READ_SPECULATION") {
			t.Fatalf("CQL_READ_SPECULATION=soon: err = %v, want one naming the variable", err)
		}
	})
}
