package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/wallet"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// walletBenchClients is how many requests the many-request syncs keep in flight: a
// wallet SDK sends its batch reads all at once.
const walletBenchClients = 16

// BenchmarkWalletSync prints, on a ledger of 10 000 outputs owned by 1 000 addresses
// (bootstrapped from a made-up snapshot), in alternating rounds of one run (p50 of 5
// each), and the database rows each reads:
//   - one sync: POST /api/wallet/v1/outputs of the 1 000 addresses, pages of 1 000,
//     every output with its TIP-25 JSON and metadata;
//   - 1 000 TIP-26 queries, one an address (/outputs?unlockableByAddress=...): the same
//     output IDs, no output;
//   - those 1 000 queries and a GET /api/core/v2/outputs/{id} of each ID: the same
//     answers as the sync, as a wallet on the node interfaces gets them.
func BenchmarkWalletSync(b *testing.B) {
	testcontainers.SkipShort(b)
	const addresses, outputs = 1000, 10_000
	st, c := bootstrapMadeUp(b, snapshottest.Options{Seed: 41, Outputs: outputs, Milestones: 30, Addresses: addresses})
	e := &env{st: st, api: New(st, Config{RequestTimeout: time.Minute, Ops: true})}
	e.srv = httptest.NewServer(e.api.Handler())
	defer e.srv.Close()
	addrs := make([]string, addresses)
	for i := range addrs {
		a := c.Address(i)
		addrs[i] = a.Bech32(st.HRP())
	}
	ops := []struct {
		name string
		run  func() (int, error)
	}{
		{"one sync (1 request)", func() (int, error) { return syncAll(e, addrs) }},
		{"1000 TIP-26 queries", func() (int, error) { return tip26All(e, addrs, false) }},
		{"1000 TIP-26 + output GETs", func() (int, error) { return tip26All(e, addrs, true) }},
	}
	for _, op := range ops { // once each before the rounds: connections, prepared statements
		if _, err := op.run(); err != nil {
			b.Fatal(err)
		}
	}
	took := make([][]time.Duration, len(ops))
	rows, found := make([]int64, len(ops)), make([]int, len(ops))
	for range 5 {
		for i, op := range ops {
			before, t0 := rowsRead(b, e), time.Now()
			n, err := op.run()
			if err != nil {
				b.Fatal(err)
			}
			took[i], rows[i], found[i] = append(took[i], time.Since(t0)), rowsRead(b, e)-before, n
		}
	}
	fmt.Printf("BenchmarkWalletSync: %d addresses, %d outputs in the ledger, %d clients for the many-request "+
		"syncs:\n", addresses, outputs, walletBenchClients)
	for i, op := range ops {
		slices.Sort(took[i])
		fmt.Printf("  %-28s p50 %8s  rows read %7d  outputs %d  (%.1fx the sync's p50)\n", op.name,
			took[i][2].Round(time.Millisecond), rows[i], found[i], float64(took[i][2])/float64(took[0][2]))
	}
}

// syncAll walks one sync of addrs and returns the outputs it listed.
func syncAll(e *env, addrs []string) (int, error) {
	body := map[string]any{"addresses": addrs, "pageSize": wallet.MaxPageSize}
	seen := map[string]bool{}
	for {
		raw, _ := json.Marshal(body)
		resp, err := benchClient.Post(e.srv.URL+wallet.Prefix+"/outputs", "application/json", bytes.NewReader(raw))
		if err != nil {
			return 0, err
		}
		var ans wallet.OutputsJSON
		err = json.NewDecoder(resp.Body).Decode(&ans)
		resp.Body.Close()
		if err != nil {
			return 0, fmt.Errorf("sync: %w", err)
		} else if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("sync: status %d", resp.StatusCode)
		}
		for _, it := range ans.Items {
			seen[it.OutputID] = true
		}
		if ans.Cursor == "" {
			return len(seen), nil
		}
		body["cursor"] = ans.Cursor
	}
}

// tip26All asks TIP-26 for each address's outputs (and, withOutputs, the core route for
// each output), walletBenchClients requests at a time, and returns the outputs listed.
func tip26All(e *env, addrs []string, withOutputs bool) (int, error) {
	var (
		mu    sync.Mutex
		ids   []string
		first error
		wg    sync.WaitGroup
	)
	work := make(chan string)
	for range walletBenchClients {
		wg.Go(func() {
			for a := range work {
				got, err := tip26IDs(e, a)
				for _, id := range got {
					if err == nil && withOutputs {
						err = getOutput(e, id)
					}
				}
				mu.Lock()
				ids, first = append(ids, got...), cmpErr(first, err)
				mu.Unlock()
			}
		})
	}
	for _, a := range addrs {
		work <- a
	}
	close(work)
	wg.Wait()
	return len(ids), first
}

// getOutput asks the core route for an output; a 404 counts as served: the core route
// does not find a genesis output of a chain (alias, NFT) by its ID, which the snapshot
// of this benchmark has.
func getOutput(e *env, id string) error {
	resp, err := benchClient.Get(e.srv.URL + "/api/core/v2/outputs/" + id)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("GET output %s: %d", id, resp.StatusCode)
	}
	return nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func tip26IDs(e *env, addr string) ([]string, error) {
	var out []string
	next := fmt.Sprintf("%s/outputs?unlockableByAddress=%s&pageSize=1000", indexer.Tip26Prefix, addr)
	for {
		resp, err := benchClient.Get(e.srv.URL + next)
		if err != nil {
			return nil, err
		}
		var ans indexer.OutputsJSON
		err = json.NewDecoder(resp.Body).Decode(&ans)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", next, err)
		} else if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: status %d", next, resp.StatusCode)
		}
		out = append(out, ans.Items...)
		if ans.Cursor == "" {
			return out, nil
		}
		next = fmt.Sprintf("%s/outputs?unlockableByAddress=%s&cursor=%s", indexer.Tip26Prefix, addr, ans.Cursor)
	}
}
