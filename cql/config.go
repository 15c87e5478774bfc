package cql

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/internal/secret"
)

// Config is how a process reaches the cluster. Secrets (Password) are never logged:
// use String() for log lines.
type Config struct {
	Hosts       []string
	Keyspace    string
	Consistency gocql.Consistency
	LocalDC     string // token-aware, DC-aware routing when set
	Username    string
	Password    string
	TLSCAFile   string
	TLSCertFile string
	TLSKeyFile  string
	TLSInsecure bool
	Timeout     time.Duration // per attempt
	MaxInFlight int           // queries in flight at once from this process
	Retries     int           // extra attempts for idempotent statements
	// ReadSpeculation is how long a select waits for its coordinator before the driver
	// also sends it to the next host of its plan (up to two more, one per wait); the
	// first to answer wins, so a coordinator held up by a replica that just died costs
	// a read this wait rather than its timeout. 0 turns it off. Writes never speculate.
	// A read holds one MaxInFlight slot for all its executions.
	ReadSpeculation time.Duration
}

// DefaultReadSpeculation is Config.ReadSpeculation's default.
const DefaultReadSpeculation = 300 * time.Millisecond

// DefaultMaxInFlight is the default cap on queries in flight per process: the ceiling
// the indexer's adaptive write limit may climb to. It is 256 because the fastest plain
// writer uses 256 goroutines on the benchmarked nodes, and a pipeline capped at 128 makes
// 0.94 of its rate (docs/benchmarks.md).
const DefaultMaxInFlight = 256

// DefaultConfig is a single local node, keyspace "stardust".
func DefaultConfig() Config {
	return Config{Hosts: []string{"127.0.0.1:9042"}, Keyspace: "stardust", Consistency: gocql.LocalQuorum,
		Timeout: 10 * time.Second, MaxInFlight: DefaultMaxInFlight, Retries: 5, ReadSpeculation: DefaultReadSpeculation}
}

// FromEnv overlays CQL_* environment variables on c: CQL_HOSTS, CQL_KEYSPACE,
// CQL_CONSISTENCY, CQL_LOCAL_DC, CQL_USERNAME, CQL_PASSWORD (or CQL_PASSWORD_FILE, a file
// holding it), CQL_TLS_CA, CQL_TLS_CERT, CQL_TLS_KEY, CQL_TLS_INSECURE, CQL_TIMEOUT,
// CQL_READ_SPECULATION, CQL_MAX_IN_FLIGHT.
func (c Config) FromEnv() (Config, error) {
	if v := os.Getenv("CQL_HOSTS"); v != "" {
		c.Hosts = strings.Split(v, ",")
	}
	texts := map[string]*string{"CQL_KEYSPACE": &c.Keyspace, "CQL_LOCAL_DC": &c.LocalDC, "CQL_USERNAME": &c.Username,
		"CQL_TLS_CA": &c.TLSCAFile, "CQL_TLS_CERT": &c.TLSCertFile, "CQL_TLS_KEY": &c.TLSKeyFile}
	for name, dst := range texts {
		if v := os.Getenv(name); v != "" {
			*dst = v
		}
	}
	password, err := secret.Lookup(os.Getenv, "CQL_PASSWORD")
	if err != nil {
		return c, err
	}
	if password != "" {
		c.Password = password
	}
	c.TLSInsecure = c.TLSInsecure || os.Getenv("CQL_TLS_INSECURE") == "true"
	if v := os.Getenv("CQL_CONSISTENCY"); v != "" {
		if c.Consistency, err = ParseConsistency(v); err != nil {
			return c, fmt.Errorf("CQL_CONSISTENCY: %w", err)
		}
	}
	if err := envDuration("CQL_TIMEOUT", &c.Timeout, time.Millisecond); err != nil {
		return c, err
	}
	if err := envDuration("CQL_READ_SPECULATION", &c.ReadSpeculation, 0); err != nil {
		return c, err
	}
	if v := os.Getenv("CQL_MAX_IN_FLIGHT"); v != "" {
		if c.MaxInFlight, err = strconv.Atoi(v); err != nil || c.MaxInFlight < 1 {
			return c, fmt.Errorf("CQL_MAX_IN_FLIGHT=%q: want a positive integer", v)
		}
	}
	if c.Password != "" && c.Username == "" {
		return c, errors.New("CQL_PASSWORD is set without CQL_USERNAME")
	}
	if (c.TLSCertFile == "") != (c.TLSKeyFile == "") {
		return c, errors.New("CQL_TLS_CERT and CQL_TLS_KEY: give both (a client certificate and its key) or neither")
	}
	return c, nil
}

