package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// errorCase is a request and the error it must get: status and a word of the detail
// (the parameter at fault, for 400s).
type errorCase struct {
	method, path string
	status       int
	detail       string
}

func testErrors(t *testing.T, e *env) {
	addr := e.busiest(chain.OutputBasic, "address")
	unknown := "0x" + strings.Repeat("ab", 32)
	var other rest.Page[tables.OutputItemJSON]
	e.mustGet(t, "/outputs?page_size=1&sender="+addr, &other)
	cases := []errorCase{
		{"GET", "/messages/0x12", 400, "id"},
		{"GET", "/messages/" + strings.Repeat("a", 64), 400, "id"},
		{"GET", "/messages/" + unknown[:65] + "g", 400, "id"},
		{"GET", "/messages/" + unknown + "/children?from=nope", 400, "from"},
		{"GET", "/transactions/0x", 400, "id"},
		{"GET", "/outputs/" + unknown, 400, "outputId"},
		{"GET", "/aliases/0x1", 400, "aliasId"},
		{"GET", "/nft/zz", 400, "nftId"},
		{"GET", "/foundries/" + unknown, 400, "foundryId"},
		{"GET", "/milestones/abc", 400, "index"},
		{"GET", "/milestones/-1", 400, "index"},
		{"GET", "/milestones/4294967296", 400, "index"},
		{"GET", "/milestones?start=5&end=1", 400, "end"},
		{"GET", "/milestones?start=1&end=1001", 400, "end"},
		{"GET", "/milestones?start=1", 400, "end"},
		{"GET", "/tags/hello/messages", 400, "tag"},
		{"GET", "/tags/0x/messages", 400, "tag"},
		{"GET", "/tags/0x" + strings.Repeat("00", 65) + "/messages", 400, "tag"},
		{"GET", "/outputs", 400, "address, sender, tag"},
		{"GET", "/outputs?address=smr1qqq", 400, "address"},
		{"GET", "/outputs?address=" + addr + "&colour=red", 400, "colour"},
		{"GET", "/outputs?address=" + addr + "&address=" + addr, 400, "address"},
		{"GET", "/outputs?address=" + addr + "&page_size=0", 400, "page_size"},
		{"GET", "/outputs?address=" + addr + "&page_size=1001", 400, "page_size"},
		{"GET", "/outputs?address=" + addr + "&page_size=ten", 400, "page_size"},
		{"GET", "/outputs?address=" + addr + "&cursor=%21%21", 400, "cursor"},
		{"GET", "/outputs?address=" + addr + "&cursor=" + other.Cursor, 400, "cursor"},
		{"GET", "/outputs?address=" + addr + "&from=2022-10-02T00:00:00Z&to=2022-10-01T00:00:00Z", 400, "from"},
		{"GET", "/outputs?address=" + addr + "&requiresDustReturn=maybe", 400, "requiresDustReturn"},
		{"GET", "/outputs?address=" + addr + "&requiresDustReturn=true&hasStorageDepositReturn=false", 400, "hasStorageDepositReturn"},
		{"GET", "/aliases?address=" + addr, 400, "address"},
		{"GET", "/legacy-outputs", 400, "address"},
		{"GET", "/sync?verbose=1", 400, "verbose"},
		{"GET", "/outputs?address=" + addr + "&%zz", 400, "query"},
		{"GET", "/messages/" + unknown, 404, unknown},
		{"GET", "/messages/" + unknown + "/raw", 404, unknown},
		{"GET", "/transactions/" + unknown, 404, unknown},
		{"GET", "/transactions/" + unknown + "/included-message", 404, unknown},
		{"GET", "/milestones/999", 404, "999"},
		{"GET", "/outputs/" + unknown + "0000", 404, unknown},
		{"GET", "/aliases/" + unknown, 404, unknown},
		{"GET", "/no/such/route", 404, "no route"},
		{"POST", "/messages/" + unknown, 405, "read-only"},
		{"DELETE", "/sync", 405, "read-only"},
		{"PUT", "/outputs?address=" + addr, 405, "read-only"},
	}
	for _, c := range cases {
		checkError(t, e.srv.URL, c)
	}
	if other.Cursor == "" {
		t.Error("the sender list fit one page: the foreign-cursor case checked nothing")
	}
}

