package authtls_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/internal/logbuf"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// tip is the last sim milestone the indexer writes: the first to hold an NFT, so that
// every route has a real key to look up (route_samples_test.go).
const tip = 6

// TestAuthTLS runs the indexer and the API with their own roles over TLS against a node
// requiring both (and a client certificate), then checks that a wrong password, no
// login, an untrusted certificate, no client certificate and plaintext are refused at
// once with a clear error, and that no password ever shows.
func TestAuthTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own Cassandra node")
	}
	e := startSecureEnv(t)
	out := &transcript{}
	defer out.assertNoSecrets(t, e)
	ca := e.node.Secure.CAFile

	t.Run("migrate as the schema owner", func(t *testing.T) {
		e.mustRun(t, out, e.clientEnv(e.schema, e.schema.password, ca), e.indexerBin, "migrate", "-chunk-size", "50")
	})
	e.grantRuntimeRoles(t)
	t.Run("docs/security.md grants what the indexer writes", func(t *testing.T) { e.checkDocGrants(t) })
	t.Run("indexer role ingests", func(t *testing.T) {
		e.mustRun(t, out, e.clientEnv(e.indexer, e.indexer.password, ca), e.indexerBin, indexerRun()...)
		st, err := store.Open(context.Background(), e.config(e.reader, e.reader.password, ca), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		s, err := st.Status(context.Background())
		if err != nil || s.Oldest != 1 || s.Newest != tip || len(s.Gaps) != 0 {
			t.Fatalf("status %+v, %v: want milestones 1..%d without gaps", s, err, tip)
		}
	})
	t.Run("api serves with SELECT only", func(t *testing.T) { e.serveAPI(t, out, ca) })
	t.Run("api serves every route with SELECT only and a stale sync summary", func(t *testing.T) {
		e.serveEveryRoute(t, out, ca)
	})
	t.Run("api role cannot write", func(t *testing.T) {
		s, err := cql.Open(e.config(e.reader, e.reader.password, ca))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		err = s.Exec(context.Background(), cql.DeleteSync, 0, int32(1))
		out.add(fmt.Sprint(err))
		if !errors.Is(err, cql.ErrPermission) || cql.Classify(err) != cql.ClassAuth || cql.Retryable(err) {
			t.Fatalf("delete as %s: %v (class %q); want a permission refusal, not retried", e.reader.name, err, cql.Classify(err))
		}
	})
	t.Run("indexer role cannot change the schema", func(t *testing.T) {
		got := e.mustFail(t, out, e.clientEnv(e.indexer, e.indexer.password, ca), e.indexerBin, "migrate", "-chunk-size", "50")
		if !strings.Contains(got, "has no CREATE permission") {
			t.Fatalf("migrate as %s: want a CREATE permission refusal, got:\n%s", e.indexer.name, got)
		}
	})
	t.Run("indexer stops at once on a missing GRANT", func(t *testing.T) {
		partial := newRole(t, "stardust_partial")
		e.cql(t, fmt.Sprintf("CREATE ROLE %s WITH PASSWORD = '%s' AND LOGIN = true", partial.name, partial.password))
		e.cql(t, fmt.Sprintf("GRANT SELECT ON KEYSPACE %s TO %s", keyspace, partial.name))
		for _, table := range e.modifiedTables(t) {
			if table != "messages" { // every milestone writes messages
				e.cql(t, fmt.Sprintf("GRANT MODIFY ON TABLE %s.%s TO %s", keyspace, table, partial.name))
			}
		}
		args := append(indexerRun(), "-sim-backfill", fmt.Sprint(tip+2), "-stop-at", fmt.Sprint(tip+2))
		got := e.mustFail(t, out, e.clientEnv(partial, partial.password, ca), e.indexerBin, args...)
		if !strings.Contains(got, "has no MODIFY permission on <table "+keyspace+".messages>") ||
			strings.Contains(got, "ingest paused") {
			t.Fatalf("want a stop on the missing MODIFY on messages, without pausing to retry:\n%s", got)
		}
	})
	t.Run("refused at once", func(t *testing.T) { e.refusals(t, out) })
	t.Run("CQL_TLS_INSECURE connects without verifying the node", func(t *testing.T) {
		cfg := e.config(e.reader, e.reader.password, "")
		cfg.TLSInsecure, cfg.TLSCertFile, cfg.TLSKeyFile = true, e.node.Secure.ClientCert, e.node.Secure.ClientKey
		s, err := cql.Open(cfg)
		if err != nil {
			t.Fatalf("TLS without verification: %v", err)
		}
		s.Close()
	})
}

// indexerRun is `indexer run` over sim milestones 1..tip, exiting once they are written.
func indexerRun() []string {
	return []string{"run", "-source", "sim", "-sim-backfill", fmt.Sprint(tip), "-sim-every", "0",
		"-follow=false", "-stop-at", fmt.Sprint(tip), "-ops-addr", "", "-chunk-size", "50"}
}

