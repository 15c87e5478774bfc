package authtls_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

const keyspace = "stardust_secure"

// role is a login role and its password (random per run: the tests look for it in
// every output to prove it never leaks).
type role struct{ name, password string }

func newRole(t *testing.T, name string) role {
	b := make([]byte, 9)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return role{name: name, password: "pw-" + hex.EncodeToString(b)}
}

// secureEnv is one secure node, its roles and the built binaries.
type secureEnv struct {
	node                    *testcontainers.Node
	super                   *gocql.Session
	schema, indexer, reader role
	indexerBin, apiBin      string
}

func startSecureEnv(t *testing.T) *secureEnv {
	t.Helper()
	ctx := context.Background()
	bins := t.TempDir()
	build := exec.Command("go", "build", "-o", bins+string(filepath.Separator), "../cmd/indexer", "../cmd/api")
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	built := time.Now()
	n, err := testcontainers.StartSecureNode(ctx, t.TempDir(), heap(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("binaries built in %s, secure node (keystores, start) up in %s",
		built.Sub(start).Round(time.Millisecond), time.Since(built).Round(time.Millisecond))
	t.Cleanup(func() { _ = n.KillWait() }) // a throw-away node: no graceful shutdown needed
	super, err := n.SuperSession()
	if err != nil {
		t.Fatalf("superuser over TLS: %v", err)
	}
	t.Cleanup(super.Close)
	e := &secureEnv{node: n, super: super, schema: newRole(t, "stardust_schema"),
		indexer: newRole(t, "stardust_indexer"), reader: newRole(t, "stardust_api"),
		indexerBin: filepath.Join(bins, "indexer"), apiBin: filepath.Join(bins, "api")}
	for _, r := range []role{e.schema, e.indexer, e.reader} {
		e.cql(t, fmt.Sprintf("CREATE ROLE %s WITH PASSWORD = '%s' AND LOGIN = true", r.name, r.password))
	}
	// The schema owner creates the keyspace; its creator holds every permission on it.
	e.cql(t, "GRANT CREATE ON ALL KEYSPACES TO "+e.schema.name)
	return e
}

func heap() string {
	if h := os.Getenv("FAULTS_HEAP"); h != "" {
		return h
	}
	return "512M"
}

// grantRuntimeRoles gives, once the keyspace exists, the API role SELECT on it and the
// indexer role SELECT on it and MODIFY on exactly the tables the catalogue writes and
// their materialized views (Cassandra checks MODIFY on the views a write updates).
func (e *secureEnv) grantRuntimeRoles(t *testing.T) {
	e.cql(t, fmt.Sprintf("GRANT SELECT ON KEYSPACE %s TO %s", keyspace, e.reader.name))
	e.cql(t, fmt.Sprintf("GRANT SELECT ON KEYSPACE %s TO %s", keyspace, e.indexer.name))
	for _, table := range e.modifiedTables(t) {
		e.cql(t, fmt.Sprintf("GRANT MODIFY ON TABLE %s.%s TO %s", keyspace, table, e.indexer.name))
	}
}

// modifiedTables are writtenTables and the views of the keyspace built on them.
func (e *secureEnv) modifiedTables(t *testing.T) []string {
	out := writtenTables()
	written := map[string]bool{}
	for _, table := range out {
		written[table] = true
	}
	it := e.super.Query("SELECT view_name, base_table_name FROM system_schema.views WHERE keyspace_name = ?",
		keyspace).Iter()
	var view, base string
	for it.Scan(&view, &base) {
		if written[base] {
			out = append(out, view)
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// writtenTables are the tables of the catalogue's inserts, updates and deletes.
func writtenTables() []string {
	seen := map[string]bool{}
	for _, st := range cql.Catalogue() {
		if st.Kind != cql.Select {
			seen[st.Table] = true
		}
	}
	out := make([]string, 0, len(seen))
	for table := range seen {
		out = append(out, table)
	}
	sort.Strings(out)
	return out
}

func (e *secureEnv) cql(t *testing.T, stmt string) {
	t.Helper()
	if err := e.super.Query(stmt).Exec(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// clientEnv is the CQL_* environment of a process logging in as r over TLS, trusting
// caFile and showing the client certificate ("": no TLS at all).
func (e *secureEnv) clientEnv(r role, password, caFile string) []string {
	cfg := e.config(r, password, caFile)
	return append(os.Environ(), "CQL_HOSTS="+e.node.Addr(), "CQL_KEYSPACE="+keyspace,
		"CQL_USERNAME="+r.name, "CQL_PASSWORD="+password, "CQL_TLS_CA="+caFile, "CQL_TLS_INSECURE=",
		"CQL_TLS_CERT="+cfg.TLSCertFile, "CQL_TLS_KEY="+cfg.TLSKeyFile)
}

// config is the cql.Config of a client logging in as r with password over TLS,
// trusting caFile and showing the client certificate ("": no TLS at all).
func (e *secureEnv) config(r role, password, caFile string) cql.Config {
	cfg := cql.DefaultConfig()
	cfg.Hosts, cfg.Keyspace, cfg.Username, cfg.Password, cfg.TLSCAFile =
		[]string{e.node.Addr()}, keyspace, r.name, password, caFile
	if caFile != "" {
		cfg.TLSCertFile, cfg.TLSKeyFile = e.node.Secure.ClientCert, e.node.Secure.ClientKey
	}
	return cfg
}

// checkDocGrants: docs/security.md names, in its indexer GRANTs, exactly the tables and
// views the indexer writes.
func (e *secureEnv) checkDocGrants(t *testing.T) {
	doc, err := os.ReadFile("../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range docGrant.FindAllStringSubmatch(string(doc), -1) {
		documented = append(documented, m[1])
	}
	sort.Strings(documented)
	if want := e.modifiedTables(t); strings.Join(documented, " ") != strings.Join(want, " ") {
		t.Errorf("docs/security.md grants MODIFY on\n%v\nthe indexer writes\n%v", documented, want)
	}
}

var docGrant = regexp.MustCompile(`GRANT MODIFY ON TABLE stardust\.(\w+) TO indexer;`)