func checkError(t *testing.T, base string, c errorCase) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader("ignored body"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var got rest.APIError
	switch {
	case resp.StatusCode != c.status:
		t.Errorf("%s %s: status %d, want %d: %s", c.method, c.path, resp.StatusCode, c.status, body)
	case json.Unmarshal(body, &got) != nil || got.Title == "" || !strings.Contains(got.Detail, c.detail):
		t.Errorf("%s %s: body %s, want JSON error whose detail names %q", c.method, c.path, body, c.detail)
	case c.status == 405 && resp.Header.Get("Allow") != "GET, HEAD":
		t.Errorf("%s %s: Allow %q", c.method, c.path, resp.Header.Get("Allow"))
	}
	return resp
}

// TestDatabaseDown: with the database gone every route that reads answers 503 with
// Retry-After, both when the driver fails fast and when the request deadline ends the
// driver's retries.
func TestDatabaseDown(t *testing.T) {
	testcontainers.SkipShort(t)
	cfg := testcontainers.Config(t, "system")
	id := "0x" + strings.Repeat("ab", 32)
	for _, retries := range []int{0, 5} {
		cfg.Retries = retries
		srv := downServer(t, cfg, Config{RequestTimeout: 300 * time.Millisecond, Ops: true})
		for _, path := range []string{"/messages/" + id, "/outputs?address=" + chain.Address{}.Bech32(sim.HRP), "/sync",
			"/transactions/" + id, "/milestones?start=1&end=3", "/readyz", "/analytics/milestones?start=1&end=3",
			"/analytics/daily?from=2022-10-01&to=2022-10-02", "/analytics/addresses/" + chain.Address{}.Bech32(sim.HRP) + "?start=1&end=3"} {
			resp := checkError(t, srv.URL, errorCase{"GET", path, http.StatusServiceUnavailable, ""})
			if resp.Header.Get("Retry-After") == "" {
				t.Errorf("retries %d, GET %s: no Retry-After", retries, path)
			}
		}
		srv.Close()
	}
}

// TestClassify: how driver and store errors become answers.
func TestClassify(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	gone, leave := context.WithCancel(context.Background())
	leave()
	wrap := func(err error) error { return fmt.Errorf("messages.full_by_id: %w", err) }
	cases := []struct {
		ctx        context.Context
		err        error
		withCursor bool
		status     int
	}{
		{context.Background(), wrap(store.ErrNotFound), false, http.StatusNotFound},
		{context.Background(), rest.BadParam("id", "bad"), false, http.StatusBadRequest},
		{context.Background(), wrap(gocql.ErrNoConnections), false, http.StatusServiceUnavailable},
		{context.Background(), wrap(gocql.ErrTimeoutNoResponse), false, http.StatusServiceUnavailable},
		{context.Background(), wrap(&gocql.RequestErrUnavailable{}), false, http.StatusServiceUnavailable},
		{expired, wrap(context.DeadlineExceeded), false, http.StatusServiceUnavailable},
		{gone, wrap(context.Canceled), false, 499},
		{context.Background(), wrap(errors.New("boom")), false, http.StatusInternalServerError},
		{context.Background(), wrap(nodeRefusal(gocql.ErrCodeInvalid)), true, http.StatusBadRequest},
		{context.Background(), wrap(nodeRefusal(gocql.ErrCodeProtocol)), true, http.StatusBadRequest},
		{context.Background(), wrap(nodeRefusal(gocql.ErrCodeProtocol)), false, http.StatusInternalServerError},
		{context.Background(), wrap(nodeRefusal(gocql.ErrCodeOverloaded)), true, http.StatusServiceUnavailable},
	}
	for _, c := range cases {
		e := rest.Classify(c.ctx, c.err, c.withCursor)
		if e.Status != c.status || e.Status == http.StatusServiceUnavailable && e.RetryAfter == 0 {
			t.Errorf("%v: %d (retry after %d), want %d", c.err, e.Status, e.RetryAfter, c.status)
		}
	}
}

// nodeRefusal is an error frame from the node with this code (e.g. a protocol error
// for a paging state it cannot read).
type nodeRefusal int

func (c nodeRefusal) Code() int       { return int(c) }
func (c nodeRefusal) Message() string { return "Invalid value for the paging state" }
func (c nodeRefusal) Error() string   { return c.Message() }