// envDuration reads the duration in variable name into dst, when it is set; one below
// least is refused.
func envDuration(name string, dst *time.Duration, least time.Duration) error {
	v := os.Getenv(name)
	if v == "" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < least {
		return fmt.Errorf("%s=%q: want a duration such as 300ms (at least %v)", name, v, least)
	}
	*dst = d
	return nil
}

// ParseConsistency reads a consistency level name such as LOCAL_QUORUM.
func ParseConsistency(s string) (gocql.Consistency, error) {
	c, err := gocql.ParseConsistencyWrapper(strings.ToUpper(strings.TrimSpace(s)))
	if err != nil {
		return 0, fmt.Errorf("consistency %q: want ONE, QUORUM, LOCAL_QUORUM, ALL, ...", s)
	}
	return c, nil
}

// String describes the config for logs, without the password.
func (c Config) String() string {
	auth := "none"
	if c.Username != "" {
		auth = c.Username + ":***"
	}
	return fmt.Sprintf("hosts=%s keyspace=%s consistency=%s auth=%s tls=%t",
		strings.Join(c.Hosts, ","), c.Keyspace, c.Consistency, auth, c.TLSCAFile != "" || c.TLSInsecure)
}

// Cluster builds the gocql cluster config.
func (c Config) Cluster() *gocql.ClusterConfig {
	cl := gocql.NewCluster(c.Hosts...)
	cl.Keyspace = c.Keyspace
	cl.Consistency = c.Consistency
	cl.SerialConsistency = gocql.LocalSerial
	cl.Timeout = c.Timeout
	cl.ConnectTimeout = 5 * time.Second
	cl.ProtoVersion = 4
	// The default 200µs coalescing wait dominates latency when few queries are in flight.
	cl.WriteCoalesceWaitTime = 0
	cl.ReconnectInterval = 2 * time.Second
	cl.Logger = log.New(io.Discard, "", 0) // the driver's own log lines: errors reach callers
	// Retries are done by Session (context-aware, idempotent statements only).
	cl.RetryPolicy = nil
	fallback := gocql.RoundRobinHostPolicy()
	if c.LocalDC != "" {
		fallback = gocql.DCAwareRoundRobinPolicy(c.LocalDC)
	}
	cl.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(fallback)
	if c.ReadSpeculation > 0 {
		cl.PoolConfig.HostSelectionPolicy = replayPlan{cl.PoolConfig.HostSelectionPolicy}
	}
	if c.Username != "" {
		cl.Authenticator = gocql.PasswordAuthenticator{Username: c.Username, Password: c.Password}
	}
	if c.usesTLS() {
		// gocql verifies whenever a tls.Config is given without InsecureSkipVerify,
		// whatever EnableHostVerification says: CQL_TLS_INSECURE must set both.
		cl.SslOpts = &gocql.SslOptions{CaPath: c.TLSCAFile, CertPath: c.TLSCertFile, KeyPath: c.TLSKeyFile,
			EnableHostVerification: !c.TLSInsecure,
			Config:                 &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.TLSInsecure}} //nolint:gosec // opt-in
	}
	if len(c.Hosts) == 1 {
		// One contact point: e.g. a single local node, or a load balancer in front of a cluster.
		cl.DisableInitialHostLookup = false
	}
	return cl
}