// refusals: each misconfiguration, for each binary and for cql.Open.
func (e *secureEnv) refusals(t *testing.T, out *transcript) {
	wrong := newRole(t, "wrong").password
	ca, other := e.node.Secure.CAFile, e.node.Secure.OtherCAFile
	for _, tc := range []struct {
		name     string
		as       role
		password string
		ca       string
		noCert   bool
		says     string
		is       error
	}{
		{"wrong password", e.reader, wrong, ca, false, "Provided username stardust_api and/or password are incorrect", cql.ErrCredentials},
		{"no login", role{}, "", ca, false, "authentication required", cql.ErrCredentials},
		{"untrusted certificate", e.reader, e.reader.password, other, false, "certificate signed by unknown authority", cql.ErrTLS},
		{"no client certificate", e.reader, e.reader.password, ca, true, "tls: certificate required", cql.ErrTLS},
		{"plaintext on the TLS port", e.reader, e.reader.password, "", true, "requires TLS", cql.ErrTLSRequired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, env := e.config(tc.as, tc.password, tc.ca), e.clientEnv(tc.as, tc.password, tc.ca)
			if tc.noCert {
				cfg.TLSCertFile, cfg.TLSKeyFile = "", ""
				env = append(env, "CQL_TLS_CERT=", "CQL_TLS_KEY=")
			}
			_, err := cql.Open(cfg)
			out.add(fmt.Sprint(err), tc.password)
			if !errors.Is(err, tc.is) || cql.Classify(err) != cql.ClassAuth || cql.Retryable(err) {
				t.Errorf("cql.Open: %v (class %q); want %v, class auth, not retried", err, cql.Classify(err), tc.is)
			}
			for _, args := range [][]string{{e.apiBin, "-addr", "127.0.0.1:0"}, append([]string{e.indexerBin}, indexerRun()...)} {
				got := e.mustFail(t, out, env, args[0], args[1:]...)
				if !strings.Contains(got, tc.says) || retriedOn(got, tc.says) {
					t.Errorf("%s: want %q and no retry after it in its output:\n%s", args[0], tc.says, got)
				}
			}
		})
	}
}

// retriedOn reports whether a process's output shows a retry after the refusal says: a
// refusal must stop the process at once. A retry after something else (a connection
// startup that timed out on a busy machine, before the node answered with the refusal)
// is the retry loop doing its job.
func retriedOn(output, says string) bool {
	for _, line := range strings.Split(output, "\n") {
		if strings.Contains(line, "retrying") && strings.Contains(line, says) {
			return true
		}
	}
	return false
}

// processLimit ends a process that neither exits nor serves: longer than any refusal
// should take, shorter than the API's one-minute wait for a cluster that is down.
const processLimit = 45 * time.Second

// mustRun runs bin to completion and fails the test if it fails.
func (e *secureEnv) mustRun(t *testing.T, out *transcript, env []string, bin string, args ...string) string {
	t.Helper()
	got, err := runProcess(env, bin, args...)
	out.add(got)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, got)
	}
	return got
}

// mustFail runs bin and wants it to exit with an error by itself (before processLimit).
func (e *secureEnv) mustFail(t *testing.T, out *transcript, env []string, bin string, args ...string) string {
	t.Helper()
	start := time.Now()
	got, err := runProcess(env, bin, args...)
	out.add(got)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !exit.Exited() {
		t.Fatalf("%s %s: %v, want it to exit with an error by itself\n%s", bin, strings.Join(args, " "), err, got)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	t.Logf("%s %s refused in %s: %s", filepath.Base(bin), args[0], time.Since(start).Round(time.Millisecond),
		lines[len(lines)-1])
	return got
}

func runProcess(env []string, bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), processLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	got, err := cmd.CombinedOutput()
	return string(got), err
}

// serveAPI starts the API binary as the read-only role and asks it a few routes of
// each family.
func (e *secureEnv) serveAPI(t *testing.T, out *transcript, ca string) {
	base := e.startAPI(t, out, ca)
	for _, path := range []string{"/api/core/v2/info", fmt.Sprintf("/api/core/v2/milestones/by-index/%d", tip),
		"/api/indexer/v1/outputs/basic", fmt.Sprintf("/api/explorer/v2/milestones/by-index/%d/blocks", tip)} {
		code, body := get(t, base+path)
		out.add(body)
		if code != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, code, body)
		}
	}
}

// waitServing waits until the API accepts connections, or fails once it exited.
func waitServing(t *testing.T, base string, exited chan error, logs *logbuf.Buffer) {
	deadline := time.Now().Add(processLimit)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("api exited: %v\n%s", err, logs.String())
		default:
		}
		if resp, err := http.Get(base + "/api/routes"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("api did not serve within %s\n%s", processLimit, logs.String())
}

func get(t *testing.T, url string) (int, string) {
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// transcript gathers every process output and error text of the test, and the wrong
// passwords tried, to check that no password appears in any of them.
type transcript struct {
	mu     sync.Mutex
	texts  []string
	secret []string
}

// add records text; extra secrets (a wrong password tried) are looked for too.
func (tr *transcript) add(text string, secrets ...string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.texts = append(tr.texts, text)
	tr.secret = append(tr.secret, secrets...)
}

func (tr *transcript) assertNoSecrets(t *testing.T, e *secureEnv) {
	secrets := append([]string{e.schema.password, e.indexer.password, e.reader.password, e.node.Secure.StorePassword},
		tr.secret...)
	for _, text := range tr.texts {
		for _, s := range secrets {
			if s != "" && strings.Contains(text, s) {
				t.Errorf("a password appears in output:\n%s", text)
			}
		}
	}
	if len(tr.texts) < 10 {
		t.Errorf("only %d outputs checked for secrets", len(tr.texts))
	}
}
