package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// simKeysFile writes the simulated network's milestone keys as the protocol section of
// a Hornet configuration, the form -milestone-keys reads.
func simKeysFile(t *testing.T) string {
	t.Helper()
	keys := sim.Network().Keys
	var ranges []string
	for _, kr := range keys.Ranges {
		ranges = append(ranges, fmt.Sprintf(`{"key":"0x%x","start":%d,"end":%d}`, kr.PublicKey, kr.Start, kr.End))
	}
	doc := fmt.Sprintf(`{"protocol":{"milestonePublicKeyCount":%d,"publicKeyRanges":[%s]}}`,
		keys.Threshold, strings.Join(ranges, ","))
	path := filepath.Join(t.TempDir(), "sim-keys.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// dbArgs are the connection flags of cfg's keyspace.
func dbArgs(cfg cql.Config) []string {
	return []string{"-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ",")}
}

// statusReport is the part of `indexer status`'s JSON the gap tests read.
type statusReport struct {
	Oldest, Newest        uint32
	Synced, Gaps          []store.Range
	Unavailable           []store.Range
	UnavailableMilestones int `json:"unavailable_milestones"`
}

// indexerStatus runs `indexer status` on cfg's keyspace and decodes what it prints.
// It swaps os.Stdout meanwhile: no other test of the package may print then.
func indexerStatus(t *testing.T, ctx context.Context, cfg cql.Config) statusReport {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "status")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	stdout := os.Stdout
	os.Stdout = out
	err = cmdStatus(ctx, dbArgs(cfg))
	os.Stdout = stdout
	if err != nil {
		t.Fatalf("indexer status: %v", err)
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	var r statusReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("indexer status printed %q: %v", b, err)
	}
	return r
}

// syncReport is GET /sync's answer, as far as the gap tests read it.
type syncReport struct {
	Oldest, Newest uint32
	Synced, Gaps   []store.Range
	Unavailable    []store.Range
}

// getSync asks an API server over st for GET /sync.
func getSync(t *testing.T, st *store.Store) syncReport {
	t.Helper()
	srv := httptest.NewServer(api.New(st, api.Config{RequestTimeout: 10 * time.Second}).Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/sync")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r syncReport
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /sync: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("GET /sync: %v", err)
	}
	return r
}

// await polls cond every 100 ms until it holds, failing t after limit or when the
// command running in the background (stopped) ends first.
func await(t *testing.T, what string, limit time.Duration, stopped <-chan error, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, limit)
		}
		select {
		case err := <-stopped:
			t.Fatalf("%s: indexer run stopped: %v", what, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// gauge reads an unlabelled gauge from the /metrics of the ops listener at addr; ok is
// false while the listener does not answer or exports no such gauge.
func gauge(addr, name string) (v float64, ok bool) {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(body), "\n") {
		if value, found := strings.CutPrefix(line, name+" "); found {
			v, err := strconv.ParseFloat(value, 64)
			return v, err == nil
		}
	}
	return 0, false
}
